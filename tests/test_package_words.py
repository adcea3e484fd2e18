"""A kind word asks for a package: "the views package" (or module) is the package named
views, not a same-named file elsewhere (`app/views.py`, the module app.views, also called
"views"). Over a repository made with git (tests/gitrepo.py), imported into the in-memory
store; expected counts come from `git log`."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.memory.store import MemoryStore
from engine.ports import OrgGraph
from graph.git.importer import GitImport, import_git
from tests.gitrepo import Repo
from tests.test_investigate import investigator

NOW = datetime(2026, 6, 1, tzinfo=UTC)
KIM = ("Kim Lee", "kim@example.org")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = Repo(tmp_path_factory.mktemp("views") / "shop", now=NOW)
    made.write("views/__init__.py", "")
    made.write("app/__init__.py", "")
    for days in (40, 30, 20):
        made.write("views/pages.py", f"PAGES = {days}\n")
        made.commit(KIM, days, f"pages {days}")
    made.write("app/views.py", "VIEWS = 1\n")
    made.commit(KIM, 10, "the app's views")
    return made.path


@pytest.fixture(scope="module")
async def graph(repo: Path) -> AsyncIterator[OrgGraph]:
    store = MemoryStore()
    await store.bootstrap("views")
    graph = store.org("views")
    await import_git(graph, GitImport(repo, name="shop"))
    yield graph


def commits(repo: Path, path: str) -> int:
    log = ["git", "-C", str(repo), "log", "--no-merges", "--format=%H", "--", path]
    return len(subprocess.run(log, capture_output=True, text=True, check=True).stdout.split())


@pytest.mark.parametrize("word", ["package", "module"])
async def test_the_package_beats_a_same_named_file_when_the_question_says_package(
    graph: OrgGraph, repo: Path, word: str
) -> None:
    """It asked which of views (the package) and app.views (app/views.py) was meant."""
    expected = commits(repo, "views")
    assert expected == 3
    engine = investigator(graph, now=NOW)
    result, _ = await engine.investigate(
        "me", InvestigationRequest(f"how many commits to the views {word} this year?")
    )
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == ("module:shop/views",)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to views ")
    assert any("not the file of that name (app/views.py)" in n for n in result.limitations)


async def test_a_bare_name_shared_by_a_package_and_a_file_still_asks(graph: OrgGraph) -> None:
    engine = investigator(graph, now=NOW)
    result, _ = await engine.investigate(
        "me", InvestigationRequest("how many commits to views this year?")
    )
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    labels = [c.label or "" for c in result.candidates]
    assert len(set(labels)) == 2 and all("in shop, " in label for label in labels)


async def test_the_views_code_is_the_package_too(graph: OrgGraph, repo: Path) -> None:
    """"code" names no kind (a repository's code is code too), but among the modules named
    views it means the package, as "package" and "module" do: it asked which of views and
    app.views (app/views.py) was meant."""
    expected = commits(repo, "views")
    engine = investigator(graph, now=NOW)
    result, _ = await engine.investigate(
        "me", InvestigationRequest("how many commits to the views code this year?")
    )
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == ("module:shop/views",)
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) to views ")
    assert any("not the file of that name (app/views.py)" in n for n in result.limitations)
