"""What the Neo4j adapter decides before a statement reaches a server: its time limit, its
bookmarks, whether it must run as an auto-commit statement, the driver's pool and retry
bounds, what it does when a cluster's leader moves, and which server versions it accepts.
(The driver connects lazily: building a store contacts no server. Where a statement is
"sent", a scripted driver answers it with the driver's own exceptions: tests/neo4j_fakes.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.ports import GraphTimeout, GraphUnavailable
from gateway.settings import Settings
from gateway.stores import open_store
from graph import deadline
from graph.neo4j_adapter import Neo4jStore
from graph.neo4j_dialect import NEO4J
from graph.neo4j_executor import AUTOCOMMIT, transaction_limit_ms
from graph.neo4j_schema import OLDEST, server_version
from tests.cypher_statements import neo4j_statements
from tests.neo4j_fakes import ScriptedDriver, server_error

URI = "neo4j://db.invalid:7687"
NOT_A_LEADER = "Neo.ClientError.Cluster.NotALeader"
READ_ONLY = "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase"


def test_reads_carry_the_limit_and_writes_none_but_neither_is_sent_late() -> None:
    assert transaction_limit_ms(15.0, write=False) == 15_000
    assert transaction_limit_ms(15.0, write=True) is None
    assert transaction_limit_ms(15.0, write=True, write_s=300.0) == 300_000
    assert transaction_limit_ms(None, write=False) is None
    token = deadline.start(0.5)
    try:
        left = transaction_limit_ms(15.0, write=False)
        assert left is not None and 0 < left <= 500  # what is left of the request
        assert transaction_limit_ms(15.0, write=True) is None
        # A write once begun is not cut at the request's deadline: its limit is a backstop.
        assert transaction_limit_ms(15.0, write=True, write_s=300.0) == 300_000
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


def test_every_batched_statement_resumes_where_it_stopped_when_sent_again() -> None:
    """A batched statement commits batch by batch, so one that failed midway (a leader
    switch) has done part of its work: it is resent whole (graph.neo4j_executor), which is
    right only because each matches what is left to do: it deletes what it matches, or
    matches only what lacks what it makes."""
    batched = [s for s in neo4j_statements() if AUTOCOMMIT.search(s.text)]
    assert len(batched) >= 18
    for s in batched:
        outer, inner = s.text.split("CALL (", 1)
        assert "DELETE" in inner or "NOT EXISTS" in outer or "IS NULL" in outer, s.name


@pytest.fixture
async def neo4j_store() -> AsyncIterator[Neo4jStore]:
    store = Neo4jStore(URI)
    yield store
    await store.close()


async def test_a_leader_switch_under_a_batched_statement_is_resent() -> None:
    """The driver never retries an auto-commit statement that failed once it ran; the
    executor resends it (it resumes: see above)."""
    store = Neo4jStore(URI, retry_time_s=5.0)
    await store.driver.close()

    def answer(statement: str, attempt: int) -> list[list[Any]]:
        if attempt == 1:
            raise server_error(NOT_A_LEADER)
        return [[7]]

    driver = store.driver = ScriptedDriver(answer)  # type: ignore[assignment]
    statement = NEO4J.migrations[0]
    assert await store._executor.run(statement, {}, write=True) == [[7]]
    assert [(a.autocommit, a.mode) for a in driver.attempts] == [(True, "WRITE"), (True, "WRITE")]


@pytest.mark.parametrize("code", [NOT_A_LEADER, READ_ONLY])
@pytest.mark.parametrize("batched", [False, True], ids=["transaction", "auto-commit"])
async def test_a_leader_switch_that_outlasts_the_retries_is_unavailable(
    code: str, batched: bool
) -> None:
    """GRAPH_UNAVAILABLE (503, try again), not a refused statement, on either path."""
    store = Neo4jStore(URI, retry_time_s=0.3)
    await store.driver.close()

    def answer(statement: str, attempt: int) -> list[list[Any]]:
        raise server_error(code)

    driver = store.driver = ScriptedDriver(answer)  # type: ignore[assignment]
    statement = NEO4J.migrations[0] if batched else "MERGE (m:Format {org_id: $org})"
    with pytest.raises(GraphUnavailable):
        await store._executor.run(statement, {"org": "acme"}, write=True)
    assert len(driver.attempts) >= 2  # resent before giving up


async def test_a_resent_read_gets_what_is_left_of_the_request() -> None:
    store = Neo4jStore(URI, statement_timeout_s=15.0, retry_time_s=5.0)
    await store.driver.close()

    def answer(statement: str, attempt: int) -> list[list[Any]]:
        if attempt == 1:
            deadline.start(0.5)  # the request's time runs short while the first one fails
            raise server_error("Neo.TransientError.General.DatabaseUnavailable")
        return [[1]]

    driver = store.driver = ScriptedDriver(answer)  # type: ignore[assignment]
    token = deadline.start(10.0)
    try:
        assert await store._executor.run("MATCH (n:Format {org_id: $org}) RETURN 1", {}) == [[1]]
    finally:
        deadline.end(token)
    first, second = (a.timeout for a in driver.attempts)
    assert first is not None and second is not None
    assert second <= 0.5 < first <= 10.0


async def test_writes_carry_a_time_limit_and_connections_open_within_the_wait() -> None:
    """A server not set up by our compose file has no db.transaction.timeout: each write
    carries its own. A new connection opens within the acquisition timeout (the driver's
    connection_timeout is 30 s by default)."""
    store = Neo4jStore(URI, acquisition_timeout_s=2.0, write_timeout_s=120.0)
    assert store.driver._pool.pool_config.connection_timeout <= 2.0
    await store.driver.close()
    driver = store.driver = ScriptedDriver(lambda s, n: [])  # type: ignore[assignment]
    await store._executor.run("MERGE (m:Format {org_id: $org})", {"org": "acme"}, write=True)
    assert driver.attempts[0].timeout == 120.0
    assert Neo4jStore(URI).write_timeout_s == 300.0  # the default


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
