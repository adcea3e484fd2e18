"""The one place that picks a graph adapter from the settings."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.domain.embedding import Embedder, HashingEmbedder
from engine.ports import EpochTimings, GraphStore
from gateway.embedder_http import HttpEmbedder
from gateway.settings import Settings
from graph.embedded import (
    DataDirInUse,
    EmbeddedServer,
    compact,
    connect_or_start,
    find_running,
)
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from graph.supervisor import Supervisor

if TYPE_CHECKING:  # the driver is imported only by a gateway that uses it (0.3 s of a start)
    from graph.neo4j_adapter import Neo4jStore

_NEO4J = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
_FALKOR = ("redis://", "rediss://", "unix://", "falkor://", "falkors://", "falkordb://")


@dataclass
class OpenedStore:
    store: GraphStore
    server: EmbeddedServer | None = None
    # The embedded server's socket, also when another process started it.
    socket: str | None = None

    async def close(self) -> None:
        await self.store.close()
        if self.server is not None:
            self.server.stop()  # rewrites the append-only file into a snapshot first
        elif self.socket is not None:
            # Someone else's server: what this process wrote (an ingest) is still only
            # logged; have it rewritten so that the next start loads a snapshot.
            await asyncio.to_thread(compact, self.socket, 0.0)


def supervise(opened: OpenedStore, settings: Settings) -> Supervisor | None:
    """Start watching the embedded server this process started (None: nothing to watch; a
    server run by someone else is reconnected to by the pool once it answers again)."""
    if opened.server is None:
        return None
    store = opened.store
    supervisor = Supervisor(
        opened.server,
        first_delay=settings.embedded_restart_delay_s,
        reconnect=store.reconnect if isinstance(store, FalkorStore) else None,
    )
    supervisor.start()
    return supervisor


def make_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder == "none":
        return None
    if settings.embedder == "local":
        return HashingEmbedder(settings.embedding_dimension)
    if settings.embedder == "http":
        if not settings.embedder_url or not settings.embedder_model:
            raise ValueError("FABRIC_EMBEDDER=http needs FABRIC_EMBEDDER_URL and _MODEL")
        key = settings.embedder_api_key.get_secret_value() if settings.embedder_api_key else None
        return HttpEmbedder(
            settings.embedder_url,
            settings.embedder_model,
            settings.embedding_dimension,
            api_key=key,
        )
    raise ValueError("FABRIC_EMBEDDER must be local, http or none")


def epoch_timings(settings: Settings) -> EpochTimings:
    """The lifecycle's bounds. The drain is derived, not advice: a retired epoch stays readable
    at least the serving pointer's TTL (another instance's cache) plus the request time limit
    (a request in flight pinned to it); a lower `epoch_drain_s` is raised to that."""
    floor = settings.epoch_pointer_ttl_s + settings.request_timeout_s
    return EpochTimings(settings.epoch_grace_s, max(settings.epoch_drain_s, floor))


def launch_embedded(settings: Settings) -> EmbeddedServer | None:
    """The data directory's embedded server, started without waiting for it to load (hand it
    to `open_store`, which waits); None when the store is not embedded or a server already
    runs there (or is being started by another process), which `open_store` joins."""
    if settings.graph_uri != "embedded":
        return None
    path = Path(settings.data_dir).resolve()
    if find_running(path) is not None:
        return None
    server = EmbeddedServer(path, start_limit=settings.embedded_start_limit_s)
    try:
        server.launch()
    except DataDirInUse:
        return None
    return server


def open_store(
    settings: Settings,
    *,
    wait_for_indexes: bool = True,
    launched: EmbeddedServer | None = None,
) -> OpenedStore:
    """Connect to the configured store; `embedded` starts (or joins) the data dir's server.

    Blocking (it may wait for a server to load its append-only file): call it from the main
    thread, whose lifetime the embedded server's is tied to. wait_for_indexes: False for a
    serving gateway, which answers while FalkorDB builds its indexes (graph.falkor_ready);
    a command that writes waits for them. launched: the server `launch_embedded` started,
    waited for here (stopped if it fails to come up).
    """
    uri = settings.graph_uri
    embedder = make_embedder(settings)
    timings = epoch_timings(settings)
    if launched is not None:
        try:
            launched.wait_ready()
        except BaseException:
            launched.stop()
            raise
        store = _falkor(launched.url, settings, embedder, timings, wait_for_indexes)
        return OpenedStore(store, launched, socket=str(launched.socket))
    if uri == "embedded":
        url, server = connect_or_start(
            settings.data_dir, start_limit=settings.embedded_start_limit_s
        )
        store = _falkor(url, settings, embedder, timings, wait_for_indexes)
        return OpenedStore(store, server, socket=url.removeprefix("unix://"))
    if uri.startswith(_NEO4J):
        return OpenedStore(_neo4j(uri, settings, embedder, timings))
    if uri.startswith(_FALKOR):
        return OpenedStore(_falkor(uri, settings, embedder, timings, wait_for_indexes))
    raise ValueError(
        "FABRIC_GRAPH_URI must be `embedded`, a FalkorDB URI (redis://, unix://) "
        "or a Neo4j URI (bolt://, neo4j://)"
    )


def _falkor(
    url: str,
    settings: Settings,
    embedder: Embedder | None,
    timings: EpochTimings,
    wait_for_indexes: bool = True,
) -> FalkorStore:
    store = FalkorStore(
        url,
        max_connections=settings.graph_pool_size,
        statement_timeout_ms=settings.statement_timeout_ms,
        embedder=embedder,
        epoch_timings=timings,
        pointer_ttl_s=settings.epoch_pointer_ttl_s,
        wait_for_indexes=wait_for_indexes,
    )
    store.documents.limit = settings.max_persisted_queries
    store.documents.budget = settings.max_persisted_query_bytes
    return store


def _neo4j(
    uri: str, settings: Settings, embedder: Embedder | None, timings: EpochTimings
) -> Neo4jStore:
    from graph.neo4j_adapter import Neo4jStore

    if settings.trusted_documents and not settings.redis_url:
        raise ValueError("FABRIC_TRUSTED_DOCUMENTS with Neo4j needs FABRIC_REDIS_URL")
    auth = None
    if settings.neo4j_user:
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        auth = (settings.neo4j_user, password)
    timeout = settings.statement_timeout_ms
    store = Neo4jStore(
        uri,
        auth=auth,
        database=settings.neo4j_database,
        max_connections=settings.graph_pool_size,
        statement_timeout_s=timeout / 1000 if timeout else None,
        # Waiting for a pooled connection or retrying a deadlock never outlasts a request.
        acquisition_timeout_s=min(5.0, settings.request_timeout_s / 2),
        retry_time_s=min(5.0, settings.request_timeout_s / 2),
        embedder=embedder,
        redis_url=settings.redis_url,
        epoch_timings=timings,
        pointer_ttl_s=settings.epoch_pointer_ttl_s,
    )
    store.documents.limit = settings.max_persisted_queries
    store.documents.budget = settings.max_persisted_query_bytes
    return store


async def prepare(store: GraphStore, *orgs: str) -> None:
    """Idempotent schema bootstrap for the system scope and the given organisations."""
    await store.bootstrap(SYSTEM_SCOPE)
    for org in orgs:
        await store.bootstrap(org)
