"""A module named with its repository ("starlette middleware", "starlette's tests", "the tests
of httpx", "routing in starlette") is that repository's module, never the repository nor a
same-named module elsewhere; a pair that does not exist is said, never answered as the
repository. Two repositories made with git here (both with `middleware` and `tests`, only
starlette with `routing`, starlette also with its own `starlette` package); the numbers are
computed from `git log` of each."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.domain.embedding import HashingEmbedder
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.resolving.ring import ReferenceRing
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import investigator
from tests.test_question_table import AS_OF, CLOCK, PEOPLE, Commit, counted, git_log, utc

Y2024 = (utc(2024, 1, 1), AS_OF)
AREAS = {
    "starlette": ["middleware", "routing", "tests", "starlette"],
    "httpx": ["middleware", "tests", "httpx"],
}


def build(path: Path, areas: list[str], seed: int) -> None:
    """~60 commits over 2024 in the packages (an __init__.py makes each a package root)
    and tests/."""
    repo = gitrepo.Repo(path, now=AS_OF)
    for area in areas:
        if area != "tests":
            repo.write(f"{area}/__init__.py", "")
    rng = random.Random(seed)
    for n, days_ago in enumerate(sorted((rng.uniform(1, 340) for _ in range(60)), reverse=True)):
        area = rng.choice(areas)
        repo.lines(f"{area}/part.py", rng.randint(1, 5), f"c{n}")
        repo.commit(PEOPLE[rng.choice([0, 1, 2, 4])], days_ago, f"{area}: change {n}")


@pytest.fixture(scope="module")
async def org(tmp_path_factory: pytest.TempPathFactory) -> tuple[OrgGraph, dict[str, list[Commit]]]:
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    logs = {}
    for seed, (name, areas) in enumerate(AREAS.items()):
        path = tmp_path_factory.mktemp("scopes") / name
        build(path, areas, seed)
        await import_git(graph, GitImport(path, name=name))
        logs[name] = git_log(path)
    return graph, logs


def engine(graph: OrgGraph, ring: ReferenceRing | None = None) -> Investigator:
    return investigator(graph, now=CLOCK, ring=ring)


async def ask(
    graph: OrgGraph, question: str, engine_: Investigator | None = None, clarify: bool = True
) -> InvestigationResult:
    request = InvestigationRequest(question, as_of=AS_OF, allow_clarification=clarify)
    result, _ = await (engine_ or engine(graph)).investigate("me", request)
    return result


@dataclass(frozen=True)
class Found:
    question: str
    repository: str
    module: str | None  # None: the whole repository


FOUND = [
    Found("how many commits to starlette middleware in 2024?", "starlette", "middleware"),
    Found("how many commits to starlette's tests in 2024?", "starlette", "tests"),
    Found("how many commits to the tests of httpx in 2024?", "httpx", "tests"),
    Found("how many commits to routing in starlette in 2024?", "starlette", "routing"),
    Found("how many commits to httpx's middleware in 2024?", "httpx", "middleware"),
    Found("how many commits to the middleware of the httpx repo in 2024?", "httpx", "middleware"),
    Found("how many commits to the starlette module in 2024?", "starlette", "starlette"),
    # A repository named like its own package is the repository (and says so).
    Found("how many commits to starlette in 2024?", "starlette", None),
]


@pytest.mark.parametrize("case", FOUND, ids=[c.question for c in FOUND])
async def test_a_module_named_with_its_repository(
    org: tuple[OrgGraph, dict[str, list[Commit]]], case: Found
) -> None:
    graph, logs = org
    result = await ask(graph, case.question)
    key = f"module:{case.repository}/{case.module}" if case.module else None
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == (key or f"repository:{case.repository}",)
    expected = counted(logs[case.repository], *Y2024, case.module)
    assert (result.direct_judgment or "").startswith(f"{len(expected)} commit(s) to ")


async def test_a_repository_named_like_its_package_says_so(
    org: tuple[OrgGraph, dict[str, list[Commit]]],
) -> None:
    graph, _ = org
    result = await ask(graph, "how many commits to starlette in 2024?")
    note = next(n for n in result.limitations if n.startswith('"starlette" names the repository'))
    assert "answered for the whole repository" in note
    assert [c.subject_key for c in result.candidates] == ["module:starlette/starlette"]
    assert result.candidates[0].receipt


@pytest.mark.parametrize(
    ("question", "phrase", "offered"),
    [
        # httpx holds no routing: starlette's is offered, and the repository itself.
        (
            "how many commits to httpx routing in 2024?",
            "httpx routing",
            ["repository:httpx", "module:starlette/routing"],
        ),
        (
            "who changed starlette's testing module in 2024?",
            "starlette's testing module",
            ["repository:starlette"],
        ),
    ],
)
async def test_a_pair_not_found_is_said_never_answered_as_the_repository(
    org: tuple[OrgGraph, dict[str, list[Commit]]], question: str, phrase: str, offered: list[str]
) -> None:
    graph, _ = org
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert (result.clarification_prompt or "").startswith(f'"{phrase}": ')
    assert [c.subject_key for c in result.candidates] == offered
    refused = await ask(graph, question, clarify=False)
    assert refused.outcome is Outcome.NO_MATCH
    assert any(n.startswith(f'"{phrase}": ') for n in refused.limitations)


async def test_a_module_name_shared_by_repositories_alone_asks_which(
    org: tuple[OrgGraph, dict[str, list[Commit]]],
) -> None:
    graph, _ = org
    result = await ask(graph, "how many commits to the middleware in 2024?")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {c.subject_key for c in result.candidates} == {
        "module:starlette/middleware",
        "module:httpx/middleware",
    }


async def test_earlier_questions_never_change_the_repository_asked(
    org: tuple[OrgGraph, dict[str, list[Commit]]],
) -> None:
    """Issue 14: with the recently-referenced memory, a question about starlette's tests got
    httpx's tests."""
    graph, _ = org
    same = engine(graph, ReferenceRing())
    first = await ask(graph, "how many commits to the tests of httpx in 2024?", same)
    assert first.subject_keys == ("module:httpx/tests",)
    then = await ask(graph, "how many commits to starlette's tests in 2024?", same)
    assert then.subject_keys == ("module:starlette/tests",)
    assert not any("recent references" in n for n in then.limitations)


async def test_a_name_the_question_types_is_never_dropped(
    org: tuple[OrgGraph, dict[str, list[Commit]]],
) -> None:
    """A second reference naming nothing known is not silently left out, nor answered
    without: the routing module's count alone answered another question (issue 31)."""
    graph, _ = org
    result = await ask(graph, "how many commits to the routing module and the zqxv module?")
    assert result.outcome is Outcome.NO_MATCH and result.subject_keys == ()
    assert any(n.startswith('"zqxv" names no subject known here') for n in result.limitations)

