"""Which commit a commit record is of (engine/domain/commits.py), on the records the git import
writes: one per commit and subject it touched, so a commit touching two modules is one commit
(contributions count it once) and is named by its short hash (a 'still' answer)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.domain.commits import CommitKey, commit_of, legacy_commit_key
from engine.domain.models import SourceRecord
from engine.questions.firstchange import short
from graph.git.history import Change, History, module_key
from graph.git.modules import Modules
from graph.git.records import commit_records
from graph.records import Parsed, parse_record

SHA = "bfb52ea0d5e4c2b5d0e0d1cb4a4f3e1c9f0a7b21"


def _written(repo: str, paths: tuple[str, ...]) -> list[SourceRecord]:
    """The commit records the git import writes for one commit touching `paths`."""
    history = History(repo, Modules(1, lambda sha, path: False))
    change = Change(
        SHA,
        datetime(2018, 12, 20, tzinfo=UTC),
        "Fix the thing",
        "person:armin",
        tuple(module_key(repo, p) for p in paths),
    )
    out = []
    for raw in commit_records(history, change):
        parsed = parse_record(raw)
        assert isinstance(parsed, Parsed) and isinstance(parsed.element, SourceRecord)
        out.append(parsed.element)
    return out


def test_every_record_of_one_commit_is_the_same_commit_named_by_its_hash() -> None:
    records = _written("click", ("src/click/core.py", "src/click/parser.py"))
    # the repository, both modules and the author: four records of one commit
    assert {r.subject for r in records} == {
        "repository:click",
        "module:click/src/click/core.py",
        "module:click/src/click/parser.py",
        "person:armin",
    }
    read = {commit_of(r) for r in records}
    assert len(read) == 1
    (only,) = read
    assert only.sha == SHA and only.commit == f"commit:git:click:{SHA}"


def test_a_repository_name_holding_a_colon_still_gives_the_hash() -> None:
    records = _written("a:b", ("src/x.py",))
    assert {commit_of(r).sha for r in records} == {SHA}
    assert len({commit_of(r).commit for r in records}) == 1


@pytest.mark.parametrize("repo", ["r" * 150, "r" * 175, "r:" * 85])
def test_a_key_too_long_to_write_whole_still_names_the_commit(repo: str) -> None:
    """A key over 256 characters (here from a long repository name) is shortened to the
    repository, the hash and a digest (the repository's own digest when it is too long to
    fit): every record of the commit is still the same commit, named by its hash. The
    author's key, short enough to keep, is read as the same commit too."""
    records = _written(repo, ("src/x.py", "src/y.py"))
    shortened = [r for r in records if r.subject != "person:armin"]
    assert len(shortened) == 3 and all(len(r.key) <= 256 for r in shortened)
    assert len({r.key for r in records}) == 4
    assert all(not r.key.endswith(r.subject) for r in shortened)
    assert {commit_of(r).sha for r in records} == {SHA}
    assert len({commit_of(r).commit for r in records}) == 1


def test_a_key_an_older_import_digested_names_no_commit() -> None:
    """Keys written before 2026-12 were `commit:git:` and a digest alone: each counts as
    itself (a re-import retracts them, tests/test_long_commit_keys.py)."""
    key = legacy_commit_key("r" * 150, SHA, "repository:" + "r" * 150)
    assert key is not None and key.count(":") == 2
    at = datetime(2026, 1, 1, tzinfo=UTC)
    old = SourceRecord(key=key, record_kind="commit", subject="repository:x", start=at)
    assert commit_of(old) == CommitKey(key, None)
    assert legacy_commit_key("click", SHA, "repository:click") is None  # never shortened


def test_a_record_not_of_a_git_commit_names_no_hash() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    merged = SourceRecord(
        key="pull_request:github:click:42:repository:click",
        record_kind="pull_request",
        subject="repository:click",
        start=at,
    )
    assert commit_of(merged).sha is None and commit_of(merged).commit == merged.key


@pytest.mark.parametrize("repo", ["click", "r" * 150, "r" * 175])
def test_a_first_change_names_its_commit_by_the_short_hash_whatever_its_key(repo: str) -> None:
    """The first-change answer names a commit by its short hash. It reads the key through
    engine/domain/commits.py, so a key shortened for a long repository name (which no longer
    ends in the subject) still gives the hash, not the whole key."""
    for record in _written(repo, ("src/x.py",)):
        assert short(record.key, record.subject) == SHA[:7]
