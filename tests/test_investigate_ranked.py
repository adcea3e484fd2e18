"""Subjects ranked by how much they changed ("which modules changed the most in 2025?") on
the in-memory graph: commits counted, never daily rollups; equal counts by key, at the cut
too; the window half-open; files and what a repository holds; an organisation without
commits told it has none to rank. The real history is tests/test_click_history.py."""

from __future__ import annotations

from typing import Any

from engine.domain.contract import Outcome
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from tests.conftest import new_org
from tests.helpers import load, subject
from tests.test_investigate import answer, load_demo

IN_2025 = "2025-06-01T12:00:00Z"
HEAD = "Ranked by commits from 2025-01-01T00:00:00Z to 2026-01-01T00:00:00Z, the most first"


def module(path: str, repo: str = "r1") -> dict[str, Any]:
    name = path.rsplit("/", 1)[-1]
    return subject(
        f"module:{repo}/{path}", name, attributes={"repository": repo, "path": path}
    )


def commits(key: str, count: int, at: str = IN_2025) -> list[dict[str, Any]]:
    return [{"type": "source_record", "key": f"commit:git:r:{at}{i:04}:{key}", "record_kind": "commit",
             "subject": key, "actor": "person:ann", "start": at, "end": at, "title": f"c{i}",
             "source": "git:r"} for i in range(count)]  # fmt: skip


def rollup(key: str, value: int) -> dict[str, Any]:
    return {"type": "source_record", "key": f"metric_rollup:{key}", "record_kind": "metric_rollup",
            "subject": key, "actor": "person:ann", "start": "2025-06-01T00:00:00Z",
            "end": "2025-06-02T00:00:00Z", "metric": "commits", "value": value}  # fmt: skip


async def graph_of(records: list[dict[str, Any]]) -> OrgGraph:
    store = MemoryStore()
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    people = [subject("person:ann", "Ann"), subject("repository:r1"), subject("repository:r2")]
    assert (await load(graph, people + records)).ok
    return graph


ask = answer


async def test_commits_are_counted_never_daily_rollups() -> None:
    """A rollup saying 50 commits is no commit: the module with more commit records leads."""
    rolled, committed = "module:r1/a", "module:r1/b"
    graph = await graph_of(
        [module("a"), module("b"), *commits(rolled, 2), rollup(rolled, 50), *commits(committed, 3)]
    )
    result = await ask(graph, "which modules changed the most in 2025?")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == (committed, rolled)
    assert result.direct_judgment == (
        f"{HEAD} (each commit counted once for each subject it touched; equal counts in key "
        "order): 1. b (3 commit(s)); 2. a (2 commit(s))."
    )
    assert result.limitations[0].startswith("2 modules had commits from 2025-01-01")
    assert result.limitations[0].endswith("all of them are ranked.")
    evidence = {e.ref for d in result.drivers for e in d.evidence}
    assert evidence and all(ref.startswith("commit:git:") for ref in evidence)


async def test_equal_counts_are_in_key_order_and_the_cut_is_said() -> None:
    keys = [f"module:r1/m{i}" for i in (3, 1, 2, 4)]
    records = [module(k.split("/", 1)[1]) for k in keys] + [r for k in keys for r in commits(k, 2)]
    graph = await graph_of(records + commits("module:r1/m4", 1, "2025-07-01T00:00:00Z"))
    result = await ask(graph, "top 2 most changed modules in 2025")
    assert result.subject_keys == ("module:r1/m4", "module:r1/m1")
    assert "1. m4 (3 commit(s)); 2. m1 (2 commit(s))." in (result.direct_judgment or "")
    assert result.limitations[0].startswith("4 modules had commits from 2025-01-01")
    assert "the 2 with the most are ranked (equal counts in key order, at the cut too)" in (
        result.limitations[0]
    )


async def test_the_window_ends_before_its_end() -> None:
    """A commit at the first instant of 2026 is not one of 2025's."""
    graph = await graph_of(
        [module("a"), module("b"), *commits("module:r1/a", 1),
         *commits("module:r1/b", 2, "2026-01-01T00:00:00Z")]
    )  # fmt: skip
    result = await ask(graph, "which modules changed the most in 2025?")
    assert result.subject_keys == ("module:r1/a",)


async def test_files_are_the_modules_that_are_files_inside_what_is_named() -> None:
    package, core, other = "module:r1/src/pkg", "module:r1/src/pkg/core.py", "module:r2/x.py"
    graph = await graph_of(
        [module("src/pkg"), module("src/pkg/core.py"), module("x.py", "r2"),
         *commits(package, 5), *commits(core, 1), *commits(other, 4)]
    )  # fmt: skip
    result = await ask(graph, "which files in r1 changed the most in 2025?")
    assert result.subject_keys == (core,)
    assert result.limitations[0].startswith("1 file in r1 had commits from 2025-01-01")
    assert any(n.startswith("Every file of the repository as it is now") for n in result.limitations)
    result = await ask(graph, "which modules changed the most in 2025?")
    assert result.subject_keys == (package, other, core)


async def test_a_package_left_out_of_its_directory_is_said() -> None:
    """An import of layout 3 makes tests/helpers PART_OF tests and counts it for tests: the
    ranking says nothing more. One of layout 2 (not read again since) did neither: the
    ranking says tests' count leaves tests/helpers out."""
    tests, helpers = "module:r1/tests", "module:r1/tests/helpers"
    base = [module("tests"), module("tests/helpers"), *commits(tests, 3), *commits(helpers, 1)]
    said = "tests/helpers is a module of its own: its commits are not counted for tests."
    old = await ask(await graph_of(base), "which modules changed the most in 2025?")
    assert old.subject_keys == (tests, helpers) and said in old.limitations
    part = {"type": "relationship", "relation": "PART_OF", "from": helpers, "to": tests,
            "id": f"git:r1:{helpers}<{tests}"}  # fmt: skip
    new = await ask(await graph_of([*base, part]), "which modules changed the most in 2025?")
    assert new.subject_keys == (tests, helpers) and said not in new.limitations
    assert any("a directory's the commits to the packages inside it" in n
               for n in new.limitations)  # fmt: skip


async def test_a_ranking_inside_a_person_ranks_by_their_part() -> None:
    """It said "Ranking modules by one person's commits is not computed" (issue 32: "which
    files did David Lord change most in the spring?"). Bob's commits to b outnumber Ann's
    to a, and are not hers: a alone is ranked, with her one commit."""
    bobs = [{**r, "key": f"{r['key']}:bob", "actor": "person:bob"}
            for r in commits("module:r1/b", 3)]  # fmt: skip
    graph = await graph_of(
        [subject("person:bob", "Bob"), module("a"), module("b"), *commits("module:r1/a", 1), *bobs]
    )
    result = await ask(graph, "which modules did Ann change the most in 2025?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:r1/a",)
    assert "1. a by Ann (1 commit(s))" in (result.direct_judgment or "")


async def test_an_organisation_without_commits_has_none_to_rank() -> None:
    """The demo holds daily rollups and no commit: ranking them would not be git's order."""
    graph = await load_demo(MemoryStore(), 600)
    result = await ask(graph, "which repositories changed the most?")
    assert result.outcome is Outcome.NO_MATCH
    # Naming no time, a ranking asks about the whole history: its subjects are found over
    # the widest window one answer may cover, the last 400 days (engine/resolving/
    # wholehistory.py); it said the default year's.
    assert result.limitations == (
        "No repository has a commit recorded from 2025-10-16T12:00:00Z to "
        "2026-11-20T12:00:00Z: there are no commits to rank. Only commits are counted, one "
        "per commit and subject; daily metric rollups are not commits.",
    )
    assert not result.drivers and not result.direct_judgment
