"""GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol): the endpoint that
authenticates and bounds connections. The process's hub of change events they read is
gateway/hub.py.

* A connection authenticates in `connection_init` (payload `{"Authorization": "Bearer ..."}`,
  or the upgrade request's header), with the same API keys and JWTs as HTTP, and is checked
  again every `subscription_recheck_s`: a revoked key or an expired JWT closes it with 4403.
* With FABRIC_TRUSTED_DOCUMENTS, only registered documents subscribe, as over HTTP.
* At most `max_subscription_connections` per process (more: close 1013, try again later) and
  `max_subscriptions_per_connection` operations per connection; only subscriptions run here.
* A message is at most `max_message_bytes` (FABRIC_MAX_BODY_BYTES, as a request body):
  a longer one closes the connection with 1009 (message too big) before it is decoded.
  `fabric serve` also gives uvicorn that limit (gateway/server.py), which then refuses the
  frame itself, with the same code, before reading it.
* An operation that cannot run gets an `error` message for its id, with the `extensions.code`
  HTTP would give (a syntax error, an invalid document, an unknown operation name, a limit):
  the connection and its other subscriptions go on. Only a message the protocol cannot read
  (not JSON, not a subscribe message's shape) closes it, with 4400, as the protocol says.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from datetime import timedelta
from json import JSONDecodeError
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode, OperationType
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from strawberry import Schema
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLRequestData
from strawberry.http.exceptions import NonJsonMessageReceived, NonTextMessageReceived
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    ConnectionInitMessage,
    SubscribeMessage,
)
from strawberry.types.unset import UnsetType

from engine.domain.principal import Principal
from engine.ports import GraphError, GraphStore
from gateway.auth import authenticate
from gateway.compiled import Observer
from gateway.documents import DocumentRefused, PersistedDocuments
from gateway.errors import GRAPH_MESSAGES, shape
from gateway.hub import ChangeHub
from gateway.jwt_auth import JwtVerifier
from gateway.limits import parse_document
from resolvers.subscriptions import SocketContext

OVERLOADED = 1013  # WebSocket "try again later": graphql-ws clients retry it
TOO_BIG = 1009  # WebSocket "message too big" (RFC 6455)
FORBIDDEN = 4403
BAD_REQUEST = "BAD_REQUEST"  # as HTTP names a request it cannot run (an unknown operation)
TOO_MANY_SUBSCRIPTIONS = "TOO_MANY_SUBSCRIPTIONS"
ONLY_SUBSCRIPTIONS = "Only subscriptions run over WebSocket; send queries over HTTP."
# A subscribe payload's members and the types the protocol gives them (null: left out).
_PAYLOAD = (
    ("query", str, "a string"),
    ("variables", dict, "an object"),
    ("operationName", str, "a string"),
    ("extensions", dict, "an object"),
)


def _token(context: SocketContext, websocket: WebSocket) -> str | None:
    params = context.connection_params or {}
    for name in ("Authorization", "authorization"):
        value = params.get(name)
        if isinstance(value, str):
            return value if " " in value else f"Bearer {value}"
    return websocket.headers.get("authorization")


def _coded(message: str, code: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": code})


def _malformed(message: SubscribeMessage) -> str | None:
    """Why a subscribe message is not one the protocol defines (an `id` string and a `payload`
    object whose members have their types), or None."""
    payload: Any = message.get("payload")
    if not isinstance(message.get("id"), str) or not isinstance(payload, dict):
        return "Invalid subscribe message"
    for member, kind, said in _PAYLOAD:
        if not isinstance(payload.get(member), kind | None):
            return f"Invalid subscribe message: `{member}` must be {said} or null"
    return None


class BoundedSocket(ASGIWebSocketAdapter):
    """strawberry's WebSocket adapter, closing with 1009 on a message over the view's
    `max_message_bytes` instead of decoding it."""

    async def iter_json(self, *, ignore_parsing_errors: bool = False) -> AsyncGenerator[object]:
        assert isinstance(self.view, SubscriptionView)
        limit = self.view.max_message_bytes
        try:
            while self.ws.application_state != WebSocketState.DISCONNECTED:
                text = await self.ws.receive_text()
                size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
                if size > limit:
                    await self.close(TOO_BIG, f"Message over {limit} bytes")
                    return
                try:
                    yield self.view.decode_json(text)
                except JSONDecodeError as exc:
                    if not ignore_parsing_errors:
                        raise NonJsonMessageReceived from exc
        except KeyError as exc:
            raise NonTextMessageReceived from exc
        except WebSocketDisconnect:
            pass


class SocketHandler(BaseGraphQLTransportWSHandler[SocketContext, None]):
    """strawberry's graphql-transport-ws handler, bounded per process, re-checking
    credentials, and running subscriptions only."""

    view: SubscriptionView

    async def handle_connection_init(self, message: ConnectionInitMessage) -> None:
        hub = self.view.hub
        if not self.connection_init_received and hub.connections >= self.view.max_connections:
            await self.websocket.close(code=OVERLOADED, reason="Too many connections")
            return
        await super().handle_connection_init(message)
        if self.connection_acknowledged and self.context.principal is not None:
            hub.connections += 1
            self._counted = True
            self._recheck = asyncio.create_task(self._recheck_credentials())

    async def _recheck_credentials(self) -> None:
        view = self.view
        while True:
            await asyncio.sleep(view.recheck_s)
            try:
                principal = await view.authenticate(self.context.credentials)
            except GraphError:
                continue  # the key store is unreachable: no events flow either; check again
            first = self.context.principal
            if principal is None or first is None or principal.org_id != first.org_id:
                await self.websocket.close(code=FORBIDDEN, reason="Forbidden")
                return

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        if not self.connection_acknowledged:
            await super().handle_subscribe(message)  # closes 4401, as the protocol says
            return
        problem = _malformed(message)
        if problem is not None:
            await self.handle_invalid_message(problem)
            return
        if message["id"] in self.operations:
            await super().handle_subscribe(message)  # closes 4409, as the protocol says
            return
        if not await self._trusted(message):
            return
        query = message["payload"].get("query")
        if not isinstance(query, str):
            await self.handle_invalid_message("Invalid subscribe message: no query")
            return
        refusal = self._refusal(query, message["payload"].get("operationName"))
        if refusal is not None:
            await self.send_message(
                {"id": message["id"], "type": "error", "payload": [refusal.formatted]}
            )
            return
        # Subscriptions are documents no plan covers: counted with the plain path's other
        # requests, so the fallbacks metric accounts for every document run.
        if self.view.observer is not None:
            self.view.observer.compiled_fallback("subscription")
        await super().handle_subscribe(message)

    def _refusal(self, query: str, name: str | None) -> GraphQLError | None:
        """Why the operation cannot run, told as HTTP tells it (same code and message), or
        None. Strawberry would close the whole connection on a syntax error or an unknown
        operation name; validation, cost and variables are checked as it runs, and their
        errors shaped (gateway.errors.ShapeErrors)."""
        try:
            document = parse_document(query, self.view.max_tokens)
        except GraphQLError as error:
            return shape(error)
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        chosen = [o for o in operations if name is None or (o.name and o.name.value == name)]
        if not operations:
            return _coded("Can't get GraphQL operation type", BAD_REQUEST)
        if not chosen:
            return _coded(f'Unknown operation named "{name}".', BAD_REQUEST)
        if any(o.operation is not OperationType.SUBSCRIPTION for o in chosen):
            return _coded(ONLY_SUBSCRIPTIONS, BAD_REQUEST)
        limit = self.max_subscriptions_per_connection
        if limit is not None and len(self.operations) >= limit:
            return _coded("Subscription limit reached", TOO_MANY_SUBSCRIPTIONS)
        return None

    async def _trusted(self, message: SubscribeMessage) -> bool:
        """With FABRIC_TRUSTED_DOCUMENTS, only registered documents subscribe (by their text
        or by `extensions.persistedQuery`), and the registered text is what runs."""
        documents = self.view.documents
        principal = self.context.principal
        if documents is None or not documents.trusted or principal is None:
            return True
        payload: dict[str, Any] = dict(message.get("payload") or {})
        extensions = payload.get("extensions")
        query = payload.get("query")
        data = GraphQLRequestData(
            query=query if isinstance(query, str) else None,
            variables=None,
            operation_name=None,
            extensions=extensions if isinstance(extensions, dict) else None,
        )
        try:
            resolved = await documents.resolve(principal.org_id, data)
        except DocumentRefused as exc:
            await self._refuse(message["id"], exc.message, exc.code)
            return False
        except GraphError:
            code = "GRAPH_UNAVAILABLE"
            await self._refuse(message["id"], GRAPH_MESSAGES[code], code)
            return False
        message["payload"]["query"] = resolved.query or ""
        return True

    async def _refuse(self, operation: str, text: str, code: str) -> None:
        error = _coded(text, code)
        await self.send_message({"id": operation, "type": "error", "payload": [error.formatted]})

    async def shutdown(self) -> None:
        recheck = getattr(self, "_recheck", None)
        if recheck is not None:
            recheck.cancel()
        if getattr(self, "_counted", False):
            self.view.hub.connections -= 1
            self._counted = False
        await super().shutdown()


class SubscriptionView(GraphQL[SocketContext, None]):
    """The WebSocket side of /graphql (HTTP requests go to gateway.view.GraphQLView)."""

    graphql_transport_ws_handler_class = SocketHandler
    websocket_adapter_class = BoundedSocket

    def __init__(
        self,
        schema: Schema,
        hub: ChangeHub,
        store: Callable[[], GraphStore],
        jwt: JwtVerifier | None,
        *,
        max_connections: int,
        max_per_connection: int,
        recheck_s: float,
        max_tokens: int,
        max_message_bytes: int = 1_000_000,
        documents: PersistedDocuments | None = None,
        observer: Observer | None = None,
    ) -> None:
        super().__init__(
            schema,
            graphql_ide=None,
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
            connection_init_wait_timeout=timedelta(seconds=10),
            max_subscriptions_per_connection=max_per_connection,
        )
        self.hub = hub
        self._store = store
        self._jwt = jwt
        self.max_connections = max_connections
        self.recheck_s = recheck_s
        self.max_tokens = max_tokens
        self.max_message_bytes = max_message_bytes
        self.documents = documents
        self.observer = observer

    async def authenticate(self, header: str | None) -> Principal | None:
        return await authenticate(self._store().keys, header, self._jwt)

    async def get_context(
        self, request: Request | WebSocket, response: Response | WebSocket
    ) -> SocketContext:
        return SocketContext(events=self.hub, transport=request)

    async def on_ws_connect(self, context: SocketContext) -> UnsetType:
        header = _token(context, context.transport)
        try:
            principal = await self.authenticate(header)
        except GraphError:
            principal = None
        if principal is None:
            raise ConnectionRejectionError({"code": "UNAUTHENTICATED"})
        context.principal = principal
        context.credentials = header
        return UnsetType()
