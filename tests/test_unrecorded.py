"""What a question asks that nothing here records, and merge commits (engine/answering/recordgaps.py,
engine/reading/merges.py), on the in-memory graph: the demo organisation (pull requests, incidents
and deploys, for services and repositories) and the standard test repository imported from
git (commits only, one merge). tests/test_click_history.py asks the same of click's history.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta

import pytest

from engine.answering.recordgaps import asked_words
from engine.domain.contract import Outcome
from engine.domain.embedding import HashingEmbedder
from engine.domain.models import SourceRecordKind
from engine.investigation.investigate import InvestigationRequest
from engine.memory import MemoryStore
from engine.ports import OrgGraph, TimeSpan
from engine.reading.factphrases import fact_words
from engine.reading.vocabulary import FACT_VOCABULARY
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import NOW, investigator, load_demo


@pytest.fixture(scope="module")
def memory() -> MemoryStore:
    return MemoryStore(embedder=HashingEmbedder(128))


@pytest.fixture(scope="module")
async def demo(memory: MemoryStore) -> OrgGraph:
    return await load_demo(memory, 600)


async def ask(graph: OrgGraph, question: str) -> tuple[str, tuple[str, ...]]:
    result, _ = await investigator(graph).investigate("me", InvestigationRequest(question))
    assert result.outcome is Outcome.ANSWERED, result
    return result.direct_judgment or "", result.limitations


def test_the_words_asked_are_named_as_written() -> None:
    kinds = FACT_VOCABULARY["prs"]
    assert asked_words(fact_words("Which PRs touched core.py?"), kinds) == ["PRs"]
    assert asked_words(fact_words("how many open PRs?"), kinds) == ["open PRs"]
    assert asked_words(fact_words("how many commits?"), kinds) == []


async def test_deploys_of_a_repository_are_said_to_be_kept_for_services(demo: OrgGraph) -> None:
    """The demo records deploys for services: asked of a repository it said "0 commit(s) to
    payments-api"."""
    assert SourceRecordKind.DEPLOY in await demo.record_kinds()
    judgment, limitations = await ask(demo, "how many deploys did payments-api have last month?")
    assert judgment == (
        '"deploys" is answered from deploy records, kept for services only, so this question '
        "cannot be answered for the repositories asked about."
    )
    assert limitations[0] == (
        '"deploys" is answered from deploy records, kept for services only, not for '
        "repositories (payments-api): nothing of them is counted or listed here."
    )


async def test_no_deploy_in_the_window_is_no_count_never_zero_commits(demo: OrgGraph) -> None:
    """The checkout service had no production deploy last month (its records say so): the
    count is not available, never "0 commit(s)", and the organisation does hold deploys."""
    start, end = datetime(2026, 10, 1, tzinfo=UTC), datetime(2026, 11, 1, tzinfo=UTC)
    found = await demo.source_records_of(
        ["service:checkout"], kinds=[SourceRecordKind.DEPLOY],
        span=TimeSpan(int(start.timestamp() * 1e9), int(end.timestamp() * 1e9)),
    )  # fmt: skip
    deploys = [r for r in found.get("service:checkout", []) if start <= r.start < end]
    assert not [r for r in deploys if r.environment == "production"]
    judgment, limitations = await ask(
        demo, "how many deploys did the checkout service have last month?"
    )
    assert judgment.startswith("No count was available for Checkout Service from 2026-10-01")
    assert "commit" not in judgment
    assert "No deploys records of Checkout Service fall in this window." in limitations
    assert not any("none exist for this organisation" in n for n in limitations)


async def test_pull_requests_merged_are_no_merge_commits(demo: OrgGraph) -> None:
    """Where pull requests are recorded, "merged" is about them: no word of merge commits."""
    judgment, limitations = await ask(
        demo, "how many pull requests were merged in payments-api last month?"
    )
    assert "pull request(s) merged" in judgment
    assert not any("Merge commits" in n for n in limitations)


@pytest.fixture(scope="module")
async def repo_graph(
    memory: MemoryStore, tmp_path_factory: pytest.TempPathFactory
) -> tuple[OrgGraph, gitrepo.Repo]:
    repo = gitrepo.build(tmp_path_factory.mktemp("repo") / "repo", now=NOW)
    org = new_org()
    await memory.bootstrap(org)
    graph = memory.org(org)
    await import_git(graph, GitImport(repo.path))
    return graph, repo


def git_count(repo: gitrepo.Repo, *args: str) -> int:
    since = (NOW - timedelta(days=365)).isoformat()
    out = subprocess.run(
        ["git", "-C", str(repo.path), "log", *args, f"--since={since}", "--format=%H"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return len(out.split())


async def test_a_git_history_holds_no_releases_and_says_so(
    repo_graph: tuple[OrgGraph, gitrepo.Repo],
) -> None:
    graph, _ = repo_graph
    assert await graph.record_kinds() == {SourceRecordKind.COMMIT, SourceRecordKind.METRIC_ROLLUP}
    judgment, limitations = await ask(graph, "how many releases were there this year?")
    assert judgment == (  # what the history holds, said first (w35)
        'Nothing here records "releases": this organisation holds only commits and daily '
        "activity rollups (a git history: no releases, tags or pull requests), and "
        '"releases" would be counted from deploy records, so this question cannot be answered '
        "from its data; no other count stands in."
    )
    assert (
        '"releases" is answered from deploy records, and none exist for this organisation (it '
        "holds only commits and daily activity rollups): nothing is counted or listed for it, "
        "and no other count stands in."
    ) in limitations


async def test_merges_left_out_are_said_and_asked_for_are_not_answered(
    repo_graph: tuple[OrgGraph, gitrepo.Repo],
) -> None:
    graph, repo = repo_graph
    without, every = git_count(repo, "--no-merges"), git_count(repo)
    assert every == without + 1  # the history's one merge
    judgment, limitations = await ask(graph, "how many commits to repo in the last year?")
    assert judgment.startswith(f"{without} commit(s) to repo ")
    assert sum(n.startswith("Merge commits are not counted") for n in limitations) == 1
    judgment, limitations = await ask(graph, "how many commits to repo including merges?")
    assert judgment.startswith("Merge commits are not recorded here")
    assert f"{without} commit" not in judgment
    assert any(n.startswith("Merge commits are not imported") for n in limitations)
    judgment, limitations = await ask(graph, "how many commits to repo excluding merges?")
    assert judgment.startswith(f"{without} commit(s) to repo ")
    assert not any("Not understood" in n for n in limitations), limitations


async def test_the_demo_s_commit_counts_say_nothing_of_merges(demo: OrgGraph) -> None:
    """Its rollups come from no git import: nothing says what git would have counted."""
    _, limitations = await ask(demo, "how many commits to payments-api in 2026?")
    assert not any("Merge commits" in n for n in limitations)
