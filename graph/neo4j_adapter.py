"""Neo4j 5 adapter over the official async `neo4j` driver (routing-aware `execute_query`).

All organisations share one database; every statement and every index is keyed by `org_id`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import neo4j
from neo4j import exceptions as neo4j_errors
from redis.asyncio import Redis

from engine.ports import (
    GraphError,
    GraphQueryError,
    GraphTimeout,
    GraphUnavailable,
    RoundTrips,
    check_org,
)
from graph import deadline
from graph.changes import LocalChangeFeed, LocalDocuments, RedisChangeFeed, RedisDocuments
from graph.dialect import NEO4J, Dialect
from graph.keystore import SYSTEM_SCOPE, CypherKeyStore
from graph.observation import observed
from graph.scoped import Row, ScopedGraph, apply_schema

if TYPE_CHECKING:
    from engine.embedding import Embedder

_UNAVAILABLE = (
    neo4j_errors.ServiceUnavailable,
    neo4j_errors.SessionExpired,
    neo4j_errors.TransientError,
    OSError,
)


def _translate(exc: Exception) -> GraphError:
    if isinstance(exc, _UNAVAILABLE):
        return GraphUnavailable("the Neo4j server cannot be reached")
    code = getattr(exc, "code", "") or ""
    if "TransactionTimedOut" in code or "Timeout" in code:
        return GraphTimeout("the statement exceeded its time limit")
    return GraphQueryError(f"{code}: {exc}")


class _Neo4jExecutor:
    def __init__(self, store: Neo4jStore) -> None:
        self._store = store

    @observed
    async def run(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> list[Row]:
        store = self._store
        configured = store.statement_timeout_s
        limit_ms = deadline.statement_limit_ms(
            None if configured is None else max(1, int(configured * 1000))
        )
        store.round_trips.add()
        routing = neo4j.RoutingControl.WRITE if write else neo4j.RoutingControl.READ
        try:
            result = await store.driver.execute_query(
                neo4j.Query(statement, timeout=None if limit_ms is None else limit_ms / 1000),
                params,
                database_=store.database,
                routing_=routing,
            )
        except asyncio.CancelledError:
            raise
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError) as exc:
            raise _translate(exc) from exc
        return [list(record.values()) for record in result.records]


class Neo4jStore:
    """`GraphStore` for Neo4j 5 (single instance, cluster or Aura).

    uri: `bolt://`, `neo4j://` (routing), or their `+s`/`+ssc` TLS forms.
    auth: (user, password), or None for a server without authentication.
    database: the database name (None: the server's default).
    statement_timeout_s: transaction timeout for every statement (None: the server's).
    embedder: makes subject vectors for the vector search arm (None: lexical search only).
    """

    dialect: Dialect = NEO4J

    def __init__(
        self,
        uri: str,
        *,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        max_connections: int = 50,
        statement_timeout_s: float | None = None,
        embedder: Embedder | None = None,
        redis_url: str | None = None,
    ) -> None:
        self.round_trips = RoundTrips()
        self.embedder = embedder
        # Revisions, change events and persisted documents need a Redis-protocol server to be
        # shared between processes; without one they stay in this process (docs/operations.md).
        self.changes: RedisChangeFeed | LocalChangeFeed
        self.documents: RedisDocuments | LocalDocuments
        if redis_url:
            client = Redis.from_url(redis_url, decode_responses=True)
            self.changes = RedisChangeFeed(client, redis_url)
            self.documents = RedisDocuments(client)
        else:
            self.changes, self.documents = LocalChangeFeed(), LocalDocuments()
        self.database = database
        self.statement_timeout_s = statement_timeout_s
        self.driver = neo4j.AsyncGraphDatabase.driver(
            uri, auth=auth, max_connection_pool_size=max_connections
        )
        self._executor = _Neo4jExecutor(self)
        self._orgs: dict[str, ScopedGraph] = {}
        self._keys = CypherKeyStore(self._executor)

    @property
    def backend(self) -> str:
        return "neo4j"

    @property
    def keys(self) -> CypherKeyStore:
        return self._keys

    def org(self, org_id: str) -> ScopedGraph:
        scoped = self._orgs.get(org_id)
        if scoped is None:
            scoped = self._orgs[org_id] = ScopedGraph(
                check_org(org_id), self._executor, self.dialect, self.embedder, self.changes
            )
        return scoped

    async def bootstrap(self, org_id: str) -> None:
        # Indexes are database-wide here; org_id leads each of them.
        if org_id != SYSTEM_SCOPE:
            check_org(org_id)
        await apply_schema(self._executor, self.dialect, self.embedder)

    async def ping(self) -> None:
        self.round_trips.add()
        try:
            await self.driver.verify_connectivity()
        except (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError) as exc:
            raise _translate(exc) from exc

    async def drop_org(self, org_id: str) -> None:
        """Delete every node of one organisation (tests and admin use)."""
        await self._executor.run(
            "MATCH (n {org_id: $org}) DETACH DELETE n",
            {"org": check_org(org_id)},
            write=True,
        )

    async def close(self) -> None:
        await self.driver.close()
