"""What the git import writes for histories it was never tuned to (werkzeug, requests; the
bundles in ../shared/data), checked against `git log` itself: packages at every depth are
modules counting what `git log -- PATH EARLIER-PATHS` counts (lines as `-M --numstat`
gives them), a package keeps one subject through its moves, every author string is a person
and every commit is kept."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.domain.models import Direction, RelationshipType, SourceRecordKind
from engine.ports import OrgGraph
from engine.resolving.resolution import Resolved, Resolver
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, GitImportReport, import_git
from tests import shared_history
from tests.conftest import new_org

pytestmark = shared_history.present("werkzeug", "requests")

Imported = tuple[OrgGraph, Path, GitImportReport]


def _imported(name: str, fixture: str) -> Any:
    """A module-scoped fixture: the bundle `name` cloned and imported into a new
    organisation, dropped after the module."""

    @pytest.fixture(scope="module", name=fixture)
    async def imported(
        falkor: FalkorStore, tmp_path_factory: pytest.TempPathFactory
    ) -> AsyncIterator[Imported]:
        path = shared_history.shared_clone(name, tmp_path_factory)
        org = new_org()
        await falkor.bootstrap(org)
        graph = falkor.org(org)
        report = await import_git(graph, GitImport(path))
        yield graph, path, report
        await falkor.drop_org(org)

    return imported


requests_ = _imported("requests", "requests_")
werkzeug = _imported("werkzeug", "werkzeug")


def git_commits(path: Path, *paths: str) -> set[str]:
    out = shared_history.git(
        path, "log", "--no-merges", "--full-history", "--format=%H", "HEAD", "--", *paths
    )
    return set(out.split())


def git_numstat(path: Path, *paths: str) -> dict[str, tuple[int, int]]:
    """Lines added and removed under `paths` per commit, as `git log -M --numstat` of the
    whole repository gives them: a moved file's entry once, with the lines of its edit,
    when its old or its new path lies there."""
    text = shared_history.git(
        path, "-c", "core.quotepath=off", "log", "--no-merges", "-M", "--numstat", "-z",
        "--format=%x1e%H", "HEAD",
    )  # fmt: skip
    out: dict[str, tuple[int, int]] = {}
    for block in text.split("\x1e")[1:]:
        sha, _, rest = block.partition("\n")
        sha = sha.strip("\0")
        tokens = iter(t.lstrip("\n") for t in rest.split("\0"))
        for token in tokens:
            if not token:
                continue
            plus, minus, name = ([*token.split("\t", 2), "", ""])[:3]
            names = [name] if name else [next(tokens, ""), next(tokens, "")]
            if any(n == p or n.startswith(f"{p}/") for n in names for p in paths):
                added, removed = out.get(sha, (0, 0))
                added += int(plus) if plus.isdigit() else 0
                removed += int(minus) if minus.isdigit() else 0
                out[sha] = (added, removed)
    return out


def git_lines(path: Path, *paths: str) -> tuple[int, int]:
    per = git_numstat(path, *paths).values()
    return sum(a for a, _ in per), sum(r for _, r in per)


def git_lines_per_commit(path: Path, *paths: str) -> dict[str, int]:
    """Lines changed (added and removed) under `paths` per commit."""
    return {sha: a + r for sha, (a, r) in git_numstat(path, *paths).items()}


async def counted(graph: OrgGraph, key: str) -> tuple[set[str], tuple[int, int]]:
    """A module's commits (from its commit records) and lines (from its daily rollups)."""
    found = await graph.source_records_of([key], kinds=[SourceRecordKind.COMMIT])
    shas = {r.key.split(":")[3] for r in found[key]}
    rollups = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
    lines = {"lines_added": 0, "lines_removed": 0}
    for record in rollups[key]:
        if record.metric in lines:
            lines[record.metric] += int(record.value or 0)
    return shas, (lines["lines_added"], lines["lines_removed"])


async def parent(graph: OrgGraph, key: str) -> list[str]:
    edges = await graph.relationships_of(
        [key], types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
    )
    return [e.other.key for e in edges.get(key, [])]


WERKZEUG_PACKAGES = {  # path: its earlier paths (before the move to src/ in 2019)
    # routing and datastructures were files before they were packages (2022, 2023): one
    # module over time (graph/git/modules.py), the files' commits counted for them.
    "src/werkzeug/routing": ["src/werkzeug/routing.py", "werkzeug/routing.py"],
    "src/werkzeug/debug": ["werkzeug/debug"],
    "src/werkzeug/sansio": [], "src/werkzeug/middleware": ["werkzeug/middleware"],
    "src/werkzeug/wrappers": ["werkzeug/wrappers"],
    "src/werkzeug/datastructures": ["src/werkzeug/datastructures.py", "werkzeug/datastructures.py"],
}  # fmt: skip


@pytest.mark.parametrize("path", list(WERKZEUG_PACKAGES))
async def test_werkzeug_subpackages_are_modules_counted_as_git_counts(
    werkzeug: Imported, path: str
) -> None:
    """Before, a subpackage was no module: "the routing code" or "the debug package" asked
    which file was meant. werkzeug.debug: 297 commits (git log -- src/werkzeug/debug
    werkzeug/debug), werkzeug.routing 58."""
    graph, clone, report = werkzeug
    assert report.invalid == 0, report.warnings
    key = f"module:werkzeug/{path}"
    found = (await graph.subjects_by_keys([key])).get(key)
    assert found is not None, key
    segment = path.rpartition("/")[2]
    assert found.name == f"werkzeug.{segment}"
    assert {segment, path, f"werkzeug/{path}"} <= set(found.aliases)
    assert found.attributes["module_kind"] == "package"
    files = [f"{segment}.py"] if f"{path}.py" in WERKZEUG_PACKAGES[path] else []
    assert found.previous_names == WERKZEUG_PACKAGES[path] + files  # and the file's name
    assert await parent(graph, key) == ["module:werkzeug/src/werkzeug"]
    paths = [path, *WERKZEUG_PACKAGES[path]]
    shas, lines = await counted(graph, key)
    assert shas == git_commits(clone, *paths)
    assert lines == git_lines(clone, *paths)


async def test_werkzeug_files_and_test_directories_are_in_their_innermost_module(
    werkzeug: Imported,
) -> None:
    """rules.py is part of werkzeug.routing, tests/sansio of tests (21 commits, as git
    log -- tests/sansio counts: beside src/werkzeug/sansio, 90); tests/middleware is a
    directory of test files, a module holding the test file moved into it in 2019 (0 lines,
    as -M gives them)."""
    graph, clone, _ = werkzeug
    rules = "module:werkzeug/src/werkzeug/routing/rules.py"
    assert await parent(graph, rules) == ["module:werkzeug/src/werkzeug/routing"]
    for path, name in [("tests/sansio", "sansio"), ("tests/middleware", "tests/middleware")]:
        key = f"module:werkzeug/{path}"
        assert (await graph.subjects_by_keys([key]))[key].name == name
        assert await parent(graph, key) == ["module:werkzeug/tests"]
        shas, lines = await counted(graph, key)
        assert shas == git_commits(clone, path)
        assert lines == git_lines(clone, path)
    assert len((await counted(graph, "module:werkzeug/tests/sansio"))[0]) == 21


async def test_werkzeug_keeps_one_subject_through_its_moves(werkzeug: Imported) -> None:
    """werkzeug/ moved to src/werkzeug/ (2019), werkzeug/testsuite/ to tests/ (2014): the
    commit moving the test suite out of the package counts for both, as git log -- PATH
    counts it (src/werkzeug: 3,099 commits; 3,098 before, that commit missing; tests: 1,311
    with werkzeug/testsuite, 958 before)."""
    graph, clone, _ = werkzeug
    for path, earlier in [("src/werkzeug", ["werkzeug"]), ("tests", ["werkzeug/testsuite"])]:
        key = f"module:werkzeug/{path}"
        found = (await graph.subjects_by_keys([key]))[key]
        assert found.previous_names == earlier  # "werkzeug" too: a path, not its name
        shas, lines = await counted(graph, key)
        assert shas == git_commits(clone, path, *earlier)
        assert lines == git_lines(clone, path, *earlier)
    assert len((await counted(graph, "module:werkzeug/src/werkzeug"))[0]) == 3099
    assert await graph.subjects_by_keys(["module:werkzeug/werkzeug"]) == {}


async def test_requests_keeps_one_package_through_its_move_to_src(requests_: Imported) -> None:
    """requests moved to src/ in 2023 (d63e94f5); 1604e20f was authored in 2022 and landed
    in 2024, on the new path: one subject, 2,218 commits as git log -- src/requests
    requests counts them."""
    graph, clone, _ = requests_
    key = "module:requests/src/requests"
    found = (await graph.subjects_by_keys([key]))[key]
    assert found.name == "requests" and found.previous_names == ["requests"]  # its old path
    shas, lines = await counted(graph, key)
    assert shas == git_commits(clone, "src/requests", "requests") and len(shas) == 2218
    assert any(sha.startswith("1604e20f") for sha in shas)
    assert lines == git_lines(clone, "src/requests", "requests")
    assert await graph.subjects_by_keys(["module:requests/requests"]) == {}


async def test_each_commit_record_carries_its_lines(werkzeug: Imported) -> None:
    """Per-commit records hold what a window cutting a day needs to count lines to the
    instant: each commit record of werkzeug.routing (58) and of the repository carries the
    lines the commit changed there (added and removed together), as git -M --numstat gives
    them; before, a commit record held no lines (only the day's rollups did)."""
    graph, clone, _ = werkzeug
    for key, paths in [
        ("module:werkzeug/src/werkzeug/routing", ["src/werkzeug/routing", *WERKZEUG_PACKAGES["src/werkzeug/routing"]]),
        ("repository:werkzeug", [""]),
    ]:
        found = await graph.source_records_of([key], kinds=[SourceRecordKind.COMMIT])
        truth = git_lines_per_commit(clone, *paths) if paths != [""] else None
        mine = {r.key.split(":")[3]: r for r in found[key]}
        assert all(r.metric == "lines_changed" for r in mine.values())
        if truth is not None:
            assert {sha: int(r.value or 0) for sha, r in mine.items()} == {
                sha: truth.get(sha, 0) for sha in mine
            }
            assert set(truth) <= set(mine)
        # A day's commit records add up to its rollups' lines.
        rollups = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
        by_day: Counter[str] = Counter()
        for r in rollups[key]:
            if r.metric in ("lines_added", "lines_removed"):
                by_day[r.start.date().isoformat()] += int(r.value or 0)
        per_commit: Counter[str] = Counter()
        for r in mine.values():
            per_commit[r.start.date().isoformat()] += int(r.value or 0)
        assert +per_commit == +by_day


def odd_authors(path: Path) -> Counter[str]:
    """Commits per oddity of the author string as written (before the mailmap)."""
    out: Counter[str] = Counter()
    text = shared_history.git(path, "log", "--format=%an%x1f%ae%x1e", "HEAD")
    for line in text.split("\x1e")[:-1]:
        name, email = line.strip("\n").split("\x1f")
        if not name.strip():
            out["no_name"] += 1
        if not email.strip():
            out["no_address"] += 1
        elif not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s.]+", email.strip()):
            out["not_an_address"] += 1
        if "\ufffd" in name + email:
            out["not_utf8"] += 1
    return out


async def test_requests_odd_authors_are_people_and_counted(requests_: Imported) -> None:
    """requests: 'digitalxero <none@none>', 'tzickel <private@com>' and 'Ravi Prakash
    Putchala <praks.putchala>' wrote addresses that are none; each is a person, asked by
    name, and the summary counts their commits (git: 14 such commits)."""
    graph, path, report = requests_
    assert report.invalid == 0, report.warnings
    assert report.odd_authors == dict(sorted(odd_authors(path).items()))
    assert report.odd_authors == {"not_an_address": 14}
    assert report.commits == int(shared_history.git(path, "rev-list", "--count", "HEAD"))
    resolver = Resolver(graph, ReferenceRing(), graph.org_id)
    for name in ("digitalxero", "tzickel", "Ravi Prakash Putchala", "praks.putchala"):
        resolution = await resolver.resolve("me", name, use_recent=False)
        assert isinstance(resolution, Resolved), name
