"""GraphQL over HTTP: authentication, content negotiation, status codes, limits, timing.

Follows the GraphQL-over-HTTP specification: `application/graphql-response+json` answers a
request error (unparsable body, invalid document, bad variables) with a 4xx and no `data`;
`application/json` keeps the legacy 200. Every error body is JSON with an `extensions.code`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import orjson
from cross_web import AsyncHTTPRequestAdapter, HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry import Schema
from strawberry.asgi import GraphQL
from strawberry.exceptions import StrawberryGraphQLError
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.types import ExecutionResult

from engine.ports import GraphError, GraphStore, GraphTimeout, RoundTrips
from engine.principal import Principal
from engine.ring import ReferenceRing
from gateway import caching, logs
from gateway.auth import authenticate
from gateway.documents import DocumentRefused, PersistedDocuments
from gateway.errors import GRAPH_MESSAGES
from gateway.graphiql import GraphiQLPage
from gateway.jwt_auth import JwtVerifier
from gateway.metrics import Metrics, RequestRecord, current
from graph import deadline
from graph.observation import observe_statements, stop_observing
from resolvers.context import EngineServices, Limits, RequestContext

log = logging.getLogger("fabric.http")

GRAPHQL_RESPONSE = "application/graphql-response+json"
JSON = "application/json"
_STATUS_BY_CODE = {"GRAPH_UNAVAILABLE": 503, "TIMEOUT": 504}
# Statements carry the request's deadline to the graph server, which aborts them itself; the
# task is cancelled only this much later, so the server's own answer normally arrives first.
TIMEOUT_GRACE_S = 0.5
_ETAG = "x-fabric-etag"
# The request strawberry is parsing (its request adapter hides it).
_request: contextvars.ContextVar[Request] = contextvars.ContextVar("fabric_request")


class NotModified(Exception):
    def __init__(self, tag: str) -> None:
        super().__init__(tag)
        self.tag = tag


def negotiate(accept: str | None) -> str | None:
    """The media type to answer with, or None when the client accepts neither of ours."""
    if not accept or not accept.strip():
        return JSON  # the specification's legacy default
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept.split(",")):
        media, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        media = media.lower()
        if media in (GRAPHQL_RESPONSE, JSON):
            ranked.append((quality, -position, media))
        elif media in ("*/*", "application/*"):
            ranked.append((quality, -position, JSON))
    ranked = [r for r in ranked if r[0] > 0]
    return max(ranked)[2] if ranked else None


def error_body(code: str, message: str, **extensions: str) -> dict[str, Any]:
    return {"errors": [{"message": message, "extensions": {"code": code, **extensions}}]}


def error_response(
    status: int, code: str, message: str, media: str | None = JSON, **headers: str
) -> Response:
    # ASCII JSON: a message may echo client text, and an unpaired surrogate in it (JSON's
    # `\ud800`) has no UTF-8 form; starlette's JSONResponse would fail to encode it (a 500).
    return Response(
        json.dumps(error_body(code, message), separators=(",", ":")),
        status_code=status,
        media_type=media or JSON,
        headers=headers or None,
    )


def _errors(data: GraphQLHTTPResponse) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = list(data.get("errors") or [])  # type: ignore[arg-type]
    return errors


def _is_request_error(data: GraphQLHTTPResponse) -> bool:
    errors = _errors(data)
    return bool(errors) and data.get("data") is None and not any("path" in e for e in errors)


class GraphQLView(GraphQL[RequestContext, None]):
    """strawberry's ASGI view, with the gateway's context, negotiation and error bodies."""

    def __init__(
        self,
        schema: Schema,
        store: Callable[[], GraphStore],
        limits: Limits,
        graphiql: bool,
        ring: ReferenceRing,
        services: Callable[[], EngineServices | None],
        ide_page: GraphiQLPage | None = None,
        documents: PersistedDocuments | None = None,
        http_cache: bool = True,
        orgs_seen: set[str] | None = None,
    ) -> None:
        super().__init__(
            schema, graphql_ide="graphiql" if graphiql else None, allow_queries_via_get=True
        )
        self._store = store
        self._documents = documents
        self._http_cache = http_cache
        self._limits = limits
        self._ring = ring
        self._services = services
        self._ide_page = ide_page
        # Organisations this process served: the epoch sweeper's list (gateway/sweeper.py).
        self._orgs_seen = orgs_seen if orgs_seen is not None else set()

    def should_render_graphql_ide(self, request: Any) -> bool:
        # A persisted query over GET has no `query` parameter, only `extensions`.
        has_extensions = request.query_params.get("extensions") is not None
        return not has_extensions and super().should_render_graphql_ide(request)

    async def render_graphql_ide(self, request: Request) -> Response:
        # Our page, with its token field: assets served locally once fetched, else from a CDN.
        page = self._ide_page.html() if self._ide_page else None
        return HTMLResponse(page) if page else await super().render_graphql_ide(request)

    def encode_json(self, data: object) -> str | bytes:
        # orjson: a dashboard page's answer is thousands of small objects, which the standard
        # encoder took a tenth of the request's CPU to write. What orjson refuses (integers
        # beyond 64 bits, non-string keys in JSON values) the standard encoder still writes.
        try:
            return orjson.dumps(data)
        except TypeError:
            return super().encode_json(data)

    def decode_json(self, data: str | bytes) -> object:
        # Bodies are UTF-8 (GraphQL over HTTP). Left to guess, json.loads takes a body with
        # NULs for UTF-16/32 and fails with a UnicodeDecodeError, and deep nesting fails with
        # a RecursionError: neither is the JSONDecodeError strawberry answers with a 400.
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            decoded = json.loads(text)
        except (UnicodeDecodeError, RecursionError) as exc:
            raise json.JSONDecodeError("not UTF-8 JSON", "", 0) from exc
        items = decoded if isinstance(decoded, list) else [decoded]
        if not all(isinstance(item, dict) for item in items):
            raise HTTPException(400, "The request body must be a JSON object.")
        if not all(isinstance(item.get("operationName"), str | None) for item in items):
            raise HTTPException(400, "The GraphQL operation's `operationName` must be a string.")
        return decoded

    async def parse_http_body(
        self, request_adapter: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        """strawberry's parsing, then persisted documents and revalidation, both before
        anything executes."""
        data = await super().parse_http_body(request_adapter)
        request = _request.get()
        org = request.state.principal.org_id
        if self._documents is not None:
            if isinstance(data, list):
                return [await self._documents.resolve(org, item) for item in data]
            data = await self._documents.resolve(org, data)
        if self._http_cache and request.method == "GET" and isinstance(data, GraphQLRequestData):
            await self._revalidate(request, data)
        return data

    async def _revalidate(self, request: Request, data: GraphQLRequestData) -> None:
        principal: Principal = request.state.principal
        revision = await self._store().changes.revision(principal.org_id)
        if revision is None:
            return  # no shared revision: nothing may be tagged (gateway/caching.py)
        tag = caching.etag(data, principal, revision)
        if caching.matches(request.headers.get("if-none-match"), tag):
            raise NotModified(tag)
        request.state.sub_response.headers[_ETAG] = tag

    async def get_context(self, request: Request, response: Response) -> RequestContext:  # type: ignore[override]
        principal: Principal = request.state.principal
        store = self._store()
        org = principal.org_id
        self._orgs_seen.add(org)
        # The serving epoch, pinned for the whole request (a cached pointer: no round trip).
        graph = await store.serving(org)
        context = RequestContext(
            principal=principal,
            graph=graph,
            epochs=store.epochs(org),
            epoch_graph=lambda epoch: store.org(org, epoch),
            limits=self._limits,
            ring=self._ring,
            services=self._services(),
        )
        request.state.contexts = [*getattr(request.state, "contexts", ()), context]
        return context

    async def process_result(
        self, request: Request, result: ExecutionResult
    ) -> GraphQLHTTPResponse:
        data = await super().process_result(request, result)
        if _is_request_error(data):
            data.pop("data", None)  # a request error has no data entry
        return data

    def create_response(
        self, response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse], sub_response: Response
    ) -> Response:
        response = super().create_response(response_data, sub_response)
        media = sub_response.headers.get("x-fabric-media", JSON)
        del response.headers["x-fabric-media"]
        response.headers["content-type"] = f"{media}; charset=utf-8"
        tag = sub_response.headers.get(_ETAG)
        if tag is not None:
            del response.headers[_ETAG]
        if isinstance(response_data, dict):
            response.status_code = _status(response_data, media)
            # Only a complete answer may be revalidated: an error may be gone next time.
            if tag is not None and response.status_code == 200 and not _errors(response_data):
                response.headers.update(caching.headers(tag))
        return response

    async def get_sub_response(self, request: Request | WebSocket) -> Response:
        sub = await super().get_sub_response(request)
        sub.headers["x-fabric-media"] = request.state.media
        request.state.sub_response = sub
        return sub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        token = _request.set(request)
        try:
            response = await self.run(request)
        except NotModified as exc:
            response = Response(status_code=304, headers=caching.headers(exc.tag))
        except DocumentRefused as exc:
            response = error_response(exc.status, exc.code, exc.message, request.state.media)
        except GraphError as exc:
            # Outside any resolver: the persisted document or the revision could not be read
            # (before execution), or the graph went away under the executor itself.
            code = "TIMEOUT" if isinstance(exc, GraphTimeout) else "GRAPH_UNAVAILABLE"
            body = error_body(code, GRAPH_MESSAGES[code], failureStage="read")
            response = Response(
                json.dumps(body, separators=(",", ":")),
                status_code=_STATUS_BY_CODE[code],
                media_type=request.state.media,
            )
        except HTTPException as exc:
            code = "METHOD_NOT_ALLOWED" if exc.status_code == 405 else "BAD_REQUEST"
            status = exc.status_code
            if request.method == "GET" and "mutation" in exc.reason.lower():
                status, code = 405, "METHOD_NOT_ALLOWED"
            headers = {"Allow": "POST"} if status == 405 else {}
            response = error_response(status, code, exc.reason, request.state.media, **headers)
        except StrawberryGraphQLError as exc:
            response = error_response(400, "BAD_REQUEST", str(exc), request.state.media)
        finally:
            _request.reset(token)
            for context in getattr(request.state, "contexts", ()):
                context.release()
        await response(scope, receive, send)


def _status(data: GraphQLHTTPResponse, media: str) -> int:
    codes = {str((e.get("extensions") or {}).get("code")) for e in _errors(data)}
    if data.get("data") is None:
        for code, status in _STATUS_BY_CODE.items():
            if code in codes:
                return status
    if media == GRAPHQL_RESPONSE and _is_request_error(data):
        return 400
    return 200


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
    ) -> None:
        self.view = view
        self.store = store
        self.jwt = jwt
        self.metrics = metrics
        self.timeout_s = timeout_s
        self.graphiql = graphiql

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
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
        media = request.state.media
        # The time limit covers the API-key lookup too: a graph that stopped answering must
        # not hold a request until the driver gives up.
        ends_at = asyncio.get_running_loop().time() + self.timeout_s
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
            await JSONResponse(body, status_code=status, media_type=media)(scope, receive, send)
            return
        if principal is None:
            record.outcome = "unauthenticated"
            await error_response(
                401,
                "UNAUTHENTICATED",
                "A valid `Authorization: Bearer <token>` header is required.",
                media,
                **{"WWW-Authenticate": "Bearer"},
            )(scope, receive, send)
            return
        request.state.principal = principal
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


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413, before anything parses them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"The request body exceeds {self.max_bytes} bytes."
        await error_response(413, "PAYLOAD_TOO_LARGE", message)(scope, receive, send)
