"""The /graphql endpoint in front of strawberry's view (gateway.view): content negotiation,
authentication, the request's time limit, its metrics, logs and span.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from engine.domain.principal import Principal
from engine.ports import GraphError, GraphStore, GraphTimeout, RoundTrips
from gateway import logs
from gateway.auth import authenticate
from gateway.errors import GRAPH_MESSAGES
from gateway.http import (
    GRAPHQL_RESPONSE,
    JSON,
    RETRY_AFTER_S,
    error_body,
    error_response,
    negotiate,
)
from gateway.jwt_auth import JwtVerifier
from gateway.metrics import Metrics, RequestRecord, current
from gateway.view import GraphQLView
from graph import deadline
from graph.observation import observe_statements, stop_observing

# Statements carry the request's deadline to the graph server, which aborts them itself; the
# task is cancelled only this much later, so the server's own answer normally arrives first.
TIMEOUT_GRACE_S = 0.5


class GraphQLEndpoint:
    """Authenticates, negotiates, times and bounds every request before strawberry sees it."""

    def __init__(
        self,
        view: GraphQLView,
        store: Callable[[], GraphStore],
        jwt: JwtVerifier | None,
        metrics: Metrics,
        timeout_s: float,
        graphiql: bool,
        *,
        build_timeout_s: float | None = None,
    ) -> None:
        self.view = view
        self.store = store
        self.jwt = jwt
        self.metrics = metrics
        self.timeout_s = timeout_s
        self.build_timeout_s = max(timeout_s, build_timeout_s or timeout_s)
        self.graphiql = graphiql

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] == "HEAD":  # answered as GET would be, without the body (RFC 9110)
            scope, send = {**scope, "method": "GET"}, _headless(send)
        request = Request(scope, receive)
        media = negotiate(request.headers.get("accept"))
        request.state.media = media or JSON
        if self._wants_ide(request):
            # The IDE page is static and needs no credentials; its queries do.
            await (await self.view.render_graphql_ide(request))(scope, receive, send)
            return
        if media is None:
            response = error_response(
                406, "NOT_ACCEPTABLE", f"Accept {GRAPHQL_RESPONSE} or {JSON}."
            )
            await response(scope, receive, send)
            return
        record = RequestRecord()
        token = current.set(record)
        trips = RoundTrips.track()
        watching = observe_statements(self.metrics)  # statement latency and spans
        started = time.perf_counter()
        try:
            span_attributes = _span_attributes(request)
            with self.metrics.span(
                "graphql.request", span_attributes, server=True, carrier=request.headers
            ) as span:
                await self._handle(request, scope, receive, send, record)
                _annotate(span, record, self.metrics.operation_label(record.operation))
        finally:
            record.round_trips = trips[0]
            self.metrics.observe(record, time.perf_counter() - started)
            logs.annotate(
                operation=self.metrics.operation_label(record.operation),
                outcome=record.outcome,
                round_trips=record.round_trips,
            )
            stop_observing(watching)
            current.reset(token)

    async def _handle(
        self, request: Request, scope: Scope, receive: Receive, send: Send, record: RequestRecord
    ) -> None:
        # Every graph statement of the request carries what is left of its time limit to the
        # graph server (graph.deadline), so a timed-out request leaves no work running there.
        limit = deadline.start(self.timeout_s)
        try:
            await self._handle_limited(request, scope, receive, send, record)
        finally:
            deadline.end(limit)

    async def _handle_limited(
        self, request: Request, scope: Scope, receive: Receive, send: Send, record: RequestRecord
    ) -> None:
        # The time limit covers the API-key lookup too: a graph that stopped answering must
        # not hold a request until the driver gives up.
        ends_at = asyncio.get_running_loop().time() + self.timeout_s
        principal = await self._authenticate(request, scope, receive, send, record, ends_at)
        if principal is None:
            return
        request.state.principal = principal
        if not await self._indexes_building(principal.org_id, ends_at):
            await self._run_view(request.state.media, scope, receive, send, record, ends_at)
            return
        # The graph server is still building the organisation's indexes after a start: its
        # statements read without them, correct but slower (a page at 100k subjects took
        # 15 to 50 s on a busy machine, and users saw TIMEOUT). Such a request is given the
        # longer limit, statement limit lifted, rather than an error.
        longer = deadline.start(self.build_timeout_s, uncapped=True)
        try:
            now = asyncio.get_running_loop().time()
            ends_at = now + self.build_timeout_s
            await self._await_read_indexes(principal.org_id, now + self.build_timeout_s / 2)
            await self._run_view(request.state.media, scope, receive, send, record, ends_at)
        finally:
            deadline.end(longer)

    async def _await_read_indexes(self, org_id: str, until: float) -> None:
        # The indexes pages look up by key (subjects, their Activity nodes) are built first,
        # in seconds: a page waits for them rather than scanning a label once per key (100
        # subjects by key took 4.1 s at 100k subjects, their index built within 1.2 to 4 s).
        # Past half its limit, or on an error, it reads without them, as before.
        with contextlib.suppress(GraphError, TimeoutError):
            async with asyncio.timeout_at(until):
                await self.store().await_read_indexes(org_id)

    async def _indexes_building(self, org_id: str, ends_at: float) -> bool:
        if self.build_timeout_s <= self.timeout_s:
            return False
        try:
            async with asyncio.timeout_at(ends_at):
                return await self.store().indexes_building(org_id)
        except (GraphError, TimeoutError):
            return False  # the request itself then meets whatever the graph has

    async def _authenticate(
        self,
        request: Request,
        scope: Scope,
        receive: Receive,
        send: Send,
        record: RequestRecord,
        ends_at: float,
    ) -> Principal | None:
        """The request's principal, or None once the refusal has been sent."""
        media = request.state.media
        try:
            async with asyncio.timeout_at(ends_at):
                principal = await authenticate(
                    self.store().keys, request.headers.get("authorization"), self.jwt
                )
        except (GraphError, TimeoutError) as exc:
            timed_out = isinstance(exc, TimeoutError | GraphTimeout)
            record.outcome = "timeout" if timed_out else "graph_unavailable"
            code = "TIMEOUT" if timed_out else "GRAPH_UNAVAILABLE"
            # The API-key lookup needs the graph: the stage tells clients nothing ran yet.
            body = error_body(code, GRAPH_MESSAGES[code], failureStage="authenticate")
            status = 504 if timed_out else 503
            retry = {} if timed_out else {"Retry-After": RETRY_AFTER_S}
            response = JSONResponse(body, status_code=status, media_type=media, headers=retry)
            await response(scope, receive, send)
            return None
        if principal is None:
            record.outcome = "unauthenticated"
            await error_response(
                401,
                "UNAUTHENTICATED",
                "A valid `Authorization: Bearer <token>` header is required.",
                media,
                **{"WWW-Authenticate": "Bearer"},
            )(scope, receive, send)
        return principal

    async def _run_view(
        self,
        media: str,
        scope: Scope,
        receive: Receive,
        send: Send,
        record: RequestRecord,
        ends_at: float,
    ) -> None:
        """strawberry's view, cut off at `ends_at` (plus the grace): a 504 when nothing was
        sent yet, otherwise the response simply ends."""
        started = closed = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if not closed:  # after the time limit, nothing more reaches the client
                started = True
                await send(message)

        # The view runs as its own task so the limit holds even if some layer inside it
        # swallows a cancellation; cancelling it cancels its pending graph statements.
        task = asyncio.ensure_future(self.view(scope, receive, guarded_send))
        # The graph server aborts statements at the deadline itself; the task is cancelled
        # only a little later, so that the server's own answer normally arrives first.
        remaining = max(0.0, ends_at - asyncio.get_running_loop().time())
        done, _ = await asyncio.wait({task}, timeout=remaining + TIMEOUT_GRACE_S)
        if task in done:
            task.result()
            return
        closed = True
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        record.outcome = "timeout"
        if not started:
            await error_response(504, "TIMEOUT", GRAPH_MESSAGES["TIMEOUT"], media)(
                scope, receive, send
            )

    def _wants_ide(self, request: Request) -> bool:
        return (
            self.graphiql
            and request.method == "GET"
            and "text/html" in request.headers.get("accept", "")
            and "query" not in request.query_params
            and "extensions" not in request.query_params
        )


def _headless(send: Send) -> Send:
    async def without_body(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return without_body


def _span_attributes(request: Request) -> dict[str, str]:
    return {
        "http.request.method": request.method,
        "url.path": request.url.path,
        "fabric.request_id": logs.request_id.get() or "",
    }


def _annotate(span: Any, record: RequestRecord, operation: str) -> None:
    if span is not None:
        span.set_attribute("graphql.operation.name", operation)
        span.set_attribute("fabric.outcome", record.outcome)
