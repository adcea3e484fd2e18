"""Which commit a commit record is of (engine/commits.py), on the records the git import
writes: one per commit and subject it touched, so a commit touching two modules is one commit
(contributions count it once) and is named by its short hash (a 'still' answer)."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.commits import commit_of
from engine.models import SourceRecord
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


def test_a_key_too_long_to_name_the_commit_is_its_own_commit() -> None:
    """A digested key (graph/git/records.py: over 256 characters, here from a long repository
    name) names neither the commit nor its hash: each record counts as itself, and is named
    by its key."""
    records = _written("r" * 150, ("src/x.py",))
    digested = [r for r in records if r.subject != "person:armin"]
    assert len(digested) == 2 and all(r.key.count(":") == 2 for r in digested)
    for record in digested:
        assert commit_of(record).sha is None
        assert commit_of(record).commit == record.key
    (author,) = (r for r in records if r.subject == "person:armin")  # short enough to keep
    assert commit_of(author).sha == SHA


def test_a_record_not_of_a_git_commit_names_no_hash() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    merged = SourceRecord(
        key="pull_request:github:click:42:repository:click",
        record_kind="pull_request",
        subject="repository:click",
        start=at,
    )
    assert commit_of(merged).sha is None and commit_of(merged).commit == merged.key
