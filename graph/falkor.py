"""FalkorDB adapter over the official `falkordb` asyncio client (native protocol, pooled).

Each organisation gets its own graph key, so every organisation has its own indexes and one
tenant's rows can never crowd another's out of a search. Statements still carry `org_id`.
How one statement is sent to one graph is graph.falkor_executor's.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import redis.exceptions as redis_errors
from falkordb.asyncio import FalkorDB
from redis.asyncio import BlockingConnectionPool, Redis

from engine.ports import EpochTimings, RoundTrips, check_org
from graph import activity, falkor_build, falkor_ready, falkor_vectors, rows
from graph.changes import RedisChangeFeed, RedisDocuments
from graph.cypher import formats as formats_cypher
from graph.dialect import FALKORDB, Dialect
from graph.epochs import Renew, purge_scope, scope_of
from graph.executor import apply_schema, bound, retire_indexes
from graph.falkor_executor import GraphExecutor, translate
from graph.falkor_stream import FalkorStream
from graph.indexes import falkor_read_labels
from graph.keystore import SYSTEM_SCOPE, CypherKeyStore
from graph.scoped import ScopedGraph
from graph.store import EpochedStore

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder
    from graph.bulk_load import Load as BulkLoad

GRAPH_PREFIX = "fabric:org:"
SYSTEM_GRAPH = "fabric:system"

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
            "active", "status", "building", "previous", "grace_until_ns", "last_allocated",
            "lock", "state", "reason", "retired_ns", "deleted_ns", "deleter",
            "deleter_until_ns",
            "subject_kind", "latest_ns", "latest_us", "n", "activity", "slot", "tie", "vectors",
        }
    )
)  # fmt: skip


class FalkorStore(EpochedStore):
    """`GraphStore` for a FalkorDB server. Each projection epoch of an organisation is its
    own graph (`fabric:org:<org>` for epoch 0, `fabric:org:<org>@<N>` after), with its own
    indexes; results and the epoch lifecycle stay in epoch 0's graph key.

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
        epoch_timings: EpochTimings | None = None,
        pointer_ttl_s: float = 1.0,
        wait_for_indexes: bool = True,
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
        # A bulk load's calls go on a connection of their own (graph.falkor_build.Pipe).
        self.url, self.socket_timeout_s = url, socket_timeout_s
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
        self._init_epochs(epoch_timings, pointer_ttl_s)
        self._bootstrapped: set[str] = set()  # scopes, by this process: prepared already
        self.wait_for_indexes = wait_for_indexes
        self._gates: dict[str, falkor_ready.IndexGate] = {}  # graph name: its search gate
        self._keys = CypherKeyStore(GraphExecutor(self, SYSTEM_GRAPH))

    @property
    def backend(self) -> str:
        return "falkordb"

    @property
    def keys(self) -> CypherKeyStore:
        return self._keys

    def _make_graph(self, org_id: str, epoch: int) -> ScopedGraph:
        scope = scope_of(check_org(org_id), epoch)
        name = GRAPH_PREFIX + scope
        executor = GraphExecutor(self, name, lambda: self._prepare(scope))
        home = None if epoch == 0 else self.org(org_id).results_executor
        if name not in self._gates:
            self._gates[name] = falkor_ready.IndexGate(GraphExecutor(self, name).status)
        return ScopedGraph(
            org_id,
            executor,
            self.dialect,
            self.embedder,
            self.changes,
            epoch=epoch,
            results_executor=home,
            index_gate=self._gates[name],
        )

    async def indexes_building(self, org_id: str) -> bool:
        serving = await self.serving(org_id)  # made its gate (_make_graph)
        return await self._gates[GRAPH_PREFIX + scope_of(org_id, serving.epoch)].building()

    async def await_read_indexes(self, org_id: str) -> None:
        serving = await self.serving(org_id)
        await self._gates[GRAPH_PREFIX + scope_of(org_id, serving.epoch)].first(
            falkor_read_labels()
        )

    async def bootstrap(self, org_id: str) -> None:
        if org_id == SYSTEM_SCOPE:
            # Every other graph's indexes are waited for by whatever writes it (its own
            # bootstrap, below): FalkorDB builds one graph's after another, so a command
            # touching one organisation (or none: `fabric keys create`) waited for every
            # organisation's (476 s behind a 100k-subject graph's). A read before is only
            # slower, and a search waits for its own index (graph.falkor_ready).
            await self._bootstrap(SYSTEM_GRAPH, SYSTEM_SCOPE, vectors=False)
            await self._migrate_all()
            await self._move_all_vectors()
        else:
            await self._bootstrap(GRAPH_PREFIX + check_org(org_id), org_id)

    async def _bootstrap(self, name: str, scope: str, vectors: bool = True) -> None:
        executor = GraphExecutor(self, name)
        await apply_schema(executor, self.dialect, self.embedder, vectors)
        await falkor_ready.learn_attributes(executor.read, executor.change, ATTRIBUTES)
        # A loader writes once the indexes are built (graph.falkor_ready). The system
        # graph's few keys and secrets are found as fast without them.
        if self.wait_for_indexes and scope != SYSTEM_SCOPE:
            await falkor_ready.await_indexes(executor.read, name)
        if scope != SYSTEM_SCOPE:
            read = bound(executor, scope, False, maintenance=True)
            write = bound(executor, scope, True)
            await activity.migrate(read, write, scope, self.dialect)
            await falkor_vectors.move(executor.read, read, write, name)
        # After the migrations, which may read an index that goes (graph.executor). A label
        # losing one of its fields has its index built again.
        if await retire_indexes(executor, self.dialect) and self.wait_for_indexes:
            await falkor_ready.await_indexes(executor.read, name)
        self._bootstrapped.add(scope)

    async def _migrate_all(self) -> list[str]:
        """On the first open of a data directory written before the activity structures,
        bring every graph (each organisation's, each epoch's) up to date, indexes and
        structures, before anything reads them; the system graph then records that this
        store is done. The names of the graphs it bootstrapped."""
        system = bound(GraphExecutor(self, SYSTEM_GRAPH), SYSTEM_SCOPE, False, maintenance=True)
        found = await system(formats_cypher.GET_FORMAT)
        if found and found[0][0] is not None and int(found[0][0]) >= activity.FORMAT_VERSION:
            return []
        migrated = []
        for name, scope in await self._not_bootstrapped():
            await self._bootstrap(name, scope)
            migrated.append(name)
        writer = bound(GraphExecutor(self, SYSTEM_GRAPH), SYSTEM_SCOPE, True)
        await writer(formats_cypher.SET_FORMAT, version=activity.FORMAT_VERSION)
        return migrated

    async def _move_all_vectors(self) -> list[str]:
        """Bootstrap every graph whose vectors are yet to be moved to their own label
        (graph.falkor_vectors), before anything searches them; the names of those it
        bootstrapped."""
        moved = []
        for name, scope in await self._not_bootstrapped():
            executor = GraphExecutor(self, name)
            read = bound(executor, scope, False, maintenance=True)
            if await falkor_vectors.pending(executor.read, read):
                await self._bootstrap(name, scope)
                moved.append(name)
        return moved

    async def _graph_names(self) -> list[str]:
        try:
            return list(await self.client.list_graphs())
        except (redis_errors.RedisError, OSError) as exc:
            raise translate(exc) from exc

    async def _not_bootstrapped(self) -> list[tuple[str, str]]:
        """The organisation graphs (name, scope) this process has not bootstrapped yet, in
        name order: what the first open's migrations walk."""
        return [
            (name, name.removeprefix(GRAPH_PREFIX))
            for name in sorted(await self._graph_names())
            if name.startswith(GRAPH_PREFIX)
            and name.removeprefix(GRAPH_PREFIX) not in self._bootstrapped
        ]

    async def _prepare(self, scope: str) -> None:
        if scope not in self._bootstrapped:
            await self._bootstrap(GRAPH_PREFIX + scope, scope)

    async def _purge_epoch(self, org_id: str, epoch: int, renew: Renew) -> None:
        if epoch == 0:  # shares its graph key with the results: delete its data only
            await purge_scope(self.org(org_id, 0), renew)
        else:
            await self._delete_graph(GRAPH_PREFIX + scope_of(org_id, epoch))
            self._bootstrapped.discard(scope_of(org_id, epoch))
        self._orgs.pop((org_id, epoch), None)

    async def forget_graph(self, org_id: str, epoch: int) -> None:
        """Delete a build's graph key (what a bulk load cut short left), to be made anew."""
        scope = scope_of(check_org(org_id), epoch)
        await self._delete_graph(GRAPH_PREFIX + scope)
        self._bootstrapped.discard(scope)
        self._orgs.pop((org_id, epoch), None)

    def bulk_loader(self, org_id: str, epoch: int) -> BulkLoad:
        """Loads a whole graph (graph.bulk) into build `epoch` (graph.falkor_build.load)."""
        return functools.partial(falkor_build.load, self, org_id, epoch)

    def bulk_stream(self, org_id: str, epoch: int) -> FalkorStream:
        """Sends a bulk load into build `epoch` as it is read (graph.falkor_stream)."""
        return FalkorStream(self, org_id, epoch)

    async def _delete_graph(self, name: str) -> None:
        try:
            await self.client.select_graph(name).delete()
        except redis_errors.ResponseError:
            pass  # no such graph
        except (redis_errors.RedisError, OSError) as exc:
            raise translate(exc) from exc

    async def ping(self) -> None:
        self.round_trips.add()
        try:
            await self.client.connection.ping()
        except (redis_errors.RedisError, OSError) as exc:
            raise translate(exc) from exc

    async def drop_org(self, org_id: str) -> None:
        """Delete an organisation's graphs, every epoch's (tests and `fabric` admin use)."""
        epochs = [e.id for e in await self.epochs(org_id).all()]
        for epoch in epochs:
            scope = scope_of(check_org(org_id), epoch)
            self._bootstrapped.discard(scope)
            self._orgs.pop((org_id, epoch), None)
            if epoch:
                await self._delete_graph(GRAPH_PREFIX + scope)
        self._pointers.pop(org_id, None)
        await self._delete_graph(GRAPH_PREFIX + check_org(org_id))

    async def reconnect(self) -> None:
        """Drop idle pooled connections (after the server restarted); in-use ones fail on
        their own and are replaced when next taken from the pool."""
        await self._pool.disconnect(inuse_connections=False)
        for gate in self._gates.values():  # a restarted server builds every index again
            gate.reset()

    async def close(self) -> None:
        await self._pool.disconnect()
