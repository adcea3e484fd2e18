"""A pronoun standing for what was asked just before it (issue 32, refs42;
engine/reading/antecedents.py): after a colon in the same question, or as a session's next
question. Read whole, the first part decided what was asked: "show me commits touching X
since march: who made them?" listed the commits, "how many commits to X in 2024: list them"
gave the count, and in a session "who made them?" ended on "them" standing for nothing. On the
real histories (../shared/data), each figure as `git log --no-merges --full-history` (author
time) gives it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.resolving.ring import ReferenceRing
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
Y2024 = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
SINCE_MARCH = (datetime(2026, 3, 1, tzinfo=UTC), CLOCK)

pytestmark = shared_history.present("click", "werkzeug")

(click_clone, click, werkzeug_clone, werkzeug) = shared_history.each("click", "werkzeug")
histories = shared_history.histories("click", "werkzeug")
Histories = dict[str, tuple[OrgGraph, Path]]

ask = partial(answer, now=CLOCK)

# (history, the first part, its path, its window, the busiest author then)
ASKED = [
    ("click", "show me commits touching src/click/core.py in 2024", "src/click/core.py", Y2024,
     "David Lord"),
    ("werkzeug", "show me commits touching src/werkzeug/sansio/http.py since march",
     "src/werkzeug/sansio/http.py", SINCE_MARCH, "David Lord"),
]  # fmt: skip


def _who(clone: Path, window: tuple[datetime, datetime], path: str, author: str) -> str:
    return f"{author} ({shared_history.commits(clone, *window, path, author=author)} commit(s)"


@pytest.mark.parametrize(("history", "first", "path", "window", "author"), ASKED)
async def test_who_made_them_after_a_colon_is_who(
    histories: Histories,
    history: str,
    first: str,
    path: str,
    window: tuple[datetime, datetime],
    author: str,
) -> None:
    """Fails on 20b18ad: the commits were listed ("N change(s) to ..."), no one ranked."""
    graph, clone = histories[history]
    result = await ask(graph, f"{first}: who made them?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{path}",)
    judgment = result.direct_judgment or ""
    assert judgment.startswith("Most active on "), judgment
    assert _who(clone, window, path, author) in judgment, judgment
    assert any(n.startswith('"them" after ') for n in result.limitations), result.limitations


@pytest.mark.parametrize(("history", "first", "path", "window", "author"), ASKED)
async def test_list_them_after_a_count_lists_them(
    histories: Histories,
    history: str,
    first: str,
    path: str,
    window: tuple[datetime, datetime],
    author: str,
) -> None:
    """Fails on 20b18ad: "how many commits to X: list them" gave the count alone."""
    graph, clone = histories[history]
    counted = first.replace("show me commits touching", "how many commits to")
    result = await ask(graph, f"{counted}: list them")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    expected = shared_history.commits(clone, *window, path)
    assert (result.direct_judgment or "").startswith(f"{expected} change(s) to "), (
        result.direct_judgment
    )


@pytest.mark.parametrize(("history", "first", "path", "window", "author"), ASKED)
async def test_who_made_them_in_a_session_is_asked_of_the_previous_question(
    histories: Histories,
    history: str,
    first: str,
    path: str,
    window: tuple[datetime, datetime],
    author: str,
) -> None:
    """Fails on 20b18ad: a no match, '"them": stands for a subject the question does not
    name'."""
    graph, clone = histories[history]
    ring = ReferenceRing()
    assert (await ask(graph, first, ring=ring)).outcome is Outcome.ANSWERED
    result = await ask(graph, "who made them?", ring=ring)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{path}",)
    assert _who(clone, window, path, author) in (result.direct_judgment or "")
    assert any("follows the previous question" in n for n in result.limitations)


@pytest.mark.parametrize("history", ["click", "werkzeug"])
async def test_them_with_nothing_asked_before_still_names_nothing(
    histories: Histories, history: str
) -> None:
    """Guard: with no earlier question, "them" stands for nothing (as before)."""
    graph, _ = histories[history]
    result = await ask(graph, "who made them?", ring=ReferenceRing())
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(n.startswith('"them"') for n in result.limitations), result.limitations


async def test_them_after_a_who_question_is_left_as_asked(histories: Histories) -> None:
    """Guard: after "who changed X ...", "them" may be the people: the question is read
    whole, as before (the people ranked), never rewritten."""
    graph, _ = histories["click"]
    result = await ask(graph, "who changed src/click/core.py in 2024: list them")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert (result.direct_judgment or "").startswith("Most active on click.core ")
    assert not any(n.startswith('"them" after ') for n in result.limitations)
