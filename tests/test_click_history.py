"""A real history: click (3,329 commits, moved to a src layout), cloned from the bundle in
../shared/data, imported once for this module, and asked questions whose answers are
computed here from `git log` (author dates in UTC, merges left out as the import does)."""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.contract import InvestigationResult, Outcome
from engine.investigate import InvestigationRequest, Investigator
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolution import Resolver
from engine.ring import ReferenceRing
from engine.synthesis import DeterministicSynthesizer
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from tests.conftest import new_org
from tests.test_investigate import SIGNER, VERSIONS

# ../shared/data beside the checkout (a worktree sits one level deeper); or the variable.
_ROOT = Path(__file__).resolve().parents[1]
BUNDLE = Path(
    os.environ.get("FABRIC_TEST_CLICK_BUNDLE")
    or next(
        (
            str(p / "shared" / "data" / "click.bundle")
            for p in _ROOT.parents
            if (p / "shared" / "data" / "click.bundle").exists()
        ),
        "click.bundle",
    )
)
CLOCK = datetime(2026, 9, 1, tzinfo=UTC)
MODULE = "module:click/src/click"

pytestmark = pytest.mark.skipif(not BUNDLE.exists(), reason=f"{BUNDLE} is not present")


@dataclass(frozen=True)
class Commit:
    at: datetime
    email: str
    name: str
    paths: tuple[str, ...]


def git_log(path: Path) -> list[Commit]:
    text = subprocess.run(
        ["git", "-C", str(path), "log", "--no-merges", "--format=\x1e%at\x1f%aE\x1f%aN",
         "--name-only", "HEAD"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    out = []
    for block in text.split("\x1e")[1:]:
        head, _, files = block.partition("\n")
        stamp, email, name = head.split("\x1f")
        at = datetime.fromtimestamp(int(stamp), UTC)
        out.append(Commit(at, email.lower(), name, tuple(f for f in files.split("\n") if f)))
    return out


def between(commits: list[Commit], start: datetime, end: datetime) -> list[Commit]:
    return [c for c in commits if start <= c.at < end]


def in_package(commit: Commit) -> bool:
    """The click package, before (click/) and after (src/click/) the move."""
    return any(p.startswith(("src/click/", "click/")) for p in commit.paths)


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("click") / "click"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(path)], check=True)
    return path


@pytest.fixture(scope="module")
async def click(falkor: FalkorStore, clone: Path) -> AsyncIterator[tuple[OrgGraph, list[Commit]]]:
    path = clone
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    report = await import_git(graph, GitImport(path, name="click"))
    assert report.commits == 3329
    yield graph, git_log(path)
    await falkor.drop_org(org)


async def ask(graph: OrgGraph, question: str) -> InvestigationResult:
    engine = Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=lambda: CLOCK,
    )  # fmt: skip
    result, _ = await engine.investigate("me", InvestigationRequest(question))
    return result


Y2023 = (datetime(2023, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC))
Y2024 = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
Y2016 = (datetime(2016, 1, 1, tzinfo=UTC), datetime(2017, 1, 1, tzinfo=UTC))


async def test_the_src_layout_package_is_the_click_module(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, _ = click
    module = (await graph.subjects_by_keys([MODULE]))[MODULE]
    assert module.name == "click" and "src/click" in module.aliases
    assert "module:click/src" not in await graph.subjects_by_keys(["module:click/src"])


@pytest.mark.parametrize(("year", "years"), [("2023", Y2023), ("2016", Y2016)])
async def test_who_drove_changes_to_the_click_module(
    click: tuple[OrgGraph, list[Commit]], year: str, years: tuple[datetime, datetime]
) -> None:
    """2016 is before the move to src/: the module's history followed the rename."""
    graph, commits = click
    result = await ask(graph, f"who has driven changes to the click module in {year}?")
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == (MODULE,)
    counted = Counter(c.email for c in between(commits, *years) if in_package(c))
    ((email, top),) = counted.most_common(1)
    names = {c.name for c in commits if c.email == email}
    found = re.search(r"ranked by commits: (.+?) \((\d+) commit", result.direct_judgment or "")
    assert found is not None and found.group(1) in names and int(found.group(2)) == top


@pytest.mark.parametrize(
    ("question", "years", "package_only"),
    [
        ("how many commits to the click module in 2023?", Y2023, True),
        ("how many commits to the click module in 2016?", Y2016, True),  # before the move
        ("how many commits to the click repository in 2023?", Y2023, False),
    ],
)
async def test_commit_counts_match_git(
    click: tuple[OrgGraph, list[Commit]],
    question: str,
    years: tuple[datetime, datetime],
    package_only: bool,
) -> None:
    graph, commits = click
    expected = [c for c in between(commits, *years) if in_package(c) or not package_only]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED
    assert (result.direct_judgment or "").startswith(f"{len(expected)} commit(s) to click ")


async def test_most_active_contributors_organisation_wide(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, commits = click
    result = await ask(graph, "who are the most active contributors in 2023?")
    assert result.subject_keys == ("repository:click",)
    ((_, top),) = Counter(c.email for c in between(commits, *Y2023)).most_common(1)
    assert f"({top} commit(s)" in (result.direct_judgment or "")
    assert "the whole organisation" in (result.direct_judgment or "")


async def test_a_person_by_github_login(click: tuple[OrgGraph, list[Commit]]) -> None:
    """Andreas Backx commits from AndreasBackx@users.noreply.github.com: the login names him."""
    graph, commits = click
    email = "andreasbackx@users.noreply.github.com"
    expected = [c for c in between(commits, *Y2024) if c.email == email]
    result = await ask(graph, "how many commits did AndreasBackx make in 2024?")
    assert result.subject_keys == (f"person:{email}",)
    assert (result.direct_judgment or "").startswith(f"{len(expected)} commit(s) by ")
