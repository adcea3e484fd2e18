"""Organisation-wide "who" questions rank people exactly across repositories: one person's
commits in every repository are added up, also when they are not among a repository's own
top five (merging each repository's top five would rank them too low)."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import investigator

NOW = datetime(2024, 6, 1, tzinfo=UTC)
PEOPLE = [(f"Dev {c} Person", f"dev{c}@corp.example") for c in "ABCDEFG"]
# Repository one: A 5, B..E 4 each, F 3 (not in its top five). Repository two: F 3, G 1.
# F made 6 commits in all, the most; the top fives merged would rank F last, with 3.
ONE = [(PEOPLE[0], 5), *((p, 4) for p in PEOPLE[1:5]), (PEOPLE[5], 3)]
TWO = [(PEOPLE[5], 3), (PEOPLE[6], 1)]


def build(path: Path, plan: list[tuple[tuple[str, str], int]]) -> gitrepo.Repo:
    repo = gitrepo.Repo(path, now=NOW)
    n = 0
    for who, count in plan:
        for _ in range(count):
            n += 1
            repo.lines("pkg/code.py", 1 + n % 3, f"l{n}")
            repo.commit(who, 100 - n, f"change {n}")
    return repo


def lines(repos: list[gitrepo.Repo]) -> Counter[str]:
    """Lines added and removed per author address over the repositories (git log --numstat)."""
    out: Counter[str] = Counter()
    for repo in repos:
        text = subprocess.run(
            ["git", "-C", str(repo.path), "log", "--no-merges", "--numstat", "--format=@%aE"],
            capture_output=True, check=True, text=True,
        ).stdout  # fmt: skip
        email = ""
        for line in text.splitlines():
            if line.startswith("@"):
                email = line[1:]
            elif line.strip():
                added, removed, _ = line.split("\t", 2)
                out[email] += int(added) + int(removed)
    return out


def authors(repo: gitrepo.Repo) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(repo.path), "log", "--no-merges", "--format=%aE"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return out.split()


@pytest.fixture
async def graph(falkor: FalkorStore, tmp_path: Path) -> AsyncIterator[OrgGraph]:
    org = new_org()
    await falkor.bootstrap(org)
    yield falkor.org(org)
    await falkor.drop_org(org)


@pytest.mark.parametrize(
    "question",
    [
        "who are the most active contributors in 2024?",
        "who committed the most?",
        # no question word: "by commits" made them "N commit(s) to the whole organisation"
        "top five people by commits in 2024",
        "top 5 people by commits in 2024",
    ],
)
async def test_the_organisation_wide_ranking_is_exact_across_repositories(
    graph: OrgGraph, tmp_path: Path, question: str
) -> None:
    repos = [build(tmp_path / "one", ONE), build(tmp_path / "two", TWO)]
    for repo in repos:
        await import_git(graph, GitImport(repo.path))
    counted = Counter(e for repo in repos for e in authors(repo))
    assert counted.most_common(1) == [(PEOPLE[5][1], 6)]
    engine = investigator(graph, now=NOW)
    result, _ = await engine.investigate("me", InvestigationRequest(question))
    assert result.outcome is Outcome.ANSWERED
    assert set(result.subject_keys) == {"repository:one", "repository:two"}
    judgment = result.direct_judgment or ""
    assert "the whole organisation" in judgment and "ranked by commits" in judgment
    shown = [(n, int(c)) for n, c in re.findall(r"(Dev \w Person) \((\d+) commit", judgment)]
    email = dict(PEOPLE)
    assert [c for _, c in shown] == sorted(counted.values(), reverse=True)[:5]
    assert all(counted[email[n]] == c for n, c in shown)  # each total exact
    assert shown[:2] == [(PEOPLE[5][0], 6), (PEOPLE[0][0], 5)]


async def test_a_lines_question_ranks_by_lines_exactly_across_repositories(
    graph: OrgGraph, tmp_path: Path
) -> None:
    """"Who changed the most lines?": ranked by lines changed, said, each person's lines added
    up over both repositories. H changed 15 lines in one commit in each: sixth in each
    repository by lines and by commits (five others made 3 commits of 7 lines there), first
    across them with 30 lines (and last by commits), which a merge of each repository's top
    five, by commits or by lines, would not even list."""
    h = ("Hana Person", "h@corp.example")
    others = [(f"Other {c} Person", f"other{c}@corp.example") for c in "ABCDEFGHIJ"]
    repos = []
    for name, five in (("one", others[:5]), ("two", others[5:])):
        repo = gitrepo.Repo(tmp_path / name, now=NOW)
        for n, who in enumerate([*five, h]):
            for step in range(1 if who == h else 3):
                repo.lines(f"pkg/{n}.py", 15 if who == h else 7, f"{name}{step}")
                repo.commit(who, 20 - n - step / 10, f"change {n}.{step}")
        repos.append(repo)
        await import_git(graph, GitImport(repo.path))
    counted = lines(repos)
    assert counted.most_common(1) == [(h[1], 30)]
    engine = investigator(graph, now=NOW)
    result, _ = await engine.investigate("me", InvestigationRequest("who changed the most lines?"))
    judgment = result.direct_judgment or ""
    assert "the whole organisation" in judgment and "ranked by lines changed" in judgment
    shown = [(n, int(c)) for n, c in re.findall(r"(\w+ \w* ?Person) \((\d+) line", judgment)]
    assert shown[0] == (h[0], 30), judgment
    assert [c for _, c in shown] == sorted(counted.values(), reverse=True)[:5]
