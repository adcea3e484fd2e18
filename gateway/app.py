"""The ASGI application: /graphql behind bearer authentication, health probes, lifespan."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send
from strawberry.asgi import GraphQL

from engine.principal import Principal
from gateway.auth import authenticate
from gateway.errors import GRAPH_MESSAGES, ShapeErrors
from gateway.settings import Settings
from gateway.stores import OpenedStore, open_store, prepare
from graph.port import GraphError, GraphStore, GraphUnavailable
from resolvers.context import Limits, RequestContext
from resolvers.schema import build_schema

log = logging.getLogger("fabric.app")

Startup = Callable[["Runtime"], Awaitable[None]]


@dataclass
class Runtime:
    """What the lifespan opens and every request uses; typed, never a dict."""

    settings: Settings
    opened: OpenedStore | None = None
    owns_store: bool = True
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def store(self) -> GraphStore:
        if self.opened is None:
            raise GraphUnavailable("the gateway has not finished starting")
        return self.opened.store


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return JSONResponse(body, status_code=status, headers=headers)


class FabricGraphQL(GraphQL[RequestContext, None]):
    def __init__(self, runtime: Runtime) -> None:
        settings = runtime.settings
        super().__init__(
            build_schema(extensions=[ShapeErrors]),
            graphql_ide="graphiql" if settings.graphiql else None,
            allow_queries_via_get=True,
        )
        self.runtime = runtime

    async def get_context(self, request: Request, response: Response) -> RequestContext:  # type: ignore[override]
        principal: Principal = request.state.principal
        limits = Limits(max_page_size=self.runtime.settings.max_page_size)
        return RequestContext(
            principal=principal, graph=self.runtime.store.org(principal.org_id), limits=limits
        )


class AuthenticatedGraphQL:
    """Every GraphQL request needs a valid bearer token; the GraphiQL page itself does not."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.graphql = FabricGraphQL(runtime)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        if self._wants_ide(request):
            await self.graphql(scope, receive, send)
            return
        try:
            principal = await authenticate(
                self.runtime.store.keys, request.headers.get("authorization")
            )
        except GraphError:
            response = _error(503, "GRAPH_UNAVAILABLE", GRAPH_MESSAGES["GRAPH_UNAVAILABLE"])
            await response(scope, receive, send)
            return
        if principal is None:
            response = _error(
                401,
                "UNAUTHENTICATED",
                "A valid `Authorization: Bearer <token>` header is required.",
                {"WWW-Authenticate": "Bearer"},
            )
            await response(scope, receive, send)
            return
        request.state.principal = principal
        await self.graphql(scope, receive, send)

    def _wants_ide(self, request: Request) -> bool:
        return (
            self.runtime.settings.graphiql
            and request.method == "GET"
            and "text/html" in request.headers.get("accept", "")
            and "query" not in request.query_params
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
    runtime = Runtime(settings=settings)
    if store is not None:
        runtime.opened = OpenedStore(store)
        runtime.owns_store = False

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if runtime.opened is None:
            runtime.opened = open_store(settings)
        try:
            await prepare(runtime.store)
            if on_startup is not None:
                await on_startup(runtime)
            yield
        finally:
            if runtime.owns_store and runtime.opened is not None:
                await runtime.opened.close()

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def readyz(request: Request) -> Response:
        try:
            await runtime.store.ping()
        except GraphError:
            return PlainTextResponse("graph unavailable", status_code=503)
        return PlainTextResponse("ready")

    graphql = AuthenticatedGraphQL(runtime)
    routes = [
        Route("/graphql", graphql, methods=["GET", "POST"]),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.runtime = runtime
    return app
