"""The click history imported as a directory named `clk` gives it: the repository is "clk",
and "click" names only the src/click package (a module). A kind word next to a name
constrains it: "the click repository" is no repository here, so the answer asks what was
meant (never the package's count in the repository's place); the receipts answer each one as
`git log` counts it. (Imported from mid-2022 on: the questions ask about 2023.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from tests.conftest import new_org
from tests.test_click_history import (
    BUNDLE,
    CLOCK,
    Y2023,
    Commit,
    between,
    clone,  # noqa: F401  (the fixture)
    git_log,
    in_package,
)
from tests.test_investigate import investigator

pytestmark = pytest.mark.skipif(not BUNDLE.exists(), reason=f"{BUNDLE} is not present")

PACKAGE = "module:clk/src/click"
REPOSITORY = "repository:clk"


@pytest.fixture(scope="module")
async def clk(falkor: FalkorStore, clone: Path) -> AsyncIterator[tuple[OrgGraph, list[Commit]]]:  # noqa: F811
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    await import_git(graph, GitImport(clone, name="clk", since="2022-06-01"))
    yield graph, git_log(clone)
    await falkor.drop_org(org)


async def ask(
    graph: OrgGraph, question: str, receipts: tuple[str, ...] = (), clarify: bool = True
) -> InvestigationResult:
    engine = investigator(graph, now=CLOCK)
    request = InvestigationRequest(
        question, prior_receipts=receipts, allow_clarification=clarify
    )
    result, _ = await engine.investigate("me", request)
    return result


@pytest.mark.parametrize(
    ("phrase", "kind"),
    [
        ("the click repository", "repository"),
        ("the click repo", "repository"),
        ("the click project", "project"),
        ("the repository click", "repository"),
    ],
)
async def test_a_kind_the_name_is_not_asks_what_it_means(
    clk: tuple[OrgGraph, list[Commit]], phrase: str, kind: str
) -> None:
    """It answered "44 commit(s) to click" (the package); git counts 119 for the
    repository in 2023. Each receipt answers its own subject as git counts it."""
    graph, commits = clk
    question = f"how many commits were made to {phrase} in 2023?"
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.direct_judgment
    assert [c.subject_key for c in result.candidates] == [PACKAGE, REPOSITORY]
    prompt = result.clarification_prompt or ""
    assert prompt.startswith(f'No {kind} is named "click": "click" names click (module'), prompt
    year = between(commits, *Y2023)
    expected = {PACKAGE: [c for c in year if in_package(c)], REPOSITORY: year}
    assert len(expected[PACKAGE]) != len(expected[REPOSITORY])  # so a swap is seen
    for choice in result.candidates:
        bound = await ask(graph, question, (choice.receipt,))
        assert bound.outcome is Outcome.ANSWERED and bound.subject_keys == (choice.subject_key,)
        count = len(expected[choice.subject_key])
        assert (bound.direct_judgment or "").startswith(f"{count} commit(s) to {choice.name} ")


async def test_without_clarification_the_question_is_said_not_answered(
    clk: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, _ = clk
    result = await ask(graph, "how many commits to the click repo in 2023?", clarify=False)
    assert result.outcome is Outcome.NO_MATCH and result.direct_judgment is None
    assert result.limitations[0].startswith('No repository is named "click"')


@pytest.mark.parametrize("kind", ["module", "package"])
async def test_the_package_asked_as_a_module_or_package_is_answered(
    clk: tuple[OrgGraph, list[Commit]], kind: str
) -> None:
    graph, commits = clk
    result = await ask(graph, f"how many commits were made to the click {kind} in 2023?")
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == (PACKAGE,)
    package = [c for c in between(commits, *Y2023) if in_package(c)]
    assert (result.direct_judgment or "").startswith(f"{len(package)} commit(s) to click ")
    assert not any("not used" in n for n in result.limitations), result.limitations


async def test_a_repository_asked_as_a_module_offers_the_repository(
    clk: tuple[OrgGraph, list[Commit]],
) -> None:
    """"The clk module": no module is named clk, only ones under clk/ match in part; the
    repository the name is exactly is offered first, kinds said."""
    graph, commits = clk
    question = "how many commits were made to the clk module in 2023?"
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert result.candidates[0].subject_key == REPOSITORY
    assert all(c.subject_key.startswith("module:clk/") for c in result.candidates[1:])
    prompt = result.clarification_prompt or ""
    assert prompt.startswith('No module is named "clk": "clk" names clk (repository)'), prompt
    bound = await ask(graph, question, (result.candidates[0].receipt,))
    year = between(commits, *Y2023)
    assert (bound.direct_judgment or "").startswith(f"{len(year)} commit(s) to clk ")


async def test_the_repository_by_its_own_name_is_answered(
    clk: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, commits = clk
    result = await ask(graph, "how many commits were made to the clk repository in 2023?")
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == (REPOSITORY,)
    year = between(commits, *Y2023)
    assert (result.direct_judgment or "").startswith(f"{len(year)} commit(s) to clk ")
