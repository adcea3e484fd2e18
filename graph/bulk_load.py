"""`fabric ingest --bulk`: a load that writes nothing until the whole input is read, then
hands the graph it makes (graph.bulk) to the store's bulk mechanism in one go, into a new
epoch's graph (FalkorDB: graph.falkor_bulk).

The input is read as the projector reads it (its batches, digest, invalid lines and counts),
and the checkpoint it would leave is written last, once every node, relationship, vector and
index is in: a build without it was cut short, is never served (a flip checks the build's
checkpoints, graph.epochs) and is loaded again from its first line or discarded
(`fabric epochs discard`).
"""

from __future__ import annotations

import contextlib
import gc
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from engine.ports import Checkpoint, OrgGraph, WriteBatch
from graph.bulk import BatchGraph, BulkGraph, Conflict
from graph.projection import IngestReport, Projector

Load = Callable[[BulkGraph, Checkpoint], Awaitable[None]]


class Stream(Protocol):
    """Where a load sent as it is read goes (graph.falkor_stream.FalkorStream)."""

    def part(self) -> BatchGraph: ...

    async def send(self, part: BatchGraph, source: str, run_id: str) -> None: ...

    async def finish(self, done: Checkpoint) -> None: ...

    async def close(self) -> None: ...


class _WholeProjector(Projector):
    """A projector that never resumes (a bulk load is whole or not at all) and keeps the
    finished checkpoint for the end: subclasses say what a batch becomes (`_hold`) and where
    the load ends (`_end`)."""

    said = "read"  # what the stderr line says was done with the records

    def __init__(self, graph: OrgGraph, **options: Any) -> None:
        options["resume"] = False
        super().__init__(graph, **options)
        self._checkpoint: Checkpoint | None = None
        self._began = time.monotonic()

    async def _prepare(self, *_: Any) -> None:
        return  # a batch is held whole in _flush

    def _rows(self, *_: Any) -> None:
        return  # graph.bulk makes its own rows

    async def _hold(self, batch: WriteBatch, run_id: str) -> None:
        raise NotImplementedError

    async def _end(self, done: Checkpoint) -> None:
        raise NotImplementedError

    async def _flush(
        self,
        batch: WriteBatch,
        cursor: int,
        digest: str,
        report: IngestReport,
        *,
        finished: bool = False,
    ) -> None:
        if batch.elements:
            await self._hold(batch, report.run_id)
            report.accepted += len(batch.elements)
            report.batches += 1
        if finished:
            self._checkpoint = Checkpoint(self.source, cursor, digest, report.run_id, True)
        if self.on_progress:
            self.on_progress(cursor, report.accepted)

    async def _finish(self, report: IngestReport) -> None:
        assert self._checkpoint is not None
        # A new graph holds nothing an earlier run wrote: a complete snapshot deletes nothing,
        # though one with invalid lines is still no proof of complete enumeration.
        report.complete_skipped = self.complete and bool(report.invalid_count)
        seconds = time.monotonic() - self._began
        line = f"fabric: bulk load: {report.accepted:,} records {self.said} ({seconds:.1f} s)"
        print(line, file=sys.stderr)
        await self._end(self._checkpoint)


class BulkProjector(_WholeProjector):
    """Reads the input into a BulkGraph, batch by batch, then hands it and the final
    checkpoint to `load` (the store's)."""

    def __init__(self, graph: OrgGraph, load: Load, org_id: str, **options: Any) -> None:
        super().__init__(graph, **options)
        self.model = BulkGraph(org_id)
        self._load = load

    async def _hold(self, batch: WriteBatch, run_id: str) -> None:
        self.model.add(batch)  # nothing is sent per batch

    async def _end(self, done: Checkpoint) -> None:
        await self._load(self.model, done)


class StreamProjector(_WholeProjector):
    """Reads the input batch by batch and sends each batch's part of the graph as it is
    read (`stream`), the finished checkpoint last. Raises graph.bulk.Conflict on input the
    stream cannot follow (BulkRun then loads it whole)."""

    said = "read and sent"

    def __init__(self, graph: OrgGraph, stream: Stream, **options: Any) -> None:
        super().__init__(graph, **options)
        self._stream = stream

    async def _hold(self, batch: WriteBatch, run_id: str) -> None:
        part = self._stream.part()
        part.add(batch)
        await self._stream.send(part, self.source, run_id)

    async def _end(self, done: Checkpoint) -> None:
        await self._stream.finish(done)


class BulkRun:
    """A bulk load of input that can be read twice (a file, a list of lines) is sent as it
    is read; if the input turns out to write an element again or retract one
    (graph.bulk.Conflict), it is read again from its first line and loaded whole, which
    deletes what was sent. Input read once (a pipe) is loaded whole from the start."""

    def __init__(
        self, graph: OrgGraph, load: Load, stream: Callable[[], Stream], org_id: str,
        **options: Any,
    ) -> None:  # fmt: skip
        self._graph, self._load, self._stream = graph, load, stream
        self._org, self._options = org_id, options
        self.streamed = False  # whether the last run was sent as it was read

    async def run(self, lines: Iterable[str | bytes]) -> IngestReport:
        with fewer_collections():
            return await self._run(lines)

    async def _run(self, lines: Iterable[str | bytes]) -> IngestReport:
        began = time.monotonic()
        if isinstance(lines, Sequence) or _seekable(lines):
            stream = self._stream()
            try:
                report = await StreamProjector(self._graph, stream, **self._options).run(lines)
                self.streamed = True
                return report
            except Conflict as why:
                print(f"fabric: bulk load: {why}: the input is read again and loaded whole",
                      file=sys.stderr)  # fmt: skip
                if not isinstance(lines, Sequence):
                    lines.seek(0)  # type: ignore[attr-defined]
            finally:
                await stream.close()  # nothing of it in flight when the graph is made again
        self.streamed = False
        whole = BulkProjector(self._graph, self._load, self._org, **self._options)
        report = await whole.run(lines)
        report.seconds = time.monotonic() - began  # the stream given up on included
        return report


# Python's cycle collector runs after every 700 new containers by default, and each run of
# its older generations walks everything a load holds: a bulk load makes a model, a row
# and their lists for every record, and few cycles. Collected 70 times less often, a 10k
# demo load's reading took a quarter less CPU (26.5-30.5 against 40.1-42.0 µs a record,
# load average 6-8); what the collector frees is the same, later.
COLLECT_EVERY = (50_000, 20, 100)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """The cycle collector's thresholds at COLLECT_EVERY for the block, then as they were."""
    before = gc.get_threshold()
    gc.set_threshold(*COLLECT_EVERY)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _seekable(lines: Any) -> bool:
    try:
        return bool(lines.seekable()) and lines.tell() == 0
    except (AttributeError, OSError, ValueError):
        return False
