"""The git projection source against a repository these tests make with git, loaded into the
real embedded FalkorDB: identities, modules and renames, edges, episodes, rollups, incremental
runs, a force-push, the fact providers and an investigation on the imported data."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from engine.domain.contract import Outcome, Standing
from engine.domain.facts import FactKind
from engine.domain.models import Direction, RelationshipType, SourceRecordKind
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph, SubjectQuery
from engine.providers import Window, default_providers
from graph.falkor import FalkorStore
from graph.git.importer import MAX_NAME, GitError, GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import investigator

ROOT = Path(__file__).resolve().parent.parent
RESOLVER = "module:shop/resolver"
ALEX = "person:alex@corp.example"


@pytest.fixture
async def graph(falkor: FalkorStore) -> AsyncIterator[OrgGraph]:
    org = new_org()
    await falkor.bootstrap(org)
    yield falkor.org(org)
    await falkor.drop_org(org)


def spec(repo: gitrepo.Repo, **options: object) -> GitImport:
    return GitImport(repo.path, **options)  # type: ignore[arg-type]


async def sums(graph: OrgGraph, key: str, actor: str | None = None) -> dict[str, int]:
    found = await graph.source_records_of([key], kinds=[SourceRecordKind.METRIC_ROLLUP])
    out: dict[str, int] = {}
    for record in found[key]:
        if actor is None or record.actor == actor:
            assert record.metric is not None
            out[record.metric] = out.get(record.metric, 0) + int(record.value or 0)
    return out


async def test_a_history_becomes_people_modules_edges_episodes_and_rollups(
    graph: OrgGraph, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    report = await import_git(graph, spec(repo))
    assert (report.mode, report.commits, report.invalid) == ("full", 14, 0)

    people = await graph.subjects_by_keys(
        [ALEX, "person:alex@elsewhere.example", "person:sam@corp.example", "person:jo@corp.example"]
    )
    # .mailmap joined the old address; the shared address joined "A. Kim"; the identical
    # full name joined the other address (as git shortlog groups): spellings and addresses kept.
    assert set(people) == {ALEX, "person:sam@corp.example", "person:jo@corp.example"}
    alex = people[ALEX]
    assert alex.name == "Alex Kim"
    assert {"alex kim", "A. Kim", "alex.kim@old.example", "alex@elsewhere.example"} <= set(
        alex.aliases
    )

    modules = await graph.subjects_by_keys(
        [RESOLVER, "module:shop/query", "module:shop/engine", "module:shop/docs"]
    )
    assert set(modules) == {RESOLVER, "module:shop/engine", "module:shop/docs"}
    assert modules[RESOLVER].previous_names == ["query"]  # history before the rename kept
    assert (await graph.subjects_by_keys(["repository:shop"]))["repository:shop"].attributes[
        "head"
    ] == report.head

    edges = await graph.relationships_of(
        [ALEX], types=[RelationshipType.CONTRIBUTES_TO], direction=Direction.OUTGOING
    )
    windows = {e.other.key: e.relationship for e in edges[ALEX]}
    # Every file of the head is a module too (module_layout 7): Alex's files have windows.
    files = {f"module:shop/{p}" for p in (".mailmap", "README.md", "engine/core.py",
             "engine/logo.png", "resolver/parse.py", "resolver/plan.py")}  # fmt: skip
    assert set(windows) == {"repository:shop", RESOLVER, "module:shop/engine", *files}
    first = windows[RESOLVER]
    assert first.valid_from == repo.now - timedelta(days=60)  # the first commit, under query/
    assert first.valid_to == repo.now - timedelta(days=1) + timedelta(seconds=1)

    episodes = await graph.episodes_of(["repository:shop"], limit_per_subject=50)
    texts = [e.text for e in episodes["repository:shop"]]
    assert len(texts) == 14 and "Merge branch 'feature'" in texts
    assert any(t.startswith("Write the user guide") and "docs/user guide.md" in t for t in texts)

    # query/ and resolver/ are one lineage: 10 commits, 73 lines added, 0 removed.
    assert await sums(graph, RESOLVER) == {"commits": 10, "lines_added": 73, "lines_removed": 0}
    assert (await sums(graph, RESOLVER, ALEX))["commits"] == 8
    # The merge commit is an episode but no rollup: 13 authored commits.
    assert (await sums(graph, "repository:shop"))["commits"] == 13


async def test_second_run_reads_only_new_commits_and_recomputes_their_days(
    graph: OrgGraph, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    await import_git(graph, spec(repo))
    repo.lines("resolver/parse.py", 4, "late")
    repo.commit(gitrepo.SAM, 1, "Resolver: same day as an imported commit")
    again = await import_git(graph, spec(repo))
    assert (again.mode, again.commits) == ("incremental", 1)
    assert await sums(graph, RESOLVER) == {"commits": 11, "lines_added": 77, "lines_removed": 0}
    assert (await sums(graph, RESOLVER, ALEX))["commits"] == 8  # the shared day was not lost
    # Windows grow, never restart: Alex's edge still starts at the first commit.
    edges = await graph.relationships_of([ALEX], types=[RelationshipType.CONTRIBUTES_TO])
    starts = {e.other.key: e.relationship.valid_from for e in edges[ALEX]}
    assert starts[RESOLVER] == repo.now - timedelta(days=60)
    unchanged = await import_git(graph, spec(repo))
    assert (unchanged.mode, unchanged.records) == ("up_to_date", 0)


async def test_since_limits_the_history_read(graph: OrgGraph, tmp_path: Path) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    since = (repo.now - timedelta(days=15)).isoformat()
    report = await import_git(graph, spec(repo, since=since))
    assert (report.mode, report.commits) == ("full", 9)  # the feature branch, its merge, ...
    assert (await sums(graph, "repository:shop"))["commits"] == 8


async def test_a_rename_seen_by_a_later_run_closes_the_old_module(
    graph: OrgGraph, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    await import_git(graph, spec(repo))
    repo.git("mv", "engine", "kernel")
    repo.commit(gitrepo.SAM, 0.5, "Rename engine/ to kernel/")
    report = await import_git(graph, spec(repo))
    assert report.mode == "incremental"
    found = await graph.subjects_by_keys(["module:shop/kernel", "module:shop/engine"])
    assert found["module:shop/kernel"].previous_names == ["engine"]
    old = found["module:shop/engine"]
    assert old.valid_to == repo.now - timedelta(days=0.5)
    assert old.attributes["renamed_to"] == "module:shop/kernel"


async def test_a_force_push_is_retracted_with_tombstones(graph: OrgGraph, tmp_path: Path) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    repo.write("engine/extra.py", "x = 1\n")
    dropped = repo.commit(gitrepo.SAM, 0.5, "Engine: an experiment")
    await import_git(graph, spec(repo))
    assert (await sums(graph, "module:shop/engine"))["commits"] == 3
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.lines("docs/user guide.md", 2, "rewritten")
    repo.commit(gitrepo.JO, 0.25, "Docs: instead of the experiment")
    report = await import_git(graph, spec(repo))
    assert (report.mode, report.commits, report.abandoned_commits) == ("force_push", 1, 1)
    assert report.tombstones >= 2  # the abandoned commit's episode and its stale rollups
    episodes = await graph.episodes_by_keys([f"episode:git:shop:{dropped}"])
    assert episodes == {}
    assert (await sums(graph, "module:shop/engine"))["commits"] == 2
    assert (await sums(graph, "module:shop/docs"))["commits"] == 2


async def test_a_rewrite_git_already_collected_is_reread_with_a_warning(
    graph: OrgGraph, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    repo.write("engine/extra.py", "x = 1\n")
    repo.commit(gitrepo.SAM, 0.5, "Engine: an experiment")
    await import_git(graph, spec(repo))
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    report = await import_git(graph, spec(repo))
    assert (report.mode, report.commits, report.invalid) == ("force_push", 14, 0)
    assert report.warnings and "could not be retracted" in report.warnings[0]


async def test_the_providers_answer_an_investigation_on_imported_data(
    graph: OrgGraph, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    await import_git(graph, spec(repo))
    now = repo.now + timedelta(hours=1)
    engine = investigator(graph, now=now)
    result, _ = await engine.investigate(
        "me", InvestigationRequest("what is the bus factor of resolver?")
    )
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == (RESOLVER,)
    claimed = {c.kind: c.value for c in result.claimed_facts}
    # In the last 30 days Alex made 35 of the 43 changed lines: one person holds it.
    assert claimed[FactKind.BUS_FACTOR]["bus_factor"] == 1
    judgment = result.direct_judgment or ""
    assert judgment.startswith("The bus factor of resolver from "), judgment
    assert "is 1: 1 person of 2 contributor(s)" in judgment and "Alex Kim made 81%" in judgment
    live = [d for d in result.drivers if d.standing is not Standing.WITHHELD]
    assert live and "bus factor 1" in live[0].statement
    assert live[0].statement.startswith("Alex Kim made 81% of the changes to resolver")
    assert all(e.ref.startswith("metric_rollup:git:shop:") for e in live[0].evidence)

    result, _ = await engine.investigate(
        "me", InvestigationRequest("who drove the churn in resolver in the last 30 days?")
    )
    claimed = {c.kind: c.value for c in result.claimed_facts}
    assert claimed[FactKind.ACTIVE_CONTRIBUTORS]["top"] == [ALEX, "person:jo@corp.example"]
    assert claimed[FactKind.CHURN]["lines_changed"] == 43
    assert claimed[FactKind.ACTIVE_CONTRIBUTORS]["top_names"] == ["Alex Kim", "Jo Park"]
    assert any("Alex Kim (6 commit(s))" in d.statement for d in result.drivers)

    result, _ = await engine.investigate(
        "me", InvestigationRequest("who has driven changes to the resolver module lately?")
    )
    assert result.subject_keys == (RESOLVER,)
    assert "Alex Kim" in (result.direct_judgment or "")


async def test_activity_counts_days_not_rollups(graph: OrgGraph, tmp_path: Path) -> None:
    repo = gitrepo.build(tmp_path / "shop")
    await import_git(graph, spec(repo))
    [subject] = (await graph.subjects_by_keys([RESOLVER])).values()
    end = repo.now + timedelta(hours=1)
    window = Window(end - timedelta(days=30), end, False)
    facts = {}
    for provider in default_providers():
        if subject.kind in provider.subject_kinds:
            facts.update(
                {f.kind: f.value for f in (await provider.read(graph, [subject], window)).facts}
            )
    assert facts[FactKind.COMMIT_ACTIVITY] == {"commits": 7, "days": 7}
    assert facts[FactKind.ACTIVE_CONTRIBUTORS]["contributors"] == 2


async def test_not_a_repository_is_a_clear_error(graph: OrgGraph, tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        await import_git(graph, GitImport(tmp_path))
    repo = gitrepo.build(tmp_path / "shop")
    with pytest.raises(GitError, match="inside the repository at"):
        await import_git(graph, GitImport(repo.path / "resolver"))
    with pytest.raises(GitError, match="names no commit"):
        await import_git(graph, spec(repo, branch="no-such-branch"))
    with pytest.raises(GitError, match="must name a ref"):
        await import_git(graph, spec(repo, branch="--output=/tmp/x"))


async def test_a_name_no_record_can_carry_is_refused_before_anything_is_written(
    graph: OrgGraph, tmp_path: Path
) -> None:
    """Records name their source `git:<name>` (at most 200 characters): with a longer name
    every record was rejected and the run wrote the subjects alone."""
    repo = gitrepo.build(tmp_path / "shop")
    for name, why in (("r" * (MAX_NAME + 1), "characters long"), (" shop", "space")):
        with pytest.raises(GitError, match=why):
            await import_git(graph, spec(repo, name=name))
    assert await graph.count_subjects(SubjectQuery()) == 0
    longest = await import_git(graph, spec(repo, name="r" * MAX_NAME))
    assert (longest.invalid, longest.commits) == (0, 14), longest.warnings


def test_the_command_imports_a_bare_clone_and_refuses_a_non_repository(tmp_path: Path) -> None:
    repo = gitrepo.build(tmp_path / "work" / "shop")
    bare = tmp_path / "shop.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.path), str(bare)], check=True)
    fabric = [sys.executable, "-m", "gateway.cli", "import", "git"]
    data = ["--data-dir", str(tmp_path / "db"), "--org", "gitcli"]
    done = subprocess.run(
        [*fabric, str(bare), "--branch", "main", *data],
        capture_output=True, text=True, timeout=180, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert (summary["repository"], summary["commits"], summary["people"]) == ("shop", 14, 3)
    missing = subprocess.run(
        [*fabric, str(tmp_path / "work"), *data], capture_output=True, text=True, cwd=ROOT
    )
    assert missing.returncode == 2 and "not a git repository" in missing.stderr
    assert "Traceback" not in missing.stderr
    long = [*data, "--name", "r" * (MAX_NAME + 1)]
    named = subprocess.run([*fabric, str(bare), *long], capture_output=True, text=True, cwd=ROOT)
    assert named.returncode == 2 and "characters long" in named.stderr, named.stderr
    assert "Traceback" not in named.stderr


DASHBOARD = """
query($key: String!) {
  subjects(filter: {kind: MODULE}, orderBy: NAME, first: 10) {
    totalCount edges { node { key name previousNames } }
  }
  facts(subjectKey: $key, kinds: [CHURN, ACTIVE_CONTRIBUTORS, BUS_FACTOR]) { kind value }
}"""

INVESTIGATE = """
mutation($q: String!) {
  investigate(input: {question: $q}) {
    result { outcome directJudgment
      drivers { standing category statement claimedFacts { kind value } } }
  }
}"""


async def test_dashboards_and_the_investigate_mutation_read_imported_data(
    gateway: Any, tmp_path: Path
) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    repo = gitrepo.build(tmp_path / "shop")
    await import_git(gateway.store.org(org), spec(repo))
    token = await gateway.token(org)
    response = await gateway.query(token, DASHBOARD, {"key": RESOLVER})
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    modules = body["data"]["subjects"]
    # 3 directories and the head's 7 files (module_layout 7: every file is a module)
    assert modules["totalCount"] == 10
    assert {"key": RESOLVER, "name": "resolver", "previousNames": ["query"]} in [
        e["node"] for e in modules["edges"]
    ]
    facts = {f["kind"]: f["value"] for f in body["data"]["facts"]}
    assert facts["BUS_FACTOR"]["bus_factor"] == 1
    assert facts["ACTIVE_CONTRIBUTORS"]["top_names"] == ["Alex Kim", "Jo Park"]

    response = await gateway.query(token, INVESTIGATE, {"q": "what is the bus factor of resolver?"})
    result = response.json()["data"]["investigate"]["result"]
    assert result["outcome"] == "ANSWERED"
    cited = [c for d in result["drivers"] for c in d["claimedFacts"]]
    assert {"kind": "BUS_FACTOR", "value": facts["BUS_FACTOR"]} in cited
    await gateway.store.drop_org(org)


def test_the_progress_bar_shows_each_phase_on_a_terminal_only() -> None:
    from gateway.cli.import_git import PhaseBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = PhaseBar(screen)
    bar("commits", 500, 1000)
    bar("commits", 1000, 1000)
    bar("records", 10, 40)
    bar.close()
    lines = screen.getvalue().split("\n")
    assert lines[0].endswith("100% 1000/1000") and "50% 500/1000" in lines[0]
    assert lines[1].endswith(" 25% 10/40") and lines[1].lstrip("\r").startswith("records")
    quiet = io.StringIO()
    PhaseBar(quiet)("commits", 1, 2)
    assert quiet.getvalue() == ""


def test_the_log_parser_keeps_odd_paths_and_separators_intact(tmp_path: Path) -> None:
    from graph.git.log import commits

    repo = gitrepo.Repo(tmp_path / "odd")
    odd = "mod/na\u00efve\tname\nwith newline.py"
    repo.write(odd, "a\nb\n")
    repo.write("mod/data.bin", b"\x00\x01\x02")
    repo.commit(gitrepo.SAM, 1, "Subject with \x1f unit and \x1e record separators")
    [commit] = list(commits(repo.path, ["HEAD"]))
    assert commit.subject == "Subject with \x1f unit and \x1e record separators"
    assert {(f.path, f.added, f.removed) for f in commit.files} == {
        (odd, 2, 0),
        ("mod/data.bin", 0, 0),
    }
