"""A path's making and its deletion asked together ("X first commit and deletion", "X creation
and removal"): each part answered, or the one not answered named. On the real histories
(../shared/data); the truth is git's own (`git log --no-merges --full-history --diff-filter=D
-1 -- PATH`), never the answer.

werkzeug "werkzeug/useragents.py first commit and deletion" gave the deletion alone, the
first commit dropped unsaid (z40b B-W07, WS); "_make.py creation and deletion" ended in
'"deletion creation": not understood'. Now both are two parts (engine/reading/parts.PAIRS),
and the part not answered is named ("when was X added, and when removed?" is a later part
of engine/reading/laterwork.py, tests/test_later_gone).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading import parts
from engine.reading.interpreter import interpret
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")

ask = partial(answer, now=CLOCK)


def git_says(clone: Path, path: str) -> tuple[str, str, str]:
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=D", "-1",
        "--date=format-local:%Y-%m-%d", "--format=%h|%an|%ad", "--", path,
    )  # fmt: skip
    sha, who, day = out.strip().splitlines()[0].split("|")
    return sha, who, day


@pytest.mark.parametrize(
    ("history", "question", "path", "unanswered"),
    [
        ("werkzeug", "werkzeug/useragents.py first commit and deletion",
         "src/werkzeug/useragents.py", "werkzeug/useragents.py first commit"),
        ("werkzeug", "useragents.py first change and deletion",
         "src/werkzeug/useragents.py", "useragents.py first commit"),
        ("attrs", "attr/_dunders.py creation and removal", "attr/_dunders.py",
         "attr/_dunders.py first commit"),
        ("click", "src/click/_unicodefun.py first commit and deletion",
         "src/click/_unicodefun.py", "src/click/_unicodefun.py first commit"),
    ],
)  # fmt: skip
async def test_the_deletion_is_answered_and_the_first_commit_part_named(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    path: str,
    unanswered: str,
) -> None:
    graph, clone = histories[history]
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{path} was deleted at {day}"), judgment
    assert f"({sha})" in judgment and f"by {who}" in judgment, judgment
    assert any(n.startswith(f'"{unanswered}" was not answered') for n in result.limitations), (
        result.limitations
    )


async def test_a_file_the_head_has_gives_both_parts(attrs: OrgGraph, attrs_clone: Path) -> None:
    """attrs _make.py: its first commit (the initial commit, as `git log --diff-filter=A`
    gives attr/_make.py) and "never deleted"."""
    out = shared_history.git(
        attrs_clone, "log", "--no-merges", "--full-history", "--abbrev=7", "--diff-filter=A",
        "--format=%h", "--", "attr/_make.py",
    )  # fmt: skip
    first = out.split()[-1]
    result = await ask(attrs, "_make.py creation and deletion")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert f"({first})" in judgment and "src/attr/_make.py was never deleted" in judgment


@pytest.mark.parametrize(
    "question",
    [
        "who added and removed the most lines in 2025?",
        "lines added and removed in src/click this year",
        "when was _make.py created?",
    ],
)
def test_lines_added_and_removed_are_no_life_parts(question: str) -> None:
    """Guards: "added and removed" of lines is one question, as it was."""
    assert parts.read(question, interpret(question, CLOCK)).parts is None


@pytest.mark.parametrize(
    ("history", "question", "path"),
    [
        ("werkzeug", "when was useragents.py first added?", "src/werkzeug/useragents.py"),
        ("werkzeug", "how many commits touched useragents.py in 2020?",
         "src/werkzeug/useragents.py"),
        ("click", "when was _unicodefun.py added?", "src/click/_unicodefun.py"),
    ],
)  # fmt: skip
async def test_a_deleted_file_name_is_said_deleted_never_another_files_words(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """werkzeug "useragents.py" was read by its words as src/werkzeug/user_agent.py (a file
    made in 2021, before useragents.py was deleted) and answered for it; now it is said to
    name the deleted file, with its deletion as git gives it."""
    graph, clone = histories[history]
    sha, who, day = git_says(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    said = " ".join(result.limitations)
    deleted = f"it was deleted at {day} ({sha}, by {who})"
    assert f"names {path}, which {history} no longer has: {deleted}" in said, said


async def test_a_file_the_head_has_by_its_name_is_answered(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """Guard: user_agent.py, which the head has, is answered as before."""
    out = shared_history.git(
        werkzeug_clone, "log", "--no-merges", "--full-history", "--abbrev=7",
        "--diff-filter=A", "--format=%h", "--", "src/werkzeug/user_agent.py",
    )  # fmt: skip
    result = await ask(werkzeug, "when was user_agent.py first added?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert f"({out.split()[-1]})" in (result.direct_judgment or "")
