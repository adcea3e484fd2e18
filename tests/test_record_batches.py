"""Subjects and source records are written a batch at a time (graph.writer): those the batch's
read found absent are created by one statement (the dialect's create_records, in
graph.cypher.activity; graph.cypher.subjects.create_subjects: a subject with its vector
label), the others merged with what they replace (MERGE_SOURCE_RECORDS, merge_subjects).
Whatever the batch boundaries, and whoever writes a record between the read and the write, the
graph is the one the records make written one a batch, and the one a bulk load makes: node by
node and edge by edge (tests.graph_dump), and read back by the contract's checks
(tests.test_activity.stored: every record held and placed once, day counts and latest times)."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any

import pytest

from engine.domain.embedding import HashingEmbedder
from engine.ports import WriteBatch
from graph.cypher import activity as activity_cypher
from graph.dialect import FALKORDB
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.observation import observe_statements, stop_observing
from graph.projection import Projector
from graph.records import Parsed, parse_line
from tests import test_bulk_load
from tests.graph_dump import dump
from tests.test_bulk_load import bulk, checked, gone, incremental, record, same, subject

org = test_bulk_load.org  # the fixture: an organisation of its own, dropped after the test


def dumps(items: list[dict[str, Any]]) -> list[bytes]:
    return [json.dumps(i).encode() for i in items]


# Records of one subject on one day, several in one ten minutes and two on one midnight (its
# tie node), one ending in another slot (the first 8 lines); then, in the next batch of 8,
# records written again (moved to another subject and day, back in time, retracted and
# written again) beside new ones of the same subject and day. (A batch holding one record
# twice writes the last alone, and so leaves no empty slot node where the first was.)
SAME_DAY = [
    subject("service:a", "A"),
    subject("service:b", "B"),
    record("incident:1", "service:a", "2026-01-05T10:00:00Z"),
    record("incident:2", "service:a", "2026-01-05T10:01:00Z", "2026-01-05T10:02:00Z"),
    record("incident:3", "service:a", "2026-01-05T10:09:59Z", "2026-01-05T13:00:00Z"),
    record("incident:4", "service:a", "2026-01-05T00:00:00Z"),
    record("incident:5", "service:a", "2026-01-04T22:00:00Z", "2026-01-05T00:00:00Z"),
    record("deploy:1", "service:a", "2026-01-05T10:03:00Z", kind="deploy"),
    record("incident:2", "service:b", "2026-01-06T08:00:00Z"),
    record("incident:6", "service:a", "2026-01-05T10:04:00Z"),
    record("incident:3", "service:a", "2026-01-02T10:00:00Z"),
    gone("source_record", "incident:4"),
    record("incident:7", "service:a", "2026-01-05T00:00:00Z", "2026-01-05T10:05:00Z"),
    record("incident:4", "service:a", "2026-01-05T11:00:00Z"),
    record("incident:8", "service:b", "2026-01-05T10:00:00Z"),
]


async def graph_of(store: FalkorStore, org: str, lines: list[bytes], batch: int) -> Any:
    scope, report = await incremental(store, org, lines, batch=batch)
    assert report.invalid_count == 0, report.invalid
    return await dump(store, scope), await checked(store, scope)


async def in_batches(store: FalkorStore, org: str, lines: list[bytes], batch: int) -> Any:
    """The graph `lines` make loaded `batch` a batch (its dump and the contract's reads),
    checked to be the one they make loaded one a batch, and the one a bulk load makes (which
    writes no statement per batch: graph.bulk)."""
    alone, alone_read = await graph_of(store, org, lines, 1)
    together, together_read = await graph_of(store, org, lines, batch)
    same(alone, together)
    assert together_read == alone_read
    scope, _ = await bulk(store, org, lines, batch=batch)
    same(await dump(store, scope), together)
    return together, together_read


@pytest.mark.parametrize("batch", [3, 8])
async def test_records_of_one_subject_and_day_in_one_batch_make_the_graph_one_a_batch_makes(
    falkor: FalkorStore, org: str, batch: int
) -> None:
    _, (latest, days, held, placed) = await in_batches(falkor, org, dumps(SAME_DAY), batch)
    assert set(latest) == {"service:a", "service:b"} and len(placed) == len(held) == 9
    assert sorted(held.items())[:2] == [("deploy:1", "service:a"), ("incident:1", "service:a")]
    assert sum(n for (kind, _), n in days.items() if kind == "incident") == 8


@pytest.mark.parametrize("batch", [3, 8])
async def test_falkordbs_matched_creation_of_records_makes_the_graph_its_merges_make(
    falkor: FalkorStore, org: str, batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FalkorDB creates a batch's new records matching each time slot, Activity and day count
    and creating those absent (its dialect's create_records: its MERGE costs about four MATCHes
    and locks no sooner). The graph is the one the MERGE form (Neo4j's) makes on the same
    server, slots, Activity and day counts found and made, node by node and edge by edge."""
    assert "MERGE" not in FALKORDB.create_records
    matched = await graph_of(falkor, org, dumps(SAME_DAY), batch)
    merging = replace(FALKORDB, create_records=activity_cypher.CREATE_SOURCE_RECORDS)
    monkeypatch.setattr(falkor, "dialect", merging)
    merged = await graph_of(falkor, org, dumps(SAME_DAY), batch)
    same(matched[0], merged[0])
    assert matched[1] == merged[1]


class _Events:
    """The fast-path events of the statements observed (graph.observation)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def statement(self, backend: str, write: bool) -> AbstractContextManager[None]:
        return nullcontext()

    def fast_path(self, event: str) -> None:
        self.seen.append(event)


def _element(item: dict[str, Any]) -> Any:
    parsed = parse_line(json.dumps(item).encode(), 1)
    assert isinstance(parsed, Parsed)
    return parsed.element


RECORDS = "MATCH (r:SourceRecord {org_id: $org}) RETURN r.key, r.digest, r.source ORDER BY r.key"


async def test_a_record_another_writer_wrote_after_the_read_is_merged_not_made_twice(
    falkor: FalkorStore, falkor_server: EmbeddedServer, org: str
) -> None:
    """The batch's read finds incident:1 and incident:2 absent; another load (another store,
    so not a batch of this writer's in flight) writes incident:1 before the batch is sent.
    The batch then creates nothing and merges both records instead: one node each, placed,
    held and counted once, as when the other load's record is written first by one load."""
    first = record("incident:1", "service:a", "2026-01-05T09:00:00Z", "2026-01-06T00:00:00Z")
    batch = [
        record("incident:1", "service:a", "2026-01-05T10:00:00Z"),
        record("incident:2", "service:a", "2026-01-05T10:01:00Z"),
    ]
    epoch = (await falkor.epochs(org).begin_build()).id
    graph = falkor.org(org, epoch)
    await Projector(graph, source="s").run(dumps([subject("service:a", "A")]))
    write = WriteBatch(source="s", run_id="r", elements=[_element(r) for r in batch])
    await graph.prepare_write(write)
    other = FalkorStore(falkor_server.url, embedder=falkor.embedder)
    try:
        await Projector(other.org(org, epoch), source="s").run(dumps([first]))
    finally:
        await other.close()
    events = _Events()
    token = observe_statements(events)
    try:
        await graph.write(write)
    finally:
        stop_observing(token)
    assert events.seen == ["ingest_records_merged_after_read"]
    await falkor.epochs(org).flip(epoch)
    await falkor.epochs(org).end_grace()
    raced = await checked(falkor, f"{org}@{epoch}"), await graph._read(RECORDS)
    scope, _ = await incremental(
        falkor, org, dumps([subject("service:a", "A"), first, *batch]), batch=1
    )
    in_turn = falkor.org(org, int(scope.partition("@")[2]))
    assert raced == (await checked(falkor, scope), await in_turn._read(RECORDS))
    assert [key for key, _, _ in raced[1]] == ["incident:1", "incident:2"]  # one node each


# A subject twice in one batch (its last version is written: FalkorDB kept the first of two
# rows of one key in a statement), one made a stub by a relationship and then written
# (merged: its vector label added to a node that has none), and others created; an episode
# twice in a row (the same: it kept its first text and mentions).
SUBJECTS = [
    subject("service:a", "A", aliases=["alpha"], attributes={"tier": 1}),
    subject("service:b", "B", description="the b"),
    subject("service:a", "A again", attributes={"tier": 2}),
    {"type": "relationship", "relation": "DEPENDS_ON", "from": "service:b", "to": "service:c"},
    subject("service:c", "C"),
    subject("service:d", "D"),
    record("incident:1", "service:d", "2026-01-05T10:00:00Z"),
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-02T03:04:05Z", "text": "x",
     "mentions": ["service:a"]},
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-02T03:04:05Z", "text": "y",
     "mentions": ["service:b"]},
]  # fmt: skip


@pytest.mark.parametrize("batch", [2, 5_000])
async def test_subjects_created_in_a_batch_make_the_graph_one_a_batch_and_a_bulk_load_make(
    falkor: FalkorStore, org: str, batch: int
) -> None:
    together, _ = await in_batches(falkor, org, dumps(SUBJECTS), batch)
    labelled = [n for n in together[0].elements() if n.startswith('[["Embedding", "Subject"]')]
    assert len(labelled) == 4  # a, b, c and d, each with its vector


async def test_subjects_created_while_the_vectors_are_another_embedders_get_no_vector_label(
    falkor: FalkorStore, falkor_server: EmbeddedServer, org: str
) -> None:
    """Another embedder's vectors (`fabric reembed` rebuilds them) are not written over: new
    subjects are then written without vectors, and without the label the index is on."""
    await Projector(falkor.org(org), source="s").run(dumps([subject("service:a", "A")]))
    other = FalkorStore(falkor_server.url, embedder=HashingEmbedder(64))
    try:
        graph = other.org(org)
        status = await graph.search.vector_status()
        assert status.reason == "identity_changed"
        lines = dumps([subject("service:b", "B"), subject("service:c", "C")])
        await Projector(graph, source="s").run(lines)
    finally:
        await other.close()
    found = await falkor.org(org)._read(LABELS)
    assert found == [["service:a", ["Subject", "Embedding"], True], ["service:b", ["Subject"], False],
                     ["service:c", ["Subject"], False]]  # fmt: skip


LABELS = """MATCH (s:Subject {org_id: $org})
RETURN s.key, labels(s), s.embedding IS NOT NULL ORDER BY s.key"""


async def test_a_subject_another_writer_made_after_the_read_is_merged_not_made_twice(
    falkor: FalkorStore, falkor_server: EmbeddedServer, org: str
) -> None:
    graph = falkor.org(org)
    write = WriteBatch(source="s", run_id="r", elements=[_element(subject("service:a", "A"))])
    await graph.prepare_write(write)
    other = FalkorStore(falkor_server.url, embedder=falkor.embedder)
    try:
        await Projector(other.org(org), source="s").run(dumps([subject("service:a", "first")]))
    finally:
        await other.close()
    events = _Events()
    token = observe_statements(events)
    try:
        await graph.write(write)
    finally:
        stop_observing(token)
    assert events.seen == ["ingest_subjects_merged_after_read"]
    assert await graph._read(LABELS) == [["service:a", ["Subject", "Embedding"], True]]
    assert (await graph.subjects_by_keys(["service:a"]))["service:a"].name == "A"


def episode(key: str, text: str, mentions: list[str]) -> dict[str, Any]:
    return {"type": "episode", "key": key, "occurred_at": "2026-01-02T03:04:05Z", "text": text,
            "mentions": mentions}  # fmt: skip


# Episodes created: one naming a subject twice (linked once, as a merge links it), one naming
# none, one naming a subject no record gives (a stub); then, in a later batch, one written
# again with other mentions (merged: the old link goes) beside a new one.
EPISODES = [
    subject("service:a", "A"),
    subject("service:b", "B"),
    episode("episode:1", "x", ["service:a", "service:b", "service:a"]),
    episode("episode:2", "quiet", []),
    episode("episode:3", "z", ["service:z"]),
    episode("episode:1", "x again", ["service:b"]),
    episode("episode:4", "w", ["service:a"]),
]


@pytest.mark.parametrize("batch", [2, 5])
async def test_episodes_created_in_a_batch_make_the_graph_one_a_batch_and_a_bulk_load_make(
    falkor: FalkorStore, org: str, batch: int
) -> None:
    """Episodes the read found absent are created with their MENTIONS (CREATE_EPISODES), the
    others merged: the graph is the one they make one a batch, and a bulk load's."""
    (_, edges), _ = await in_batches(falkor, org, dumps(EPISODES), batch)
    mentions = [e for e in edges.elements() if "MENTIONS" in e]
    assert len(mentions) == 3  # episode:1 -> b, episode:3 -> z, episode:4 -> a


async def test_an_episode_another_writer_made_after_the_read_is_merged_not_made_twice(
    falkor: FalkorStore, falkor_server: EmbeddedServer, org: str
) -> None:
    graph = falkor.org(org)
    await Projector(graph, source="s").run(dumps(EPISODES[:2]))
    write = WriteBatch(source="s", run_id="r", elements=[_element(EPISODES[2])])
    await graph.prepare_write(write)
    other = FalkorStore(falkor_server.url, embedder=falkor.embedder)
    try:
        await Projector(other.org(org), source="s").run(dumps([EPISODES[5]]))
    finally:
        await other.close()
    events = _Events()
    token = observe_statements(events)
    try:
        await graph.write(write)
    finally:
        stop_observing(token)
    assert events.seen == ["ingest_episodes_merged_after_read"]
    found = await graph._read(EPISODE_LINKS)
    assert found == [["episode:1", "x", ["service:a", "service:b"]]]


EPISODE_LINKS = """MATCH (e:Episode {org_id: $org})
OPTIONAL MATCH (e)-[:MENTIONS]->(s:Subject)
WITH e, s ORDER BY s.key
RETURN e.key, e.text, collect(s.key) ORDER BY e.key"""
