"""A bulk load sent to FalkorDB as it is read: each batch's part of the graph
(graph.bulk.BatchGraph) goes out in GRAPH.BULK calls before the next batch is read, so the
loader holds what later batches need, not the organisation (graph.falkor_bulk sends a whole
graph made first).

Node ids run on across the calls (BEGIN on the first), so a batch's relationships, mentions
and STARTS/ENDS name subjects and time slots sent before it. What stays in memory: each
subject's and time slot's node id, each subject's Activity (its latest time rises with
later batches) and the day counts, sent last with the HOLDS of every record (two 8-byte
ids a record); and an 8-byte hash of each record, relationship and episode, to find one
written again in a later batch, which the stream cannot follow (graph.bulk.Conflict: the
load is then made whole, graph.bulk_load). The vectors' index is made after the first call,
and the vectors of a batch's subjects are set later, by their range of ids, a chunk after each
batch while the server keeps up (graph.falkor_pipe: it indexes each as it is set, while the
loader reads on), the rest at the end.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from engine.ports import Checkpoint
from graph.bulk import BatchGraph, Conflict, Props
from graph.falkor_build import Target
from graph.falkor_bulk import (
    ENDS,
    Calls,
    NodeIds,
    Table,
    closing,
    contents,
    header,
    placed,
    relations,
    slot_table,
    started,
    summaries,
)
from graph.slot_ids import SlotIds

if TYPE_CHECKING:
    from graph.falkor import FalkorStore

# Vectors set in one statement while the loader makes its next call: at 100k subjects FalkorDB
# indexed a vector in about 0.2 ms, so a chunk is about what the loader reads in that time.
VECTOR_CHUNK = 1_024
# Search texts held at most, waiting for their vectors to be set (about 40 MB): beyond it the
# loader waits for the server, which is behind then, rather than hold them all (a million
# subjects' texts are about 150 MB). A 100k-subject load holds all of its own.
VECTORS_HELD = 256 * VECTOR_CHUNK


class FalkorStream:
    """The sink of a bulk load sent as it is read into build `epoch` of `org_id`: `send`
    each batch's part in input order, then `finish` with the checkpoint of the whole run."""

    def __init__(self, store: FalkorStore, org_id: str, epoch: int) -> None:
        self._store, self._org, self._epoch = store, org_id, epoch
        self._to: Target | None = None
        self._calls: Calls | None = None
        self.ids = NodeIds()
        self.stubs: set[str] = set()
        self._slots = SlotIds()
        self._activities = _Activities()
        self._days: dict[tuple[str, int], int] = {}
        self._claimed = False
        # Per record, in the order sent: its Activity's place (4 bytes); the records of a
        # batch have consecutive node ids, so each batch's first id and count are enough.
        self._held = array("i")
        self._batches: list[tuple[int, int]] = []
        self._seen = {name: array("q") for name in ("record", "relationship", "episode")}
        self._vectors = 0
        self._unset: deque[tuple[int, list[str]]] = deque()  # (first node id, search texts)
        self._held_texts = 0

    def part(self) -> BatchGraph:
        """An empty part for the next batch, knowing the subjects sent."""
        return BatchGraph(self._org, known=self.ids.subjects, stubs=self.stubs)

    async def send(self, part: BatchGraph, source: str, run_id: str) -> None:
        """One batch's part, in calls of its own; its subjects' vectors set after them."""
        if self._to is None:
            self._to = await Target.emptied(self._store, self._org, self._epoch)
            self._calls = Calls(self._to.bulk)
            await self._calls.add(started(self.ids, self._to.scope, source, run_id))
        to, calls = self._to, self._calls
        assert calls is not None
        self.ids.episodes, self.ids.records = {}, {}
        self.ids.slots = self._slots.found(part.slots.items())  # this batch's slots sent before
        new_slots = [(k, p) for k, p in part.slots.items() if k not in self.ids.slots]
        for table in (
            *contents(part, to.scope, to.stamp, self.ids, slots=False),
            slot_table(new_slots, to.scope, self.ids),
            *relations(part, to.scope, self.ids),
            *placed(part, self.ids),
        ):
            await calls.add(table)
        await calls.flush()
        await to.index_vectors()  # after the first call, which makes the graph
        self._slots.add(new_slots, self.ids.slots)
        self.stubs.update(k for k, p in part.subjects.items() if p.get("stub"))
        if to.stamp is not None and part.vectors:
            ids = self.ids.subjects
            keys = sorted(part.vectors, key=ids.__getitem__)  # one table: consecutive ids
            assert ids[keys[-1]] == ids[keys[0]] + len(keys) - 1
            self._unset.append((ids[keys[0]], [part.vectors[k] for k in keys]))
            self._held_texts += len(keys)
            self._vectors += len(keys)
        self._remember(part)
        await self._set_vectors(every=False)  # while the next batch is read and made

    async def _set_vectors(self, every: bool) -> None:
        """The vectors waiting to be set: a chunk if the server has at most this batch's last
        call to run (the chunk is its work while the loader makes the next), as many as
        keep VECTORS_HELD texts or fewer waiting, or `every` one."""
        assert self._to is not None
        sent = 0
        while self._unset and (
            every or self._held_texts > VECTORS_HELD or (not sent and self._to.pipe.backlog <= 1)
        ):
            lo, texts = self._unset.popleft()
            if len(texts) > VECTOR_CHUNK:
                self._unset.appendleft((lo + VECTOR_CHUNK, texts[VECTOR_CHUNK:]))
            some = texts[:VECTOR_CHUNK]
            await self._to.set_vectors(lo, some)
            self._held_texts -= len(some)
            sent += 1

    def _remember(self, part: BatchGraph) -> None:
        """What later batches and the last call need of this one."""
        for key, props in part.activities.items():
            self._activities.add(key, props)
        place = self._activities.place
        self._held.extend(place[part.record_subject(row)] for row in part.records.values())
        if part.records:
            first = self.ids.records[next(iter(part.records))]
            assert self.ids.records[next(reversed(part.records))] == first + len(part.records) - 1
            self._batches.append((first, len(part.records)))
        for bucket, n in part.days.items():
            self._days[bucket] = self._days.get(bucket, 0) + n
        self._claimed = self._claimed or part.claimed
        self._seen["record"].extend(hash(k) for k in part.records)
        self._seen["relationship"].extend(hash(k) for k in part.relationships)
        self._seen["episode"].extend(hash(k) for k in part.episodes)

    async def finish(self, done: Checkpoint) -> None:
        """The Activity nodes, day counts, Format and EmbeddingMeta and every HOLDS, then the
        indexes and `done`. Conflict if an element was written again in a later batch."""
        if self._to is not None:
            await self._to.pipe.drain()  # every call sent answered first
        for name, hashes in self._seen.items():
            if np.unique(np.frombuffer(hashes, dtype=np.int64)).size < len(hashes):
                raise Conflict(f"a {name} written again in a later batch (or two that hash alike)")
        if self._to is None:  # nothing read: the graph of an empty input
            await self.send(self.part(), done.source, done.run_id)
        to, calls = self._to, self._calls
        assert to is not None and calls is not None
        self.ids.activities = {}
        first = self.ids.next  # the Activity nodes come first, in their order
        for table in (
            *summaries(self._activities.items(), self._days, to.scope, self.ids),
            *closing(self._claimed, to.scope, to.stamp, to.dimension, self.ids),
            self._holds(first),
        ):
            await calls.add(table)
        await calls.flush()
        to.step(f"{self.ids.next:,} nodes and their relationships sent as read")
        if self._vectors:
            left = self._held_texts
            await self._set_vectors(every=True)
            await to.pipe.drain()
            to.step(f"{self._vectors:,} vectors set, {left:,} of them after the last record")
        await to.finish(done)

    async def close(self) -> None:
        """Nothing of this load in flight any more (a load given up, graph.bulk_load)."""
        if self._to is not None:
            await self._to.pipe.close()

    def _holds(self, first: int) -> Table:
        held, batches = self._held, self._batches

        def found() -> Iterator[bytes]:
            at = 0
            for record, count in batches:
                for i in range(count):
                    yield ENDS.pack(first + held[at + i], record + i)
                at += count

        return Table(header("HOLDS", ()), False, found())


class _Activities:
    """Each subject's Activity as the batches sent leave it (graph.bulk.BulkGraph's
    `activities`), compact: its place (the order first seen, which is the order its node is
    sent in), its latest time in two int64 arrays, and one byte saying which properties it
    has (a kind, which is its key's, and a latest time). A dict of properties each held
    about 450 bytes a subject."""

    _KIND, _LATEST = 1, 2

    def __init__(self) -> None:
        self.place: dict[str, int] = {}
        self._ns = array("q")
        self._us = array("q")
        self._has = bytearray()

    def add(self, key: str, props: Props) -> None:
        """One batch's Activity of `key`: new, or its latest time raised (its kind stays)."""
        at = self.place.get(key)
        latest = props.get("latest_ns")
        if at is None:
            self.place[key] = len(self._has)
            kind = props.get("subject_kind")
            assert kind is None or kind == key.split(":")[0]  # graph.bulk's _raise
            self._has.append((self._KIND if kind is not None else 0)
                             | (self._LATEST if latest is not None else 0))  # fmt: skip
            self._ns.append(latest if latest is not None else 0)
            self._us.append(props["latest_us"] if latest is not None else 0)
        elif latest is not None and latest > self._latest(at):
            self._ns[at], self._us[at] = latest, props["latest_us"]
            self._has[at] |= self._LATEST

    def _latest(self, at: int) -> int:
        return self._ns[at] if self._has[at] & self._LATEST else -1

    def items(self) -> Iterator[tuple[str, Props]]:
        """(key, properties) of each, in place order, as BulkGraph holds them."""
        for key, at in self.place.items():
            props: Props = {"subject_key": key}
            if self._has[at] & self._KIND:
                props["subject_kind"] = key.split(":")[0]
            if self._has[at] & self._LATEST:
                props["latest_ns"], props["latest_us"] = self._ns[at], self._us[at]
            yield key, props
