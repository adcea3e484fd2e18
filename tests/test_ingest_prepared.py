"""Ingest's fast path, preparing each batch while the one before is written (graph.projection,
`prepare_write`), against its plain path (each batch prepared and sent in turn): the same
graph, the same change events, and a failure loses nothing acknowledged."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from engine.ports import Checkpoint, GraphQueryError, OrgGraph, SubjectQuery, WriteBatch
from graph.falkor import FalkorStore
from graph.falkor_executor import GraphExecutor
from graph.projection import Projector
from graph.writer import Writer
from sources.demo import generate
from tests.conftest import new_org
from tests.helpers import lines, rel, subject

BATCH = 40


def _record(key: str, subject_key: str, start: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "source_record", "key": key, "record_kind": "incident",
        "subject": subject_key, "start": start, **extra,
    }  # fmt: skip


def _input() -> list[str]:
    """Demo data, then the cases whose write depends on what an earlier batch wrote: stubs
    for ends not written in this load, a subject retracted and referenced again (it needs a
    stub again), a record retracted and restored, one record twice in a batch."""
    demo = [json.dumps(r) for r in generate(700, seed=3)]
    tail = [
        rel("OWNS", "team:nobody-wrote-me", "repository:ghost"),
        {"type": "tombstone", "target": "subject", "key": "team:nobody-wrote-me"},
        rel("OWNS", "team:nobody-wrote-me", "repository:ghost2"),
        {
            "type": "episode", "key": "episode:x", "occurred_at": "2026-01-02T00:00:00Z",
            "text": "ghost deploy", "mentions": ["repository:ghost3"],
        },
        _record("incident:t1", "repository:ghost", "2026-01-01"),
        {"type": "tombstone", "target": "source_record", "key": "incident:t1"},
        _record("incident:t1", "repository:ghost", "2026-01-01", title="back"),
        _record("incident:t2", "repository:ghost", "2026-01-03"),
        _record("incident:t2", "repository:ghost", "2026-01-04", title="later"),
        subject("repository:ghost", "ghost"),
    ]  # fmt: skip
    return demo + lines(tail)


async def _load(store: FalkorStore, org: str, prepare_ahead: bool) -> Any:
    await store.bootstrap(org)
    projector = Projector(store.org(org), source="s", batch_size=BATCH)
    projector.prepare_ahead = prepare_ahead
    return await projector.run(_input())


async def test_the_fast_path_writes_what_the_plain_path_writes(falkor: FalkorStore) -> None:
    fast_org, plain_org = new_org(), new_org()
    fast = await _load(falkor, fast_org, True)
    plain = await _load(falkor, plain_org, False)
    assert fast.ok and plain.ok and fast.accepted == plain.accepted > 700
    assert fast.batches == plain.batches > 10
    assert fast.unprepared == 0 and plain.unprepared == plain.batches

    a, b = await falkor.org(fast_org).fingerprint(), await falkor.org(plain_org).fingerprint()
    assert a == b and a.duplicates == 0 and a.nodes["Subject"] > 0
    assert await falkor.org(fast_org).activity_summary() == await (
        falkor.org(plain_org).activity_summary()
    )
    # One change event per written batch on either path (each bumps the revision once).
    assert await falkor.changes.revision(fast_org) == await falkor.changes.revision(plain_org)
    ghost = await falkor.org(fast_org).source_records_of(["repository:ghost"])
    assert sorted((r.key, r.title) for r in ghost["repository:ghost"]) == [
        ("incident:t1", "back"),
        ("incident:t2", "later"),
    ]
    for org in (fast_org, plain_org):
        await falkor.drop_org(org)


async def test_a_graph_that_cannot_prepare_ahead_takes_the_plain_path_counted(
    store: Any, org: str
) -> None:
    graph = store.org(org)
    records = [subject(f"repository:r{i:03d}") for i in range(25)]
    report = await Projector(graph, source="s", batch_size=10).run(lines(records))
    assert report.batches == 3 and report.accepted == 25
    can_prepare = hasattr(graph, "prepare_write")
    assert report.unprepared == (0 if can_prepare else 3)
    assert await graph.count_subjects(SubjectQuery()) == 25


class _Faulty:
    """The real graph, except that preparing or writing the batch numbered `fail_at` fails
    (1-based); counts what it prepared and wrote, and the checkpoints saved."""

    def __init__(self, graph: OrgGraph, fail_at: int, when: str) -> None:
        self._graph = graph
        self.fail_at, self.when = fail_at, when
        self.prepared = self.written = 0
        self.saved: list[Checkpoint] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def prepare_write(self, batch: WriteBatch) -> None:
        self.prepared += 1
        if self.when == "prepare" and self.prepared == self.fail_at:
            raise GraphQueryError("cannot prepare")
        await self._graph.prepare_write(batch)  # type: ignore[attr-defined]

    async def write(self, batch: WriteBatch) -> None:
        if self.when == "write" and self.written + 1 == self.fail_at:
            raise GraphQueryError("cannot write")
        await self._graph.write(batch)
        self.written += 1

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None:
        self.saved.append(checkpoint)
        await self._graph.save_checkpoint(checkpoint)


@pytest.mark.parametrize("when", ["prepare", "write"])
async def test_a_failed_batch_loses_nothing_before_it_and_the_rerun_completes(
    falkor: FalkorStore, when: str
) -> None:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    records = lines([subject(f"repository:r{i:03d}") for i in range(45)])
    faulty = _Faulty(graph, fail_at=3, when=when)
    with pytest.raises(GraphQueryError):
        await Projector(faulty, source="s", batch_size=10).run(records)  # type: ignore[arg-type]
    # The batch in flight when the third failed was written and checkpointed; the third was
    # not (it is never sent once it fails to prepare) and the checkpoint did not pass it.
    assert faulty.written == 2 and [c.cursor for c in faulty.saved] == [10, 20]
    checkpoint = await graph.checkpoint("s")
    assert checkpoint is not None and checkpoint.cursor == 20 and not checkpoint.finished
    assert await graph.count_subjects(SubjectQuery()) == 20

    resumed = await Projector(graph, source="s", batch_size=10).run(records)
    assert resumed.resumed_from == 20 and resumed.accepted == 25 and resumed.unprepared == 0
    assert await graph.count_subjects(SubjectQuery()) == 45
    await falkor.drop_org(org)


class _Order:
    """The digest reads (graph.cypher.digests) and row making (graph.writer) of a load, each
    counted with whether a write statement was sent and not answered at the time."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, org: str, hold: int = 0) -> None:
        self.writing: list[str] = []
        self.reads = self.reads_during_writes = self.rows = self.rows_during_writes = 0
        send, pairs = GraphExecutor._send, Writer._pairs

        async def held() -> None:
            # With `hold` (the rows a load makes), a write statement sent while the load
            # makes them waits until the next batch's rows are made (at most 0.5 s): whether
            # a write is still in flight then no longer depends on how fast the server is
            # (the whole suite beside a bench, 855ca6c: the server had finished a write
            # before the rows it was to overlap, and 2 of 3 were counted). Rows made only
            # after the write is awaited (the code before) still count no overlap.
            seen = self.rows
            for _ in range(50):
                if not 0 < seen < hold or self.rows > seen:
                    return
                await asyncio.sleep(0.01)

        async def spied(executor: GraphExecutor, text: str, write: bool, *args: Any) -> Any:
            # Only the load's own organisation: another test's served app sharing the loop
            # (its sweeper writes) made writes "in flight" in the whole suite on 74e55c4.
            if org not in executor._name:
                return await send(executor, text, write, *args)
            if write:
                self.writing.append(text)
                try:
                    await held()
                    return await send(executor, text, write, *args)
                finally:
                    self.writing.remove(text)
            if "RETURN 'S' AS t" in text:  # a batch's stored digests
                self.reads += 1
                self.reads_during_writes += bool(self.writing)
            return await send(executor, text, write, *args)

        def rows(writer: Writer, *args: Any) -> Any:
            self.rows += 1
            self.rows_during_writes += bool(self.writing)
            return pairs(writer, *args)

        monkeypatch.setattr(GraphExecutor, "_send", spied)
        monkeypatch.setattr(Writer, "_pairs", rows)


async def _load_subjects(falkor: FalkorStore, org: str) -> Any:
    """Batches of more lines than the parse reads between yields (graph.projection): a write
    in flight has its turns while the next batch is parsed."""
    await falkor.bootstrap(org)
    records = lines([subject(f"repository:r{i:04d}") for i in range(1_350)])
    report = await Projector(falkor.org(org), source="s", batch_size=300).run(records)
    assert report.batches == 5 and report.accepted == 1_350
    assert await falkor.org(org).count_subjects(SubjectQuery()) == 1_350
    await falkor.drop_org(org)


async def test_a_batch_is_read_before_the_batch_ahead_of_it_is_written(
    falkor: FalkorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each batch's read of its stored digests goes out between writes, never while one runs:
    FalkorDB runs a read that comes during a write after the write, so the client waited on
    its read while the server wrote, then the server had nothing to do while the client
    prepared (a 10k demo load's 14 digest reads of ~7 ms each waited 1.7 s in all)."""
    org = new_org()
    order = _Order(monkeypatch, org)
    await _load_subjects(falkor, org)
    assert order.reads == 5 and order.reads_during_writes == 0


async def test_a_batch_s_rows_are_made_while_the_batch_before_is_written(
    falkor: FalkorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And its rows are made before, while the server writes the batch before: made after
    that write, between the write and the read, the server waited for them (a 10k demo load:
    0.8 s of rows, the gaps between writes 1.68 s, 0.99 s with the rows made ahead)."""
    org = new_org()
    order = _Order(monkeypatch, org, hold=5)
    await _load_subjects(falkor, org)
    # The first batch's and the second's are made with no write in flight.
    assert order.rows == 5 and order.rows_during_writes == 3


class _Stalled:
    """The real graph, except that preparing the batch numbered `at` waits until cancelled."""

    def __init__(self, graph: OrgGraph, at: int) -> None:
        self._graph, self.at, self.prepared = graph, at, 0
        self.stalled = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def prepare_write(self, batch: WriteBatch) -> None:
        self.prepared += 1
        if self.prepared == self.at:
            self.stalled.set()
            await asyncio.Event().wait()
        await self._graph.prepare_write(batch)  # type: ignore[attr-defined]


async def test_a_load_cancelled_while_preparing_leaves_no_write_running(
    falkor: FalkorStore,
) -> None:
    """The write of the batch prepared before starts as the next one prepares (its read goes
    first): a load cancelled then (Ctrl-C, a served load given up) cancels that write too,
    and the checkpoint stays on a batch's end, as when the write was awaited in turn."""
    org = new_org()
    await falkor.bootstrap(org)
    graph = _Stalled(falkor.org(org), at=3)
    records = lines([subject(f"repository:r{i:03d}") for i in range(45)])
    # Tasks of other tests may share the loop (a served app of a module fixture): only the
    # load's own are asked to be gone (the full suite on ef27865 counted uvicorn's here).
    before = asyncio.all_tasks()
    load = asyncio.create_task(Projector(graph, source="s", batch_size=10).run(records))  # type: ignore[arg-type]
    await graph.stalled.wait()
    load.cancel()
    with pytest.raises(asyncio.CancelledError):
        await load
    left = [t for t in asyncio.all_tasks() - before if t is not load and not t.done()]
    assert left == []
    checkpoint = await falkor.org(org).checkpoint("s")
    assert checkpoint is not None and checkpoint.cursor in (10, 20) and not checkpoint.finished
    resumed = await Projector(falkor.org(org), source="s", batch_size=10).run(records)
    assert resumed.ok and await falkor.org(org).count_subjects(SubjectQuery()) == 45
    await falkor.drop_org(org)
