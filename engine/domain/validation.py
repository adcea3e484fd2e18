"""The result contract validator: every rule an investigation result must satisfy.

`validate` reports every breach as a `Violation` with a closed code; `require_valid` raises
`ContractViolation` when there is any. Neither ever carries text from an exception: details
are fixed phrases plus the engine's own identifiers.

Value equality of claimed facts is *strict*: a claimed value must reproduce the canonical
value with the same JSON kinds all the way down, so `1`, `1.0` and `True` are three different
values (Python's `==` calls them equal), and a missing or extra key is a difference. Lists and
tuples are both a JSON array (a persisted round trip turns one into the other).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from engine.domain.contract import (
    CONTRACT_VERSION,
    Axis,
    Driver,
    EvidenceKind,
    InvestigationResult,
    Outcome,
    Standing,
    requires_claimed_fact,
)
from engine.domain.facts import Fact
from engine.domain.limitations import MAX_LIMITATIONS


class ViolationCode(enum.StrEnum):
    UNSUPPORTED_CONTRACT_VERSION = "unsupported_contract_version"
    DUPLICATE_DRIVER_ID = "duplicate_driver_id"
    DUPLICATE_CLAIMED_FACT_ID = "duplicate_claimed_fact_id"
    UNCLOSED_DRIVER = "unclosed_driver"  # non-withheld, no evidence at all
    UNCLOSED_EVIDENCE = "unclosed_evidence"  # a ref behind no fact and not read from the graph
    UNBACKED_RELATIONSHIP_PATH = "unbacked_relationship_path"  # a hop without evidence
    MISSING_CLAIMED_FACT = "missing_claimed_fact"  # a fact-shaped category citing none
    DANGLING_CLAIMED_FACT = "dangling_claimed_fact"  # cites an id the result does not carry
    UNKNOWN_CANONICAL_FACT = "unknown_canonical_fact"  # no canonical fact with that fact_id
    CLAIMED_FACT_MISMATCH = "claimed_fact_mismatch"  # kind, subject or window differ
    CLAIMED_VALUE_MISMATCH = "claimed_value_mismatch"  # value not strictly deep-equal
    MISSING_TEMPORAL_LABEL = "missing_temporal_label"
    TEMPORAL_LABEL_AXIS_MISMATCH = "temporal_label_axis_mismatch"
    TEMPORAL_LABEL_WIDENS = "temporal_label_widens"  # effective time only ever narrows
    TOO_MANY_LIMITATIONS = "too_many_limitations"
    MISSING_DIRECT_JUDGMENT = "missing_direct_judgment"
    MISSING_CANDIDATES = "missing_candidates"
    MISSING_CLARIFICATION_PROMPT = "missing_clarification_prompt"
    UNEXPECTED_FINDINGS = "unexpected_findings"  # drivers/claimed facts on a non-answer
    MISSING_FAILURE_DIAGNOSIS = "missing_failure_diagnosis"
    FAILURE_ON_NON_FAILED = "failure_on_non_failed"
    FAILED_RESULT_CARRIES_CONTENT = "failed_result_carries_content"
    UNBACKED_CHANGE = "unbacked_change"  # a listed change its claimed fact does not list


class Violation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    code: ViolationCode
    driver_id: str | None = None
    detail: str


class ContractViolation(Exception):
    """An investigation result the contract refuses. The message names codes only."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = tuple(violations)
        codes = ", ".join(sorted({v.code.value for v in violations}))
        super().__init__(f"investigation result violates contract {CONTRACT_VERSION}: {codes}")


# --- strict deep equality ---------------------------------------------------------------


def _json_kind(value: Any) -> object:
    if value is None:
        return "null"
    if isinstance(value, bool):  # before int: bool is an int subclass
        return "bool"
    for kind, types in _KINDS:
        if isinstance(value, types):
            return kind
    return type(value)


_KINDS: tuple[tuple[str, type | tuple[type, ...]], ...] = (
    ("int", int),
    ("float", float),
    ("str", str),
    ("array", (list, tuple)),
    ("object", Mapping),
)


def strict_equal(a: Any, b: Any) -> bool:
    """Deep equality that also requires equal JSON kinds at every level (see module doc)."""
    kind = _json_kind(a)
    if kind != _json_kind(b):
        return False
    if kind == "object":
        if len(a) != len(b):
            return False
        b_keys = {(_json_kind(k), k) for k in b}
        return all((_json_kind(k), k) in b_keys and strict_equal(v, b[k]) for k, v in a.items())
    if kind == "array":
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# --- the rules --------------------------------------------------------------------------


class _Breach(Protocol):
    def __call__(self, code: ViolationCode, detail: str, driver_id: str | None = None) -> None: ...


def validate(
    result: InvestigationResult, facts: Mapping[str, Fact], read: Collection[str] | None = None
) -> list[Violation]:
    """Every contract breach of `result`; `facts` are the canonical facts by id. `read`: the
    episode keys, relationship ids and subject keys the run read from the graph; when given,
    every evidence ref of every driver must close, to a record behind one of `facts` or to
    something read (a driver cannot cite what nothing read)."""
    out: list[Violation] = []

    def breach(code: ViolationCode, detail: str, driver_id: str | None = None) -> None:
        out.append(Violation(code=code, driver_id=driver_id, detail=detail))

    if result.versions.contract != CONTRACT_VERSION:
        breach(ViolationCode.UNSUPPORTED_CONTRACT_VERSION, "the result names another contract")
    for code, ids in (
        (ViolationCode.DUPLICATE_DRIVER_ID, [d.id for d in result.drivers]),
        (ViolationCode.DUPLICATE_CLAIMED_FACT_ID, [c.id for c in result.claimed_facts]),
    ):
        for dup in sorted(i for i, n in Counter(ids).items() if n > 1):
            breach(code, f"id {dup!r} appears more than once")
    claimed = {c.id for c in result.claimed_facts}
    for driver in result.drivers:
        _driver_rules(driver, claimed, breach)
    if read is not None:
        _closure_rules(result, facts, read, breach)
    _claimed_fact_rules(result, facts, breach)
    _change_rules(result, breach)
    _temporal_rules(result, breach)
    if len(result.limitations) > MAX_LIMITATIONS:
        breach(ViolationCode.TOO_MANY_LIMITATIONS, f"more than {MAX_LIMITATIONS} limitations")
    _outcome_rules(result, breach)
    return out


def _driver_rules(driver: Driver, claimed: set[str], breach: _Breach) -> None:
    for cited in driver.claimed_fact_ids:
        if cited not in claimed:
            breach(
                ViolationCode.DANGLING_CLAIMED_FACT,
                f"cites claimed fact {cited!r}, which the result does not carry",
                driver.id,
            )
    if driver.standing is Standing.WITHHELD:
        return
    if not driver.evidence:
        breach(ViolationCode.UNCLOSED_DRIVER, "a shown driver cites no evidence", driver.id)
    elif driver.relationship_path:
        backed = {e.ref for e in driver.evidence if e.kind is EvidenceKind.RELATIONSHIP}
        if any(hop not in backed for hop in driver.relationship_path):
            breach(
                ViolationCode.UNBACKED_RELATIONSHIP_PATH,
                "a relationship on the path has no relationship evidence",
                driver.id,
            )
    if requires_claimed_fact(driver.category) and not driver.claimed_fact_ids:
        breach(
            ViolationCode.MISSING_CLAIMED_FACT,
            f"category {driver.category.value} must cite a claimed fact",
            driver.id,
        )


def _closure_rules(
    result: InvestigationResult, facts: Mapping[str, Fact], read: Collection[str], breach: _Breach
) -> None:
    behind = {e for f in facts.values() for e in f.evidence}
    for driver in result.drivers:
        for ref in driver.evidence:
            if ref.ref not in behind and ref.ref not in read:
                breach(
                    ViolationCode.UNCLOSED_EVIDENCE,
                    f"cites {ref.kind.value} {ref.ref!r}, behind no fact and never read",
                    driver.id,
                )


def _claimed_fact_rules(
    result: InvestigationResult, facts: Mapping[str, Fact], breach: _Breach
) -> None:
    for c in result.claimed_facts:
        canonical = facts.get(c.fact_id)
        if canonical is None:
            breach(ViolationCode.UNKNOWN_CANONICAL_FACT, f"claimed fact {c.id!r}: no such fact")
            continue
        same = (c.kind, c.subject_key, c.window_start, c.window_end) == (
            canonical.kind,
            canonical.subject_key,
            canonical.window_start,
            canonical.window_end,
        )
        if not same:
            breach(
                ViolationCode.CLAIMED_FACT_MISMATCH,
                f"claimed fact {c.id!r}: kind, subject or window differ from the fact",
            )
        if not strict_equal(c.value, canonical.value):
            breach(
                ViolationCode.CLAIMED_VALUE_MISMATCH,
                f"claimed fact {c.id!r}: value differs from the canonical value",
            )


def _change_rules(result: InvestigationResult, breach: _Breach) -> None:
    """A listed change closes to its source record through a claimed fact listing it."""
    listed = {c.id: c.value.get("latest") or [] for c in result.claimed_facts}
    for change in result.changes:
        if change.ref not in listed.get(change.claimed_fact_id, []):
            breach(
                ViolationCode.UNBACKED_CHANGE,
                f"change {change.ref!r} is not listed by claimed fact {change.claimed_fact_id!r}",
            )
    if len(result.changes) > result.changes_total:
        breach(ViolationCode.UNBACKED_CHANGE, "more changes listed than counted")


def _temporal_rules(result: InvestigationResult, breach: _Breach) -> None:
    context, label = result.time_context, result.temporal_label
    if label is None:
        if context.axis is not Axis.CURRENT and result.outcome is not Outcome.FAILED:
            breach(ViolationCode.MISSING_TEMPORAL_LABEL, "a historical result must be labelled")
        return
    if label.axis is not context.axis:
        breach(ViolationCode.TEMPORAL_LABEL_AXIS_MISMATCH, "label and time context disagree")
    upper = context.as_of if context.axis is Axis.AS_OF else context.end
    widens = upper is not None and label.effective_to is not None and label.effective_to > upper
    if context.start is not None and label.effective_from is not None:
        widens = widens or label.effective_from < context.start
    if widens:
        breach(ViolationCode.TEMPORAL_LABEL_WIDENS, "the label covers time not asked about")


def _outcome_rules(result: InvestigationResult, breach: _Breach) -> None:
    outcome = result.outcome
    if outcome is Outcome.ANSWERED and not (result.direct_judgment or "").strip():
        breach(ViolationCode.MISSING_DIRECT_JUDGMENT, "an answer needs a direct judgment")
    if outcome is Outcome.CLARIFICATION_REQUIRED:
        if not result.candidates:
            breach(ViolationCode.MISSING_CANDIDATES, "a clarification needs candidates")
        if not (result.clarification_prompt or "").strip():
            breach(ViolationCode.MISSING_CLARIFICATION_PROMPT, "a clarification needs a prompt")
    if outcome is not Outcome.ANSWERED and (
        result.drivers or result.claimed_facts or result.changes
    ):
        breach(ViolationCode.UNEXPECTED_FINDINGS, f"a {outcome.value} result carries findings")
    diagnosis = (result.failure_stage, result.failure_classification)
    if outcome is Outcome.FAILED:
        if None in diagnosis:
            breach(ViolationCode.MISSING_FAILURE_DIAGNOSIS, "a failure needs stage and class")
        content = (result.direct_judgment, result.current_state, result.clarification_prompt)
        if any(x is not None for x in content) or result.candidates:
            breach(ViolationCode.FAILED_RESULT_CARRIES_CONTENT, "a failure carries no answer")
    elif diagnosis != (None, None):
        breach(ViolationCode.FAILURE_ON_NON_FAILED, f"a {outcome.value} result has no failure")


def require_valid(
    result: InvestigationResult, facts: Mapping[str, Fact], read: Collection[str] | None = None
) -> InvestigationResult:
    """`result` unchanged when it satisfies the contract; ContractViolation otherwise."""
    violations = validate(result, facts, read)
    if violations:
        raise ContractViolation(violations)
    return result
