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
load is then made whole, graph.bulk_load). The vectors of a batch's subjects are set after
its call, by their range of ids.
"""

from __future__ import annotations

from array import array
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

if TYPE_CHECKING:
    from graph.falkor import FalkorStore


class FalkorStream:
    """The sink of a bulk load sent as it is read into build `epoch` of `org_id`: `send`
    each batch's part in input order, then `finish` with the checkpoint of the whole run."""

    def __init__(self, store: FalkorStore, org_id: str, epoch: int) -> None:
        self._store, self._org, self._epoch = store, org_id, epoch
        self._to: Target | None = None
        self._calls: Calls | None = None
        self.ids = NodeIds()
        self.stubs: set[str] = set()
        self._activities: dict[str, Props] = {}
        self._ordinal: dict[str, int] = {}  # each Activity's place: the order first seen
        self._days: dict[tuple[str, int], int] = {}
        self._claimed = False
        self._held = array("q")  # per record: its Activity's ordinal, its node id
        self._seen = {name: array("q") for name in ("record", "relationship", "episode")}
        self._vectors = 0

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
        new_slots = [(k, p) for k, p in part.slots.items() if k not in self.ids.slots]
        for table in (
            *contents(part, to.scope, to.stamp, self.ids, slots=False),
            slot_table(new_slots, to.scope, self.ids),
            *relations(part, to.scope, self.ids),
            *placed(part, self.ids),
        ):
            await calls.add(table)
        await calls.flush()
        self.stubs.update(k for k, p in part.subjects.items() if p.get("stub"))
        if to.stamp is not None and part.vectors:
            await to.vectors(part.vectors, self.ids.subjects)
            self._vectors += len(part.vectors)
        self._remember(part)

    def _remember(self, part: BatchGraph) -> None:
        """What later batches and the last call need of this one."""
        for key, props in part.activities.items():
            held = self._activities.get(key)
            if held is None:
                self._activities[key] = dict(props)
                self._ordinal[key] = len(self._ordinal)
            elif props.get("latest_ns", -1) > held.get("latest_ns", -1):
                held["latest_ns"], held["latest_us"] = props["latest_ns"], props["latest_us"]
        ordinal = self._ordinal
        for key, row in part.records.items():
            self._held.extend((ordinal[part.record_subject(row)], self.ids.records[key]))
        for bucket, n in part.days.items():
            self._days[bucket] = self._days.get(bucket, 0) + n
        self._claimed = self._claimed or part.claimed
        self._seen["record"].extend(hash(k) for k in part.records)
        self._seen["relationship"].extend(hash(k) for k in part.relationships)
        self._seen["episode"].extend(hash(k) for k in part.episodes)

    async def finish(self, done: Checkpoint) -> None:
        """The Activity nodes, day counts, Format and EmbeddingMeta and every HOLDS, then the
        indexes and `done`. Conflict if an element was written again in a later batch."""
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
            to.step(f"{self._vectors:,} vectors set as read")
        await to.finish(done)

    def _holds(self, first: int) -> Table:
        held = self._held

        def found() -> Iterator[bytes]:
            for at in range(0, len(held), 2):
                yield ENDS.pack(first + held[at], held[at + 1])

        return Table(header("HOLDS", ()), False, found())
