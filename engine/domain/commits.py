"""Which commit a commit record is of, read from its key; and the key the git import writes.

The git import writes one commit record per commit and subject it touched, keyed
`commit:git:REPO:SHA:SUBJECT` (graph/git/records.py). A key may hold 256 characters; a longer
one is written `commit:git:REPO:SHA:#DIGEST` (the digest of the whole long key, so two
subjects of one commit stay two records), with REPO itself `#` and a digest of the name when
the name is too long to fit beside the hash. Either way the key still names its commit. (Keys
written before 2026-12 were `commit:git:` and a digest alone, naming no commit: the import
now retracts them when it writes the same records again, see `legacy_commit_key`.)

Two readers need the commit behind a record: counting commits once across the subjects one
touched (engine/providers/contributions.py) and naming a commit by its short hash
(engine/questions/still.py). The writer and the one parser live together, so the two never
read the same key differently.
"""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass

from engine.domain.models import SourceRecord, SourceRecordKind

GIT = "commit:git:"
MAX_KEY = 256  # docs/projection-format.md
_DIGEST = 40
_HEX = frozenset(string.hexdigits.lower())


@dataclass(frozen=True)
class CommitKey:
    """What a record's key says of its commit: `commit`, the same for every subject one
    commit touched (the record's own key when the key cannot tell: a digest written before
    2026-12, or not a commit record), and `sha`, the commit's hash when the key names it."""

    commit: str
    sha: str | None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:_DIGEST]


def _repo_part(repo: str, sha: str) -> str:
    """The repository as a shortened key names it: itself when it fits beside the hash and a
    digest, else `#` and its digest. It depends on the repository and the hash's length only,
    so every shortened record of one commit names the repository alike."""
    if len(f"{GIT}{repo}:{sha}:#") + _DIGEST <= MAX_KEY:
        return repo
    return f"#{_digest(repo)}"


def commit_key(repo: str, sha: str, subject: str) -> str:
    """The key of `sha`'s commit record for `subject` in `repo` (see the module's docstring)."""
    text = f"{GIT}{repo}:{sha}:{subject}"
    if len(text) <= MAX_KEY:
        return text
    return f"{GIT}{_repo_part(repo, sha)}:{sha}:#{_digest(text)}"


def legacy_commit_key(repo: str, sha: str, subject: str) -> str | None:
    """The key written before 2026-12 for a record whose key is now shortened (None when the
    key is not shortened: it never changed). A re-import retracts it, so a history imported
    before keeps one record per commit and subject."""
    text = f"{GIT}{repo}:{sha}:{subject}"
    return None if len(text) <= MAX_KEY else f"{GIT}{_digest(text)}"


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and set(text) <= _HEX


def commit_of(record: SourceRecord) -> CommitKey:
    """The commit behind `record`. The record's subject is cut off the key's end rather than
    the key split on ':', as a subject key holds colons (and a repository's name may); the
    hash is then the last part, since git's hashes hold none. A shortened key ends in
    `:#DIGEST` instead, which no subject key does (a subject key holds a colon)."""
    if record.record_kind is not SourceRecordKind.COMMIT:
        return CommitKey(record.key, None)
    return commit_in_key(record.key, record.subject)


def commit_in_key(key: str, subject: str) -> CommitKey:
    """The commit a commit record's `key` names, the record being of `subject` (see
    `commit_of`, which calls this once it knows the record is a commit's)."""
    suffix = f":{subject}"
    if key.endswith(suffix):
        commit = key[: -len(suffix)]
        repo, _, sha = commit.removeprefix(GIT).rpartition(":")
        if commit.startswith(GIT) and repo and sha:
            return CommitKey(f"{GIT}{_repo_part(repo, sha)}:{sha}", sha)
        return CommitKey(commit, None)
    named, _, tail = key.removeprefix(GIT).rpartition(":")
    repo, _, sha = named.rpartition(":")
    if key.startswith(GIT) and tail.startswith("#") and repo and _is_sha(sha):
        return CommitKey(f"{GIT}{named}", sha)
    return CommitKey(key, None)
