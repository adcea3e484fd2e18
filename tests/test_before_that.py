"""A follow-up asking about the period before the one just answered ("and in the quarter
before that?", "and the month before?") is the previous question over the unit ending where
the previous answer's window started (engine/reading/earlier.py), said, and answered with
git's count (author time, --no-merges). Before, it was "not understood as a time" (z42
b-requests-07). With no previous question, the phrase stays named not understood: no other
window is answered in its place. On click's and werkzeug's real histories (../shared/data),
in memory, at 2026-09-01T12:00Z.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.resolving.ring import ReferenceRing
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug")

click_clone, click, werkzeug_clone, werkzeug = shared_history.each("click", "werkzeug")
histories = shared_history.histories("click", "werkzeug")
ask = partial(answer, now=CLOCK)


def window(result: InvestigationResult) -> tuple[datetime | None, datetime | None]:
    label = result.temporal_label
    assert label is not None, result.limitations
    return label.effective_from, label.effective_to


def at(year: int, month: int, day: int = 1, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


# history, the first question, its window, the follow-up, its window, the path counted
SESSIONS = [
    # "this year" starts 2026-01-01: the quarter before it is Q4 2025
    ("click", "how many commits to core.py this year?", (at(2026, 1), CLOCK),
     "and in the quarter before that?", (at(2025, 10), at(2026, 1)), "src/click/core.py"),
    # "lately" is the last 90 days, from 2026-06-03T12:00Z: the month before ends there
    ("werkzeug", "how many commits to routing lately?", (at(2026, 6, 3, 12), CLOCK),
     "and the month before?", (at(2026, 5, 3, 12), at(2026, 6, 3, 12)),
     "src/werkzeug/routing"),
    ("click", "how many commits to termui.py in 2025?", (at(2025, 1), at(2026, 1)),
     "and in the year before that?", (at(2024, 1), at(2025, 1)), "src/click/termui.py"),
    ("werkzeug", "how many commits to serving.py in the last 3 months?",
     (at(2026, 6, 1, 12), CLOCK), "what about the quarter before that?",
     (at(2026, 3, 1, 12), at(2026, 6, 1, 12)), "src/werkzeug/serving.py"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "first", "span", "then", "before", "path"), SESSIONS)
async def test_the_unit_before_that_ends_where_the_previous_window_started(
    histories: dict, history: str, first: str, span: tuple[datetime, datetime], then: str,
    before: tuple[datetime, datetime], path: str,
) -> None:  # fmt: skip
    graph, clone = histories[history]
    ring = ReferenceRing()
    previous = await ask(graph, first, ring=ring)
    assert previous.outcome is Outcome.ANSWERED, previous.limitations
    assert window(previous) == span
    result = await ask(graph, then, ring=ring)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert window(result) == before
    assert any("ending where the previous answer's window started" in n
               for n in result.limitations), result.limitations  # fmt: skip
    counted = commits(clone, *before, path)
    assert f"{counted} commit(s) to " in (result.direct_judgment or ""), result.direct_judgment


@pytest.mark.parametrize("history", ["click", "werkzeug"])
async def test_before_that_with_no_previous_question_is_named_not_understood(
    histories: dict, history: str
) -> None:
    """A first question (another actor's session is none) reads no window in "before that":
    named, never answered over another window."""
    graph, _ = histories[history]
    await ask(graph, f"how many commits to {history} this year?", ring=ReferenceRing())
    for question in ("and in the quarter before that?",
                     f"how many commits to {history} in the month before that?"):  # fmt: skip
        result = await ask(graph, question, ring=ReferenceRing())
        assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
        named = ("quarter", "month")  # the reader names the words it could not read
        assert any("not understood as a time" in n and any(w in n for w in named)
                   for n in result.limitations), result.limitations  # fmt: skip


@pytest.mark.parametrize("history", ["click", "werkzeug"])
async def test_a_fragment_naming_its_own_period_is_not_read_as_before_that(
    histories: dict, history: str
) -> None:
    """The neighbour: "and in 2024?" after a question is that year, as before, not the period
    before the previous window."""
    graph, _ = histories[history]
    ring = ReferenceRing()
    await ask(graph, f"how many commits to {history} this year?", ring=ring)
    result = await ask(graph, "and in 2024?", ring=ring)
    assert window(result) == (at(2024, 1), at(2025, 1))
    assert not any("previous answer's window" in n for n in result.limitations)
