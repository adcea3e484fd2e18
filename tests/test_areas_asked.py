""""Which areas did Tin work on in 2025?" (attrs) was answered with his line count, the areas
unsaid (z40a A-T04, a silent wrong answer), and "Which areas does Edward Girling own this
year?" (click) with "no commit was recorded", where git has four (A-C02). The areas, parts or
components a person's changes touched are the list of files "which files did X change?"
asks for, which is not listed (engine/reading/wordrules, the "files" row): now said so by
the word asked, with the questions that are answered. Those are answered, with git's
figures: the files ranked by the person's commits."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "attrs")
(click_clone, click, attrs_clone, attrs) = shared_history.each("click", "attrs")
histories = shared_history.histories("click", "attrs")
ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("history", "question", "word"),
    [
        ("attrs", "Which areas did Tin Tvrtkovic work on in 2025?", "areas"),
        ("attrs", "which parts of the code did Tin Tvrtkovic touch in 2025?", "parts"),
        ("click", "Which areas does Edward Girling own this year?", "areas"),
        ("click", "what components did Kevin Deldycke change in May 2026?", "components"),
    ],
)
async def test_the_areas_a_person_touched_are_said_not_listed(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, word: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert not result.direct_judgment
    said = " ".join(result.limitations)
    assert said.startswith(f'"{word}": the files or modules a subject\'s changes touched'), said
    assert '"which files did X change most ...?"' in said


async def test_the_files_a_person_changed_most_are_ranked_as_git_counts(
    attrs: OrgGraph, attrs_clone: Path
) -> None:
    """The way forward the note gives is answered: Tin Tvrtković's files in 2025, ranked by
    his commits (git log --author, --name-only)."""
    result = await ask(attrs, "which files did Tin Tvrtkovic change most in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    mine = shared_history.commits(attrs_clone, start, end, "pyproject.toml")
    theirs = shared_history.commits(attrs_clone, start, end, "pyproject.toml", author="tinchester")
    assert mine >= theirs >= 2
    assert f"1. pyproject.toml by Tin Tvrtković ({theirs} commit(s))" in (
        result.direct_judgment or ""
    )
