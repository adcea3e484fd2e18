"""The result contract's shapes, vocabularies and the limitation cap with displacement.

The builders at the top (`canonical`, `claim`, `driver`, `answered`, ...) are shared by
tests/test_validation.py and tests/test_answer.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.domain.contract import (
    CONTRACT_VERSION,
    Axis,
    ClaimedFact,
    CoverageReason,
    Driver,
    DriverCategory,
    EvidenceRef,
    InvestigationResult,
    Outcome,
    Standing,
    TemporalLabel,
    TimeContext,
    Versions,
    requires_claimed_fact,
)
from engine.domain.facts import Fact, FactKind, Grain
from engine.domain.limitations import (
    DEGRADED_RETRIEVAL,
    MAX_LIMITATIONS,
    add_limitation,
    disclose_degraded_retrieval,
    is_degraded_retrieval,
)

T0 = datetime(2024, 3, 1, tzinfo=UTC)
T1 = T0 + timedelta(days=7)
SUBJECT = "repository:payments-api"


def canonical(
    id: str = "delivery:throughput:1",
    value: dict[str, Any] | None = None,
    kind: FactKind = FactKind.THROUGHPUT,
) -> Fact:
    return Fact(
        id=id,
        kind=kind,
        subject_key=SUBJECT,
        value={"merged": 3, "prior_merged": 9} if value is None else value,
        window_start=T0,
        window_end=T1,
        grain=Grain.INSTANT,
        provider="delivery",
        evidence=("pull_request:1",),
    )


def claim(fact: Fact, id: str = "c1", value: dict[str, Any] | None = None) -> ClaimedFact:
    return ClaimedFact(
        id=id,
        fact_id=fact.id,
        kind=fact.kind,
        subject_key=fact.subject_key,
        value=dict(fact.value) if value is None else value,
        window_start=fact.window_start,
        window_end=fact.window_end,
    )


def driver(
    id: str = "d1",
    standing: Standing = Standing.PRIMARY,
    category: DriverCategory = DriverCategory.DELIVERY_SLOWDOWN,
    claimed: tuple[str, ...] = ("c1",),
    evidence: tuple[EvidenceRef, ...] = (EvidenceRef(ref="pull_request:1", kind="source_record"),),
    path: tuple[str, ...] = (),
    rank: int = 0,
    statement: str = "Merged pull requests fell from 9 to 3.",
) -> Driver:
    return Driver(
        id=id,
        standing=standing,
        category=category,
        statement=statement,
        subject_keys=(SUBJECT,),
        evidence=evidence,
        claimed_fact_ids=claimed,
        relationship_path=path,
        rank=rank,
    )


def result(**fields: Any) -> InvestigationResult:
    base: dict[str, Any] = {
        "id": "r1",
        "org_id": "org-1",
        "actor": "alice",
        "question": "why is payments-api behind?",
        "created_at": T1,
        "time_context": TimeContext(),
        "outcome": Outcome.ANSWERED,
        "direct_judgment": "payments-api is behind: merges slowed.",
        "current_state": "3 merged this week.",
        "versions": Versions(projection="v1", embedder="local:hash128"),
        "subject_keys": (SUBJECT,),
    }
    return InvestigationResult(**{**base, **fields})


def answered(**fields: Any) -> tuple[InvestigationResult, dict[str, Fact]]:
    """A valid answered result with one primary driver closing to one claimed fact."""
    fact = canonical()
    built = result(drivers=(driver(),), claimed_facts=(claim(fact),), **fields)
    return built, {fact.id: fact}


# --- vocabularies ---------------------------------------------------------------------


def test_enum_values_are_closed_lowercase_strings() -> None:
    assert [o.value for o in Outcome] == [
        "answered",
        "clarification_required",
        "no_match",
        "failed",
    ]
    assert {a.value for a in Axis} == {"current", "as_of", "range"}
    assert {s.value for s in Standing} == {"primary", "contributing", "withheld"}
    assert all(r.value == r.value.lower() for r in CoverageReason)


def test_fact_shaped_categories_require_a_claimed_fact() -> None:
    needing = {c for c in DriverCategory if requires_claimed_fact(c)}
    assert needing == {
        DriverCategory.DELIVERY_SLOWDOWN,
        DriverCategory.SCHEDULE_SLIP,
        DriverCategory.INCIDENT_LOAD,
        DriverCategory.RELIABILITY,
        DriverCategory.DEPLOY_INSTABILITY,
        DriverCategory.ACTIVITY_CHANGE,
    }


def test_models_are_frozen_and_refuse_extra_fields() -> None:
    built, _ = answered()
    with pytest.raises(ValidationError):
        built.outcome = Outcome.NO_MATCH  # type: ignore[misc]
    with pytest.raises(ValidationError):
        EvidenceRef(ref="x", kind="source_record", weight=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        EvidenceRef(ref="x", kind="rumour")  # evidence kinds are closed


def test_versions_default_to_this_contract() -> None:
    assert Versions(projection="v1", embedder="e").contract == CONTRACT_VERSION == "v1"


def test_a_result_round_trips_through_json_unchanged() -> None:
    built, _ = answered(
        time_context=TimeContext(axis=Axis.AS_OF, as_of=T1),
        temporal_label=TemporalLabel(axis=Axis.AS_OF, effective_to=T1, grain=Grain.DAY),
    )
    assert InvestigationResult.model_validate_json(built.model_dump_json()) == built


@pytest.mark.parametrize(
    "fields",
    [
        {"axis": Axis.CURRENT, "as_of": T0},
        {"axis": Axis.AS_OF},
        {"axis": Axis.AS_OF, "as_of": T0, "start": T0},
        {"axis": Axis.RANGE, "start": T0},
        {"axis": Axis.RANGE, "start": T1, "end": T0},
        {"axis": Axis.RANGE, "start": T0, "end": T1, "as_of": T1},
    ],
)
def test_time_context_refuses_inconsistent_shapes(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TimeContext(**fields)


def test_time_context_accepts_each_axis_and_a_point_range() -> None:
    assert TimeContext().axis is Axis.CURRENT
    assert TimeContext(axis=Axis.AS_OF, as_of=T0).as_of == T0
    assert TimeContext(axis=Axis.RANGE, start=T0, end=T0).end == T0


def test_temporal_label_refuses_a_reversed_window() -> None:
    with pytest.raises(ValidationError):
        TemporalLabel(axis=Axis.RANGE, effective_from=T1, effective_to=T0)


# --- limitations and displacement ------------------------------------------------------


def _full(n: int = MAX_LIMITATIONS) -> tuple[str, ...]:
    return tuple(f"caveat {i}" for i in range(n))


def test_limitations_append_below_the_cap_and_never_repeat() -> None:
    lims, displaced = add_limitation((), "a", 0)
    lims, displaced = add_limitation(lims, "a", displaced)
    assert (lims, displaced) == (("a",), 0)


def test_an_ordinary_limitation_at_the_cap_is_itself_displaced_and_counted() -> None:
    lims, displaced = add_limitation(_full(), "one too many", 2)
    assert lims == _full()
    assert displaced == 3


def test_the_disclosure_at_the_cap_displaces_the_last_other_limitation() -> None:
    lims, displaced = disclose_degraded_retrieval(_full(), 0)
    assert len(lims) == MAX_LIMITATIONS
    assert lims == (*_full()[:-1], DEGRADED_RETRIEVAL)
    assert displaced == 1


def test_the_disclosure_below_the_cap_displaces_nothing() -> None:
    lims, displaced = disclose_degraded_retrieval(_full(3), 0)
    assert lims == (*_full(3), DEGRADED_RETRIEVAL)
    assert displaced == 0


def test_the_disclosure_is_idempotent_and_never_itself_displaced() -> None:
    lims, displaced = disclose_degraded_retrieval(_full(), 0)
    again, displaced = disclose_degraded_retrieval(lims, displaced)
    assert again == lims and displaced == 1
    after, displaced = add_limitation(again, "late caveat", displaced)
    assert DEGRADED_RETRIEVAL in after and len(after) == MAX_LIMITATIONS
    assert displaced == 2


def test_an_over_cap_legacy_list_is_brought_back_to_the_cap_with_every_drop_counted() -> None:
    lims, displaced = disclose_degraded_retrieval(_full(MAX_LIMITATIONS + 3), 0)
    assert len(lims) == MAX_LIMITATIONS and lims[-1] == DEGRADED_RETRIEVAL
    assert displaced == 4


def test_the_disclosure_predicate_tolerates_surrounding_whitespace() -> None:
    assert is_degraded_retrieval(f"  {DEGRADED_RETRIEVAL}\n")
    assert not is_degraded_retrieval("caveat 0")


@given(
    st.lists(st.text(min_size=1, max_size=8), max_size=12, unique=True),
    st.integers(min_value=0, max_value=len(_full()) + 4),
)
def test_adding_limitations_keeps_the_cap_the_disclosure_and_the_count(
    texts: list[str], disclose_at: int
) -> None:
    lims: tuple[str, ...] = ()
    displaced = 0
    offered: set[str] = set()
    for i, text in enumerate(texts):
        if i == disclose_at:
            lims, displaced = disclose_degraded_retrieval(lims, displaced)
            offered.add(DEGRADED_RETRIEVAL)
        lims, displaced = add_limitation(lims, text, displaced)
        offered.add(text)
        assert len(lims) <= MAX_LIMITATIONS
    if disclose_at < len(texts):
        assert sum(is_degraded_retrieval(x) for x in lims) == 1
    # Nothing vanishes uncounted: every distinct limitation offered is kept or displaced.
    distinct = {DEGRADED_RETRIEVAL if is_degraded_retrieval(x) else x for x in offered}
    assert len(lims) + displaced == len(distinct)
