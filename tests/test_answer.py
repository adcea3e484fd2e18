"""The answer projection: selects and drops, never rewrites; every drop declared."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.domain.answer import PROJECTION_VERSION, AnswerProjection, ProjectionBudget, project
from engine.domain.contract import (
    Axis,
    ClaimedFact,
    Driver,
    DriverCategory,
    InvestigationResult,
    Standing,
    TemporalLabel,
    TimeContext,
)
from engine.domain.facts import Grain
from engine.domain.limitations import DEGRADED_RETRIEVAL, MAX_LIMITATIONS
from tests.test_contract import T0, T1, answered, canonical, claim, driver, result

P, C, W = Standing.PRIMARY, Standing.CONTRIBUTING, Standing.WITHHELD
LABEL = TemporalLabel(axis=Axis.AS_OF, effective_from=T0, effective_to=T1, grain=Grain.DAY)


def claims(n: int) -> tuple[ClaimedFact, ...]:
    return tuple(claim(canonical(id=f"f{i}"), id=f"c{i}") for i in range(n))


def ids(items: tuple[Driver, ...] | tuple[ClaimedFact, ...]) -> list[str]:
    return [x.id for x in items]


def test_the_default_budget_and_version() -> None:
    assert ProjectionBudget() == ProjectionBudget(
        max_drivers=5, max_claimed_facts=10, max_limitations=5
    )
    built, _ = answered()
    view = project(built)
    assert view.version == PROJECTION_VERSION == "v1"
    assert not view.truncated and view.drivers == built.drivers
    assert view.claimed_facts == built.claimed_facts


def test_budgets_are_bounded_and_keep_room_for_the_disclosure() -> None:
    for bad in ({"max_drivers": -1}, {"max_claimed_facts": 101}, {"max_limitations": 0}):
        with pytest.raises(ValidationError):
            ProjectionBudget(**bad)


def test_drivers_order_by_standing_then_rank_and_withheld_never_appear() -> None:
    drivers = (
        driver("c-late", C, rank=5),
        driver("p-2", P, rank=2),
        driver("w", W, rank=0),
        driver("c-early", C, rank=1),
        driver("p-1", P, rank=1),
        driver("p-1b", P, rank=1),  # a rank tie keeps result order
    )
    view = project(result(drivers=drivers, claimed_facts=claims(2)))
    assert ids(view.drivers) == ["p-1", "p-1b", "p-2", "c-early", "c-late"]
    assert view.budget.withheld_omitted == 1
    assert view.budget.drivers_omitted == 0


def test_withheld_alone_is_counted_but_does_not_mark_the_view_truncated() -> None:
    built = result(drivers=(driver("p"), driver("w", W)), claimed_facts=claims(2))
    view = project(built)
    assert view.budget.withheld_omitted == 1
    assert not view.truncated


def test_a_driver_budget_cut_is_declared() -> None:
    drivers = tuple(driver(f"d{i}", P, rank=i) for i in range(4))
    view = project(
        result(drivers=drivers, claimed_facts=claims(2)), ProjectionBudget(max_drivers=2)
    )
    assert ids(view.drivers) == ["d0", "d1"]
    assert view.budget.drivers_omitted == 2 and view.truncated


def test_a_driver_whose_facts_do_not_fit_is_dropped_never_left_dangling() -> None:
    drivers = (
        driver("big", P, claimed=("c0", "c1", "c2"), rank=0),
        driver("small", P, claimed=("c3",), rank=1),
        driver("ghost", C, claimed=("c9",), rank=0),  # cites nothing the result carries
    )
    built = result(drivers=drivers, claimed_facts=claims(4))
    view = project(built, ProjectionBudget(max_claimed_facts=2))
    assert ids(view.drivers) == ["small"]
    assert ids(view.claimed_facts) == ["c3", "c0"]  # cited first, then the others in order
    assert view.budget.drivers_omitted == 2
    assert view.budget.claimed_facts_omitted == 2
    assert view.truncated


def test_shared_citations_are_counted_once() -> None:
    drivers = (driver("a", P, claimed=("c0", "c1")), driver("b", P, claimed=("c1", "c0"), rank=1))
    view = project(
        result(drivers=drivers, claimed_facts=claims(3)), ProjectionBudget(max_claimed_facts=2)
    )
    assert ids(view.drivers) == ["a", "b"]
    assert ids(view.claimed_facts) == ["c0", "c1"]
    assert view.budget.claimed_facts_omitted == 1


def test_zero_budgets_still_carry_the_judgment_and_the_temporal_label() -> None:
    built, _ = answered(
        time_context=TimeContext(axis=Axis.AS_OF, as_of=T1),
        temporal_label=LABEL,
        limitations=("one", "two"),
    )
    view = project(built, ProjectionBudget(max_drivers=0, max_claimed_facts=0, max_limitations=1))
    assert view.drivers == () and view.claimed_facts == ()
    assert view.temporal_label == LABEL and view.time_context == built.time_context
    assert view.direct_judgment == built.direct_judgment
    assert view.current_state == built.current_state
    assert view.limitations == ("one",)
    assert (view.budget.drivers_omitted, view.budget.claimed_facts_omitted) == (1, 1)
    assert view.budget.limitations_omitted == 1 and view.truncated


def test_the_disclosure_survives_a_limitation_cut() -> None:
    limitations = (*(f"caveat {i}" for i in range(MAX_LIMITATIONS - 1)), DEGRADED_RETRIEVAL)
    built, _ = answered(limitations=limitations)
    view = project(built, ProjectionBudget(max_limitations=3))
    assert view.limitations == ("caveat 0", "caveat 1", DEGRADED_RETRIEVAL)
    assert view.budget.limitations_omitted == MAX_LIMITATIONS - 3


def test_a_disclosure_inside_the_prefix_keeps_the_plain_prefix() -> None:
    built, _ = answered(limitations=("a", DEGRADED_RETRIEVAL, "b", "c"))
    assert project(built, ProjectionBudget(max_limitations=2)).limitations == (
        "a",
        DEGRADED_RETRIEVAL,
    )


def test_engine_displacements_add_into_the_omitted_count() -> None:
    built, _ = answered(limitations=("a", DEGRADED_RETRIEVAL), limitations_displaced=2)
    view = project(built)
    assert view.limitations == built.limitations
    assert view.budget.limitations_omitted == 2 and view.truncated


def test_clarification_and_failure_details_are_carried() -> None:
    from tests.test_validation import CLARIFY, FAILED

    clarify = project(result(**CLARIFY))
    assert clarify.candidates == CLARIFY["candidates"]
    assert clarify.clarification_prompt == CLARIFY["clarification_prompt"]
    failed = project(result(**FAILED))
    assert (failed.failure_stage, failed.failure_classification) == (
        FAILED["failure_stage"],
        FAILED["failure_classification"],
    )


def test_the_projection_is_immutable_and_serialises() -> None:
    built, _ = answered()
    view = project(built)
    with pytest.raises(ValidationError):
        view.truncated = True  # type: ignore[misc]
    assert AnswerProjection.model_validate_json(view.model_dump_json()) == view


# --- properties --------------------------------------------------------------------------

TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30)
LABELS = st.none() | st.builds(
    TemporalLabel,
    axis=st.sampled_from(list(Axis)),
    grain=st.none() | st.sampled_from(list(Grain)),
    note=st.none() | TEXT,
)


@st.composite
def results(draw: st.DrawFn) -> InvestigationResult:
    facts = claims(draw(st.integers(0, 8)))
    fact_ids = [c.id for c in facts] + ["missing"]
    drivers = tuple(
        driver(
            f"d{i}",
            draw(st.sampled_from(list(Standing))),
            draw(st.sampled_from(list(DriverCategory))),
            claimed=tuple(draw(st.lists(st.sampled_from(fact_ids), max_size=4))),
            rank=draw(st.integers(0, 5)),
            statement=draw(TEXT),
        )
        for i in range(draw(st.integers(0, 9)))
    )
    others = draw(st.lists(TEXT.filter(lambda t: t != DEGRADED_RETRIEVAL), max_size=8, unique=True))
    limitations = list(others)
    if draw(st.booleans()):
        limitations.insert(draw(st.integers(0, len(limitations))), DEGRADED_RETRIEVAL)
    return result(
        drivers=drivers,
        claimed_facts=facts,
        limitations=tuple(limitations),
        limitations_displaced=draw(st.integers(0, 3)),
        direct_judgment=draw(st.none() | TEXT),
        current_state=draw(st.none() | TEXT),
        temporal_label=draw(LABELS),
    )


BUDGETS = st.builds(
    ProjectionBudget,
    max_drivers=st.integers(0, 10),
    max_claimed_facts=st.integers(0, 10),
    max_limitations=st.integers(1, 10),
)


def _order_key(d: Driver) -> tuple[int, int]:
    return (0 if d.standing is P else 1, d.rank)


@given(results(), BUDGETS)
def test_the_projection_keeps_every_promise(built: InvestigationResult, budget: Any) -> None:
    view = project(built, budget)
    report = view.budget
    kept_facts = {c.id for c in view.claimed_facts}
    source = {d.id: d for d in built.drivers}
    # Bounded, and never a withheld driver.
    assert len(view.drivers) <= budget.max_drivers
    assert len(view.claimed_facts) <= budget.max_claimed_facts
    assert len(view.limitations) <= budget.max_limitations
    assert all(d.standing is not W for d in view.drivers)
    # A retained driver never cites a dropped claimed fact.
    assert all(set(d.claimed_fact_ids) <= kept_facts for d in view.drivers)
    # Selected, never rewritten or re-ranked.
    assert all(source[d.id] == d for d in view.drivers)
    assert all(d.statement.encode() == source[d.id].statement.encode() for d in view.drivers)
    assert [_order_key(d) for d in view.drivers] == sorted(_order_key(d) for d in view.drivers)
    assert all(c in built.claimed_facts for c in view.claimed_facts)
    assert all(x in built.limitations for x in view.limitations)
    for field in ("direct_judgment", "current_state"):
        original, copied = getattr(built, field), getattr(view, field)
        assert (copied is None and original is None) or copied.encode() == original.encode()
    # Carried whole.
    assert view.temporal_label == built.temporal_label
    assert view.time_context == built.time_context
    # Every drop declared; truncated iff a budget count is non-zero (withheld aside).
    withheld = sum(d.standing is W for d in built.drivers)
    assert report.withheld_omitted == withheld
    assert len(view.drivers) + report.drivers_omitted + withheld == len(built.drivers)
    assert len(view.claimed_facts) + report.claimed_facts_omitted == len(built.claimed_facts)
    assert len(view.limitations) + report.limitations_omitted == (
        len(built.limitations) + built.limitations_displaced
    )
    omitted = report.drivers_omitted + report.claimed_facts_omitted + report.limitations_omitted
    assert view.truncated == (omitted > 0)
    # The disclosure is never budgeted away.
    if DEGRADED_RETRIEVAL in built.limitations:
        assert DEGRADED_RETRIEVAL in view.limitations


@given(results())
def test_nothing_is_dropped_when_everything_fits(built: InvestigationResult) -> None:
    shown = [d for d in built.drivers if d.standing is not W]
    if any(i not in {c.id for c in built.claimed_facts} for d in shown for i in d.claimed_fact_ids):
        assume(False)  # a driver citing what the result lacks is always dropped
    roomy = ProjectionBudget(max_drivers=100, max_claimed_facts=100, max_limitations=100)
    view = project(built.model_copy(update={"limitations_displaced": 0}), roomy)
    assert len(view.drivers) == len(shown)
    assert not view.truncated
