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


def git_lines(clone: Path, start: datetime, end: datetime, path: str) -> tuple[int, int]:
    """Lines added and removed under `path` in [start, end) by author time, as `git log
    --no-merges --full-history --numstat -- path` counts them (binary files aside)."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--numstat", "--format=@%at", "--", path
    )
    added = removed = 0
    when = start
    for line in out.splitlines():
        if line.startswith("@"):
            when = datetime.fromtimestamp(int(line[1:]), UTC)
        elif line.count("\t") == 2 and not line.startswith("-") and start <= when < end:
            a, r, _ = line.split("\t")
            added, removed = added + int(a), removed + int(r)
    return added, removed


LINES = [
    # a phrase before the question word: the second question was read into the first, its
    # lines dropped unsaid (z38a A3; answered as a count of each since d7da659)
    ("attrs", "Since March 2026, how many commits touched src/attr compared with src/attrs, "
     "and how many lines were added and removed in each?",
     on(2026, 3), CLOCK, ["src/attr", "src/attrs"]),
    ("werkzeug", "During 2025, how many commits touched src/werkzeug/routing compared with "
     "src/werkzeug/sansio, and how many lines were added and removed in each?",
     on(2025, 1), on(2026, 1), ["src/werkzeug/routing", "src/werkzeug/sansio"]),
    # after a ranking of its files: said not answered (z38a C3)
    ("werkzeug", "Which files under src/werkzeug changed most in the first half of 2026, and "
     "how many lines were added and removed in that folder over the same period?",
     on(2026, 1), on(2026, 7), ["src/werkzeug"]),
    ("click", "which files in src/click changed the most in Q1 2026, and how many lines were "
     "added and removed there?", on(2026, 1), on(2026, 4), ["src/click"]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "paths"), LINES)
async def test_the_lines_of_each_subject_asked_after_are_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    paths: list[str],
) -> None:
    """The lines asked after a comparison of subjects or a ranking of a folder's files were
    dropped, silently (a phrase before "how many") or said not answered."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    for path in paths:
        added, removed = git_lines(clone, start, end, path)
        total = added + removed  # one subject's count, or each of several (count.each_subject)
        said = (f"{total} line(s) changed (+{added} -{removed})", f"{total} (+{added} -{removed}) in ")
        assert any(s in judgment for s in said), judgment


LISTED = [
    ("attrs", "Apart from Hynek, who committed to attrs in the second quarter of 2026, and how "
     "many commits did each make?", "hs@ox.cx", on(2026, 4), on(2026, 7)),
    ("werkzeug", "Besides David Lord, who committed to werkzeug in 2025, and how many commits "
     "did each of them make?", "davidism@gmail.com", on(2025, 1), on(2026, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "left_out", "start", "end"), LISTED)
async def test_who_apart_from_someone_and_each_ones_commits_are_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    left_out: str,
    start: datetime,
    end: datetime,
) -> None:
    """The whole was read as a count ("7 commit(s) to attrs (people other than Hynek
    Schlawack)"), the people and their commits dropped unsaid (z38a A16). Now the people and
    their commits, and how many are not listed, said."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    theirs = git_commits(clone, start, end)
    mine = {n for _, _, n in git_commits(clone, start, end, left_out)}
    people = Counter(n for _, _, n in theirs if n not in mine).most_common()
    shown = listed(result.direct_judgment or "")
    assert [c for _, c in shown] == [c for _, c in people[: len(shown)]], shown
    assert not {n for n, _ in shown} & mine
    if len(people) > len(shown):
        said = f"the {len(shown)} with the most of the {len(people)}: the others' commits"
        assert any(said in t for t in result.limitations), result.limitations


CHANGES = [
    ("werkzeug", "Who changed serving.py in March 2026, and what were those commits?",
     "src/werkzeug/serving.py", "", on(2026, 3), on(2026, 4)),
    ("attrs", "how many commits did Tin Tvrtković make in 2025, and what did he change?",
     "", "Tin Tvrtkovi", on(2025, 1), on(2026, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "path", "author", "start", "end"), CHANGES)
async def test_the_changes_asked_after_are_listed(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    path: str,
    author: str,
    start: datetime,
    end: datetime,
) -> None:
    """ "..., and what was the change?" after who changed X was said not answered (z38a R9)."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert not any(UNSAID in t for t in result.limitations), result.limitations
    judgment = result.direct_judgment or ""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--format=%at%x09%aN%x09%s",
        *([f"--author={author}"] if author else []), *(["--", path] if path else []),
    )  # fmt: skip
    rows = [line.split("\t", 2) for line in out.splitlines()]
    made = [(datetime.fromtimestamp(int(t), UTC), n, s) for t, n, s in rows]
    made = [c for c in made if start <= c[0] < end]
    assert f"{len(made)} change(s) to " in judgment or f"{len(made)} change(s) by " in judgment
    for when, name, subject in made:  # a person's changes say where, a subject's by whom
        listed = f'{when.date().isoformat()} "{subject}" {"in" if author else f"by {name}"}'
        assert listed in judgment, judgment
