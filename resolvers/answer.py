"""The bounded view of an investigation result (`Query.answerProjection`): what a consumer
with a budget receives. It selects and drops (engine.domain.answer.project), never rewrites, and
reports how much it left out.
"""

from __future__ import annotations

from datetime import datetime

import strawberry

from engine.domain import answer, contract
from engine.domain.errors import BadUserInput
from resolvers.findings import ClaimedFact, Driver, claimed, driver
from resolvers.result import (
    Axis,
    Candidate,
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    TemporalLabel,
)


@strawberry.input(description="How much of an answer a bounded consumer may receive.")
class ProjectionBudgetInput:
    max_drivers: int = 5
    max_claimed_facts: int = 10
    max_limitations: int = 5


@strawberry.type
class ProjectionBudgetReport:
    drivers_omitted: int
    withheld_omitted: int
    claimed_facts_omitted: int
    limitations_omitted: int


@strawberry.type(
    name="TimeContext",
    description="What time the question is about: current, as of an instant, or a range.",
)
class TimeContextView:
    axis: Axis  # type: ignore[valid-type]
    as_of: datetime | None
    start: datetime | None
    end: datetime | None


@strawberry.type(
    description="The one bounded view of an answer: selects and drops, never rewrites."
)
class AnswerProjection:
    result_id: strawberry.ID
    question: str
    outcome: Outcome  # type: ignore[valid-type]
    direct_judgment: str | None
    current_state: str | None
    drivers: list[Driver]
    claimed_facts: list[ClaimedFact]
    limitations: list[str]
    temporal_label: TemporalLabel | None
    time_context: TimeContextView
    candidates: list[Candidate]
    clarification_prompt: str | None
    failure_stage: FailureStage | None  # type: ignore[valid-type]
    failure_classification: FailureClassification | None  # type: ignore[valid-type]
    budget: ProjectionBudgetReport
    truncated: bool


def projection(
    found: contract.InvestigationResult,
    result_id: strawberry.ID,
    budget: ProjectionBudgetInput | None,
) -> AnswerProjection:
    """`found` within `budget` (the defaults when none), or a BadUserInput naming the bounds."""
    limits = budget or ProjectionBudgetInput()
    try:
        cut = answer.ProjectionBudget(
            max_drivers=limits.max_drivers,
            max_claimed_facts=limits.max_claimed_facts,
            max_limitations=limits.max_limitations,
        )
    except ValueError:
        raise BadUserInput(
            "budget values must be between 0 (1 for limitations) and 100"
        ) from None
    view = answer.project(found, cut)
    claims = {c.id: claimed(c) for c in view.claimed_facts}
    shown = InvestigationResult.of(found)  # the candidates and label, shaped once
    when = view.time_context
    return AnswerProjection(
        result_id=result_id,
        question=view.question,
        outcome=view.outcome,
        direct_judgment=view.direct_judgment,
        current_state=view.current_state,
        drivers=[driver(d, claims) for d in view.drivers],
        claimed_facts=list(claims.values()),
        limitations=list(view.limitations),
        temporal_label=shown.temporal_label,
        time_context=TimeContextView(
            axis=when.axis, as_of=when.as_of, start=when.start, end=when.end
        ),
        candidates=shown.candidates,
        clarification_prompt=view.clarification_prompt,
        failure_stage=view.failure_stage,
        failure_classification=view.failure_classification,
        budget=ProjectionBudgetReport(**view.budget.model_dump()),
        truncated=view.truncated,
    )
