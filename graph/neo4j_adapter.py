"""Neo4j 5 adapter over the official async `neo4j` driver (5.23 or newer; docs/operations.md).

All organisations share one database: every statement is scoped by `org_id`, every label an
organisation's statements match on has an `org_id` index, and the shared full-text and
vector indexes are queried for one organisation (graph.dialect).

Statements run in explicit transactions routed as reads or writes, resent while they may
succeed when resent (graph.neo4j_executor), except statements with `CALL {...} IN
TRANSACTIONS`, which Neo4j runs only as auto-commit statements of a session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import neo4j
from redis.asyncio import Redis

from engine.ports import EpochTimings, RoundTrips, check_org
from graph import neo4j_schema
from graph.changes import LocalChangeFeed, LocalDocuments, RedisChangeFeed, RedisDocuments
from graph.cypher import organisations as organisations_cypher
from graph.dialect import Dialect
from graph.epochs import SCOPE_SEPARATOR, Renew, purge_scope, scope_of
from graph.keystore import SYSTEM_SCOPE, CypherKeyStore
from graph.neo4j_dialect import NEO4J
from graph.neo4j_executor import Neo4jExecutor
from graph.scoped import ScopedGraph
from graph.store import EpochedStore

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder

# A read that checks the database answers.
PING = "RETURN 1 AS ok"


def driver_config(max_connections: int, acquisition_timeout_s: float) -> dict[str, Any]:
    """The driver's pool bounds: a statement waits for a pooled connection, or for a new one
    to open, at most `acquisition_timeout_s` (the driver's connection_timeout defaults to
    30 s). Retries are the executor's (graph.neo4j_executor), so the driver's own are off."""
    return {
        "max_connection_pool_size": max_connections,
        "connection_acquisition_timeout": acquisition_timeout_s,
        "connection_timeout": acquisition_timeout_s,
        "max_transaction_retry_time": 0.0,
    }


class Neo4jStore(EpochedStore):
    """`GraphStore` for Neo4j 5.23+ (single instance, cluster or Aura). A projection epoch is
    the `org_id` its nodes carry (`<org>` for epoch 0, `<org>@<N>` after, see graph.epochs).

    uri: `bolt://`, `neo4j://` (routing), or their `+s`/`+ssc` TLS forms.
    auth: (user, password), or None for a server without authentication.
    database: the database name (named, so the driver never asks for the home database).
    statement_timeout_s: transaction timeout for every read (None: the server's).
    write_timeout_s: transaction timeout for every write but the batched ones (None: the
        server's `db.transaction.timeout`, which is none unless set); it bounds lock waits
        too, `db.lock.acquisition.timeout` being server-wide only.
    acquisition_timeout_s: the longest a statement waits for a free pooled connection; keep
        it within the request's time limit (the driver's default is 60 s). Opening a new
        connection is held to it as well (the driver's `connection_timeout`, 30 s by default,
        would otherwise outlast it).
    retry_time_s: how long a statement that may succeed when resent is resent for.
    embedder: makes subject vectors for the vector search arm (None: lexical search only).
    exact_vector_limit: organisation size up to which vector search compares every vector
        (None: the dialect's).
    """

    dialect: Dialect = NEO4J

    def __init__(
        self,
        uri: str,
        *,
        auth: tuple[str, str] | None = None,
        database: str = "neo4j",
        max_connections: int = 50,
        statement_timeout_s: float | None = None,
        write_timeout_s: float | None = 300.0,
        acquisition_timeout_s: float = 5.0,
        retry_time_s: float = 5.0,
        embedder: Embedder | None = None,
        redis_url: str | None = None,
        exact_vector_limit: int | None = None,
        epoch_timings: EpochTimings | None = None,
        pointer_ttl_s: float = 1.0,
    ) -> None:
        self.round_trips = RoundTrips()
        self.embedder = embedder
        # Revisions, change events and persisted documents need a Redis-protocol server to be
        # shared between processes; without one they stay in this process (docs/operations.md).
        self.changes: RedisChangeFeed | LocalChangeFeed
        self.documents: RedisDocuments | LocalDocuments
        self._redis: Redis | None = None  # closed with the store
        if redis_url:
            client = self._redis = Redis.from_url(redis_url, decode_responses=True)
            # Bookmarks travel with revisions and events (graph/changes.py).
            self.changes = RedisChangeFeed(client, redis_url, bookmarks=self)
            self.documents = RedisDocuments(client)
        else:
            self.changes, self.documents = LocalChangeFeed(), LocalDocuments()
        self.database = database
        self.statement_timeout_s = statement_timeout_s
        self.write_timeout_s = write_timeout_s
        self.acquisition_timeout_s = acquisition_timeout_s
        self.retry_time_s = retry_time_s
        self.exact_vector_limit = exact_vector_limit
        self.driver = neo4j.AsyncGraphDatabase.driver(
            uri, auth=auth, **driver_config(max_connections, acquisition_timeout_s)
        )
        self._executor = Neo4jExecutor(self)
        self._init_epochs(epoch_timings, pointer_ttl_s)
        self._bookmarks: dict[str, neo4j.AsyncBookmarkManager] = {}
        self._keys = CypherKeyStore(self._executor)
        self._schema_lock = asyncio.Lock()
        self._schema_ready = False

    @property
    def backend(self) -> str:
        return "neo4j"

    @property
    def keys(self) -> CypherKeyStore:
        return self._keys

    def bookmarks(self, params: dict[str, Any]) -> neo4j.AsyncBookmarkManager:
        """One bookmark manager per organisation, its epochs' scopes included (and one for
        the system scope and DDL): a read on a cluster waits for its own organisation's
        writes, not for every write this process made (the driver's default manager is
        shared by every query)."""
        scope = str(params.get("org") or params.get("system") or SYSTEM_SCOPE)
        return self._manager(scope.split(SCOPE_SEPARATOR, 1)[0])

    def _manager(self, org_id: str) -> neo4j.AsyncBookmarkManager:
        manager = self._bookmarks.get(org_id)
        if manager is None:
            manager = self._bookmarks[org_id] = neo4j.AsyncGraphDatabase.bookmark_manager()
        return manager

    async def held(self, org_id: str) -> tuple[str, ...]:
        """The bookmarks of this process's writes for the organisation (sent with each
        change it publishes: graph/changes.py)."""
        return tuple(sorted(await self._manager(org_id).get_bookmarks()))

    async def learned(self, org_id: str, bookmarks: Sequence[str]) -> None:
        """Another process's writes, told with a revision or a change event: this process's
        next reads of the organisation wait until the server they reach has applied them."""
        if bookmarks:
            await self._manager(org_id).update_bookmarks((), bookmarks)

    def _make_graph(self, org_id: str, epoch: int) -> ScopedGraph:
        return ScopedGraph(
            check_org(org_id), self._executor, self.dialect, self.embedder, self.changes,
            self.exact_vector_limit, epoch=epoch,
        )  # fmt: skip

    async def _purge_epoch(self, org_id: str, epoch: int, renew: Renew) -> None:
        await purge_scope(self.org(org_id, epoch), renew)
        self._orgs.pop((org_id, epoch), None)

    async def bootstrap(self, org_id: str) -> None:
        """Indexes and constraints are database-wide: created (and waited for) once per
        store, whichever organisation asks first."""
        if org_id != SYSTEM_SCOPE:
            check_org(org_id)
        async with self._schema_lock:
            if not self._schema_ready:
                self.dialect = await neo4j_schema.prepare(self._executor, self.embedder)
                self._orgs.clear()  # any graph made before speaks the server's dialect now
                self._schema_ready = True

    async def ping(self) -> None:
        """A read on the configured database: fails unless it is online and answering."""
        await self._executor.run(PING, {})

    async def drop_org(self, org_id: str) -> None:
        """Delete every node of one organisation, every epoch's (tests and admin use), label
        by label in batches of inner transactions (one transaction ran out of heap)."""
        for epoch in sorted({0, *(e.id for e in await self.epochs(org_id).all())}, reverse=True):
            params = {"org": scope_of(check_org(org_id), epoch)}
            for statement in organisations_cypher.delete_org(self.dialect).values():
                await self._executor.run(statement, params, write=True)
            self._orgs.pop((org_id, epoch), None)
        self._pointers.pop(org_id, None)

    async def close(self) -> None:
        await self.driver.close()
        if self._redis is not None:
            await self._redis.aclose()
