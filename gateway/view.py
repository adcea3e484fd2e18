"""strawberry's ASGI view of /graphql, with the gateway's request context, persisted
documents, revalidation (ETag, 304) and GraphQL-over-HTTP responses (gateway.http).

gateway.endpoint has authenticated the request and set its time limit before this runs.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable
from typing import Any

import orjson
from cross_web import AsyncHTTPRequestAdapter, HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry import Schema
from strawberry.asgi import GraphQL
from strawberry.exceptions import StrawberryGraphQLError
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.types import ExecutionResult

from engine.domain.principal import Principal
from engine.ports import GraphError, GraphStore, GraphTimeout
from engine.resolving.ring import ReferenceRing
from gateway import caching
from gateway.compiled import CompiledDocuments
from gateway.documents import DocumentRefused, PersistedDocuments
from gateway.errors import GRAPH_MESSAGES
from gateway.graphiql import GraphiQLPage
from gateway.http import (
    JSON,
    RETRY_AFTER_S,
    STATUS_BY_CODE,
    error_body,
    error_response,
    errors_of,
    is_request_error,
    status_of,
)
from resolvers.context import EngineServices, Limits, RequestContext

_ETAG = "x-fabric-etag"
SUBSCRIPTIONS_OVER_HTTP = (
    "Subscriptions run over WebSocket (graphql-transport-ws) on /graphql, not over HTTP."
)
# The request strawberry is parsing (its request adapter hides it).
_request: contextvars.ContextVar[Request] = contextvars.ContextVar("fabric_request")


class NotModified(Exception):
    def __init__(self, tag: str) -> None:
        super().__init__(tag)
        self.tag = tag


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
        compiled: CompiledDocuments | None = None,
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
        self._compiled = compiled

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

    async def execute_single(
        self,
        request: Request,
        request_adapter: AsyncHTTPRequestAdapter,
        sub_response: Response,
        context: RequestContext,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        """A document seen before runs from its compiled plan (gateway/compiled.py); anything
        else, and anything a plan gives back, runs strawberry's plain path."""
        if self._compiled is not None:
            result = await self._compiled.execute(request_data, context)
            if result is not None:
                return result
        return await super().execute_single(
            request, request_adapter, sub_response, context, root_value, request_data
        )

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
        if is_request_error(data):
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
            response.status_code = status_of(response_data, media)
            if response.status_code == 503:  # the graph store: try again shortly (RFC 9110)
                response.headers["Retry-After"] = RETRY_AFTER_S
            # Only a complete answer may be revalidated: an error may be gone next time.
            if tag is not None and response.status_code == 200 and not errors_of(response_data):
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
            if self._documents is not None:  # what registered and ran is stored now
                await self._documents.persist_executed()
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
                status_code=STATUS_BY_CODE[code],
                media_type=request.state.media,
            )
        except HTTPException as exc:
            code = "METHOD_NOT_ALLOWED" if exc.status_code == 405 else "BAD_REQUEST"
            status = exc.status_code
            reason = exc.reason
            if request.method == "GET" and "mutation" in reason.lower():
                status, code = 405, "METHOD_NOT_ALLOWED"
            elif reason.startswith("subscriptions are not allowed"):
                reason = SUBSCRIPTIONS_OVER_HTTP
            headers = {"Allow": "POST"} if status == 405 else {}
            response = error_response(status, code, reason, request.state.media, **headers)
        except StrawberryGraphQLError as exc:
            response = error_response(400, "BAD_REQUEST", str(exc), request.state.media)
        finally:
            _request.reset(token)
            for context in getattr(request.state, "contexts", ()):
                context.release()
        await response(scope, receive, send)
