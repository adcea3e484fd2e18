"""After when a path was made, "and when removed?" is asked of the path as its own question:
click "when was tests/test_utils_2 added and when removed" answered the creation (and, in
passing, its move) and said "Only the first question is answered: "when removed" was not"
(z40b C09), the limitation against the answer. Now the later part is written "when was X
removed?" (a row of engine/reading/laterwork.py) and answered as that question is on its own:
a folder moved, not deleted, is said so, with the commit that moved it; a file never deleted
is said never deleted. Guards: a part naming another path, or following no creation, stays
said not answered. Truth from git (tests/shared_history)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import on, stamp
from tests.test_investigate import answer

CLOCK = on(2026, 9, 1, 12)
NOT_ANSWERED = "Only the first question is answered"

pytestmark = shared_history.present("click", "attrs", "requests")
(click_clone, click, attrs_clone, attrs, requests_clone,
 requests) = shared_history.each("click", "attrs", "requests")  # fmt: skip
histories = shared_history.histories("click", "attrs", "requests")
ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("question", "part", "verb"),
    [
        ("when was tests/test_utils_2 added and when removed", "when removed", "removed"),
        ("When was tests/test_utils_2 created, and when was it deleted?",
         "when was it deleted?", "deleted"),
    ],
)  # fmt: skip
async def test_a_folder_moved_is_said_moved_not_deleted(
    histories: dict[str, tuple[OrgGraph, Path]], question: str, part: str, verb: str
) -> None:
    graph, clone = histories["click"]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = " ".join(result.limitations)
    assert NOT_ANSWERED not in said, said
    assert f'"{part}" answered as "when was tests/test_utils_2 {verb}?".' in said, said
    # git: every file of the folder left it in one commit (a rename to tests/test_utils)
    gone = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=%h %at",
                              "--diff-filter=D", "--", "tests/test_utils_2")  # fmt: skip
    sha, at = gone.split()[:2]
    judgment = result.direct_judgment or ""
    assert (
        f"tests/test_utils_2 was not deleted: it moved to tests/test_utils, at {stamp(int(at))}"
        in (judgment)
    ), judgment
    assert f"({sha[:7]})" in judgment


async def test_a_file_never_deleted_is_said_so(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    graph, clone = histories["attrs"]
    result = await ask(graph, "when was src/attr/_make.py added, and when was it removed?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = " ".join(result.limitations)
    assert NOT_ANSWERED not in said, said
    assert not shared_history.git(clone, "log", "--no-merges", "--full-history",
                                  "--diff-filter=D", "--format=%h", "--", "src/attr/_make.py")  # fmt: skip
    assert "src/attr/_make.py was never deleted" in (result.direct_judgment or "")


@pytest.mark.parametrize(
    ("history", "question", "part"),
    [
        # another path named: another question
        ("click", "when was tests/test_utils_2 added and when was tests/test_utils removed?",
         "when was tests/test_utils removed?"),
        # no creation asked first: not this row's
        ("attrs", "Who changed src/attr/_make.py in 2025, and when was it removed?",
         "when was it removed?"),
    ],
)  # fmt: skip
async def test_a_part_of_another_path_or_after_no_creation_stays_not_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, part: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    said = " ".join(result.limitations)
    assert f'{NOT_ANSWERED}: "{part}" was not' in said, said


def _added(clone: Path, path: str) -> tuple[str, str]:
    """git's oldest commit adding a file under `path` (abbreviated hash, author time)."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=%h %at",
                             "--diff-filter=A", "--", path)  # fmt: skip
    sha, at = out.strip().splitlines()[-1].split()[:2]
    return sha, at


@pytest.mark.parametrize(
    ("history", "question", "path", "part"),
    [
        # review41 F3: "the fixture", "the changelog" name another, unnamed subject (the
        # changelog removed is HISTORY.rst, efc4ea6), never the first's path
        ("click", "when was tests/test_utils_2 added and when was the fixture removed?",
         "tests/test_utils_2", "when was the fixture removed?"),
        ("requests", "when was HISTORY.md created and when was the changelog removed?",
         "HISTORY.md", "when was the changelog removed?"),
    ],
)  # fmt: skip
async def test_the_removal_of_another_noun_stays_not_answered(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str,
    part: str,
) -> None:  # fmt: skip
    graph, clone = histories[history]
    result = await ask(graph, question)
    said = " ".join(result.limitations)
    assert f'{NOT_ANSWERED}: "{part}" was not' in said, said
    assert f'"{part}" answered as' not in said, said
    judgment = result.direct_judgment or ""
    # the creation asked first is still answered, as git gives it; nothing of a removal
    sha, at = _added(clone, path)
    assert judgment.startswith(f"{path} was added at {stamp(int(at))}"), judgment
    assert f"({sha[:7]})" in judgment, judgment
    assert "never deleted" not in judgment and "was not deleted" not in judgment, judgment


async def test_the_folder_removed_is_the_first_path(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Guard: "the folder" stands for the first's path (click tests/test_utils_2, moved)."""
    graph, clone = histories["click"]
    result = await ask(graph, "when was tests/test_utils_2 added and when was the folder removed?")
    said = " ".join(result.limitations)
    assert NOT_ANSWERED not in said, said
    asked = '"when was the folder removed?" answered as "when was tests/test_utils_2 removed?".'
    assert asked in said, said
    gone = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=%h %at",
                              "--diff-filter=D", "--", "tests/test_utils_2")  # fmt: skip
    sha, at = gone.split()[:2]
    judgment = result.direct_judgment or ""
    assert (
        f"tests/test_utils_2 was not deleted: it moved to tests/test_utils, at {stamp(int(at))}"
        in judgment
    ), judgment
    assert f"({sha[:7]})" in judgment, judgment


async def test_the_file_removed_is_the_first_path(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Guard: "the file" stands for the first's path (attrs src/attr/_make.py, never deleted)."""
    graph, clone = histories["attrs"]
    result = await ask(graph, "when was src/attr/_make.py added, and when was the file removed?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = " ".join(result.limitations)
    assert NOT_ANSWERED not in said, said
    assert not shared_history.git(clone, "log", "--no-merges", "--full-history",
                                  "--diff-filter=D", "--format=%h", "--", "src/attr/_make.py")  # fmt: skip
    assert "src/attr/_make.py was never deleted" in (result.direct_judgment or "")
