"""The answer projection (v1): the one bounded view of an investigation result consumers get.

It selects and drops; it never rewrites, re-ranks, re-judges or re-words. `direct_judgment`,
`current_state`, every retained driver (whole: standing, category, statement, references) and
every retained claimed fact are copied verbatim; the temporal label and time context are
carried whole and never budgeted away.

Selection rules:

* Drivers: primary before contributing, the engine's rank order kept within a standing
  (position in the result breaks ties). Withheld drivers never appear; they are counted in
  `withheld_omitted`.
* A retained driver never cites a claimed fact the projection dropped. A driver whose cited
  claimed facts do not fit the remaining claimed-fact budget (or cites one the result does not
  carry) is dropped instead and counted in `drivers_omitted`; later drivers that fit are still
  considered, in order.
* Claimed facts: those the retained drivers cite (in order of first citation), then the
  others in result order, up to the budget.
* Limitations: a prefix within the budget, except that the degraded-retrieval disclosure is
  always retained -- if the prefix would cut it, the last other kept limitation gives way.
  `limitations_omitted` adds the result's own `limitations_displaced`.

`truncated` is true iff something was cut from the view: drivers_omitted, claimed_facts_omitted
or limitations_omitted is above zero. `withheld_omitted` alone does not set it: withholding is
the engine's verdict on a driver, not a cut of this view, and no budget would ever show it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.domain.contract import (
    CandidateChoice,
    ClaimedFact,
    Driver,
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    Standing,
    TemporalLabel,
    TimeContext,
)
from engine.domain.limitations import is_degraded_retrieval

PROJECTION_VERSION = "v1"
_STANDING_ORDER = {Standing.PRIMARY: 0, Standing.CONTRIBUTING: 1}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ProjectionBudget(_Model):
    max_drivers: int = Field(default=5, ge=0, le=100)
    max_claimed_facts: int = Field(default=10, ge=0, le=100)
    # At least one: the degraded-retrieval disclosure is always retained.
    max_limitations: int = Field(default=5, ge=1, le=100)


class BudgetReport(_Model):
    drivers_omitted: int = Field(ge=0)
    withheld_omitted: int = Field(ge=0)
    claimed_facts_omitted: int = Field(ge=0)
    limitations_omitted: int = Field(ge=0)


class AnswerProjection(_Model):
    version: str = PROJECTION_VERSION
    result_id: str
    question: str
    outcome: Outcome
    direct_judgment: str | None
    current_state: str | None
    drivers: tuple[Driver, ...]
    claimed_facts: tuple[ClaimedFact, ...]
    limitations: tuple[str, ...]
    temporal_label: TemporalLabel | None
    time_context: TimeContext
    candidates: tuple[CandidateChoice, ...]
    clarification_prompt: str | None
    failure_stage: FailureStage | None
    failure_classification: FailureClassification | None
    budget: BudgetReport
    truncated: bool


def project(
    result: InvestigationResult, budget: ProjectionBudget | None = None
) -> AnswerProjection:
    budget = budget or ProjectionBudget()
    drivers, facts, drivers_omitted = _select(result, budget)
    limitations = _limitations(result.limitations, budget.max_limitations)
    cut = len(result.limitations) - len(limitations)
    report = BudgetReport(
        drivers_omitted=drivers_omitted,
        withheld_omitted=sum(d.standing is Standing.WITHHELD for d in result.drivers),
        claimed_facts_omitted=len(result.claimed_facts) - len(facts),
        limitations_omitted=cut + result.limitations_displaced,
    )
    return AnswerProjection(
        result_id=result.id,
        question=result.question,
        outcome=result.outcome,
        direct_judgment=result.direct_judgment,
        current_state=result.current_state,
        drivers=drivers,
        claimed_facts=facts,
        limitations=limitations,
        temporal_label=result.temporal_label,
        time_context=result.time_context,
        candidates=result.candidates,
        clarification_prompt=result.clarification_prompt,
        failure_stage=result.failure_stage,
        failure_classification=result.failure_classification,
        budget=report,
        truncated=(drivers_omitted + report.claimed_facts_omitted + report.limitations_omitted > 0),
    )


def _select(
    result: InvestigationResult, budget: ProjectionBudget
) -> tuple[tuple[Driver, ...], tuple[ClaimedFact, ...], int]:
    by_id: dict[str, ClaimedFact] = {}
    for fact in result.claimed_facts:
        by_id.setdefault(fact.id, fact)
    shown = [d for d in result.drivers if d.standing is not Standing.WITHHELD]
    ordered = sorted(shown, key=lambda d: (_STANDING_ORDER[d.standing], d.rank))  # stable
    kept: list[Driver] = []
    cited: dict[str, ClaimedFact] = {}  # insertion-ordered: order of first citation
    for driver in ordered:
        needed = dict.fromkeys(i for i in driver.claimed_fact_ids if i not in cited)
        fits = (
            len(kept) < budget.max_drivers
            and all(i in by_id for i in needed)
            and len(cited) + len(needed) <= budget.max_claimed_facts
        )
        if fits:
            kept.append(driver)
            cited.update((i, by_id[i]) for i in needed)
    facts = list(cited.values())
    for fact_id, fact in by_id.items():
        if len(facts) >= budget.max_claimed_facts:
            break
        if fact_id not in cited:
            facts.append(fact)
    return tuple(kept), tuple(facts), len(ordered) - len(kept)


def _limitations(limitations: tuple[str, ...], cap: int) -> tuple[str, ...]:
    kept = limitations[:cap]
    if len(limitations) <= cap or any(is_degraded_retrieval(x) for x in kept):
        return kept
    disclosure = next((x for x in limitations if is_degraded_retrieval(x)), None)
    if disclosure is None:
        return kept
    return (*kept[: cap - 1], disclosure)
