"""The result contract validator: each rule broken alone, strict equality, and properties."""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.domain.contract import (
    Axis,
    CandidateChoice,
    DriverCategory,
    EvidenceRef,
    FailureClassification,
    FailureStage,
    Outcome,
    Standing,
    TemporalLabel,
    TimeContext,
    Versions,
)
from engine.domain.facts import FactKind
from engine.domain.limitations import DEGRADED_RETRIEVAL, MAX_LIMITATIONS
from engine.domain.models import SubjectKind
from engine.domain.validation import (
    ContractViolation,
    ViolationCode,
    require_valid,
    strict_equal,
    validate,
)
from tests.test_contract import SUBJECT, T0, T1, answered, canonical, claim, driver, result

V = ViolationCode
REL = EvidenceRef(ref="rel-1", kind="relationship")
AS_OF = TimeContext(axis=Axis.AS_OF, as_of=T1)
CANDIDATES = (
    CandidateChoice(
        subject_key=SUBJECT,
        name="payments-api",
        kind=SubjectKind.REPOSITORY,
        score=0.8,
        receipt="rcpt-1",
    ),
)


def codes(built: Any, facts: Any) -> list[ViolationCode]:
    return [v.code for v in validate(built, facts)]


def test_the_reference_result_is_valid() -> None:
    built, facts = answered()
    assert validate(built, facts) == []
    assert require_valid(built, facts) is built


# --- each rule broken alone --------------------------------------------------------------

NON_FACT = DriverCategory.OWNERSHIP_CHANGE


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"versions": Versions(contract="v0", projection="v1", embedder="e")},
            V.UNSUPPORTED_CONTRACT_VERSION,
        ),
        ({"drivers": (driver(), driver())}, V.DUPLICATE_DRIVER_ID),
        ({"drivers": (driver(evidence=()),)}, V.UNCLOSED_DRIVER),
        ({"drivers": (driver(evidence=(), path=("rel-1",)),)}, V.UNCLOSED_DRIVER),
        ({"drivers": (driver(path=("rel-1",)),)}, V.UNBACKED_RELATIONSHIP_PATH),
        (
            {"drivers": (driver(path=("rel-1", "rel-2"), evidence=(REL,)),)},
            V.UNBACKED_RELATIONSHIP_PATH,
        ),
        ({"drivers": (driver(claimed=()),)}, V.MISSING_CLAIMED_FACT),
        ({"drivers": (driver(claimed=("c1", "c9")),)}, V.DANGLING_CLAIMED_FACT),
        (
            {"drivers": (driver(), driver("d2", Standing.WITHHELD, claimed=("c9",)))},
            V.DANGLING_CLAIMED_FACT,
        ),
        ({"time_context": AS_OF}, V.MISSING_TEMPORAL_LABEL),
        ({"temporal_label": TemporalLabel(axis=Axis.AS_OF)}, V.TEMPORAL_LABEL_AXIS_MISMATCH),
        (
            {
                "time_context": AS_OF,
                "temporal_label": TemporalLabel(
                    axis=Axis.AS_OF, effective_to=T1 + timedelta(days=1)
                ),
            },
            V.TEMPORAL_LABEL_WIDENS,
        ),
        (
            {
                "time_context": TimeContext(axis=Axis.RANGE, start=T0, end=T1),
                "temporal_label": TemporalLabel(
                    axis=Axis.RANGE, effective_from=T0 - timedelta(days=1)
                ),
            },
            V.TEMPORAL_LABEL_WIDENS,
        ),
        (
            {"limitations": tuple(f"c{i}" for i in range(MAX_LIMITATIONS + 1))},
            V.TOO_MANY_LIMITATIONS,
        ),
        ({"direct_judgment": None}, V.MISSING_DIRECT_JUDGMENT),
        ({"direct_judgment": "   "}, V.MISSING_DIRECT_JUDGMENT),
        ({"failure_stage": FailureStage.PLAN}, V.FAILURE_ON_NON_FAILED),
        ({"failure_classification": FailureClassification.TIMEOUT}, V.FAILURE_ON_NON_FAILED),
    ],
)
def test_each_rule_broken_alone_is_reported_alone(
    change: dict[str, Any], expected: ViolationCode
) -> None:
    built, facts = answered()
    assert codes(built.model_copy(update=change), facts) == [expected]


def test_a_duplicate_claimed_fact_id_is_reported() -> None:
    built, facts = answered()
    twice = built.model_copy(update={"claimed_facts": built.claimed_facts * 2})
    assert codes(twice, facts) == [V.DUPLICATE_CLAIMED_FACT_ID]


def test_a_claimed_fact_with_no_canonical_fact_is_reported() -> None:
    built, _ = answered()
    assert codes(built, {}) == [V.UNKNOWN_CANONICAL_FACT]


def test_a_claimed_fact_for_another_subject_kind_or_window_is_reported() -> None:
    built, facts = answered()
    for update in (
        {"kind": FactKind.CYCLE_TIME},
        {"subject_key": "repository:other"},
        {"window_end": T1 + timedelta(hours=1)},
    ):
        moved = built.claimed_facts[0].model_copy(update=update)
        assert codes(built.model_copy(update={"claimed_facts": (moved,)}), facts) == [
            V.CLAIMED_FACT_MISMATCH
        ]


@pytest.mark.parametrize(
    "value",
    [
        {"merged": 3.0, "prior_merged": 9},  # 3 -> 3.0
        {"merged": 4, "prior_merged": 9},
        {"merged": 3, "prior_merged": 9, "extra": None},
        {"merged": 3},
    ],
)
def test_a_claimed_value_that_is_not_strictly_the_canonical_one_is_reported(
    value: dict[str, Any],
) -> None:
    built, facts = answered()
    fact = next(iter(facts.values()))
    perturbed = built.model_copy(update={"claimed_facts": (claim(fact, value=value),)})
    assert codes(perturbed, facts) == [V.CLAIMED_VALUE_MISMATCH]


def test_claimed_values_are_checked_even_when_no_shown_driver_cites_them() -> None:
    built, facts = answered()
    fact = next(iter(facts.values()))
    extra = claim(fact, id="c2", value={"merged": True, "prior_merged": 9})
    assert codes(
        built.model_copy(update={"claimed_facts": (*built.claimed_facts, extra)}), facts
    ) == [V.CLAIMED_VALUE_MISMATCH]


def test_withheld_and_non_fact_drivers_have_lighter_rules() -> None:
    built, facts = answered()
    withheld = driver("d2", Standing.WITHHELD, claimed=(), evidence=())
    ownership = driver(
        "d3", Standing.CONTRIBUTING, NON_FACT, claimed=(), evidence=(REL,), path=("rel-1",)
    )
    update = {"drivers": (*built.drivers, withheld, ownership)}
    assert codes(built.model_copy(update=update), facts) == []


def test_a_labelled_historical_result_is_valid_and_a_failed_one_needs_no_label() -> None:
    label = TemporalLabel(axis=Axis.AS_OF, effective_from=T0, effective_to=T1)
    built, facts = answered(time_context=AS_OF, temporal_label=label)
    assert codes(built, facts) == []
    failed = result(
        time_context=AS_OF,
        outcome=Outcome.FAILED,
        direct_judgment=None,
        current_state=None,
        failure_stage=FailureStage.READ_FACTS,
        failure_classification=FailureClassification.GRAPH_UNAVAILABLE,
    )
    assert codes(failed, {}) == []


def test_a_degraded_disclosure_at_the_cap_is_valid() -> None:
    full = (*(f"c{i}" for i in range(MAX_LIMITATIONS - 1)), DEGRADED_RETRIEVAL)
    built, facts = answered(limitations=full, limitations_displaced=3)
    assert codes(built, facts) == []


# --- outcome shapes ----------------------------------------------------------------------

CLARIFY = {
    "outcome": Outcome.CLARIFICATION_REQUIRED,
    "direct_judgment": None,
    "candidates": CANDIDATES,
    "clarification_prompt": "Which payments-api?",
}
NO_MATCH = {"outcome": Outcome.NO_MATCH, "direct_judgment": None}
FAILED = {
    "outcome": Outcome.FAILED,
    "direct_judgment": None,
    "current_state": None,
    "failure_stage": FailureStage.RESOLVE,
    "failure_classification": FailureClassification.GRAPH_UNAVAILABLE,
}


@pytest.mark.parametrize("shape", [CLARIFY, NO_MATCH, FAILED])
def test_non_answers_are_valid_without_findings(shape: dict[str, Any]) -> None:
    assert codes(result(**shape), {}) == []


@pytest.mark.parametrize(
    ("shape", "change", "expected"),
    [
        (CLARIFY, {"candidates": ()}, V.MISSING_CANDIDATES),
        (CLARIFY, {"clarification_prompt": None}, V.MISSING_CLARIFICATION_PROMPT),
        (CLARIFY, {"clarification_prompt": " "}, V.MISSING_CLARIFICATION_PROMPT),
        (CLARIFY, {"drivers": (driver(category=NON_FACT, claimed=()),)}, V.UNEXPECTED_FINDINGS),
        (NO_MATCH, {"drivers": (driver(category=NON_FACT, claimed=()),)}, V.UNEXPECTED_FINDINGS),
        (NO_MATCH, {"claimed_facts": (claim(canonical()),)}, V.UNEXPECTED_FINDINGS),
        (FAILED, {"drivers": (driver(category=NON_FACT, claimed=()),)}, V.UNEXPECTED_FINDINGS),
        (FAILED, {"failure_stage": None}, V.MISSING_FAILURE_DIAGNOSIS),
        (FAILED, {"failure_classification": None}, V.MISSING_FAILURE_DIAGNOSIS),
        (FAILED, {"direct_judgment": "fine"}, V.FAILED_RESULT_CARRIES_CONTENT),
        (FAILED, {"current_state": "x"}, V.FAILED_RESULT_CARRIES_CONTENT),
        (FAILED, {"candidates": CANDIDATES}, V.FAILED_RESULT_CARRIES_CONTENT),
    ],
)
def test_each_outcome_rule_broken_alone(
    shape: dict[str, Any], change: dict[str, Any], expected: ViolationCode
) -> None:
    assert codes(result(**{**shape, **change}), {canonical().id: canonical()}) == [expected]


def test_contract_violation_names_codes_only() -> None:
    built, _ = answered()
    with pytest.raises(ContractViolation) as raised:
        require_valid(built.model_copy(update={"direct_judgment": None}), {})
    message = str(raised.value)
    assert "missing_direct_judgment" in message and "unknown_canonical_fact" in message
    assert "payments" not in message and "c1" not in message
    assert {v.code for v in raised.value.violations} == {
        V.MISSING_DIRECT_JUDGMENT,
        V.UNKNOWN_CANONICAL_FACT,
    }


# --- strict equality ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (1, 1.0),
        (1, True),
        (0, False),
        (1.0, True),
        ({"a": 1}, {"a": 1.0}),
        ([1], [1.0]),
        ({1: "x"}, {1.0: "x"}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ({"a": None}, {}),
        ("1", 1),
        ({"a": {"b": [1, 2]}}, {"a": {"b": [1, 2.0]}}),
        ([1, 2], [2, 1]),
        (None, 0),
    ],
)
def test_strict_equality_tells_apart_what_python_equality_conflates(a: Any, b: Any) -> None:
    assert not strict_equal(a, b) and not strict_equal(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ({"a": [1, (2, 3)]}, {"a": (1, [2, 3])}),
        ({"x": {"y": None}}, {"x": {"y": None}}),
        (1.5, 1.5),
        ({}, {}),
    ],
)
def test_strict_equality_accepts_equal_json(a: Any, b: Any) -> None:
    assert strict_equal(a, b)


# --- properties --------------------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63) + 1, 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
VALUES = st.dictionaries(st.text(min_size=1, max_size=6), JSON, max_size=5)


def _retyped(leaf: Any) -> Any:
    """A value strictly unequal to `leaf`, often one Python's == would call equal."""
    if isinstance(leaf, bool):
        return int(leaf)
    if isinstance(leaf, int):
        return float(leaf) if abs(leaf) < 2**53 else str(leaf)
    if isinstance(leaf, float):
        return int(leaf) if leaf.is_integer() and abs(leaf) < 2**53 else str(leaf)
    if isinstance(leaf, str):
        return leaf + "!"
    if leaf is None:
        return False
    if isinstance(leaf, list):
        return [*leaf, None]
    return {**leaf, "\x01extra-key": None}


def _perturb(value: Any, path: list[int]) -> Any:
    """Walk `path` (child choices, modulo the children present) and retype where it ends."""
    children = (
        list(value.items())
        if isinstance(value, dict)
        else (list(enumerate(value)) if isinstance(value, list) else [])
    )
    if not path or not children:
        return _retyped(value)
    key, child = children[path[0] % len(children)]
    out = copy.copy(value)
    out[key] = _perturb(child, path[1:])
    return out


@st.composite
def closed_results(draw: st.DrawFn) -> tuple[Any, dict[str, Any]]:
    values = draw(st.lists(VALUES, min_size=1, max_size=4))
    facts = {f"f{i}": canonical(id=f"f{i}", value=v) for i, v in enumerate(values)}
    claims = tuple(
        claim(f, id=f"c{i}", value=copy.deepcopy(f.value)) for i, f in enumerate(facts.values())
    )
    drivers = []
    for i in range(draw(st.integers(1, 4))):
        cited = draw(st.lists(st.sampled_from([c.id for c in claims]), min_size=1, unique=True))
        standing = draw(st.sampled_from(list(Standing)))
        drivers.append(driver(f"d{i}", standing, claimed=tuple(cited), rank=i))
    return result(drivers=tuple(drivers), claimed_facts=claims), facts


@given(closed_results(), st.data())
def test_closed_results_validate_and_any_perturbed_claimed_value_is_refused(
    built_facts: tuple[Any, dict[str, Any]], data: st.DataObject
) -> None:
    built, facts = built_facts
    assert validate(built, facts) == []
    target = data.draw(st.integers(0, len(built.claimed_facts) - 1))
    path = data.draw(st.lists(st.integers(0, 10), max_size=4))
    victim = built.claimed_facts[target]
    changed = _perturb(victim.value, path)
    assert not strict_equal(changed, victim.value)
    claims = list(built.claimed_facts)
    claims[target] = victim.model_copy(update={"value": changed})
    perturbed = built.model_copy(update={"claimed_facts": tuple(claims)})
    assert codes(perturbed, facts) == [V.CLAIMED_VALUE_MISMATCH]


def test_a_listed_change_must_close_to_a_claimed_fact_listing_it() -> None:
    """Each change a "what changed" answer lists is one its claimed changes fact lists (the
    fact whose evidence reads back all of them), and no more are listed than counted."""
    from engine.domain.contract import Change

    fact = canonical(
        id="changes:1", kind=FactKind.CHANGES, value={"changes": 2, "latest": ["commit:a"]}
    )
    built = result(drivers=(driver(category=NON_FACT, claimed=("c1",)),),
                   claimed_facts=(claim(fact),))  # fmt: skip

    def change(ref: str, claimed: str = "c1") -> Change:
        return Change(ref=ref, title="t", at=T1, subject_key=SUBJECT, claimed_fact_id=claimed)

    listed = built.model_copy(update={"changes": (change("commit:a"),), "changes_total": 2})
    assert codes(listed, {fact.id: fact}) == []
    for wrong in (
        {"changes": (change("commit:b"),), "changes_total": 2},  # not listed by the fact
        {"changes": (change("commit:a", "c9"),), "changes_total": 2},  # no such claim
        {"changes": (change("commit:a"),), "changes_total": 0},  # more listed than counted
    ):
        assert codes(built.model_copy(update=wrong), {fact.id: fact}) == [V.UNBACKED_CHANGE]
