"""Neo4j 5 adapter over the official async `neo4j` driver (5.23 or newer; docs/operations.md).

All organisations share one database: every statement is scoped by `org_id`, every label an
organisation's statements match on has an `org_id` index, and the shared full-text and
vector indexes are queried for one organisation (graph.dialect).

Statements run in managed transactions (the driver retries what may succeed when retried,
and routes reads and writes on a cluster), except statements with `CALL {...} IN
TRANSACTIONS`, which Neo4j runs only as auto-commit statements of a session.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import neo4j
from neo4j import exceptions as neo4j_errors
from redis.asyncio import Redis

from engine.ports import EpochTimings, GraphQueryError, RoundTrips, check_org
from graph import activity, deadline
from graph.changes import LocalChangeFeed, LocalDocuments, RedisChangeFeed, RedisDocuments
from graph.cypher import activity as activity_cypher
from graph.cypher import organisations as organisations_cypher
from graph.dialect import NEO4J, Dialect
from graph.epochs import purge_scope, scope_of
from graph.executor import Row, apply_schema, bound, retire_indexes
from graph.keystore import SYSTEM_SCOPE, CypherKeyStore
from graph.neo4j_errors import retryable, translate
from graph.observation import observed
from graph.scoped import ScopedGraph
from graph.store import EpochedStore

if TYPE_CHECKING:
    from engine.embedding import Embedder

AUTOCOMMIT = re.compile(r"\bIN\s+TRANSACTIONS\b")
_DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError, OSError)
OLDEST = (5, 23)  # vector.quantization.enabled (5.23), vector.similarity.cosine (5.18)
# Reads that check the database answers, and which server version it runs.
PING = "RETURN 1 AS ok"
VERSION = "CALL dbms.components() YIELD name, versions RETURN name, versions[0]"


class _Final(Exception):
    """Carries a driver error out of a transaction function so the driver does not retry
    it: a transaction over its memory limit fails the same way every time."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def server_version(text: str) -> tuple[int, int] | None:
    """(major, minor) of "5.26.1", "5.27-aura" or "2025.01.0"; None if unreadable."""
    match = re.match(r"(\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2])) if match else None


def transaction_limit_ms(configured_s: float | None, write: bool) -> int | None:
    """The transaction timeout of the next statement: reads get the configured limit,
    shortened to what is left of the request's time; writes get none (the server's own
    `db.transaction.timeout` is their backstop). Raises GraphTimeout for either, unsent,
    once the request's deadline has passed."""
    limit_ms = deadline.statement_limit_ms(
        None if configured_s is None else max(1, int(configured_s * 1000))
    )
    return None if write else limit_ms


class _Neo4jExecutor:
    def __init__(self, store: Neo4jStore) -> None:
        self._store = store

    @observed
    async def run(
        self,
        statement: str,
        params: dict[str, Any],
        *,
        write: bool = False,
        control: bool = False,
        maintenance: bool = False,
    ) -> list[Row]:
        store = self._store
        # Writes carry no time limit (a batch, a cleanup or DDL must finish), nor do upkeep
        # reads, but neither is sent once the request's deadline has passed; reads carry
        # what is left of it.
        unlimited = write or maintenance
        limit_ms = self._limit_ms(unlimited)
        store.round_trips.add(control)  # only a statement that is sent counts
        session = store.driver.session(
            database=store.database,
            bookmark_manager=store.bookmarks(params),
            default_access_mode=neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS,
        )
        try:
            async with session:
                if AUTOCOMMIT.search(statement):
                    query = neo4j.Query(statement)
                    result = await session.run(query, params)
                    return await result.values()
                work = neo4j.unit_of_work(timeout=None if limit_ms is None else limit_ms / 1000)(
                    self._work
                )
                execute = session.execute_write if write else session.execute_read
                return await execute(work, statement, params, unlimited)
        except asyncio.CancelledError:
            raise
        except _Final as final:
            raise translate(final.error) from final.error
        except _DRIVER_ERRORS as exc:
            raise translate(exc) from exc

    def prepare(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> Callable[[], Awaitable[list[Row]]]:
        """The driver encodes parameters as it sends them: nothing to make ahead."""
        return functools.partial(self.run, statement, params, write=write)

    def _limit_ms(self, write: bool) -> int | None:
        return transaction_limit_ms(self._store.statement_timeout_s, write)

    async def _work(
        self,
        tx: neo4j.AsyncManagedTransaction,
        statement: str,
        params: dict[str, Any],
        unlimited: bool,
    ) -> list[Row]:
        self._limit_ms(unlimited)  # a retry after the deadline is not sent either
        try:
            result = await tx.run(statement, params)
            return await result.values()
        except neo4j_errors.Neo4jError as exc:
            if not retryable(exc):
                raise _Final(exc) from exc
            raise


class Neo4jStore(EpochedStore):
    """`GraphStore` for Neo4j 5.23+ (single instance, cluster or Aura). A projection epoch is
    the `org_id` its nodes carry (`<org>` for epoch 0, `<org>@<N>` after, see graph.epochs).

    uri: `bolt://`, `neo4j://` (routing), or their `+s`/`+ssc` TLS forms.
    auth: (user, password), or None for a server without authentication.
    database: the database name (named, so the driver never asks for the home database).
    statement_timeout_s: transaction timeout for every read (None: the server's).
    acquisition_timeout_s: the longest a statement waits for a free pooled connection; keep
        it within the request's time limit (the driver's default is 60 s).
    retry_time_s: how long the driver retries a transaction that may succeed when retried.
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
            self.changes = RedisChangeFeed(client, redis_url)
            self.documents = RedisDocuments(client)
        else:
            self.changes, self.documents = LocalChangeFeed(), LocalDocuments()
        self.database = database
        self.statement_timeout_s = statement_timeout_s
        self.acquisition_timeout_s = acquisition_timeout_s
        self.retry_time_s = retry_time_s
        self.exact_vector_limit = exact_vector_limit
        self.driver = neo4j.AsyncGraphDatabase.driver(
            uri,
            auth=auth,
            max_connection_pool_size=max_connections,
            connection_acquisition_timeout=acquisition_timeout_s,
            max_transaction_retry_time=retry_time_s,
        )
        self._executor = _Neo4jExecutor(self)
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
        """One bookmark manager per organisation (and one for the system scope and DDL): a
        read on a cluster waits for its own organisation's writes, not for every write this
        process made (the driver's default manager is shared by every query)."""
        scope = str(params.get("org") or params.get("system") or SYSTEM_SCOPE)
        manager = self._bookmarks.get(scope)
        if manager is None:
            manager = self._bookmarks[scope] = neo4j.AsyncGraphDatabase.bookmark_manager()
        return manager

    def _make_graph(self, org_id: str, epoch: int) -> ScopedGraph:
        return ScopedGraph(
            check_org(org_id), self._executor, self.dialect, self.embedder, self.changes,
            self.exact_vector_limit, epoch=epoch,
        )  # fmt: skip

    async def _purge_epoch(self, org_id: str, epoch: int) -> None:
        await purge_scope(self.org(org_id, epoch))
        self._orgs.pop((org_id, epoch), None)

    async def bootstrap(self, org_id: str) -> None:
        """Indexes and constraints are database-wide: created (and waited for) once per
        store, whichever organisation asks first."""
        if org_id != SYSTEM_SCOPE:
            check_org(org_id)
        async with self._schema_lock:
            if not self._schema_ready:
                await self._apply_schema()
                await self._migrate_activity()
                # After the migrations, which may read an index that goes (graph.executor).
                await retire_indexes(self._executor, self.dialect)
                self._schema_ready = True

    async def _migrate_activity(self) -> None:
        """Organisations written before the activity structures get them, once per database
        (the system scope's Format node records it)."""
        system = {"org": SYSTEM_SCOPE}
        found = await self._executor.run(activity_cypher.GET_FORMAT, system, maintenance=True)
        if found and found[0][0] is not None and int(found[0][0]) >= activity.FORMAT_VERSION:
            return
        orgs = await self._executor.run(activity_cypher.ORGS_TO_MIGRATE, {}, maintenance=True)
        for (org,) in orgs:
            scope = str(org)  # an organisation, or the scope of one of its epochs
            read = bound(self._executor, scope, False, maintenance=True)
            write = bound(self._executor, scope, True)
            await activity.migrate(read, write, scope, self.dialect)
        done = {**system, "version": activity.FORMAT_VERSION}
        await self._executor.run(activity_cypher.SET_FORMAT, done, write=True)

    async def _apply_schema(self) -> None:
        for name, version in await self._executor.run(VERSION, {}):
            parsed = server_version(str(version))
            if name == "Neo4j Kernel" and parsed is not None and parsed < OLDEST:
                raise GraphQueryError(
                    f"Neo4j {version} is too old: the gateway needs "
                    f"{OLDEST[0]}.{OLDEST[1]} or newer"
                )
        await apply_schema(self._executor, self.dialect, self.embedder)

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
