"""Projection (ingest): load NDJSON records into one organisation's graph, in batches.

* Idempotent: every write is a MERGE on the element's key, so loading a file twice changes
  nothing.
* Never deletes on its own: retraction is an explicit tombstone; deleting what a full
  snapshot omits happens only with `complete=True`, after the whole input loaded cleanly.
* Resumable: after each batch is acknowledged (the embedded server fsyncs every write), the
  source's checkpoint records how many input lines are in and a digest of those lines. Run
  again on the same input, the load skips what is already in; on different input it starts
  over.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any, Protocol, runtime_checkable

from engine.ports import Checkpoint, OrgGraph, PreparesWrites, WriteBatch
from graph.observation import fast_path
from graph.records import Invalid, Parsed, parse_line

log = logging.getLogger("fabric.ingest")

DEFAULT_BATCH = 5_000
MAX_REPORTED_INVALID = 1_000
_YIELD_EVERY = 256

Progress = Callable[[int, int], None]


@dataclass
class IngestReport:
    source: str
    run_id: str = ""
    lines: int = 0
    accepted: int = 0
    resumed_from: int = 0
    batches: int = 0
    deleted: int = 0
    invalid_count: int = 0
    invalid: list[Invalid] = field(default_factory=list)
    complete_skipped: bool = False
    unprepared: int = 0  # batches written without being prepared ahead (the plain path)
    unchanged: int = 0  # accepted records the graph held as they are: not written again
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.invalid_count == 0


def _as_bytes(line: str | bytes) -> bytes:
    return line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")


def _normal(data: bytes) -> bytes:
    # Line endings do not change what a line says; the digest ignores them.
    return data.rstrip(b"\r\n") + b"\n"


@runtime_checkable
class RowsAhead(Protocol):
    """A graph that makes a batch's rows before `prepare_write` (graph.writer): the batch's
    read then goes out as soon as the write before it is in, the write prepared ahead right
    after it, and the server no longer waits while the client makes rows."""

    def rows_ahead(self, batch: WriteBatch) -> None: ...


@dataclass(frozen=True, slots=True)
class _Ready:
    """A batch prepared and not yet sent, with the checkpoint its write may move to."""

    batch: WriteBatch
    cursor: int
    digest: str


class Projector:
    """Loads projection lines into `graph` under a named source.

    source: the producer's name; checkpoints and complete-snapshot deletion are per source.
    batch_size: valid records per write batch (one round trip per record type in a batch).
    complete: the input is a complete enumeration of the source; after a clean load, delete
        what the source wrote before and this input no longer contains.
    resume: skip the prefix the source's checkpoint says is already in (same input only).
    """

    # False: the plain path. A class attribute so a test can switch it off for the loads a
    # served gateway runs (the `project` mutation) and hold the fast path to the plain one.
    prepare_ahead = True

    def __init__(
        self,
        graph: OrgGraph,
        *,
        source: str = "default",
        batch_size: int = DEFAULT_BATCH,
        complete: bool = False,
        resume: bool = True,
        on_progress: Progress | None = None,
    ) -> None:
        self.graph = graph
        self.source = source
        self.batch_size = batch_size
        self.complete = complete
        self.resume = resume
        self.on_progress = on_progress

    async def run(self, lines: Iterable[str | bytes]) -> IngestReport:
        started = time.monotonic()
        report = IngestReport(source=self.source)
        self._written: set[str] = set()
        stream, digest, start = await self._skip_accepted(iter(lines), report)
        batch = self._new_batch(report.run_id)
        # One batch is written while the next is parsed and prepared: the database and the
        # client each get a core. At most one write is in flight, so checkpoints advance in
        # order; a batch prepared waits (`ready`) until the next one's read is sent (_step).
        ready: _Ready | None = None
        pending: asyncio.Task[None] | None = None
        number = start
        try:
            for number, raw in enumerate(stream, start + 1):
                data = _as_bytes(raw)
                digest.update(_normal(data))
                self._take(number, data, batch, report)
                if len(batch.elements) >= self.batch_size:
                    self._rows(batch)
                    if pending is not None:
                        await pending
                    pending = await self._step(batch, ready, report)
                    ready = _Ready(batch, number, digest.hexdigest())
                    batch = self._new_batch(report.run_id)
                if number % _YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # let the in-flight write make progress
            self._rows(batch)
            if pending is not None:
                await pending
            pending = await self._step(batch, ready, report)
            if pending is not None:
                await pending
        finally:
            if pending is not None and not pending.done():
                await _abandon(pending)
        await self._flush(batch, number, digest.hexdigest(), report, finished=True)
        await self._finish(report)
        if report.accepted > report.unchanged or report.deleted:
            # Answers computed before this change must not be reused after it.
            await self.graph.results.touch_projection_epoch(time.time_ns())
        report.lines = number
        report.seconds = time.monotonic() - started
        return report

    def _rows(self, batch: WriteBatch) -> None:
        """The client's work on `batch` that needs nothing from the graph, done while the
        batch before is written (a graph that makes rows: `RowsAhead`)."""
        if self.prepare_ahead and batch.elements and isinstance(self.graph, RowsAhead):
            self.graph.rows_ahead(batch)

    async def _step(
        self, batch: WriteBatch, ready: _Ready | None, report: IngestReport
    ) -> asyncio.Task[None] | None:
        """`batch` prepared while `ready` (prepared before it) is written; returns the write.

        The batch's read of what the graph holds goes out first, the write after it: FalkorDB
        runs a read that comes during a write after the write, and the client, waiting for the
        read, had nothing to do while the server wrote, then the server nothing while the
        client prepared (a 10k demo load: 14 reads of ~7 ms waited 1.7 s in all)."""
        preparing = asyncio.create_task(self._prepare(batch, report, None))
        await asyncio.sleep(0)  # the task runs to its read, sent
        pending = None
        if ready is not None:
            flush = self._flush(ready.batch, ready.cursor, ready.digest, report)
            pending = asyncio.create_task(flush)
        try:
            await preparing
        except Exception:
            if pending is not None:  # the batch prepared before is written and checkpointed
                await pending
            raise
        except BaseException:  # cancelled: the write started here is not left running alone
            if pending is not None:
                await _abandon(pending)
            raise
        return pending

    async def _skip_accepted(
        self, lines: Iterator[str | bytes], report: IngestReport
    ) -> tuple[Iterator[str | bytes], Any, int]:
        """Skip the prefix a checkpoint says is in, if this input starts with exactly it."""
        digest = hashlib.sha256()
        previous = await self.graph.checkpoint(self.source) if self.resume else None
        report.run_id = uuid.uuid4().hex
        if previous is None or previous.cursor == 0 or previous.finished:
            return lines, digest, 0
        head = list(islice(lines, previous.cursor))
        for raw in head:
            digest.update(_normal(_as_bytes(raw)))
        if len(head) == previous.cursor and digest.hexdigest() == previous.digest:
            report.run_id = previous.run_id  # the same load, continued
            report.resumed_from = previous.cursor
            return lines, digest, previous.cursor
        # Other input under the same source: load it from the start as a new run.
        return chain(head, lines), hashlib.sha256(), 0

    def _new_batch(self, run_id: str) -> WriteBatch:
        return WriteBatch(
            source=self.source, run_id=run_id, written=self._written, complete=self.complete
        )

    def _take(self, number: int, data: bytes, batch: WriteBatch, report: IngestReport) -> None:
        result = parse_line(data, number)
        if isinstance(result, Parsed):
            batch.elements.append(result.element)
        elif isinstance(result, Invalid):
            report.invalid_count += 1
            if len(report.invalid) < MAX_REPORTED_INVALID:
                report.invalid.append(result)

    async def _prepare(
        self, batch: WriteBatch, report: IngestReport, pending: asyncio.Task[None] | None
    ) -> None:
        """The client's share of writing `batch`, done while the batch before is written (the
        fast path). The plain path, `graph.write` preparing and sending in turn, is taken
        when the graph cannot prepare ahead or `prepare_ahead` is off; counted in
        report.unprepared and, on /metrics, fabric_ingest_unprepared_batches_total."""
        if not batch.elements:
            return
        if not (self.prepare_ahead and isinstance(self.graph, PreparesWrites)):
            report.unprepared += 1
            fast_path("ingest_unprepared")  # fabric_ingest_unprepared_batches_total
            return
        try:
            await self.graph.prepare_write(batch)
        except Exception:
            if pending is not None:  # what is in flight is written and checkpointed first
                await pending
            raise
        fast_path("ingest_prepared")  # fabric_ingest_prepared_batches_total

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
            await self.graph.write(batch)
            report.accepted += len(batch.elements)
            report.unchanged += batch.unchanged
            report.batches += 1
        # Only now, with the batch acknowledged, may the checkpoint move past it.
        await self.graph.save_checkpoint(
            Checkpoint(self.source, cursor, digest, report.run_id, finished)
        )
        if self.on_progress:
            self.on_progress(cursor, report.accepted)

    async def _finish(self, report: IngestReport) -> None:
        """After the last batch: a complete snapshot's cleanup (graph.bulk_load sends its
        whole graph here instead)."""
        await self._delete_unseen(report)

    async def _delete_unseen(self, report: IngestReport) -> None:
        if not self.complete:
            return
        if report.invalid_count:
            # A snapshot with rejected lines is no proof of complete enumeration.
            report.complete_skipped = True
            return
        report.deleted = await self.graph.delete_unseen(self.source, report.run_id)


async def _abandon(write: asyncio.Task[None]) -> None:
    """Cancel a batch's write that a failing or cancelled load leaves in flight, and wait for
    it to end, so no write outlives its load. The load's own error is the one raised; an error
    the write ends with is logged, not raised over it, and not lost either: its batch is not
    checkpointed, so the next run writes it again."""
    write.cancel()
    try:
        await write
    except asyncio.CancelledError:
        pass
    except Exception:
        log.warning("a batch write abandoned by a failing load ended in error", exc_info=True)
