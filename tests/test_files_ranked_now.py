"""A ranking of files over a past window counts the files the repository has now, and says so
in its count (issue 32), on the real histories (../shared/data), against `git log
--no-merges --full-history` (author time):

click "which files did Edward Girling change most in 2026?" said "4 files by Edward Girling
had commits from 2026-01-01 ...; all of them are ranked", where git lists 6 (CHANGES.rst, 3
commits, tied first, and docs/index.rst were deleted since): a false count beside the general
note that a file deleted since is not ranked. requests 2017 (HISTORY.rst 57, deleted since)
and attrs 2021 (README.rst 29) likewise. The count now says it counts only the files the
repository has now; the files ranked keep git's counts.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits, git, year
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NOW_ONLY = "counting only the files the repository has now"

pytestmark = shared_history.present("click", "requests", "attrs")

(click_clone, click, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "click", "requests", "attrs"
)
histories = shared_history.histories("click", "requests", "attrs")

ask = partial(answer, now=CLOCK)

# (history, question, window, author's address, a file the head has with its rank's count,
# a file deleted since that git counts in the window)
CASES = [
    ("click", "which files did Edward Girling change most in 2026?",
     (datetime(2026, 1, 1, tzinfo=UTC), CLOCK), "egirling@wallstreet.io", "pyproject.toml",
     "CHANGES.rst"),
    ("requests", "Which files changed most often in 2017?", year(2017), "", "Makefile",
     "HISTORY.rst"),
    ("attrs", "What were the most changed files in 2021?", year(2021), "", "tox.ini",
     "README.rst"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "author", "kept", "gone"), CASES)
async def test_the_count_of_files_says_they_are_the_heads(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    author: str,
    kept: str,
    gone: str,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert gone not in git(clone, "ls-files")  # type: ignore[arg-type]
    assert commits(clone, *window, gone, author=author) > 0  # type: ignore[arg-type]
    assert any(NOW_ONLY in n for n in result.limitations), result.limitations
    said = result.direct_judgment or ""
    counted = commits(clone, *window, kept, author=author)  # type: ignore[arg-type]
    by = " by Edward Girling" if author else ""
    assert f"{kept}{by} ({counted} commit(s))" in said, said
