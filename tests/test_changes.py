"""The single-process stand-ins (Neo4j without FABRIC_REDIS_URL), and what a written batch tells
subscribers. The Redis-protocol feed runs against the real FalkorDB server in
tests/test_subscriptions.py, tests/test_http_cache.py and tests/test_persisted_queries.py."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from engine.domain.models import Episode, Relationship, SourceRecord, Subject, Tombstone
from engine.ports import GraphUnavailable, WriteBatch
from engine.ports.changes import Change, ChangeKind
from gateway.settings import Settings
from gateway.stores import open_store
from graph.changes import LocalChangeFeed, LocalDocuments, batch_change


async def test_the_local_feed_reaches_this_process_and_keeps_no_revision() -> None:
    feed = LocalChangeFeed()
    stream = feed.listen()
    first = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0)  # the listener registers
    assert await feed.publish(Change(org_id="acme", kind=ChangeKind.BATCH)) == 1
    assert await feed.publish(Change(org_id="other", kind=ChangeKind.BATCH)) == 1
    assert await feed.publish(Change(org_id="acme", kind=ChangeKind.BATCH)) == 2
    assert (await first).revision == 1
    assert [(c.org_id, c.revision) for c in [await anext(stream), await anext(stream)]] == [
        ("other", 1), ("acme", 2)]  # fmt: skip
    # No revision: another process's write could not bump it, so HTTP caching stays off.
    assert await feed.revision("acme") is None
    await stream.aclose()


async def test_local_documents_are_bounded_per_organisation_and_refuse_trust() -> None:
    documents = LocalDocuments(limit=2)
    for n in range(3):
        await documents.put("acme", str(n), f"text {n}")
    await documents.put("other", "0", "theirs")
    assert [await documents.get("acme", str(n)) for n in range(3)] == [None, "text 1", "text 2"]
    assert await documents.get("other", "0") == "theirs"
    with pytest.raises(GraphUnavailable):
        await documents.register([("h", "t")])
    with pytest.raises(GraphUnavailable):
        await documents.trusted("h")


def test_trusted_documents_with_neo4j_need_a_shared_server() -> None:
    settings = Settings(graph_uri="bolt://127.0.0.1:1", trusted_documents=True)
    with pytest.raises(ValueError, match="FABRIC_REDIS_URL"):
        open_store(settings)


def test_a_batch_names_what_it_changed_and_what_it_touched() -> None:
    batch = WriteBatch(source="git", run_id="r", elements=[
        Subject(key="repository:api", kind="repository", name="api"),
        Relationship.model_validate({"relation": "OWNS", "from": "team:core", "to": "repository:api"}),
        Episode(key="episode:e1", occurred_at="2026-11-01T00:00:00Z", text="t", mentions=["person:ann"]),
        SourceRecord(key="deploy:d1", record_kind="deploy", subject="service:pay", actor="person:bob",
                     start="2026-11-01T00:00:00Z"),
        Tombstone(target="subject", key="module:old"),
    ])  # fmt: skip
    change = batch_change("acme", batch)
    assert (change.kind, change.source, change.count, change.record_kinds) == (
        ChangeKind.BATCH, "git", 5, ("deploy",))
    assert set(change.subjects) == {("repository:api", "repository"), ("team:core", "team"),
                                    ("module:old", "module")}  # fmt: skip
    assert set(change.subject_keys) == {"repository:api", "team:core", "module:old",
                                        "person:ann", "service:pay", "person:bob"}  # fmt: skip
    assert Change.decode(change.encode(), 7) == dataclasses.replace(change, revision=7)
