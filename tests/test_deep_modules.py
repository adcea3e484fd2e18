"""Modules five PART_OF steps deep (the git import makes packages at every depth modules,
each PART_OF the innermost module directory above it: graph/git/modules.py). click's
examples/complex/complex/commands/cmd_init.py is four steps below examples; the engine must
follow the chain to the top, however deep. Over a repository these tests make with git,
loaded into the real embedded FalkorDB; expected counts come from `git log`."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.models import Direction, RelationshipType
from engine.ports import OrgGraph
from tests import gitrepo
from tests.git_fixture import imported_graph  # noqa: F401 - the `graph` fixture
from tests.gitrepo import ALEX, JO, SAM
from tests.test_nested_packages import ask, git_commits

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
DEEP = "examples/cx/cx/commands/deep"
RUNNER = f"{DEEP}/runner.py"
CHAIN = [f"module:lab/{p}" for p in (RUNNER, DEEP, "examples/cx/cx/commands",
                                      "examples/cx/cx", "examples/cx", "examples")]  # fmt: skip


def build(path: Path) -> gitrepo.Repo:
    """A src package, and under examples/ a project whose package nests two subpackages:
    runner.py is five PART_OF steps below examples."""
    repo = gitrepo.Repo(path, NOW)
    repo.write("src/lab/__init__.py", "")
    repo.lines("src/lab/core.py", 10, "core")
    repo.commit(ALEX, 90, "Start the lab package")
    repo.lines("examples/cx/pyproject.toml", 2, "toml")
    for package in ("examples/cx/cx", "examples/cx/cx/commands", DEEP):
        repo.write(f"{package}/__init__.py", "")
    repo.lines(RUNNER, 5, "run")
    repo.commit(JO, 40, "A complex example with commands")
    repo.lines("examples/cx/cx/commands/init.py", 3, "init")
    repo.lines("examples/cx/cx/main.py", 3, "main")
    repo.commit(ALEX, 30, "Commands and a main")
    repo.write("src/lab/plugins/__init__.py", "")  # nothing but a subpackage beside it
    repo.lines("src/lab/plugins/web/app.py", 4, "app")
    repo.write("src/lab/plugins/web/__init__.py", "")
    repo.commit(JO, 20, "A web plugin")
    repo.lines(RUNNER, 2, "fix")
    repo.commit(SAM, 10, "Fix the runner")  # only the deepest module
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> gitrepo.Repo:
    return build(tmp_path_factory.mktemp("deep") / "lab")


async def test_the_chain_is_five_steps(graph: OrgGraph) -> None:
    edges = await graph.relationships_of(
        CHAIN[:-1], types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
    )
    assert {k: [e.other.key for e in v] for k, v in edges.items()} == {
        low: [high] for low, high in pairwise(CHAIN)
    }


async def test_a_directory_and_a_module_five_steps_down_count_a_commit_once(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    """examples holds runner.py five steps up: Sam Lee's fix of runner.py is one commit of
    2 lines, as `git log --numstat -- examples examples/.../runner.py` lists it (when 3
    steps were followed, its lines were counted for both: 4)."""
    assert git_commits(repo, "examples", RUNNER)["sam@corp.example"] == 1
    stat = repo.git("log", "--no-merges", "--numstat", "--format=", "--author=Sam", "--",
                    "examples", RUNNER).split()  # fmt: skip
    assert stat == ["2", "0", RUNNER]
    result = await ask(graph, "who changed examples and runner.py in the last 15 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    said = result.direct_judgment or ""
    assert "Sam Lee (1 commit(s), 2 line(s))" in said, said


async def test_a_ranked_directory_counts_the_packages_at_any_depth(graph: OrgGraph) -> None:
    """examples/cx/cx is PART_OF examples/cx, itself PART_OF examples: its commits count for
    examples (`git log -- examples` lists them), so no answer says they do not (it was said
    for every module more than one step below a ranked one)."""
    result = await ask(graph, "which modules changed most in the last 100 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert "module:lab/examples" in result.subject_keys, result.subject_keys
    assert not [n for n in result.limitations if "is a module of its own" in n]


@pytest.mark.parametrize(
    "package", ["examples/cx/cx", "examples/cx/cx/commands", "src/lab/plugins"]
)
async def test_a_python_file_missing_from_a_package_holding_subpackages_is_not_tracked(
    graph: OrgGraph, package: str
) -> None:
    """Each package holds a Python module (main.py, init.py) and a subpackage whose key sorts
    first (commands, deep): a .py path in it that is no module is not tracked, never
    answered for the package. Only the first PART_OF edge was read, the subpackage's, whose
    path does not end in .py: answered for the package, said "not tracked by itself".
    src/lab/plugins holds only its __init__.py and a subpackage (web): no Python module at
    all, yet a .py file there would be one, so it is not tracked either (it was answered
    for src/lab/plugins)."""
    result = await ask(graph, f"what changed in {package}/nothing.py in the last 100 days?")
    assert result.outcome is Outcome.NO_MATCH, (result.subject_keys, result.limitations)
