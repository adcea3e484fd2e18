"""The later part of a two-part question read by what it asks (engine/reading/laterparts.py),
on the real histories, each figure against git's (`git log --no-merges --full-history`,
author time, clock 2026-09-01T12:00Z).

Each of these parts was answered here asked on its own, yet after a first question it was
said not answered ("Only the first question is answered: ... ask it on its own", z38a C8,
C10, W5, W10, W14, R2, R15, A5): a person's last commit after a count of this year, the share
of all commits a person's count is, the files someone changed, who led each of two periods
compared. Now each is answered in the one result, over the first's subject and time (a last
commit at any age; each period over its own days).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_compound_asked import git_commits, on
from tests.test_investigate import answer
from tests.test_rankings_asked import listed, per_file, ranked_commits

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
STAMP = "%Y-%m-%dT%H:%M:%SZ"
UNSAID = "Only the first question"

pytestmark = shared_history.present("click", "werkzeug", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(
    "click", "werkzeug", "attrs"
)

ask = partial(answer, now=CLOCK)


@pytest.fixture(scope="module")
def histories(
    click: OrgGraph,
    click_clone: Path,
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
) -> dict[str, tuple[OrgGraph, Path]]:
    return {
        "click": (click, click_clone),
        "werkzeug": (werkzeug, werkzeug_clone),
        "attrs": (attrs, attrs_clone),
    }


LAST = [
    ("werkzeug", "How many commits has Daniel Neuhauser made this year, and when did he last "
     "commit?", "Neuh", on(2026, 1), CLOCK),
    ("attrs", "How many commits did Tin Tvrtković make in 2025, and what was his most recent "
     "commit?", "Tin Tvrtkovi", on(2025, 1), on(2026, 1)),
    ("click", "how many commits has Jaron Rosenau made this year, and when was his latest "
     "change?", "jaron.rosenau@gmail.com", on(2026, 1), CLOCK),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "author", "start", "end"), LAST)
async def test_a_count_and_the_persons_last_commit_are_both_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    author: str,
    start: datetime,
    end: datetime,
) -> None:
    """It answered the count and said the last commit was not answered."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(git_commits(clone, start, end, author))} commit(s) by ")
    newest = max(git_commits(clone, on(2000, 1), CLOCK, author), key=lambda c: c[1])
    assert f"recorded here was made at {newest[1].strftime(STAMP)}" in judgment, judgment
    assert f"({newest[0][:7]})" in judgment


SHARE = [
    ("werkzeug", "How many commits did davidism make in 2024, and what percentage of the "
     "total was that?", "davidism@gmail.com", on(2024, 1), on(2025, 1)),
    ("attrs", "how many commits did hynek make in the first quarter of 2026, and what share "
     "of all commits was that?", "hs@ox.cx", on(2026, 1), on(2026, 4)),
    ("werkzeug", "How many commits did pgjones make between November 2025 and February 2026, "
     "and what proportion of all commits in that period were his?", "pgjones",
     on(2025, 11), on(2026, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "author", "start", "end"), SHARE)
async def test_a_count_and_its_share_of_all_commits_are_both_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    author: str,
    start: datetime,
    end: datetime,
) -> None:
    """It answered the count and said the share was not answered."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    mine = len(git_commits(clone, start, end, author))
    total = len(git_commits(clone, start, end))
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{mine} commit(s) by "), judgment
    assert f"That is {mine} of the {total} commit(s), {100 * mine / total:.1f} % of them." in (
        judgment
    )


FILES = [
    ("werkzeug", "How many commits has pgjones made in 2025, and which parts of the code did "
     "he touch?", "philip.graham.jones@googlemail.com", on(2025, 1), on(2026, 1)),
    ("click", "how many commits did Kevin Deldycke make in July 2026, and what files has he "
     "worked on?", "kevin@deldycke.com", on(2026, 7), on(2026, 8)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "address", "start", "end"), FILES)
async def test_a_count_and_the_files_someone_touched_are_both_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    address: str,
    start: datetime,
    end: datetime,
) -> None:
    """It answered the count and said the files (or "parts of the code") were not."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{len(git_commits(clone, start, end, address))} commit(s) by ")
    files = sorted((c for c, _ in per_file(clone, start, end, author=address).values()),
                   reverse=True)  # fmt: skip
    assert ranked_commits(judgment)[:5] == files[:5]


EACH = [
    ("click", "How did the commits to the tests folder in spring 2026 compare with summer "
     "2026, and who was most active in each season?", "tests",
     [(on(2026, 3), on(2026, 6)), (on(2026, 6), on(2026, 9))]),
    ("attrs", "how did the number of commits in the first quarter of 2026 compare with the "
     "second quarter, and who led each quarter?", "",
     [(on(2026, 1), on(2026, 4)), (on(2026, 4), on(2026, 7))]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "path", "periods"), EACH)
async def test_two_periods_compared_and_who_led_each_are_both_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    path: str,
    periods: list[tuple[datetime, datetime]],
) -> None:
    """It compared the two periods' counts and said "who led each ..." was not answered."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    for start, end in periods:
        commits = git_commits(clone, start, end, path=path)
        people = Counter(n for _, _, n in commits).most_common()
        who = f"from {start.strftime(STAMP)} to {end.strftime(STAMP)}, ranked by commits: "
        assert who in judgment, judgment
        shown = listed(judgment.split(who, 1)[1].split(" in all).", 1)[0] + " in all).")
        assert shown[0][1] == people[0][1] and [c for _, c in shown] == [
            c for _, c in people[: len(shown)]
        ]
