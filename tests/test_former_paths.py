"""A path asked as it was before a move (issue 31): on attrs (attr/ moved to src/attr/ in
2015) and click (click/ moved to src/click/ in 2020), a file or package asked by a path under
the directory's old place is the module that path became, and the answer says so; its
figure is git's for the path and its earlier one (`git log --no-merges -- NEW OLD`). Each
history is cloned from ../shared/data and imported into the in-memory store."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.domain.facts import FactKind
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("attrs", "click")


(attrs_clone, attrs, click_clone, click) = shared_history.each("attrs", "click")
clones = shared_history.clones("attrs", "click")
graphs = shared_history.graphs("attrs", "click")


ask = partial(answer, now=CLOCK)


def git_commits(clone: Path, year: int, *paths: str) -> int:
    """Commits to PATHS in calendar `year`, by git (shared_history.commits)."""
    return shared_history.commits(clone, *shared_history.year(year), *paths)


def commits(result: InvestigationResult) -> int:
    found = [f for f in result.claimed_facts if f.kind is FactKind.COMMIT_ACTIVITY]
    assert len(found) == 1, result
    return int(found[0].value["commits"])


@pytest.mark.parametrize(
    ("history", "asked", "now", "year", "expected"),
    [
        # exceptions.py came after the move: its path under attr/ is where attr/ went
        ("attrs", "attr/exceptions.py", "src/attr/exceptions.py", 2016, 3),
        ("attrs", "attr/_make.py", "src/attr/_make.py", 2015, None),  # moved itself
        ("click", "click/shell_completion.py", "src/click/shell_completion.py", 2024, None),
        ("click", "click/core.py", "src/click/core.py", 2019, None),
        # click/utils.py was src/click/utils.py's path, and folds alike: never that file
        ("click", "click/_utils.py", "src/click/_utils.py", 2026, None),
    ],
)
async def test_a_path_from_before_a_move_is_the_module_it_became(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    asked: str,
    now: str,
    year: int,
    expected: int | None,
) -> None:
    """Before: NO_MATCH, '"attr/exceptions.py" is not tracked'."""
    result = await ask(graphs[history], f"how many commits touched {asked} in {year}?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (f"module:{history}/{now}",)
    truth = git_commits(clones[history], year, now, asked)
    assert truth > 0 and commits(result) == truth
    if expected is not None:
        assert truth == expected
    said = [note for note in result.limitations if note.startswith(f'"{asked}" is a')]
    assert len(said) == 1 and ("before a move" in said[0] or "former name" in said[0])
    assert said[0].endswith(f"its path now {now}.")


async def test_a_path_under_a_former_directory_naming_nothing_now_names_no_file(
    graphs: dict[str, OrgGraph],
) -> None:
    """The move is read only to a module of the head: attr/nowhere.py is no module, and
    the answer is no match saying so, never src/attr in its place."""
    result = await ask(graphs["attrs"], "how many commits touched attr/nowhere.py in 2016?")
    assert result.outcome is Outcome.NO_MATCH and result.subject_keys == ()
    said = [n for n in result.limitations if n.startswith('"attr/nowhere.py" names no ')]
    assert len(said) == 1 and "deleted or moved since" in said[0], result.limitations
