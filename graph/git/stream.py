"""The projection lines one git import run writes, in the order the projector reads them.

Split from graph/git/importer.py, which decides what a run reads; this is what it writes: the
header and subjects first, then relationships, module parts, commit episodes, commit records
and daily rollups, then the tombstones that retract what only an abandoned history
contributed (and the commit records an older import keyed by a digest alone, see
engine/domain/commits.py). The lines are streamed: a long history's records are never all encoded at
once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from engine.domain.models import Relationship, StoredSubject
from engine.ports import OrgGraph
from graph.git.history import History, RollupKey
from graph.git.records import (
    commit_keys,
    commit_records,
    legacy_keys,
    parts,
    relationships,
    rollup_key,
    rollups,
)
from graph.git.subjectrecords import subjects
from graph.projection import IngestReport, Projector
from graph.records import FORMAT_NAME, FORMAT_VERSION

Progress = Callable[[str, int, int], None]  # phase ("commits" or "records"), done, total


def tombstones(repo: str, gone: History | None, stale: set[RollupKey]) -> list[bytes]:
    out: list[dict[str, Any]] = []
    for episode in gone.episodes if gone else []:
        out.append({"type": "tombstone", "target": "episode", "key": episode["key"]})
    for change in gone.changes if gone else []:
        assert gone is not None
        out += [
            {"type": "tombstone", "target": "source_record", "key": ref}
            for ref in commit_keys(gone, change) + legacy_keys(gone, change)
        ]
    for key in sorted(stale, key=str):
        out.append({"type": "tombstone", "target": "source_record", "key": rollup_key(repo, key)})
    return [dump(record) for record in out]


def header_and_subjects(
    history: History,
    stored: dict[str, StoredSubject],
    branch: str,
    head: str,
    start: dict[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    yield {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
    yield from subjects(history, stored, branch, head, start)


def body(
    history: History, edges: dict[str, Relationship], branch: str, values: dict[RollupKey, int]
) -> Iterator[bytes]:
    for record in chain(relationships(history, edges, branch), parts(history)):
        yield dump(record)
    for episode in history.episodes:
        yield dump({**episode, "source": f"git:{history.repo}"})
    for change in history.changes:
        for record in commit_records(history, change):
            yield dump(record)
    for record in rollups(history.repo, values):
        yield dump(record)
    for key in legacy(history):  # the same records under the keys an older import gave them
        yield dump({"type": "tombstone", "target": "source_record", "key": key})


def legacy(history: History) -> list[str]:
    return [key for change in history.changes for key in legacy_keys(history, change)]


async def write(
    graph: OrgGraph, repo: str, lines: Iterable[bytes], total: int, progress: Progress | None
) -> IngestReport:
    projector = Projector(
        graph,
        source=f"git:{repo}",
        resume=False,  # the git checkpoint decides what to read; re-runs are idempotent
        on_progress=(lambda n, _: progress("records", n, total)) if progress else None,
    )
    return await projector.run(lines)


def dump(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
