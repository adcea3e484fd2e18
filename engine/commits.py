"""Which commit a commit record is of, read from its key.

The git import writes one commit record per commit and subject it touched, keyed
`commit:git:REPO:SHA:SUBJECT` (graph/git/records.py), or, when that is longer than a key may
be, `commit:git:` and a digest of it. Two readers need the commit behind a record: counting
commits once across the subjects one touched (engine/providers/contributions.py) and naming a
commit by its short hash (engine/latest.py). One parser, so the two never read the same key
differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.models import SourceRecord, SourceRecordKind

GIT = "commit:git:"


@dataclass(frozen=True)
class CommitKey:
    """What a record's key says of its commit: `commit`, the same for every subject one
    commit touched (the record's own key when the key cannot tell: a digest, or not a commit
    record), and `sha`, the commit's hash when the key names it."""

    commit: str
    sha: str | None


def commit_of(record: SourceRecord) -> CommitKey:
    """The commit behind `record`. The record's subject is cut off the key's end rather than
    the key split on ':', as a subject key holds colons (and a repository's name may); the
    hash is then the last part, since git's hashes hold none."""
    suffix = f":{record.subject}"
    if record.record_kind is not SourceRecordKind.COMMIT or not record.key.endswith(suffix):
        return CommitKey(record.key, None)
    commit = record.key[: -len(suffix)]
    repo, _, sha = commit.removeprefix(GIT).rpartition(":")
    named = commit.startswith(GIT) and bool(repo) and bool(sha)
    return CommitKey(commit, sha if named else None)
