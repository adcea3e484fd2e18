"""Writes of one organisation's graph: a batch's statements prepared (ahead of sending, while
the store writes the batch before), sent in order, and the change event published once the
batch is in; retraction and the cleanup of what a complete run did not see.

Source records are written and retracted by statements that keep the activity structures
(graph.cypher.activity); a subject's vector is written with it (graph.search).
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from engine.domain.models import (
    ElementType,
    Episode,
    Relationship,
    RelationshipType,
    SourceRecord,
    Subject,
    Tombstone,
)
from engine.ports import WriteBatch
from engine.ports.changes import Change, ChangeFeed, ChangeKind
from graph import recordrows, rows, unchanged
from graph.changes import batch_change
from graph.creates import Creates, record_params
from graph.cypher import activity as activity_cypher
from graph.cypher import deletion as deletion_cypher
from graph.cypher import digests as digests_cypher
from graph.cypher import records as records_cypher
from graph.cypher import relationships as relationships_cypher
from graph.cypher import subjects as subjects_cypher
from graph.dialect import Dialect
from graph.executor import MAX_KEYS, Executor, Run, bound
from graph.search import SearchArms

_TEXT = rows.SUBJECT_COLUMNS.index("search_text") + 1  # its position in a subject row


_Send = Callable[[], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class _Plan:
    """A batch's statements, ready to send in order, and the change event its write makes
    (engine.ports.WriteBatch.prepared). writer: the writer that made it (each graph has its
    own), the only one to send it."""

    writer: Writer
    steps: list[_Send]
    change: Change | None
    touched: unchanged.Touched  # what it writes or retracts, in flight until sent


@dataclass(frozen=True, slots=True)
class _Rows:
    """A batch's runs with their write rows, made ahead of its read (`rows_ahead`)."""

    writer: Writer
    runs: list[list[unchanged.Pair]]


class Writer:
    """The writes of one organisation's graph (ScopedGraph's), sent through `executor` with
    $org bound to `scope`; `read` and `write` run one statement so bound."""

    def __init__(
        self,
        org_id: str,
        scope: str,
        executor: Executor,
        dialect: Dialect,
        changes: ChangeFeed | None,
        search: SearchArms,
        read: Run,
        write: Run,
    ) -> None:
        self._org = org_id
        self._scope = scope
        self._x = executor
        self._dialect = dialect
        self._changes = changes
        self._search = search
        self._read = read
        self._write = write
        # Reads of what a write would change, which run to the end as the write does.
        self._upkeep = bound(executor, scope, False, maintenance=True)
        self._creates = Creates(self._step, search, dialect)
        # What the batches prepared and not yet written write (graph.unchanged).
        self._in_flight: list[unchanged.Touched] = []

    async def write(self, batch: WriteBatch) -> None:
        """Write runs of same-typed elements in input order, so a tombstone after a record
        retracts it and a record after a tombstone restores it. Sends what `prepare_write`
        made of the batch, or (the plain path) prepares it now."""
        plan = batch.prepared
        if not isinstance(plan, _Plan) or plan.writer is not self:
            await self.prepare_write(batch)
            plan = batch.prepared
            assert isinstance(plan, _Plan)
        batch.prepared = None  # sent once
        try:
            for send in plan.steps:
                await send()
        finally:
            self._in_flight = [t for t in self._in_flight if t is not plan.touched]
        # Only once the batch is in: a reader told of it (or of the new revision) sees it.
        if self._changes is not None and plan.change is not None:
            await self._changes.publish(replace(plan.change, at_ns=time.time_ns()))

    def rows_ahead(self, batch: WriteBatch) -> None:
        """The rows of `batch` made now, before `prepare_write`: ingest makes them while the
        batch before is written, so that the batch's read goes out as soon as that write is
        in and the next write right after it (graph.projection)."""
        batch.prepared = _Rows(self, self._runs(batch))

    def _runs(self, batch: WriteBatch) -> list[list[unchanged.Pair]]:
        return [self._pairs(list(run), batch) for _, run in groupby(batch.elements, key=type)]

    async def prepare_write(self, batch: WriteBatch) -> None:
        """The statements of `batch`, made ahead of sending them (engine.ports.PreparesWrites):
        ingest prepares one batch while the store writes the one before. Elements the graph
        holds as they are (graph.unchanged) are left out, counted in `batch.unchanged`; a
        complete run stamps its run id on them instead."""
        ahead = batch.prepared
        made = isinstance(ahead, _Rows) and ahead.writer is self
        runs = ahead.runs if isinstance(ahead, _Rows) and made else self._runs(batch)
        # What the batch before writes may land after the read; what this one writes, too.
        # Taken before the read: a write in flight that ends while the read waits leaves
        # the list then, yet its last statements may have landed after the read.
        dirty = unchanged.Touched(set().union(*(t.ids for t in self._in_flight)))
        stored = await unchanged.read_stored(self._upkeep, runs)
        embedder = self._search.embedder
        stamp = embedder.identity.stamp() if embedder is not None else None
        mine = unchanged.Touched()
        steps: list[_Send] = []
        written: list[Any] = []
        held = 0  # elements the graph holds as they are
        for run in runs:
            kept: list[unchanged.Pair] = []
            same: list[unchanged.Pair] = []
            new: list[bool] = []  # each kept: absent when read, and written by none before
            for element, row in run:
                absent = False
                if row is not None and not dirty.changes(element):
                    if unchanged.unchanged(element, row, stored, stamp):
                        same.append((element, row))
                        continue
                    absent = unchanged.absent(element, stored)
                new.append(absent)
                kept.append((element, row))
                dirty.add(element)
                mine.add(element)
            if kept:
                await self._prepare_run(kept, batch, steps, new)
                written += [e for e, _ in kept]
            if same:
                self._leave(same, batch, steps)
                held += len(same)
            await asyncio.sleep(0)  # a write in flight sends its next statement meanwhile
        self._in_flight.append(mine)
        batch.unchanged += held
        change = None
        if self._changes and written:
            whole = len(written) == len(batch.elements)
            change = batch_change(self._org, batch if whole else replace(batch, elements=written))
        batch.prepared = _Plan(self, steps, change, mine)

    def _step(self, statement: str, **params: Any) -> _Send:
        return self._x.prepare(statement, {"org": self._scope, **params}, write=True)

    def _pairs(self, run: list[Any], batch: WriteBatch) -> list[unchanged.Pair]:
        """Each element of a run with its write row (graph.rows; a tombstone has none)."""
        first, source, run_id = run[0], batch.source, batch.run_id
        if isinstance(first, Subject):
            # One row per subject, its last: FalkorDB applies the first of two rows of one
            # key in a statement (a subject written twice in a batch kept its first version,
            # and its first vector: graph.cypher.search says why).
            by_key = {s.key: (s, rows.subject_row(self._org, s, source, run_id)) for s in run}
            return list(by_key.values())
        if isinstance(first, Relationship):
            return [(r, rows.relationship_row(r, source, run_id)) for r in run]
        if isinstance(first, Episode):  # one row per episode, its last: as for subjects
            by_key = {e.key: (e, rows.episode_row(e, source, run_id)) for e in run}
            return list(by_key.values())
        if isinstance(first, SourceRecord):
            # One row per record, its last (the same record twice in a batch would be
            # counted twice: both rows find it new).
            pairs = {r.key: (r, recordrows.source_record_row(r, source, run_id)) for r in run}
            return list(pairs.values())
        return [(t, None) for t in run]

    def _leave(self, same: list[unchanged.Pair], batch: WriteBatch, steps: list[_Send]) -> None:
        """Unchanged elements: not written, but a subject is there for stubs to skip, and a
        complete run's cleanup (`delete_unseen`) must find this run's id on each."""
        first = same[0][0]
        if isinstance(first, Subject):
            batch.written.update(s.key for s, _ in same)
        if not batch.complete:
            return
        run = batch.run_id
        if isinstance(first, Relationship):
            by_type: dict[RelationshipType, list[list[str]]] = defaultdict(list)
            for rel, _ in same:
                by_type[rel.type].append([rel.from_key, rel.to_key, rel.rel_id])
            for rel_type, ends in by_type.items():
                statement = digests_cypher.stamp_relationships(rel_type)
                steps.append(self._step(statement, keys=ends, run=run))
            return
        stamps: dict[type[Any], str] = {
            Subject: digests_cypher.STAMP_SUBJECTS,
            Episode: digests_cypher.STAMP_EPISODES,
            SourceRecord: digests_cypher.STAMP_RECORDS,
        }
        keys = [e.key for e, _ in same]
        steps.append(self._step(stamps[type(first)], keys=keys, run=run))

    async def _prepare_run(
        self, pairs: list[unchanged.Pair], batch: WriteBatch, steps: list[_Send], new: list[bool]
    ) -> None:
        """The statements of a run; `new` says which of its elements the batch's read found
        absent and nothing before them in the batch wrote: those subjects, episodes and records
        are created (graph.creates), the others merged."""
        first = pairs[0][0]
        data = [row for _, row in pairs if row is not None]  # none for tombstones
        created = [row for (_, row), n in zip(pairs, new, strict=True) if n and row is not None]
        merged = [row for (_, row), n in zip(pairs, new, strict=True) if not n and row is not None]
        if isinstance(first, Subject):
            if created:
                steps.append(self._creates.subjects(created))
            if merged:
                statement = subjects_cypher.merge_subjects(self._dialect)
                steps.append(self._step(statement, rows=merged))
            batch.written.update(s.key for s, _ in pairs)
            vectors = await self._search.prepare_vectors(
                [r[0] for r in data], [r[_TEXT] for r in data]
            )
            if vectors is not None:
                steps.append(vectors)
        elif isinstance(first, Relationship):
            ends = {k for r, _ in pairs for k in (r.from_key, r.to_key)}
            self._ensure_subjects(ends - batch.written, steps)
            by_type: dict[RelationshipType, list[list[Any]]] = defaultdict(list)
            for (rel, _), row in zip(pairs, data, strict=True):
                by_type[rel.type].append(row)
            for rel_type, typed in by_type.items():
                statement = relationships_cypher.merge_relationships(rel_type)
                steps.append(self._step(statement, rows=typed))
        elif isinstance(first, Episode):
            mentioned = {k for e, _ in pairs for k in e.mentions}
            self._ensure_subjects(mentioned - batch.written, steps)
            if created:
                steps.append(self._creates.episodes(created))
            if merged:
                steps.append(self._step(records_cypher.MERGE_EPISODES, rows=merged))
        elif isinstance(first, SourceRecord):
            if created:
                steps.append(self._creates.records(created))
            if merged:
                statement = activity_cypher.MERGE_SOURCE_RECORDS
                steps.append(self._step(statement, **record_params(merged)))
        else:
            tombstones = [t for t, _ in pairs]
            self._retract(tombstones, steps)
            batch.written.difference_update(
                t.key for t in tombstones if t.target is ElementType.SUBJECT
            )

    def _ensure_subjects(self, keys: set[str], steps: list[_Send]) -> None:
        if keys:
            stubs = [rows.stub_row(self._org, k) for k in sorted(keys)]
            steps.append(self._step(subjects_cypher.MERGE_STUBS, rows=stubs))

    def _retract(self, tombstones: list[Tombstone], steps: list[_Send]) -> None:
        statements = {
            ElementType.SUBJECT: deletion_cypher.DELETE_SUBJECTS,
            ElementType.RELATIONSHIP: relationships_cypher.delete_relationships(self._dialect),
            ElementType.EPISODE: deletion_cypher.DELETE_EPISODES,
            ElementType.SOURCE_RECORD: activity_cypher.DELETE_SOURCE_RECORDS,
        }
        for target, group in groupby(tombstones, key=lambda t: t.target):
            # Each key once: a record matched twice would be taken off its counts twice.
            keys = list(dict.fromkeys(t.key for t in group))
            steps.append(self._step(statements[target], keys=keys))

    async def delete_unseen(self, source: str, run_id: str) -> int:
        params = {"source": source, "run": run_id}
        deleted = 0
        dialect = self._dialect
        unseen = deletion_cypher.delete_unseen_nodes(dialect).values()
        for statement in (deletion_cypher.delete_unseen_relationships(dialect), *unseen):
            found = await self._write(statement, **params)
            deleted += int(found[0][0]) if found else 0
        # Source records one retraction at a time: it keeps the activity structures.
        # A read of the cleanup, which runs to the end as its writes do: no read time limit
        # (under load the request limit cut it off, and the cleanup failed half done).
        upkeep = bound(self._x, self._scope, False, maintenance=True)
        unseen_keys = await upkeep(deletion_cypher.UNSEEN_SOURCE_RECORDS, **params)
        keys = [str(k) for (k,) in unseen_keys]
        for at in range(0, len(keys), MAX_KEYS):
            await self._write(activity_cypher.DELETE_SOURCE_RECORDS, keys=keys[at : at + MAX_KEYS])
        deleted += len(keys)
        if deleted and self._changes is not None:  # no event names what went: readers resync
            await self._changes.publish(Change(org_id=self._org, kind=ChangeKind.RESET))
        return deleted
