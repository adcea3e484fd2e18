"""The writing half of the graph port: the writes ingest (graph.projection) makes to an
organisation's graph to load a source into it, resume a load and finish one.

A batch is written in the order of its elements, a run of same-typed elements at a time (a
tombstone after an element retracts it); a checkpoint records how far a source's load got (a
finished one is not resumed); a complete snapshot's cleanup deletes what the source wrote
before and this run did not see. `OrgGraph` (engine/ports/graph.py) is a `GraphWrites`; an
adapter that can also prepare a batch ahead of sending it is a `PreparesWrites`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.ports.shapes import Checkpoint, WriteBatch


class GraphWrites(Protocol):
    """Loading a source into one organisation's graph."""

    async def write(self, batch: WriteBatch) -> None: ...

    async def checkpoint(self, source: str) -> Checkpoint | None: ...

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None: ...

    async def delete_unseen(self, source: str, run_id: str) -> int: ...


@runtime_checkable
class PreparesWrites(Protocol):
    """A graph that can do its client's share of a write ahead of sending it, so that ingest
    prepares the next batch while the store writes the current one (graph.projection)."""

    async def prepare_write(self, batch: WriteBatch) -> None:
        """Make now everything of writing `batch` that needs no answer from the store (rows,
        vectors, each statement's parameters as sent), kept in `batch.prepared`, so that
        `write(batch)` only sends. Updates `batch.written` as the write would: batches must
        be prepared in the order they are written, and written one at a time."""
        ...
