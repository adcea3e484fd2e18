"""Python modules are modules: each `.py` file of a package a module subject of its own
(`shop.routing`), part of its package, its history followed through a rename as
`git log --follow` does, and found by the names a user types ("the routing module",
"routing.py", "shop.routing"); a name two modules share is a clarification. Over a
repository these tests make with git (tests/gitrepo.py, build_python), loaded into the real
embedded FalkorDB; expected counts come from `git log`."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.models import Direction, RelationshipType, SourceRecordKind
from engine.ports import OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from graph.records import FORMAT_NAME, FORMAT_VERSION
from tests import gitrepo
from tests.conftest import new_org
from tests.git_fixture import imported_graph  # noqa: F401 - the `graph` fixture
from tests.test_investigate import answer

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
ROUTING = "module:shop/src/shop/routing.py"
PACKAGE = "module:shop/src/shop"
FILES = {
    "src/shop/routing.py": "shop.routing",
    "src/shop/utils.py": "shop.utils",
    "src/shop/testing.py": "shop.testing",
    "src/shop/shell_completion.py": "shop.shell_completion",
    "src/shop/api/handlers.py": "shop.api.handlers",
    "src/shop/api/utils.py": "shop.api.utils",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> gitrepo.Repo:
    return gitrepo.build_python(tmp_path_factory.mktemp("py") / "shop", NOW)


def followed(repo: gitrepo.Repo, path: str) -> Counter[str]:
    """Commits per author e-mail on one file, as `git log --follow` counts them."""
    out = repo.git("log", "--no-merges", "--full-history", "--follow", "--format=%aE", "--", path)
    return Counter(line.lower() for line in out.split())


async def commits_by_person(graph: OrgGraph, key: str) -> Counter[str]:
    found = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
    out: Counter[str] = Counter()
    for record in found[key]:
        if record.metric == "commits" and record.actor:
            out[record.actor.removeprefix("person:")] += int(record.value or 0)
    return out


ask = partial(answer, now=NOW)


async def test_each_file_of_a_package_is_a_module_named_by_its_dotted_name(
    graph: OrgGraph,
) -> None:
    keys = [f"module:shop/{p}" for p in FILES]
    found = await graph.subjects_by_keys([*keys, "module:shop/src/shop/__init__.py"])
    assert {k: found[k].name for k in keys} == {f"module:shop/{p}": n for p, n in FILES.items()}
    routing = found[ROUTING]
    assert {"routing", "routing.py", "src/shop/routing.py"} <= set(routing.aliases)
    assert routing.previous_names == ["src/shop/router.py", "router"]
    # No Python module (the package's own __init__.py, a file in no package, a test file)
    # but a file module all the same (module_layout 7), named by its path, no dotted name.
    plain = ["src/shop/__init__.py", "examples/completion/completion.py", "tests/test_routing.py"]
    files = await graph.subjects_by_keys([f"module:shop/{p}" for p in plain])
    assert {s.name for s in files.values()} == set(plain)
    assert all(s.attributes["module_kind"] == "file" for s in files.values())
    assert not any("dotted" in s.attributes for s in files.values())


async def test_a_module_is_part_of_its_package(graph: OrgGraph) -> None:
    keys = [f"module:shop/{p}" for p in FILES]
    edges = await graph.relationships_of(
        keys, types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
    )
    parents = {k: e.other.key for k in keys for e in edges.get(k, [])}
    api = f"{PACKAGE}/api"  # a subpackage: a module of its own, part of shop
    inside = {k: api if k.startswith(f"{api}/") else PACKAGE for k in keys}
    assert parents == inside
    edges = await graph.relationships_of(
        [api], types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
    )
    assert [e.other.key for e in edges[api]] == [PACKAGE]
    found = (await graph.subjects_by_keys([api]))[api]
    assert found.name == "shop.api" and {"api", "src/shop/api"} <= set(found.aliases)
    assert found.attributes["module_kind"] == "package"


@pytest.mark.parametrize("path", list(FILES))
async def test_commits_per_person_equal_git_log_follow(
    graph: OrgGraph, repo: gitrepo.Repo, path: str
) -> None:
    """routing.py was router.py: its first three commits are counted for it."""
    expected = followed(repo, path)
    assert sum(expected.values()) >= 1
    assert await commits_by_person(graph, f"module:shop/{path}") == expected


async def test_the_package_still_counts_every_change_of_its_modules(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    out = repo.git("log", "--no-merges", "--format=%aE", "--", "src/shop")
    assert await commits_by_person(graph, PACKAGE) == Counter(out.lower().split())


@pytest.mark.parametrize(
    "question",
    [
        "who knows the routing module best?",
        "who has driven changes to the routing module lately?",
        "how is shop.routing doing?",
        "who changed routing.py in the last 100 days?",
        "who changed src/shop/routing.py in the last 100 days?",
        "how is the routing doing?",
        "who knows the router module best?",  # its name before the rename
    ],
)
async def test_the_module_is_found_by_the_names_a_user_types(
    graph: OrgGraph, question: str
) -> None:
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (ROUTING,)
    assert not any("not used" in n or "not tracked" in n for n in result.limitations)


async def test_who_knows_it_best_ranks_by_git_log(graph: OrgGraph, repo: gitrepo.Repo) -> None:
    result = await ask(graph, "who knows the routing module best in the last 100 days?")
    git = repo.git(
        "log", "--no-merges", "--follow", "--format=%at %aN", "--", "src/shop/routing.py"
    )  # fmt: skip
    since = (NOW - timedelta(days=100)).timestamp()
    names = [n for at, n in (line.split(" ", 1) for line in git.splitlines()) if int(at) >= since]
    ((top, count),) = Counter(names).most_common(1)
    assert count >= 2  # the rename's history counts: Alex made router.py and renamed it
    found = re.search(r"ranked by commits: (.+?) \((\d+) commit", result.direct_judgment or "")
    assert found is not None and (found.group(1), int(found.group(2))) == (top, count)


@pytest.mark.parametrize("noun", ["people", "persons", "engineers"])
async def test_a_count_of_people_names_them_as_the_answer_not_the_module(
    graph: OrgGraph, repo: gitrepo.Repo, noun: str
) -> None:
    """"How many people changed routing.py?": the people are what is counted. It answered
    with 'The question names a person, but "routing.py" names none: it was taken to mean
    shop.routing', as if the module had been asked as a person."""
    result = await ask(graph, f"how many {noun} changed routing.py in the last 100 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (ROUTING,)
    assert not any("names a person" in n for n in result.limitations), result.limitations
    git = repo.git("log", "--no-merges", "--follow", "--format=%at %aE", "--", "src/shop/routing.py")
    since = (NOW - timedelta(days=100)).timestamp()
    people = {e for at, e in (line.split(" ", 1) for line in git.splitlines()) if int(at) >= since}
    assert f"{len(people)} people changed it" in (result.direct_judgment or "")


@pytest.mark.parametrize("question", ["how many people committed", "how many engineers committed"])
async def test_a_count_of_people_naming_no_subject_counts_the_organisations(
    graph: OrgGraph, repo: gitrepo.Repo, question: str
) -> None:
    """It read the people as the subjects asked about and answered "No count was available
    for Sam, Alex, Jo ... Each: 0 by Sam; 0 by Alex": people have no contributors of their
    own. The people who changed the organisation's repositories are counted."""
    result = await ask(graph, f"{question} in the last 100 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("repository:shop",)
    git = repo.git("log", "--no-merges", "--format=%at %aE")
    since = (NOW - timedelta(days=100)).timestamp()
    people = {e for at, e in (line.split(" ", 1) for line in git.splitlines()) if int(at) >= since}
    assert len(people) >= 2
    assert f"{len(people)} people changed it" in (result.direct_judgment or "")


async def test_a_limitation_is_said_once(graph: OrgGraph) -> None:
    """"April 31" is no day: it was said not understood three times, twice in the same
    words, each taking a place among the limitations an answer may state."""
    result = await ask(graph, "how many commits to routing.py on April 31?")
    assert len(result.limitations) == len(set(result.limitations)), result.limitations
    assert any('April 31"' in n for n in result.limitations), result.limitations  # "on April 31"


@pytest.mark.parametrize(
    "question", ["who changed utils lately?", "how is the utils module doing?"]
)
async def test_a_name_two_modules_share_is_a_clarification(
    graph: OrgGraph, question: str
) -> None:
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    offered = {c.subject_key for c in result.candidates}
    assert offered == {"module:shop/src/shop/utils.py", "module:shop/src/shop/api/utils.py"}


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("who knows the testing module best?", "module:shop/src/shop/testing.py"),
        ("who changed the tests lately?", "module:shop/tests"),
        ("who should review changes to shell completion?", "module:shop/src/shop/shell_completion.py"),
        ("who knows api.handlers best?", "module:shop/src/shop/api/handlers.py"),
    ],
)
async def test_names_that_look_alike_stay_apart(graph: OrgGraph, question: str, key: str) -> None:
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (key,)
    assert not any("not used" in n for n in result.limitations)


async def test_a_phrase_matched_in_part_ends_naming_it(
    graph: OrgGraph,
) -> None:
    """Nothing is named "fancy routing": it was answered for shop.routing, "fancy" said
    unused, another (coarser) question's answer; now the question ends naming the phrase
    (issue 32: changed on purpose). "tab completion" matches only the example package
    "completion" in part: an example is never chosen silently for a word
    (engine.resolving.aside), so the question asks whether it is meant."""
    result = await ask(graph, "who should review changes to fancy routing?")
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(
        '"fancy routing"' in n and '"fancy" names no part of it' in n for n in result.limitations
    ), result.limitations
    result = await ask(graph, "who should review changes to tab completion?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    assert [c.subject_key for c in result.candidates] == ["module:shop/examples/completion"]


def test_python_modules_of_a_tree(repo: gitrepo.Repo) -> None:
    from graph.git.tree import python_modules

    assert python_modules(Path(repo.path), "HEAD") == FILES


async def test_a_word_next_to_a_shared_name_tells_which(graph: OrgGraph) -> None:
    """"handlers" is shop.api.handlers and the example package examples/handlers: asked
    alone, the one the repository ships, said, the example offered (it asked which); "the
    handlers example" is the one whose path holds "examples", said."""
    alone = await ask(graph, "who knows the handlers best?")
    assert alone.outcome is Outcome.ANSWERED
    assert alone.subject_keys == ("module:shop/src/shop/api/handlers.py",)
    assert any(n.startswith('"handlers" also names examples/handlers (the examples)')
               for n in alone.limitations), alone.limitations  # fmt: skip
    assert [c.subject_key for c in alone.candidates] == ["module:shop/examples/handlers"]
    example = await ask(graph, "who changed the handlers example lately?")
    assert example.outcome is Outcome.ANSWERED
    assert example.subject_keys == ("module:shop/examples/handlers",)
    assert any(n.startswith('"handlers example": "handlers" also names shop.api.handlers')
               for n in example.limitations), example.limitations  # fmt: skip


async def test_a_repository_imported_before_python_modules_is_read_again_once(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    """An incremental run would give the Python modules only the new commits: a repository
    stored without the layout mark has its whole history read again, said, once."""
    repo = gitrepo.build_python(tmp_path / "shop", NOW)
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        await import_git(graph, GitImport(repo.path))
        stored = (await graph.subjects_by_keys(["repository:shop"]))["repository:shop"]
        old = stored.model_dump(mode="json", exclude={"id", "stub"}, exclude_none=True)
        old["attributes"].pop("module_layout")
        header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
        lines = [json.dumps(r).encode() for r in (header, {"type": "subject", **old})]
        assert (await Projector(graph, source="git:shop", resume=False).run(lines)).ok
        repo.lines("src/shop/routing.py", 2, "new")
        repo.commit(gitrepo.JO, 1, "Routing: one more")
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "full" and again.commits == 12
        assert any("read again" in w for w in again.warnings)
        assert await commits_by_person(graph, ROUTING) == followed(repo, "src/shop/routing.py")
        assert (await import_git(graph, GitImport(repo.path))).mode == "up_to_date"
    finally:
        await falkor.drop_org(org)
