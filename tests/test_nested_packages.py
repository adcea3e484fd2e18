"""A package inside a directory module counts for it too (graph/git/modules.py): click's
`tests/test_utils` is a module of its own and part of `tests`, so "how many commits to the
tests?" is what `git log -- tests` counts, a commit touching both once. A src layout's `src`,
holding nothing but its package, is no module. Over a repository these tests make with git,
loaded into the real embedded FalkorDB; expected counts come from `git log`."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.models import Direction, RelationshipType, SourceRecordKind
from engine.ports import OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from graph.git.tree import bare, module_dirs
from graph.projection import Projector
from graph.records import FORMAT_NAME, FORMAT_VERSION
from tests import gitrepo
from tests.conftest import new_org
from tests.git_fixture import imported_graph  # noqa: F401 - the `graph` fixture
from tests.gitrepo import ALEX, JO, SAM
from tests.test_investigate import answer

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
TESTS, HELPERS = "module:lab/tests", "module:lab/tests/helpers"
EXAMPLES, DEMO = "module:lab/examples", "module:lab/examples/demo"
CX, CLI = "module:lab/examples/cx", "module:lab/examples/cx/cx/cli.py"
CX_PACKAGE = "module:lab/examples/cx/cx"
PATHS = {TESTS: "tests", HELPERS: "tests/helpers", EXAMPLES: "examples", DEMO: "examples/demo",
         CX: "examples/cx", CX_PACKAGE: "examples/cx/cx", CLI: "examples/cx/cx/cli.py",
         "module:lab/src/lab": "src/lab"}  # fmt: skip


def build(path: Path) -> gitrepo.Repo:
    """Directories holding packages: tests/ (tests/helpers/, a package), examples/ (two
    example projects, one with a Python module), a src layout; commits touching only the
    nested package, and one touching both it and its directory."""
    repo = gitrepo.Repo(path, NOW)
    repo.write("src/lab/__init__.py", "")
    repo.lines("src/lab/core.py", 10, "core")
    repo.lines("tests/test_core.py", 4, "test")
    repo.commit(ALEX, 90, "Start the lab package")
    repo.write("tests/helpers/__init__.py", "")
    repo.lines("tests/helpers/test_io.py", 6, "io")
    repo.commit(SAM, 60, "Test helpers")  # only the nested package
    repo.lines("tests/test_core.py", 2, "more")
    repo.lines("tests/helpers/test_io.py", 3, "more")
    repo.commit(JO, 50, "Tests and helpers")  # both: once for tests
    repo.lines("examples/README", 2, "readme")
    repo.lines("examples/demo/pyproject.toml", 2, "toml")
    repo.lines("examples/demo/demo.py", 3, "demo")
    repo.commit(SAM, 40, "A demo example")
    repo.lines("examples/demo/pyproject.toml", 1, "bump")
    repo.commit(JO, 30, "Bump the demo")  # only the nested package
    repo.lines("examples/cx/pyproject.toml", 2, "toml")
    repo.write("examples/cx/cx/__init__.py", "")
    repo.lines("examples/cx/cx/cli.py", 5, "cli")
    repo.commit(ALEX, 20, "A complex example")
    repo.lines("examples/cx/cx/cli.py", 2, "fix")
    repo.commit(SAM, 10, "Fix the complex example")
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> gitrepo.Repo:
    return build(tmp_path_factory.mktemp("nested") / "lab")


def git_commits(repo: gitrepo.Repo, *paths: str) -> Counter[str]:
    out = repo.git("log", "--no-merges", "--full-history", "--format=%aE", "--", *paths)
    return Counter(line.lower() for line in out.split())


async def commits_by_person(graph: OrgGraph, key: str) -> Counter[str]:
    """A module's commits per person from its daily rollups."""
    found = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
    out: Counter[str] = Counter()
    for record in found[key]:
        if record.metric == "commits" and record.actor:
            out[record.actor.removeprefix("person:")] += int(record.value or 0)
    return out


ask = partial(answer, now=NOW)


@pytest.mark.parametrize("key", list(PATHS))
async def test_each_module_counts_what_git_log_of_its_path_counts(
    graph: OrgGraph, repo: gitrepo.Repo, key: str
) -> None:
    """tests: 3 commits (git), one of them only in tests/helpers; the commit touching
    both once. examples: 4, three of them only in its packages."""
    expected = git_commits(repo, PATHS[key])
    assert await commits_by_person(graph, key) == expected
    records = await graph.source_records_of([key], kinds=[SourceRecordKind.COMMIT])
    assert len(records[key]) == sum(expected.values())


async def test_a_nested_package_is_part_of_its_directory(graph: OrgGraph) -> None:
    keys = [HELPERS, DEMO, CX, CX_PACKAGE, CLI]
    edges = await graph.relationships_of(
        keys, types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
    )
    parents = {k: [e.other.key for e in edges.get(k, [])] for k in keys}
    assert parents == {
        HELPERS: [TESTS], DEMO: [EXAMPLES], CX: [EXAMPLES], CX_PACKAGE: [CX], CLI: [CX_PACKAGE]
    }  # fmt: skip
    # A src layout's src holds nothing but its package: no module.
    assert await graph.subjects_by_keys(["module:lab/src"]) == {}


def test_the_module_directories_and_those_that_are_none() -> None:
    listing = ["src/lab/__init__.py", "src/lab/sub/x.py", "tests/a.py", "tests/h/__init__.py",
               "docs/x.md", "examples/README", "examples/d/pyproject.toml",
               "top/pkg/sub/setup.py", "ci/run.sh"]  # fmt: skip
    dirs = module_dirs(listing)
    assert dirs == {"src/lab": "package", "src/lab/sub": "directory", "tests": "directory",
                    "tests/h": "package", "docs": "directory", "examples": "directory",
                    "examples/d": "package", "top/pkg/sub": "package",
                    "ci": "directory"}  # fmt: skip
    # src and top hold nothing but modules: no module; ci holds a file: a directory module
    # (`module_layout` 8; before, only at the module depth).
    assert bare(listing, dirs, 1) == {"src", "top"}
    assert bare(listing, dirs, 2) == {"top/pkg"}


async def test_a_question_about_the_directory_counts_its_packages(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    result = await ask(graph, "how many commits to tests in the last 100 days?")
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == (TESTS,)
    assert (result.direct_judgment or "").startswith("3 commit(s) to tests ")
    assert sum(git_commits(repo, "tests").values()) == 3
    who = await ask(graph, "who changed examples in the last 35 days?")
    assert who.outcome is Outcome.ANSWERED and who.subject_keys == (EXAMPLES,)
    for name in ("Jo Park", "Alex Kim", "Sam Lee"):  # the demo, cx, cli.py: never examples/
        assert name in (who.direct_judgment or ""), who.direct_judgment


async def test_a_directory_and_what_it_holds_count_a_commit_once(graph: OrgGraph) -> None:
    """examples holds cli.py through examples/cx: Sam Lee's fix of cli.py is one commit."""
    result = await ask(graph, "who changed examples and cli.py in the last 15 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert "Sam Lee (1 commit(s)" in (result.direct_judgment or ""), result.direct_judgment


@pytest.mark.parametrize(
    ("layout", "said"),
    [
        (2, "a package inside a directory module"),
        (3, "subpackages and directories of Python"),
        (4, "earlier path spelled as its name"),
        (5, "how many of its lines were added"),
        (6, "every directory holding a file"),
        (7, "every directory holding a file"),
        (13, "holding deleted files or folders was not marked"),
    ],
)
async def test_a_repository_imported_before_is_read_again_once(
    falkor: FalkorStore, tmp_path: Path, layout: int, said: str
) -> None:
    """An import of layout 2 counted tests/helpers for itself alone, one of layout 3 made
    no module of examples/cx/cx: the next run reads the whole history again, said, and then
    counts it for tests too."""
    repo = build(tmp_path / "lab")
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        await import_git(graph, GitImport(repo.path))
        stored = (await graph.subjects_by_keys(["repository:lab"]))["repository:lab"]
        old = stored.model_dump(mode="json", exclude={"id", "stub"}, exclude_none=True)
        old["attributes"]["module_layout"] = layout  # as if that layout had imported it
        header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
        lines = [json.dumps(r).encode() for r in (header, {"type": "subject", **old})]
        assert (await Projector(graph, source="git:lab", resume=False).run(lines)).ok
        repo.lines("tests/helpers/test_io.py", 1, "new")
        repo.commit(JO, 1, "Helpers: one more")
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "full"
        assert any(said in w for w in again.warnings), again.warnings
        assert await commits_by_person(graph, TESTS) == git_commits(repo, "tests")
        assert (await import_git(graph, GitImport(repo.path))).mode == "up_to_date"
    finally:
        await falkor.drop_org(org)


async def test_a_file_path_in_the_directory_names_it_and_is_not_answered(
    graph: OrgGraph,
) -> None:
    """tests/ holds packages, and no file tests/runner.py: the path names no file of the
    head, said, never answered for its directory. It was answered for the directory, said: another file's
    changes and count (c32b: "examples/naval/naval.py" got its folder's last change)."""
    result = await ask(graph, "what changed in tests/runner.py in the last 100 days?")
    assert result.outcome is Outcome.NO_MATCH and result.subject_keys == ()
    assert any(n.startswith('"tests/runner.py" names no file of the repository as it is now')
               and "none for tests (tests) in its place" in n for n in result.limitations), (
        result.limitations
    )
    missing = await ask(graph, "what changed in examples/cx/cx/nothing.py in the last 100 days?")
    assert missing.outcome is Outcome.NO_MATCH, missing.limitations
