"""What the Neo4j adapter decides before a statement reaches a server: its time limit, its
bookmarks, whether it must run as an auto-commit statement, the driver's pool and retry
bounds, and which server versions it accepts. (The driver connects lazily: building a store
contacts no server.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.ports import GraphTimeout
from gateway.settings import Settings
from gateway.stores import open_store
from graph import deadline
from graph.dialect import NEO4J
from graph.neo4j_adapter import (
    AUTOCOMMIT,
    OLDEST,
    Neo4jStore,
    server_version,
    transaction_limit_ms,
)
from tests.cypher_statements import neo4j_statements


def test_reads_carry_the_limit_and_writes_none_but_neither_is_sent_late() -> None:
    assert transaction_limit_ms(15.0, write=False) == 15_000
    assert transaction_limit_ms(15.0, write=True) is None
    assert transaction_limit_ms(None, write=False) is None
    token = deadline.start(0.5)
    try:
        left = transaction_limit_ms(15.0, write=False)
        assert left is not None and 0 < left <= 500  # what is left of the request
        assert transaction_limit_ms(15.0, write=True) is None
    finally:
        deadline.end(token)
    token = deadline.start(-1.0)  # the request's time is up
    try:
        for write in (False, True):
            with pytest.raises(GraphTimeout):
                transaction_limit_ms(15.0, write=write)
    finally:
        deadline.end(token)


def test_exactly_the_batched_statements_run_as_auto_commit() -> None:
    """Neo4j runs `CALL {...} IN TRANSACTIONS` only outside an explicit transaction; every
    other statement goes through a managed (retried, routed) one."""
    texts = [s.text for s in neo4j_statements()]
    batched = [t for t in texts if AUTOCOMMIT.search(t)]
    assert batched and all("IN TRANSACTIONS OF" in t for t in batched)
    assert all("IN TRANSACTIONS" not in t for t in texts if not AUTOCOMMIT.search(t))
    assert all(AUTOCOMMIT.search(m) for m in NEO4J.migrations)


@pytest.fixture
async def neo4j_store() -> AsyncIterator[Neo4jStore]:
    store = Neo4jStore("neo4j://db.invalid:7687")
    yield store
    await store.close()


async def test_each_organisation_reads_after_its_own_writes_only(neo4j_store: Neo4jStore) -> None:
    acme = neo4j_store.bookmarks({"org": "acme"})
    assert neo4j_store.bookmarks({"org": "acme", "keys": []}) is acme
    other = neo4j_store.bookmarks({"org": "globex"})
    system = neo4j_store.bookmarks({"system": "_system"})
    ddl = neo4j_store.bookmarks({})
    assert len({id(acme), id(other), id(system)}) == 3 and ddl is system
    assert neo4j_store.database == "neo4j"  # named: no home-database lookup per call


async def test_waiting_for_a_connection_or_a_retry_stays_within_the_request() -> None:
    settings = Settings(graph_uri="bolt://db.invalid:7687", request_timeout_s=4.0)
    opened = open_store(settings)
    try:
        store = opened.store
        assert isinstance(store, Neo4jStore)
        assert store.acquisition_timeout_s == 2.0 and store.retry_time_s == 2.0
        assert store.database == "neo4j"
    finally:
        await opened.store.close()


@pytest.mark.parametrize(
    ("reported", "accepted"),
    [("5.26.1", True), ("5.23.0", True), ("5.27-aura", True), ("2025.01.0", True),
     ("5.22.0", False), ("5.15.0", False), ("4.4.30", False)],
)  # fmt: skip
def test_server_versions(reported: str, accepted: bool) -> None:
    parsed = server_version(reported)
    assert parsed is not None and (parsed >= OLDEST) is accepted



async def test_closing_the_store_closes_its_redis_connections(falkor_server: Any) -> None:
    # FalkorDB speaks the Redis protocol: a real server for the shared change feed's client.
    from redis.asyncio import Redis

    async def clients(probe: Redis) -> set[str]:
        return {c["id"] for c in await probe.client_list()}

    async with Redis.from_url(falkor_server.url) as probe:
        before = await clients(probe)
        store = Neo4jStore("neo4j://db.invalid:7687", redis_url=falkor_server.url)
        assert await store.changes.revision("acme") is not None  # the client connected
        opened = await clients(probe) - before
        assert opened  # the store's own connection
        await store.close()
        for _ in range(100):  # the server drops a closed client at its next event loop turn
            if not opened & await clients(probe):
                break
            await asyncio.sleep(0.01)
        assert not opened & await clients(probe)
