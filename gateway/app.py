"""The ASGI application (composition root): /graphql, health probes, metrics, lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from engine.domain.answer import PROJECTION_VERSION
from engine.domain.contract import Versions
from engine.ports import GraphError, GraphStore, GraphUnavailable
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.ring import ReferenceRing
from gateway import dashboard, heap, tracing
from gateway.admission import Admission
from gateway.compiled import CompiledDocuments, CompileSeen
from gateway.documents import PersistedDocuments, PersistValidated
from gateway.endpoint import GraphQLEndpoint
from gateway.errors import ShapeErrors
from gateway.graphiql import ASSETS_PATH, GraphiQLPage
from gateway.http import BodyLimit
from gateway.hub import ChangeHub
from gateway.jwt_auth import JwtVerifier
from gateway.limits import limit_extensions
from gateway.logs import RequestId
from gateway.metrics import CONTENT_TYPE, Metrics, RecordOperation
from gateway.overdue import Bounds, look_every
from gateway.settings import Settings
from gateway.stores import OpenedStore, open_store, prepare, supervise
from gateway.subscriptions import SubscriptionView
from gateway.sweeper import sweep_every
from gateway.view import GraphQLView
from resolvers.context import EngineServices, Limits
from resolvers.schema import build_schema

log = logging.getLogger("fabric.app")
READY_TIMEOUT_S = 2.0  # /readyz answers within this even when the graph does not

Startup = Callable[["Runtime"], Awaitable[None]]


@dataclass
class Runtime:
    """What the lifespan opens and every request uses; typed, never a dict."""

    settings: Settings
    opened: OpenedStore | None = None
    owns_store: bool = True
    metrics: Metrics = field(default_factory=Metrics)
    # Process-local by design (docs: scaling out): a miss costs only a search.
    ring: ReferenceRing = field(default_factory=ReferenceRing)
    services: EngineServices | None = None
    hub: ChangeHub = field(default_factory=lambda: ChangeHub(100))
    orgs_seen: set[str] = field(default_factory=set)  # what the epoch sweeper visits

    @property
    def store(self) -> GraphStore:
        if self.opened is None:
            raise GraphUnavailable("the gateway has not finished starting")
        return self.opened.store


@dataclass
class _Documents:
    """The store's documents, looked up per call: the store opens in the lifespan."""

    store: Callable[[], GraphStore]

    async def get(self, org_id: str, sha256: str) -> str | None:
        return await self.store().documents.get(org_id, sha256)

    async def put(self, org_id: str, sha256: str, text: str) -> None:
        await self.store().documents.put(org_id, sha256, text)

    async def trusted(self, sha256: str) -> str | None:
        return await self.store().documents.trusted(sha256)

    async def register(self, documents: Sequence[tuple[str, str]]) -> int:
        return await self.store().documents.register(documents)


def build_graphql(runtime: Runtime) -> tuple[GraphQLEndpoint, SubscriptionView]:
    settings = runtime.settings
    documents = PersistedDocuments(
        _Documents(lambda: runtime.store),
        enabled=settings.persisted_queries,
        trusted=settings.trusted_documents,
        max_tokens=settings.max_tokens,
    )
    traced = tracing.schema_extensions(settings)
    compiled = CompiledDocuments(
        settings.max_cost,
        runtime.metrics,
        enabled=settings.compiled_documents,
        tracing=bool(traced),
    )
    schema = build_schema(
        extensions=[
            RecordOperation,
            *limit_extensions(settings),
            ShapeErrors,
            *traced,
            PersistValidated,  # last: after every limit passed
            partial(CompileSeen, compiled),
        ],
        max_batch=settings.max_batch if settings.allow_batching else None,
    )
    compiled.bind(schema)
    limits = Limits(max_page_size=settings.max_page_size)
    view = GraphQLView(
        schema,
        lambda: runtime.store,
        limits,
        settings.graphiql,
        runtime.ring,
        lambda: runtime.services,
        GraphiQLPage(settings.graphiql_assets_dir),
        documents,
        http_cache=settings.http_cache,
        orgs_seen=runtime.orgs_seen,
        compiled=compiled,
    )
    jwt = JwtVerifier.from_settings(settings)
    sockets = SubscriptionView(
        schema,
        runtime.hub,
        lambda: runtime.store,
        jwt,
        max_connections=settings.max_subscription_connections,
        max_per_connection=settings.max_subscriptions_per_connection,
        recheck_s=settings.subscription_recheck_s,
        max_tokens=settings.max_tokens,
        max_message_bytes=settings.max_body_bytes,
        documents=documents,
        observer=runtime.metrics,
    )
    endpoint = GraphQLEndpoint(
        view,
        lambda: runtime.store,
        jwt,
        runtime.metrics,
        settings.request_timeout_s,
        settings.graphiql,
        build_timeout_s=settings.index_build_timeout_s,
    )
    return endpoint, sockets


async def engine_services(store: GraphStore, settings: Settings) -> EngineServices:
    """What investigations share: the receipt secret (one for every instance, kept in the
    graph store), the identities stamped on results, the reuse window."""
    secret = await store.keys.secret("clarification-receipts")
    embedder = getattr(store, "embedder", None)
    versions = Versions(
        projection=PROJECTION_VERSION,
        embedder=embedder.identity.stamp() if embedder else "none",
        model=None,
    )
    reuse = settings.answer_reuse_max_age
    return EngineServices(
        signer=ReceiptSigner(secret.encode()),
        versions=versions,
        reuse_max_age=timedelta(seconds=reuse) if reuse else None,
        round_trips=lambda: store.round_trips.total,
    )


def create_app(
    settings: Settings,
    *,
    store: GraphStore | None = None,
    on_startup: Startup | None = None,
) -> Starlette:
    """Build the gateway.

    settings: the configuration (see gateway.settings).
    store: an already-open graph store to use (and not close); default: open the configured one
        in the lifespan.
    on_startup: awaited once the store is ready (demo loading, printing the URL).
    """
    runtime = Runtime(
        settings=settings,
        metrics=Metrics(tracing=settings.tracing),
        hub=ChangeHub(settings.subscription_buffer),
    )
    runtime.metrics.watch_subscriptions(runtime.hub)
    if store is not None:
        runtime.opened = OpenedStore(store)
        runtime.owns_store = False
    graphql, sockets = build_graphql(runtime)
    app = Starlette(
        routes=_routes(runtime, graphql, sockets),
        middleware=_middleware(settings),
        lifespan=_lifespan(runtime, on_startup),
    )
    app.state.runtime = runtime
    return app


def _lifecycle_tasks(runtime: Runtime) -> list[asyncio.Task[None]]:
    """The epoch sweeper and the look for builds and graces past their bound, as configured."""
    settings, tasks = runtime.settings, []
    if settings.epoch_sweep_interval_s > 0:
        tasks.append(asyncio.create_task(sweep_every(
            settings.epoch_sweep_interval_s, lambda: runtime.store, runtime.orgs_seen
        )))  # fmt: skip
    if settings.epoch_watch_interval_s > 0:
        bounds = Bounds(settings.epoch_build_bound_s, settings.epoch_grace_s)
        tasks.append(asyncio.create_task(look_every(
            settings.epoch_watch_interval_s, lambda: runtime.store, runtime.orgs_seen,
            bounds, runtime.metrics.looked,
        )))  # fmt: skip
    return tasks


def _lifespan(
    runtime: Runtime, on_startup: Startup | None
) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """Open the store (unless one was given), start what runs beside requests, and stop it
    all in reverse on shutdown."""
    settings = runtime.settings

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if runtime.opened is None:
            # Pages are answered while FalkorDB builds its indexes (graph.falkor_ready).
            runtime.opened = open_store(settings, wait_for_indexes=False)
        supervisor = supervise(runtime.opened, settings)
        collector: asyncio.Task[None] | None = None
        lifecycle: list[asyncio.Task[None]] = []
        try:
            await prepare(runtime.store)
            runtime.services = await engine_services(runtime.store, settings)
            runtime.services.observer = runtime.metrics  # investigations, dataloader batches
            runtime.hub.start(runtime.store.changes)  # subscriptions' events
            # Before on_startup, which tells the world the gateway is up.
            if settings.gc_interval_s > 0:
                heap.settle()
                collector = asyncio.create_task(heap.collect_every(settings.gc_interval_s))
            lifecycle = _lifecycle_tasks(runtime)
            if on_startup is not None:
                await on_startup(runtime)
            yield
        finally:
            for task in lifecycle:
                task.cancel()
            await runtime.hub.stop()
            if collector is not None:
                collector.cancel()
                heap.release()
            if supervisor is not None:
                await supervisor.stop()  # before the store closes: no restart on shutdown
            if runtime.owns_store and runtime.opened is not None:
                await runtime.opened.close()

    return lifespan


def _routes(
    runtime: Runtime, graphql: GraphQLEndpoint, sockets: SubscriptionView
) -> list[BaseRoute]:
    settings = runtime.settings

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def readyz(request: Request) -> Response:
        try:
            # A server that stopped answering without closing its connections (paused, out of
            # memory) must turn the probe red, not hang it until the driver's reply timeout.
            async with asyncio.timeout(READY_TIMEOUT_S):
                await runtime.store.ping()
        except (GraphError, TimeoutError):
            return PlainTextResponse("graph unavailable", status_code=503)
        return PlainTextResponse("ready")

    async def metrics(request: Request) -> Response:
        return Response(runtime.metrics.render(), media_type=CONTENT_TYPE)

    routes: list[BaseRoute] = [
        Route(
            "/graphql",
            Admission(graphql, settings.max_concurrent_requests, settings.request_timeout_s),
            methods=["GET", "POST"],
        ),
        WebSocketRoute("/graphql", sockets),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
    ]
    if settings.graphiql:  # GraphiQL's static assets, when `fabric graphiql-assets` fetched them
        assets = StaticFiles(
            directory=GraphiQLPage(settings.graphiql_assets_dir).directory, check_dir=False
        )
        routes.append(Mount(f"/{ASSETS_PATH}", app=assets))
    if settings.dashboard:
        routes += dashboard.routes(GraphiQLPage(settings.graphiql_assets_dir))
    return routes


def _middleware(settings: Settings) -> list[Middleware]:
    middleware = [
        Middleware(RequestId),  # outermost: every response, even a refusal, has an id
        Middleware(BodyLimit, max_bytes=settings.max_body_bytes),
    ]
    if settings.cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=settings.cors_origins,
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type", "If-None-Match"],
                expose_headers=["X-Request-ID", "ETag"],
            )
        )
    return middleware
