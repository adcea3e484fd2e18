"""Projection records (docs/projection-format.md) from an aggregated git history: the
relationships, the parts, the daily rollups and the commit records, and the marks of how a
repository was imported (MODULE_LAYOUT, COMMIT_KEYS). The subject records are
graph/git/subjectrecords.py's.

Contribution windows are merged with what an earlier import stored (the oldest start, the
latest end), because an incremental run sees only the newest commits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from engine.domain.commits import commit_key, legacy_commit_key
from engine.domain.models import Relationship
from graph.git.history import Change, History, RollupKey, module_key

# A window is half-open: the last commit lies inside [first, last + 1 s).
_LAST_INSTANT = timedelta(seconds=1)
MAX_TITLE = 400  # a source record's title (engine.domain.models.SourceRecord)
# What makes modules (graph/git/modules.py); 2: packages, directories and Python modules;
# 3: a package's changes count for the directory module holding it too; 4: packages and
# directories of Python files at every depth, paths followed through directory moves on
# side branches too; 5: a package's earlier path is kept though spelled as its name; 6: a
# commit record says how many of its lines were added; 7: every other file of the head is a
# file module too (HISTORY.md, pyproject.toml); 8: every directory holding a file is a module
# (.github/workflows, tests/certs). An import finding a repository stored under
# another layout reads its whole history again. 11: the life of each path (graph/git/lives.py:
# which commit first wrote it, which deleted a file the head has no more). 12: a moved folder's
# commits made apart from its era (engine/domain/movedapart.py: what touched its earlier path).
# 13: a file's deletion is git's status D (graph/git/log.py reads --summary), not its last touch.
# 14: a repository holding deleted files or folders is marked so (engine/domain/lives.py
# `DELETED`): their readers ask for the marked repositories alone. 15: a path's lineage follows
# its latest life, a path created again after its deletion or move kept with its earlier lives
# (engine/domain/lives.py `earlier_lives`; graph/git/log.py reads git's "create mode").
MODULE_LAYOUT = 15
# How commit records are keyed (engine/domain/commits.py); 2: a shortened key names its commit. An
# import finding a repository stored before reads its whole history again if it had such keys.
COMMIT_KEYS = 2
# The metric of a commit record: the lines the commit changed in its subject (added and
# removed together). Not a rollup's metric (engine/evidence.ROLLUP_METRICS): nothing that
# sums a day's rollups reads it.
COMMIT_LINES = "lines_changed"


def rollup_key(repo: str, key: RollupKey) -> str:
    """A rollup's key. A long one is a digest alone, unlike a commit record's
    (engine/domain/commits.py): nothing reads a rollup's key back, only its identity (a re-run's
    upsert, a force-push's tombstone) and its `metric_rollup:git:` prefix (engine.reading.merges);
    its subject, actor, day and metric are fields of the record. (On click no key is long:
    the longest author address has 58 characters.)"""
    subject, actor, day, metric = key
    text = f"metric_rollup:git:{repo}:{day.isoformat()}:{metric}:{subject}:{actor}"
    if len(text) <= 256:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()[:40]
    return f"metric_rollup:git:{digest}"


def edge_id(repo: str, person: str, target: str) -> str:
    return f"git:{repo}:{person}>{target}"[:512]


def relationships(
    history: History, stored: Mapping[str, Relationship], branch: str
) -> Iterator[dict[str, Any]]:
    for (person, target), span in history.spans.items():
        rel_id = edge_id(history.repo, person, target)
        first, last = span.first, span.last + _LAST_INSTANT
        before = stored.get(rel_id)
        if before is not None:
            first = min(first, before.valid_from or first)
            last = max(last, before.valid_to or last)
        yield {
            "type": "relationship",
            "relation": "CONTRIBUTES_TO",
            "from": person,
            "to": target,
            "id": rel_id,
            "valid_from": first.isoformat(),
            "valid_to": last.isoformat(),
            "evidence": f"git log of {history.repo}@{branch}"[:1000],
            "source": f"git:{history.repo}",
        }


def parts(history: History) -> Iterator[dict[str, Any]]:
    """A module is PART_OF the module directory holding it (graph/git/modules.py): a Python
    module its package, a subpackage its package, a package the directory holding it; what
    counts for one counts for the other, up the chain."""
    for path, module in history.modules.by_path.items():
        if module.parent is None:
            continue
        key, parent = module_key(history.repo, path), module_key(history.repo, module.parent)
        outer = history.modules.by_path.get(module.parent)
        holder = outer.kind if outer is not None else "directory"
        yield {
            "type": "relationship",
            "relation": "PART_OF",
            "from": key,
            "to": parent,
            "id": f"git:{history.repo}:{key}<{parent}"[:512],
            "evidence": f"{module.path} is in the {holder} {module.parent}"[:1000],
            "source": f"git:{history.repo}",
        }


def rollups(repo: str, values: Mapping[RollupKey, int]) -> Iterator[dict[str, Any]]:
    for key, value in values.items():
        subject, actor, day, metric = key
        start = datetime(day.year, day.month, day.day).isoformat() + "Z"
        yield {
            "type": "source_record",
            "key": rollup_key(repo, key),
            "record_kind": "metric_rollup",
            "subject": subject,
            "actor": actor,
            "start": start,
            "end": (day + timedelta(days=1)).isoformat(),
            "metric": metric,
            "value": value,
            "source": f"git:{repo}",
        }


def commit_records(history: History, change: Change) -> Iterator[dict[str, Any]]:
    """A commit's `commit` records: one for the repository and each module it touched (the
    actor is the author), and one for the author (the actor is the repository), so that what
    changed in any of them lists it. The title is the commit's subject line (untrusted text).
    Each carries the lines the commit changed there (`metric` lines_changed, added and
    removed together, as `git log -M --numstat` counts them) and, as `added`, those it added:
    a day's records add up to its rollups' lines, and a window cutting the day can count them
    (and churn's added and removed apart) to the instant."""
    ends = _ends(history, change)
    lines: list[int | None] = [change.lines, *change.module_lines, change.lines]
    plus: list[int | None] = [change.added, *change.module_added, change.added]
    if len(lines) != len(ends):  # a change made without its lines (tests): none said
        lines = [None] * len(ends)
    if len(plus) != len(ends) or None in lines:
        plus = [None] * len(ends)
    for (subject, actor), changed, added in zip(ends, lines, plus, strict=True):
        yield {
            "type": "source_record",
            "key": commit_key(history.repo, change.sha, subject),
            "record_kind": "commit",
            "subject": subject,
            "actor": actor,
            "start": change.authored.isoformat(),
            "end": change.authored.isoformat(),  # an instant: windows read it as one
            "title": change.title[:MAX_TITLE],
            **({"metric": COMMIT_LINES, "value": changed} if changed is not None else {}),
            **({"added": added} if added is not None else {}),
            "source": f"git:{history.repo}",
        }


def commit_keys(history: History, change: Change) -> list[str]:
    return [r["key"] for r in commit_records(history, change)]


def legacy_keys(history: History, change: Change) -> list[str]:
    """The keys an import before 2026-12 gave the commit's records whose keys are now
    shortened (engine/domain/commits.py): tombstoned beside them, so re-reading a history imported
    then replaces its records instead of adding a second one per commit and subject."""
    keys = (legacy_commit_key(history.repo, change.sha, s) for s, _ in _ends(history, change))
    return [key for key in keys if key is not None]


def _ends(history: History, change: Change) -> list[tuple[str, str]]:
    """(subject, actor) of each of a commit's records."""
    repo = history.repo_key
    ends = [(repo, change.person), *((m, change.person) for m in change.modules)]
    ends.append((change.person, repo))
    return ends
