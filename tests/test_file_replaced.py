"""One file asked to have become another ("when did CHANGELOG.rst become CHANGELOG.md?", "turn
into", "replaced by", "renamed to"). On the real histories (../shared/data); the truth is
git's own (`git log --no-merges --full-history --diff-filter=A|D -- PATH`), never the answer.

attrs "when did CHANGELOG.rst become CHANGELOG.md" ended '"become": not understood' (z40b
B-T10), click "when was CHANGES.rst renamed to CHANGES.md?" '"CHANGES.rst" names no
subject'. Now "become", "turn into", "replaced by", "renamed to" between two paths written
are a row of engine/reading/origins.LIFE_ROWS ("replaced"), the first path read as the
deleted file (engine/resolving/gonefiles.DELETED_ASKED), and engine/questions/lifesteps
gives git's rename of the one into the other, or the commit that deleted the first and
wrote the second; two commits are both said, neither given as the answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.interpreter import interpret
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)


def git_says(clone: Path, status: str, path: str, *, oldest: bool = False) -> tuple[str, ...]:
    """(abbreviated hash, author, author day in UTC) of the newest (or oldest) commit git
    gives status `status` for PATH, looking at PATH alone."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", f"--diff-filter={status}",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", "--", path,
    )  # fmt: skip
    lines = out.strip().splitlines()
    return tuple((lines[-1] if oldest else lines[0]).split("|"))


@pytest.mark.parametrize(
    ("history", "question", "old", "new"),
    [
        ("attrs", "when did CHANGELOG.rst become CHANGELOG.md", "CHANGELOG.rst", "CHANGELOG.md"),
        ("attrs", "when did CHANGELOG.rst turn into CHANGELOG.md?", "CHANGELOG.rst",
         "CHANGELOG.md"),
        ("click", "when did CHANGES.rst become CHANGES.md, and who did it?", "CHANGES.rst",
         "CHANGES.md"),
        ("click", "when was CHANGES.rst replaced by CHANGES.md?", "CHANGES.rst", "CHANGES.md"),
    ],
)  # fmt: skip
async def test_the_commit_deleting_one_and_writing_the_other(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, old: str, new: str
) -> None:
    graph, clone = histories[history]
    sha, who, day = git_says(clone, "D", old)
    added = git_says(clone, "A", new)[0]
    assert added == sha  # the commit deleting the old file added the new one (git's word)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{old} became {new} at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment
    first = git_says(clone, "A", new, oldest=True)[0]
    assert first == sha or ("first added at" in judgment and f"({first}," in judgment)


async def test_a_rename_git_detects_is_the_move(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """werkzeug README.rst => README.md (git: R056)."""
    sha, who, day = git_says(werkzeug_clone, "D", "README.rst")
    result = await ask(werkzeug, "when was README.rst renamed to README.md?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"README.rst moved to README.md, at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment


async def test_two_commits_are_both_said(requests: OrgGraph, requests_clone: Path) -> None:
    """requests: HISTORY.md added by one commit, HISTORY.rst deleted by the next."""
    gone = git_says(requests_clone, "D", "HISTORY.rst")
    added = git_says(requests_clone, "A", "HISTORY.md", oldest=True)
    assert gone[0] != added[0]
    result = await ask(requests, "when did HISTORY.rst become HISTORY.md?")
    judgment = result.direct_judgment or ""
    assert judgment.startswith("No one commit made HISTORY.rst into HISTORY.md"), judgment
    assert f"({gone[0]}, by {gone[1]})" in judgment and f"({added[0]}, by {added[1]})" in judgment


@pytest.mark.parametrize(
    ("question", "life"),
    [
        ("what did Hynek become responsible for in 2025?", None),
        ("when did datastructures.py become a package?", "became"),
        ("when was tests/typing_example.py renamed?", "moved"),
        ("when did the docs turn into a mess?", None),
    ],
)
def test_become_between_no_two_paths_is_not_a_replacement(question: str, life: str) -> None:
    """Guards: "become" or "renamed" without a path on each side reads as before."""
    assert interpret(question, CLOCK).life == life


def git_log(clone: Path, *args: str) -> list[tuple[str, int]]:
    """(abbreviated hash, author time) of each commit git lists, newest first."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--abbrev=7",
                             "--format=%h %at", *args)  # fmt: skip
    return [(h, int(t)) for h, t in (line.split() for line in out.strip().splitlines())]


@pytest.mark.parametrize(
    "question",
    [
        "when was werkzeug/contrib deleted?",
        "who deleted werkzeug/contrib?",
        "when was the werkzeug/contrib folder removed?",
        "werkzeug/contrib first commit and deletion",
    ],
)
async def test_a_folder_moved_after_a_deletion_inside_it_is_not_that_deletion(
    werkzeug: OrgGraph, werkzeug_clone: Path, question: str
) -> None:
    """review41 F4: werkzeug/contrib was said deleted by adb0cd7 (two of its files went), yet
    git moved the folder, still whole, to src/werkzeug/contrib after (adb0edd), deleted there
    by 81e10ef. A path written whole is the one taken only when its deletion is its last
    change; here the shipped code's, as before 8583af3."""
    inside = git_log(werkzeug_clone, "--diff-filter=D", "--no-renames", "--", "werkzeug/contrib")
    last = git_log(werkzeug_clone, "-1", "--", "werkzeug/contrib")[0]
    first_deletion = min(inside, key=lambda c: c[1])
    assert last[1] > first_deletion[1]  # the folder changed (moved) after files were deleted
    sha, who, day = git_says(werkzeug_clone, "D", "src/werkzeug/contrib")
    result = await ask(werkzeug, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"src/werkzeug/contrib was deleted at {day}"), judgment
    assert f"({sha}) by {who}" in judgment, judgment
    assert not any(f"({h})" in judgment for h, at in inside if at < last[1]), judgment


@pytest.mark.parametrize(("written", "others"), [("t.py", 1), ("README.rst", 2)])
async def test_a_deleted_file_written_as_its_whole_path_is_still_taken(
    requests: OrgGraph, requests_clone: Path, written: str, others: int
) -> None:
    """Guard: a file's deletion is its last change, so the one written whole is taken of
    several deleted of its name (requests t.py, not requests/packages/t.py)."""
    deleted = shared_history.git(requests_clone, "log", "--no-merges", "--full-history",
                                 "--diff-filter=D", "--name-only", "--format=")  # fmt: skip
    named = {p for p in deleted.split() if p == written or p.endswith(f"/{written}")}
    assert len(named) == others + 1
    sha, who, day = git_says(requests_clone, "D", written)
    result = await ask(requests, f"when was {written} deleted?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{written} was deleted at {day}"), judgment
    assert f"({sha}) by {who}" in judgment, judgment
