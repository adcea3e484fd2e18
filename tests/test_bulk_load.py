"""A bulk load (`fabric ingest --bulk`: graph.bulk, graph.falkor_bulk) leaves the graph an
incremental load of the same input leaves, node by node and edge by edge: every label,
property and relationship, the activity structures, time slots, tie nodes, day counts,
stubs, vectors and the checkpoint; on the demo and on input with re-writes and retractions.
The shared git histories are compared in tests/test_bulk_histories.py."""

from __future__ import annotations

import functools
import gc
import json
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from typing import Any

import pytest

from engine.ports import EpochConflict
from graph import falkor_bulk
from graph.bulk_load import COLLECT_EVERY, BulkProjector, BulkRun
from graph.epochs import scope_of
from graph.falkor import GRAPH_PREFIX, FalkorStore
from graph.projection import IngestReport, Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.graph_dump import dump
from tests.test_activity import stored


@pytest.fixture
async def org(falkor: FalkorStore) -> AsyncIterator[str]:
    org_id = new_org()
    await falkor.bootstrap(org_id)
    yield org_id
    await falkor.drop_org(org_id)


async def incremental(
    store: FalkorStore, org: str, lines: list[bytes], source: str = "s", batch: int = 5_000
) -> tuple[str, IngestReport]:
    """The lines loaded record by record into a new build; its scope and report."""
    epoch = (await store.epochs(org).begin_build()).id
    report = await Projector(store.org(org, epoch), source=source, batch_size=batch).run(lines)
    await store.epochs(org).flip(epoch)  # so that the next build may begin
    await store.epochs(org).end_grace()
    return scope_of(org, epoch), report


async def checked(store: FalkorStore, scope: str) -> Any:
    """The contract's checks of a graph's activity structures (tests.test_activity: every
    record held once, placed on its slots and ties once, latest times in both units), and
    what they read."""
    org, _, epoch = scope.partition("@")
    return await stored(store.org(org, int(epoch or 0)))


async def indexes(store: FalkorStore, scope: str) -> list[Any]:
    """The graph's indexes: label, fields, their types, and the options of each (a vector's
    dimension and similarity), every one built."""
    graph = store.client.select_graph(GRAPH_PREFIX + scope)
    found = await graph.ro_query(
        "CALL db.indexes() YIELD label, properties, types, options, status "
        "RETURN label, properties, types, options, status ORDER BY label"
    )
    return [[label, sorted(zip(props, [str(types[p]) for p in props], strict=True)),
             str(options), status] for label, props, types, options, status in found.result_set]  # fmt: skip


async def bulk(
    store: FalkorStore, org: str, lines: list[bytes], source: str = "s", batch: int = 5_000
) -> tuple[str, IngestReport]:
    """The lines loaded in bulk into a new build, as `fabric ingest FILE --bulk` loads them
    (sent as read, or whole if the stream cannot follow them); the report says which in
    `streamed`."""
    epoch = (await store.epochs(org).begin_build()).id
    graph = store.org(org, epoch)
    loader, stream = store.bulk_loader(org, epoch), functools.partial(store.bulk_stream, org, epoch)
    projector = BulkRun(graph, loader, stream, org, source=source, batch_size=batch)
    report = await projector.run(lines)
    report.streamed = projector.streamed  # type: ignore[attr-defined]
    return scope_of(org, epoch), report


async def both(
    store: FalkorStore, lines: list[bytes], **options: Any
) -> tuple[Any, Any, IngestReport, IngestReport]:
    """The dumps of the lines loaded incrementally and in bulk (two builds of one new
    organisation: a subject's id derives from it), and the two reports; each graph passes
    the contract's checks, reading the same."""
    org = new_org()
    try:
        await store.bootstrap(org)
        scope, plain = await incremental(store, org, lines, **options)
        bulk_scope, fast = await bulk(store, org, lines, **options)
        assert await checked(store, scope) == await checked(store, bulk_scope)
        assert await indexes(store, scope) == await indexes(store, bulk_scope)
        return await dump(store, scope), await dump(store, bulk_scope), plain, fast
    finally:
        await store.drop_org(org)


def demo(records: int, seed: int = 7) -> list[bytes]:
    return [json.dumps(r).encode() for r in generate(records, seed=seed)]


def dumps(items: Iterable[dict[str, Any]]) -> list[bytes]:
    return [json.dumps(i).encode() for i in items]


def same(incremental: Any, bulk: Any) -> None:
    (nodes, edges), (bulk_nodes, bulk_edges) = incremental, bulk
    assert sorted((nodes - bulk_nodes).elements())[:5] == []
    assert sorted((bulk_nodes - nodes).elements())[:5] == []
    assert sorted((edges - bulk_edges).elements())[:5] == []
    assert sorted((bulk_edges - edges).elements())[:5] == []


async def test_a_bulk_load_of_the_demo_is_the_incremental_graph(falkor: FalkorStore) -> None:
    plain, fast, report, bulk_report = await both(falkor, demo(6_000), batch=1_000)
    same(plain, fast)
    assert bulk_report.streamed  # type: ignore[attr-defined]
    assert sum(plain[0].values()) > 6_000  # records, their slots, days, activities, ...
    assert (bulk_report.accepted, bulk_report.lines) == (report.accepted, report.lines)


def record(key: str, subject: str, start: str, end: str | None = None, **extra: Any) -> dict[str, Any]:
    out = {"type": "source_record", "key": key, "record_kind": extra.pop("kind", "incident"),
           "subject": subject, "start": start, **extra}  # fmt: skip
    return out | ({"end": end} if end else {})


def subject(key: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "subject", "key": key, "kind": key.split(":")[0], "name": name, **extra}


def gone(target: str, key: str) -> dict[str, Any]:
    return {"type": "tombstone", "target": target, "key": key}


# Written again, moved, retracted and written again, a batch of 3 lines cutting across: a
# record moved to another subject, day, slot and back in time, at a midnight (a tie node)
# and ending in another slot, at the epoch's first instant, twice in one batch; a subject retracted with its
# relationships and mentions, then referred to again (a stub) and written again; an episode
# written again naming fewer subjects; a relationship retracted by id.
REWRITES = [
    subject("service:a", "A", aliases=["alpha"], attributes={"tier": 1}),
    {"type": "relationship", "relation": "DEPENDS_ON", "from": "service:a", "to": "service:b",
     "id": "dep-1"},
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-02T03:04:05Z", "text": "x",
     "mentions": ["service:a", "service:c"]},
    record("incident:1", "service:a", "2026-01-01T00:00:00Z", "2026-01-03T10:00:00Z",
           severity="sev1", status="open"),
    record("incident:2", "service:a", "2026-01-05T12:00:00Z"),
    record("incident:1", "service:a", "2026-01-01T00:00:00Z", status="closed"),
    record("incident:3", "service:b", "1970-01-01T00:00:00Z", "1970-01-02T00:00:00Z"),
    subject("service:b", "B", description="the b"),
    record("incident:2", "service:b", "2026-01-04T00:00:00Z", kind="deploy"),
    record("incident:4", "service:c", "2026-02-01T08:00:00Z", "2026-02-01T08:05:00Z"),
    record("incident:4", "service:c", "2026-01-20T08:00:00Z"),
    gone("source_record", "incident:3"),
    {"type": "relationship", "relation": "OWNS", "from": "service:c", "to": "service:a"},
    gone("subject", "service:a"),
    {"type": "episode", "key": "episode:2", "occurred_at": "2026-01-09T00:00:00Z", "text": "y",
     "mentions": ["service:a", "service:b"]},
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-02T03:04:05Z", "text": "x2",
     "mentions": ["service:c"]},
    subject("service:a", "A again"),
    {"type": "relationship", "relation": "DEPENDS_ON", "from": "service:b", "to": "service:c",
     "id": "dep-2"},
    gone("relationship", "dep-2"),
    gone("source_record", "incident:1"),
    gone("episode", "episode:9"),
    record("incident:5", "service:a", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"),
    {"type": "episode", "key": "episode:3", "occurred_at": "2026-01-10T00:00:00Z", "text": "z",
     "mentions": ["service:d", "service:c"]},
    gone("subject", "service:d"),
    {"type": "relationship", "relation": "OWNS", "from": "service:d", "to": "service:c"},
    record("incident:6", "service:c", "2026-03-01T00:00:00Z"),
    record("incident:7", "service:b", "2026-04-01T00:00:00Z", "2026-04-01T00:10:00Z"),
    subject("service:e", "E"),  # the records after it are another statement
    record("incident:6", "service:b", "2026-03-01T00:00:00Z"),
    record("incident:7", "service:b", "2026-04-01T00:00:00Z"),
]  # fmt: skip


@pytest.mark.parametrize("batch", [3, 5_000])
async def test_a_bulk_load_of_rewrites_and_retractions_is_the_incremental_graph(
    falkor: FalkorStore, batch: int
) -> None:
    plain, fast, report, bulk_report = await both(falkor, dumps(REWRITES), batch=batch)
    assert report.invalid_count == 0, report.invalid
    same(plain, fast)
    assert not bulk_report.streamed  # type: ignore[attr-defined]  # loaded whole
    labels = {json.loads(text)[0][-1] for text in plain[0]}
    assert {"Activity", "RecordDay", "TimeSlot", "Episode", "SourceRecord"} <= labels


def few_slots(count: int = 400) -> list[bytes]:
    """Records of a few subjects on a few time slots (ten minutes each) and midnights (tie
    nodes), in no order of time: each batch of a stream finds most of its slots, and its
    subjects' Activities, sent by batches before it, and raises or keeps their latest time."""
    rng = random.Random(38)
    out = [subject(f"service:{c}", c.upper()) for c in "abc"]
    for i in range(count):
        day, minute = rng.choice((1, 2)), rng.choice((0, 0, 5, 15, 25, 61, 62, 600))
        start = f"2026-01-0{day}T{minute // 60:02}:{minute % 60:02}:00Z"
        end = rng.choice((None, f"2026-01-0{day + 1}T00:00:00Z", f"2026-01-0{day}T12:00:00Z"))
        out.append(record(f"incident:{i}", f"service:{rng.choice('abcd')}", start, end,
                          kind=rng.choice(("incident", "deploy"))))  # fmt: skip
    return dumps(out)


async def test_a_stream_of_batches_on_few_time_slots_is_the_incremental_graph(
    falkor: FalkorStore,
) -> None:
    plain, fast, _, bulk_report = await both(falkor, few_slots(), batch=7)
    same(plain, fast)
    assert bulk_report.streamed  # type: ignore[attr-defined]
    labels = Counter(json.loads(text)[0][-1] for text in plain[0].elements())
    assert labels["SourceRecord"] == 400 and 10 < labels["TimeSlot"] < 100


async def test_a_bulk_load_collects_cycles_less_often_and_then_as_before(
    falkor: FalkorStore, org: str
) -> None:
    """The cycle collector's thresholds are graph.bulk_load.COLLECT_EVERY while the input is
    read (a quarter of the reading's CPU went to the collector), and as they were after."""
    before, seen = gc.get_threshold(), set()
    epoch = (await falkor.epochs(org).begin_build()).id
    stream = functools.partial(falkor.bulk_stream, org, epoch)
    run = BulkRun(falkor.org(org, epoch), falkor.bulk_loader(org, epoch), stream, org,
                  source="s", batch_size=500, on_progress=lambda *_: seen.add(gc.get_threshold()))  # fmt: skip
    report = await run.run(demo(1_000))
    assert report.accepted > 0 and run.streamed
    assert seen == {COLLECT_EVERY} != {before}
    assert gc.get_threshold() == before


def written_again(lines: list[bytes], kind: str) -> list[bytes]:
    """The lines, then the first element of `kind` written again with a change (it is
    another batch's: the stream finds it only by the hashes it keeps)."""
    first = json.loads(next(line for line in lines if f'"type": "{kind}"'.encode() in line))
    changed = first | ({"text": "again"} if kind == "episode" else {"title": "again"}
                       if kind == "source_record" else {"evidence": "again"})  # fmt: skip
    return [*lines, json.dumps(changed).encode()]


@pytest.mark.parametrize("kind", ["source_record", "relationship", "episode"])
async def test_an_element_written_again_in_a_later_batch_is_loaded_whole(
    falkor: FalkorStore, kind: str
) -> None:
    plain, fast, report, bulk_report = await both(
        falkor, written_again(demo(2_000), kind), batch=500
    )
    same(plain, fast)
    assert not bulk_report.streamed  # type: ignore[attr-defined]
    assert (bulk_report.accepted, bulk_report.lines) == (report.accepted, report.lines)


async def test_a_file_the_stream_cannot_follow_is_read_again_from_its_first_line(
    falkor: FalkorStore, tmp_path: Any
) -> None:
    """`fabric ingest FILE --bulk` hands the open file: after the conflict (here a record
    written again in a later batch) the file is read again from its first line, and the
    graph is the one the lines make loaded whole."""
    lines = written_again(demo(1_000), "source_record")
    path = tmp_path / "input.ndjson"
    path.write_bytes(b"\n".join(lines) + b"\n")
    org = new_org()
    try:
        await falkor.bootstrap(org)
        scope, plain = await incremental(falkor, org, lines, batch=300)
        epoch = (await falkor.epochs(org).begin_build()).id
        stream = functools.partial(falkor.bulk_stream, org, epoch)
        run = BulkRun(falkor.org(org, epoch), falkor.bulk_loader(org, epoch), stream, org,
                      source="s", batch_size=300)  # fmt: skip
        with path.open("rb") as fh:
            report = await run.run(fh)
        assert not run.streamed
        assert (report.accepted, report.lines) == (plain.accepted, plain.lines)
        same(await dump(falkor, scope), await dump(falkor, scope_of(org, epoch)))
    finally:
        await falkor.drop_org(org)


class Killed(Exception):
    """The loader's process died between two of its GRAPH.BULK calls."""


async def test_a_bulk_load_cut_short_is_never_served_and_loads_again(
    falkor: FalkorStore, org: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = demo(2_000)
    epochs = falkor.epochs(org)
    epoch = (await epochs.begin_build()).id
    made: list[Any] = []

    async def keep(graph: Any, done: Any) -> None:
        made.extend((graph, done))

    await BulkProjector(falkor.org(org, epoch), keep, org).run(lines)
    monkeypatch.setattr(falkor_bulk, "CALL_BYTES", 20_000)  # many calls
    name, calls = GRAPH_PREFIX + scope_of(org, epoch), 0

    async def dies_after_two(args: list[Any]) -> None:
        nonlocal calls
        calls += 1
        if calls > 2:
            raise Killed
        await falkor.client.connection.execute_command("GRAPH.BULK", name, *args)

    with pytest.raises(Killed):
        await falkor_bulk.send(made[0], scope_of(org, epoch), None, 0, made[1], dies_after_two)
    assert dict(await falkor.org(org, epoch).counts())  # some of it is there
    with pytest.raises(EpochConflict, match="has not finished"):
        await epochs.flip(epoch)
    # Loaded again in bulk from the first line, the build is whole and may be served.
    report = await BulkProjector(falkor.org(org, epoch), falkor.bulk_loader(org, epoch), org).run(
        lines
    )
    assert report.accepted == 2_000
    await epochs.flip(epoch)
    counts = dict(await falkor.org(org, epoch).counts())
    assert counts["SourceRecord"] == sum(b'"source_record"' in line for line in lines)
