"""FalkorDB adapter over the official `falkordb` asyncio client (native protocol, pooled).

Each organisation gets its own graph key, so every organisation has its own indexes and one
tenant's rows can never crowd another's out of a search. Statements still carry `org_id`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis.exceptions as redis_errors
from falkordb.asyncio import FalkorDB
from falkordb.asyncio.query_result import QueryResult
from falkordb.exceptions import SchemaVersionMismatchException
from redis.asyncio import BlockingConnectionPool, Redis

from engine.ports import (
    GraphError,
    GraphQueryError,
    GraphTimeout,
    GraphUnavailable,
    RoundTrips,
    check_org,
)
from graph import deadline, falkor_results, rows
from graph.changes import RedisChangeFeed, RedisDocuments
from graph.dialect import FALKORDB, Dialect
from graph.falkor_params import header
from graph.keystore import SYSTEM_SCOPE, CypherKeyStore
from graph.observation import observed
from graph.scoped import Row, ScopedGraph, apply_schema

if TYPE_CHECKING:
    from engine.embedding import Embedder

GRAPH_PREFIX = "fabric:org:"
_EMPTY_GRAPH = "empty key"  # FalkorDB's refusal to read a graph that was never written
SYSTEM_GRAPH = "fabric:system"

_UNAVAILABLE = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.BusyLoadingError,
    OSError,
)


# Every property name a statement of ours writes. FalkorDB 4.16 rolls back the property names a
# failed write introduced but keeps that statement's cached plan, whose next run then writes
# under dangling names (`org_id` silently missing, an `id` stored under a garbage name). So
# each graph learns every name at bootstrap, and no write ever introduces one.
ATTRIBUTES = tuple(
    sorted(
        {
            "org_id", "key", *rows.SUBJECT_COLUMNS, *rows.STUB_COLUMNS, "id",
            *rows.RELATIONSHIP_COLUMNS, *rows.EPISODE_COLUMNS, *rows.RECORD_COLUMNS,
            "embedding", "embedder", "stamp", "dimension", "cursor", "digest", "finished",
            "created_ns", "payload", "subject_keys", "reuse_key", "outcome", "changed_ns",
            "key_id", "secret_hash", "key_org", "actor", "scopes", "revoked", "name", "value",
        }
    )
)  # fmt: skip
# Created and deleted in one statement under a label the schema already has: only the names
# remain. Values are parameters like everywhere else.
_LEARN_ATTRIBUTES = "CREATE (n:Checkpoint) SET n += $names DELETE n"


def _translate(exc: Exception) -> GraphError:
    if isinstance(exc, _UNAVAILABLE):
        return GraphUnavailable("the FalkorDB server cannot be reached")
    message = str(exc)
    if "timed out" in message.lower():
        return GraphTimeout("the statement exceeded its time limit")
    return GraphQueryError(message)


class _GraphExecutor:
    """Runs statements on one graph. prepare: awaited once before the first write through
    this executor (an organisation first written by a request, not by an ingest, still gets
    its indexes and property names)."""

    def __init__(
        self,
        store: FalkorStore,
        graph_name: str,
        prepare: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._store = store
        self._name = graph_name
        self._graph = store.client.select_graph(graph_name)
        self._prepare = prepare

    @observed
    async def run(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> list[Row]:
        if write and self._prepare is not None:
            prepare, self._prepare = self._prepare, None
            try:
                await prepare()
            except BaseException:
                self._prepare = prepare  # not prepared: the next write tries again
                raise
        # Raises GraphTimeout, unsent, once the request's deadline has passed.
        timeout = deadline.statement_limit_ms(self._store.statement_timeout_ms)
        self._store.round_trips.add()
        command: list[Any] = [
            "GRAPH.QUERY" if write else "GRAPH.RO_QUERY",
            self._name,
            header(params) + statement,
            "--compact",
        ]
        if timeout and not write:  # writes run to completion: a batch is never half-applied
            command += ["timeout", timeout]
        try:
            response = await self._graph.execute_command(*command)
            try:
                return falkor_results.rows(response)
            except falkor_results.Unsupported:
                result = QueryResult(self._graph)
                await result.parse(response)
                rows: list[Row] = result.result_set
                return rows
        except asyncio.CancelledError:
            raise
        except redis_errors.ResponseError as exc:
            if not write and _EMPTY_GRAPH in str(exc):
                return []  # an organisation with no graph yet has nothing to read
            raise _translate(exc) from exc
        except (redis_errors.RedisError, OSError, SchemaVersionMismatchException) as exc:
            raise _translate(exc) from exc


class FalkorStore:
    """`GraphStore` for a FalkorDB server.

    url: `redis://host:port`, `falkordb://host:port`, `rediss://...` or `unix:///path.sock`.
    max_connections: size of the blocking connection pool shared by every request.
    statement_timeout_ms: server-side limit on read statements (None: no limit).
    embedder: makes subject vectors for the vector search arm (None: lexical search only).
    socket_timeout_s: how long to wait for any one reply. redis-py's default of 5 s would
        report a slow write batch on a busy machine as an unreachable server; reads are bounded
        by the server-side statement timeout and requests by the gateway's own timeout, so
        this only catches a server that stopped answering without closing the connection.
    """

    dialect: Dialect = FALKORDB

    def __init__(
        self,
        url: str,
        *,
        max_connections: int = 32,
        statement_timeout_ms: int | None = None,
        embedder: Embedder | None = None,
        socket_timeout_s: float | None = 600.0,
    ) -> None:
        for scheme, replacement in (
            ("falkordb://", "redis://"),
            ("falkor://", "redis://"),
            ("falkordbs://", "rediss://"),
            ("falkors://", "rediss://"),
        ):
            if url.startswith(scheme):
                url = replacement + url.removeprefix(scheme)
        self.round_trips = RoundTrips()
        self.statement_timeout_ms = statement_timeout_ms
        self.embedder = embedder
        self._pool = BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=5,
            socket_timeout=socket_timeout_s,
            socket_connect_timeout=5,
            decode_responses=True,
        )
        self.client = FalkorDB(connection_pool=self._pool)
        # The server's own counters and publish/subscribe carry revisions and change events.
        self.changes = RedisChangeFeed(Redis(connection_pool=self._pool), url)
        self.documents = RedisDocuments(Redis(connection_pool=self._pool))
        self._orgs: dict[str, ScopedGraph] = {}
        self._bootstrapped: set[str] = set()  # by this process: no need to prepare again
        self._keys = CypherKeyStore(_GraphExecutor(self, SYSTEM_GRAPH))

    @property
    def backend(self) -> str:
        return "falkordb"

    @property
    def keys(self) -> CypherKeyStore:
        return self._keys

    def org(self, org_id: str) -> ScopedGraph:
        scoped = self._orgs.get(org_id)
        if scoped is None:
            executor = _GraphExecutor(
                self, GRAPH_PREFIX + check_org(org_id), lambda: self._prepare(org_id)
            )
            scoped = self._orgs[org_id] = ScopedGraph(
                org_id, executor, self.dialect, self.embedder, self.changes
            )
        return scoped

    async def bootstrap(self, org_id: str) -> None:
        name = SYSTEM_GRAPH if org_id == SYSTEM_SCOPE else GRAPH_PREFIX + check_org(org_id)
        executor = _GraphExecutor(self, name)
        await apply_schema(executor, self.dialect, self.embedder, org_id != SYSTEM_SCOPE)
        await executor.run(_LEARN_ATTRIBUTES, {"names": dict.fromkeys(ATTRIBUTES, 0)}, write=True)
        self._bootstrapped.add(org_id)

    async def _prepare(self, org_id: str) -> None:
        if org_id not in self._bootstrapped:
            await self.bootstrap(org_id)

    async def ping(self) -> None:
        self.round_trips.add()
        try:
            await self.client.connection.ping()
        except (redis_errors.RedisError, OSError) as exc:
            raise _translate(exc) from exc

    async def drop_org(self, org_id: str) -> None:
        """Delete an organisation's whole graph (tests and `fabric` admin use)."""
        self._bootstrapped.discard(org_id)
        try:
            await self.client.select_graph(GRAPH_PREFIX + check_org(org_id)).delete()
        except redis_errors.ResponseError:
            pass  # no such graph
        except (redis_errors.RedisError, OSError) as exc:
            raise _translate(exc) from exc

    async def reconnect(self) -> None:
        """Drop idle pooled connections (after the server restarted); in-use ones fail on
        their own and are replaced when next taken from the pool."""
        await self._pool.disconnect(inuse_connections=False)

    async def close(self) -> None:
        await self._pool.disconnect()
