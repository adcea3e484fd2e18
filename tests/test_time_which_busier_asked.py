"""Which of two periods was busier (time39): "Which month was busier for werkzeug, February
2026 or April 2026, and by how many commits?" (z38a W3), "which was busier, jan or feb?" were
refused ("two periods compared, and what is asked of them is not compared here ... ask about
each period in turn"), though "jan vs feb" was answered: a "which" with a comparative
("busier", "quieter", "more active") and no word naming a period ("which was ...") was not
read as asking between the periods. Now compared, as "jan vs feb" is: each period's commits and
lines, and by how many they differ in all ("..., and by how many commits?" is answered by it,
no longer said not answered). Asked through `investigate` on the real histories at
2026-09-01T12:00 UTC; figures against `git log --no-merges --full-history` by author time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, compared_as_git, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)

ask = partial(answer, now=CLOCK)


CASES = [
    ("werkzeug", "Which month was busier for werkzeug, February 2026 or April 2026, and by how "
     "many commits?", (on(2026, 4), on(2026, 5)), (on(2026, 2), on(2026, 3))),
    ("werkzeug", "which was busier, jan or feb?", (on(2026, 2), on(2026, 3)),
     (on(2026, 1), on(2026, 2))),
    ("click", "which was more active, Q1 2026 or Q2 2026?", (on(2026, 4), on(2026, 7)),
     (on(2026, 1), on(2026, 4))),
    ("attrs", "which quarter was quieter for attrs, Q1 2025 or Q2 2025?",
     (on(2025, 4), on(2025, 7)), (on(2025, 1), on(2025, 4))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier"), CASES)
async def test_which_of_two_periods_was_busier_is_compared(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    compared_as_git(result, clone, later, earlier)
    now, then = commits(clone, *later), commits(clone, *earlier)
    apart = "as many" if now == then else f"{abs(now - then)} {'more' if now > then else 'fewer'}"
    assert f"In all, {apart} commit(s) and " in (result.direct_judgment or ""), result
    assert not any("Only the first question" in t for t in result.limitations), result.limitations


async def test_which_files_were_busier_is_no_comparison_of_the_periods(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Subjects asked for ("which files"): not which period, never answered as one."""
    graph, _ = histories["werkzeug"]
    result = await ask(graph, "which files were busier, jan or feb?")
    assert result.direct_judgment is None or "In all," not in result.direct_judgment
