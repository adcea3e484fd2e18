"""A commit whose record keys are too long to write whole (over 256 characters: about twice
the repository name's length plus the path's over 195) is still one commit: the shortened key
keeps the repository and the hash (engine/domain/commits.py), so "who changed" and the contributors
facts count it once, not once per module it touched. Over a repository made with git
(tests/gitrepo.py), imported into the real embedded FalkorDB; a history imported when such
keys were a digest alone is re-imported without a second record per commit and subject."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.commits import legacy_commit_key
from engine.domain.contract import InvestigationResult, Outcome
from engine.domain.facts import FactKind
from engine.domain.models import SourceRecordKind
from engine.ports import Checkpoint, OrgGraph
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from graph.records import FORMAT_NAME, FORMAT_VERSION
from tests import gitrepo
from tests.conftest import new_org
from tests.git_fixture import imported_graph  # noqa: F401 - the `graph` fixture
from tests.test_python_modules import ask as ask_at

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
REPO = "a-repository-named-at-some-length-x"  # 35 characters
SUB = "subpackage_" + "n" * 100  # module keys fit (<= 200), commit keys do not (> 256)
ALPHA, BETA = f"src/shop/{SUB}/alpha.py", f"src/shop/{SUB}/beta.py"
KEYS = [f"module:{REPO}/{ALPHA}", f"module:{REPO}/{BETA}"]
# Every module whose commit keys are long: the subpackage's __init__.py is a file module of
# its own too (graph/git/modules.py, module_layout 7), its one commit's keys as long.
LONG = [*KEYS, f"module:{REPO}/src/shop/{SUB}/__init__.py"]


def build(path: Path) -> gitrepo.Repo:
    repo = gitrepo.Repo(path, NOW)
    repo.write("src/shop/__init__.py", "")
    repo.write(f"src/shop/{SUB}/__init__.py", "")
    repo.lines(ALPHA, 5, "a")
    repo.lines(BETA, 5, "b")
    repo.commit(gitrepo.ALEX, 30, "Alpha and beta")  # one commit, both modules
    repo.lines(ALPHA, 2, "more")
    repo.commit(gitrepo.SAM, 20, "More alpha")
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> gitrepo.Repo:
    return build(tmp_path_factory.mktemp("long") / REPO)


async def ask(graph: OrgGraph, question: str) -> InvestigationResult:
    return await ask_at(graph, question)


def touched(repo: gitrepo.Repo, path: str) -> list[str]:
    """'SHA EMAIL' of each commit that touched `path`."""
    return [line for line in repo.git("log", "--format=%H %aE", "--", path).split("\n") if line]


async def commit_records(graph: OrgGraph) -> dict[str, list[str]]:
    found = await graph.source_records_of(KEYS, kinds=[SourceRecordKind.COMMIT])
    return {key: sorted(r.key for r in found.get(key, [])) for key in KEYS}


async def test_the_keys_are_shortened_and_still_name_the_commit(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    sha = repo.git("log", "--format=%H", "--grep", "Alpha and beta").strip()
    records = await commit_records(graph)
    assert all(len(k) > 256 for k in (f"commit:git:{REPO}:{sha}:{key}" for key in KEYS))
    mine = [k for keys in records.values() for k in keys if sha in k]
    assert len(set(mine)) == 2  # two records, one per module
    assert all(k.startswith(f"commit:git:{REPO}:{sha}:#") and len(k) <= 256 for k in mine)


async def test_who_changed_both_modules_counts_the_commit_once(
    graph: OrgGraph, repo: gitrepo.Repo
) -> None:
    """Alex's one commit touched alpha.py and beta.py: with digest keys it was two."""
    log = repo.git("log", "--no-merges", "--format=%aN", "--", ALPHA, BETA).split("\n")
    assert log.count("Alex Kim") == 1
    result = await ask(graph, "who changed alpha.py and beta.py in the last 100 days?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert set(result.subject_keys) == set(KEYS)
    shown = dict(re.findall(r"([^,:;.]+?) \((\d+) commit\(s\)", result.direct_judgment or ""))
    assert {k.strip(): int(v) for k, v in shown.items()} == {"Alex Kim": 1, "Sam Lee": 1}, (
        result.direct_judgment
    )
    # The contributors facts count each person's commits over both modules together.
    facts = [f for f in result.claimed_facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    assert {f.subject_key for f in facts} == set(KEYS)
    for fact in facts:
        together = dict(zip(fact.value["top"], fact.value["top_commits_together"], strict=True))
        assert together["person:alex@corp.example"] == 1


async def test_a_history_imported_with_digest_keys_is_re_imported_once(
    falkor: FalkorStore, repo: gitrepo.Repo
) -> None:
    """Before, the records of such a commit were keyed `commit:git:` and a digest alone; a
    full import over them (here: no checkpoint yet) retracts those, and importing again adds
    nothing."""
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        old = [
            {"type": "source_record", "key": legacy_commit_key(REPO, sha, key),
             "record_kind": "commit", "subject": key, "actor": f"person:{email}",
             "start": NOW.isoformat(), "source": f"git:{REPO}"}
            for key, path in zip(KEYS, (ALPHA, BETA), strict=True)
            for sha, email in (line.split() for line in touched(repo, path))
        ]  # fmt: skip
        assert len(old) == 3
        assert all(r["key"] and r["key"].count(":") == 2 for r in old)
        header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
        lines = [json.dumps(r).encode() for r in [header, *old]]
        assert (await Projector(graph, source=f"git:{REPO}").run(lines)).ok
        assert sum(map(len, (await commit_records(graph)).values())) == len(old)
        assert (await import_git(graph, GitImport(repo.path))).invalid == 0
        after = await commit_records(graph)
        assert {k: len(v) for k, v in after.items()} == {KEYS[0]: 2, KEYS[1]: 1}
        assert all(":#" in k for keys in after.values() for k in keys)
        # An interrupted run (its checkpoint unfinished) reads the whole branch again.
        marker = f"git-head:{REPO}@main"
        await graph.save_checkpoint(Checkpoint(marker, 0, "", "interrupted", False))
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "full" and again.invalid == 0
        assert await commit_records(graph) == after
    finally:
        await falkor.drop_org(org)


async def _as_before(graph: OrgGraph, repo: str, long_keys: bool) -> None:
    """Make the stored import look like one made before shortened keys named their commit:
    the repository without the `commit_keys` mark and, with `long_keys`, the commit records
    of the modules keyed by a digest alone."""
    stored = (await graph.subjects_by_keys([f"repository:{repo}"]))[f"repository:{repo}"]
    old = stored.model_dump(mode="json", exclude={"id", "stub"}, exclude_none=True)
    old["attributes"].pop("commit_keys")
    lines: list[dict[str, object]] = [{"type": "subject", **old}]
    if long_keys:
        found = await graph.source_records_of(LONG, kinds=[SourceRecordKind.COMMIT])
        for record in (r for records in found.values() for r in records):
            sha = record.key.split(":")[3]
            body = record.model_dump(mode="json", exclude_none=True)
            lines.append({"type": "tombstone", "target": "source_record", "key": record.key})
            lines.append({**body, "type": "source_record",
                          "key": legacy_commit_key(REPO, sha, record.subject)})  # fmt: skip
    header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
    encoded = [json.dumps(r).encode() for r in [header, *lines]]
    assert (await Projector(graph, source=f"git:{repo}", resume=False).run(encoded)).ok


async def test_a_repository_imported_with_digest_keys_is_read_again_once(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    """An incremental run reads only the new commits: over a repository imported when such
    keys were a digest alone, the whole history is read again (said, once), so its older
    commits are keyed by their commits and counted once too."""
    repo = build(tmp_path / REPO)
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        assert (await import_git(graph, GitImport(repo.path))).invalid == 0
        before = await commit_records(graph)
        await _as_before(graph, REPO, long_keys=True)
        found = await graph.source_records_of(LONG, kinds=[SourceRecordKind.COMMIT])
        old = [r.key for records in found.values() for r in records]
        assert old and all(k.count(":") == 2 for k in old)
        repo.lines("README.md", 1, "late")
        repo.commit(gitrepo.JO, 1, "Readme")
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "full" and again.invalid == 0
        assert any("read again" in w and "named no commit" in w for w in again.warnings)
        assert again.tombstones == len(old)  # the report says what it retracted
        assert await commit_records(graph) == before
        result = await ask(graph, "who changed alpha.py and beta.py in the last 100 days?")
        assert "Alex Kim (1 commit(s)" in (result.direct_judgment or ""), result.direct_judgment
        assert (await import_git(graph, GitImport(repo.path))).mode == "up_to_date"
    finally:
        await falkor.drop_org(org)


async def test_a_repository_with_no_long_key_is_not_read_again(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "shop", NOW)
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        assert (await import_git(graph, GitImport(repo.path))).invalid == 0
        await _as_before(graph, "shop", long_keys=False)
        repo.lines("README.md", 1, "late")
        repo.commit(gitrepo.JO, 1, "Readme")
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "incremental" and again.commits == 1, again.warnings
        assert not any("read again" in w for w in again.warnings)
    finally:
        await falkor.drop_org(org)


class Interrupted(Exception):
    """What stops a run once its first batch of records is written (a kill, a lost server)."""


def stop_after_first_batch(phase: str, done: int, total: int) -> None:
    if phase == "records":
        raise Interrupted(f"{done} of {total} records written")


async def test_an_interrupted_re_read_is_read_again_in_full(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    """A re-read's first batch gives the repository its current marks: a run stopped after
    it had not yet retracted the older keys, and the next run, finding the marks beside the
    old finished checkpoint, read nothing ('up_to_date'), each such commit kept twice."""
    repo = build(tmp_path / REPO)
    for i in range(1_000):  # enough records for more than one batch (graph/projection.py)
        repo.write(f"src/shop/{SUB}/m{i:04}.py", "x\n")
    repo.commit(gitrepo.JO, 10, "Many modules")
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        first = await import_git(graph, GitImport(repo.path))
        assert first.invalid == 0 and first.records > 5_000
        before = await commit_records(graph)
        await _as_before(graph, REPO, long_keys=True)
        with pytest.raises(Interrupted):
            await import_git(graph, GitImport(repo.path), stop_after_first_batch)
        kept = [k for keys in (await commit_records(graph)).values() for k in keys]
        assert any(k.count(":") == 2 for k in kept)  # the old keys are still there
        again = await import_git(graph, GitImport(repo.path))
        assert again.mode == "full" and again.invalid == 0, again.warnings
        assert await commit_records(graph) == before
        assert (await import_git(graph, GitImport(repo.path))).mode == "up_to_date"
    finally:
        await falkor.drop_org(org)
