"""A package moved while a maintenance branch kept changing it at its old path, merged after
the move (graph/git/modules.py): one subject whatever its path was, counting what
`git log -- src/lab lab` counts, however git orders the branch's commits; a file moved into
a subpackage counts for it with the lines git's `-M` gives the move."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.models import SourceRecordKind
from engine.ports import OrgGraph
from tests import gitrepo
from tests.git_fixture import imported_graph  # noqa: F401 - the `graph` fixture
from tests.gitrepo import ALEX, JO, SAM
from tests.test_nested_packages import git_commits

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
PACKAGE, SUB = "module:lab/src/lab", "module:lab/src/lab/sub"
CORE = "module:lab/src/lab/core.py"


def build(path: Path) -> gitrepo.Repo:
    """lab/ (core.py, io.py) moves to src/lab/ on main while a maintenance branch forked
    before keeps fixing lab/core.py, its commits dated after the move (git lists them before
    it); the branch is merged after. Then io.py moves into the subpackage sub/ with an edit."""
    repo = gitrepo.Repo(path, NOW)
    repo.write("lab/__init__.py", "")
    repo.lines("lab/core.py", 10, "core")
    repo.lines("lab/io.py", 20, "io")
    repo.commit(ALEX, 100, "Start lab")
    repo.git("checkout", "-q", "-b", "maint")
    repo.git("checkout", "-q", "main")
    (repo.path / "src").mkdir()
    repo.git("mv", "lab", "src/lab")
    repo.commit(ALEX, 60, "Move to a src layout")
    repo.git("checkout", "-q", "maint")
    repo.lines("lab/core.py", 3, "fix")
    repo.commit(SAM, 50, "Maintenance: fix core")
    repo.lines("lab/core.py", 2, "fix2")
    repo.commit(SAM, 45, "Maintenance: fix core again")
    repo.git("checkout", "-q", "main")
    gitrepo.merge(repo, "maint", JO, 40)
    repo.write("src/lab/sub/__init__.py", "")
    repo.git("mv", "src/lab/io.py", "src/lab/sub/io.py")
    repo.lines("src/lab/sub/io.py", 2, "edit")
    repo.commit(JO, 30, "io into sub")
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> gitrepo.Repo:
    return build(tmp_path_factory.mktemp("moves") / "lab")


async def commits_and_lines(graph: OrgGraph, key: str) -> tuple[Counter[str], list[int]]:
    found = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
    commits: Counter[str] = Counter()
    lines = [0, 0]
    for record in found[key]:
        value = int(record.value or 0)
        if record.metric == "commits" and record.actor:
            commits[record.actor.removeprefix("person:")] += value
        lines[0] += value if record.metric == "lines_added" else 0
        lines[1] += value if record.metric == "lines_removed" else 0
    return commits, lines


def test_git_lists_the_branch_before_the_move(repo: gitrepo.Repo) -> None:
    """What makes the case: the maintenance commits come first in `git log`'s order."""
    order = repo.git("log", "--format=%s").splitlines()
    assert order.index("Maintenance: fix core") < order.index("Move to a src layout")


async def test_the_moved_package_is_one_subject_counting_its_old_path(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    """Before, lab/ was a module of its own (the two maintenance commits) beside src/lab,
    the move not followed (src/lab counted 3 commits; git 5)."""
    assert await graph.subjects_by_keys(["module:lab/lab"]) == {}
    found = (await graph.subjects_by_keys([PACKAGE]))[PACKAGE]
    # its earlier path, though spelled as its name: it says the package moved
    assert found.name == "lab" and found.previous_names == ["lab"]
    commits, _ = await commits_and_lines(graph, PACKAGE)
    assert commits == git_commits(repo, "src/lab", "lab")
    assert sum(commits.values()) == 5
    core, _ = await commits_and_lines(graph, CORE)
    assert core["sam@corp.example"] == 2  # the maintenance fixes, on lab/core.py


async def test_a_file_moved_into_a_subpackage_counts_the_moves_lines(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    """git -M: the move of io.py into sub/ with two lines added is +2 -0 (plus sub's
    __init__.py, empty): sub counts the commit and those lines, lab counts them once."""
    stat = repo.git("log", "-1", "-M", "--numstat", "--format=", "HEAD")
    assert "2\t0\tsrc/lab/{ => sub}/io.py" in stat
    commits, lines = await commits_and_lines(graph, SUB)
    assert commits == git_commits(repo, "src/lab/sub") == Counter({"jo@corp.example": 1})
    assert lines == [2, 0]
    _, package_lines = await commits_and_lines(graph, PACKAGE)
    assert package_lines == [10 + 20 + 3 + 2 + 2, 0]
