"""A period restated in other words beside it (time39): "Who were the most active contributors
to attrs in summer 2025, June through August, ...?" (z38a A7) read "June through August" as
this year's (2026), two times named, and was refused; the apposition says the same period again.
A later phrase naming no year that, with the first one's year, is the very window the first
reads is the same time said twice (engine/reading/timeexpression.same_time): answered over it.
One that names another window ("in 2025, in March") stays two times named. Asked through
`investigate` on the real histories at 2026-09-01T12:00 UTC, counts against git.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)

ask = partial(answer, now=CLOCK)


RESTATED = [
    ("attrs", "how many commits to attrs in summer 2025, June through August?",
     on(2025, 6), on(2025, 9)),
    ("click", "how many commits in Q1 2026, January to March?", on(2026, 1), on(2026, 4)),
    ("werkzeug", "how many commits in the first half of 2025 (January through June)?",
     on(2025, 1), on(2025, 7)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), RESTATED)
async def test_a_period_restated_is_one_time(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{commits(clone, start, end)} commit(s) "), judgment
    assert f"from {start:%Y-%m-%d}T00:00:00Z to {end:%Y-%m-%d}T00:00:00Z" in judgment, judgment


async def test_the_checkers_apposition_ranks_the_summers_people(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """z38a A7: 35 commits in summer 2025, Hynek Schlawack first with 24."""
    graph, clone = histories["attrs"]
    result = await ask(
        graph,
        "Who were the most active contributors to attrs in summer 2025, June through August, "
        "and how many commits did each make?",
    )
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    hynek = commits(clone, on(2025, 6), on(2025, 9), author="hs@ox.cx")
    assert f"Hynek Schlawack ({hynek} commit(s)" in (result.direct_judgment or ""), result


async def test_another_period_beside_is_still_two_times(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    graph, _ = histories["werkzeug"]
    result = await ask(graph, "how many commits in 2025, in March?")
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
