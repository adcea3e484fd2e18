"""GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol): the endpoint that
authenticates and bounds connections. The process's hub of change events they read is
gateway/hub.py.

* A connection authenticates in `connection_init` (payload `{"Authorization": "Bearer ..."}`,
  or the upgrade request's header), with the same API keys and JWTs as HTTP, and is checked
  again every `subscription_recheck_s`: a revoked key or an expired JWT closes it with 4403.
* With FABRIC_TRUSTED_DOCUMENTS, only registered documents subscribe, as over HTTP.
* At most `max_subscription_connections` per process (more: close 1013, try again later) and
  `max_subscriptions_per_connection` operations per connection; only subscriptions run here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry import Schema
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.http import GraphQLRequestData
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import (
    ConnectionInitMessage,
    SubscribeMessage,
)
from strawberry.types.unset import UnsetType

from engine.ports import GraphError, GraphStore
from engine.principal import Principal
from gateway.auth import authenticate
from gateway.documents import DocumentRefused, PersistedDocuments
from gateway.errors import GRAPH_MESSAGES
from gateway.hub import ChangeHub
from gateway.jwt_auth import JwtVerifier
from resolvers.subscriptions import SocketContext

OVERLOADED = 1013  # WebSocket "try again later": graphql-ws clients retry it
FORBIDDEN = 4403


def _token(context: SocketContext, websocket: WebSocket) -> str | None:
    params = context.connection_params or {}
    for name in ("Authorization", "authorization"):
        value = params.get(name)
        if isinstance(value, str):
            return value if " " in value else f"Bearer {value}"
    return websocket.headers.get("authorization")


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
        if self.connection_acknowledged and not await self._trusted(message):
            return
        try:
            document = parse(message["payload"]["query"])
        except (GraphQLError, KeyError, TypeError):
            document = None
        operations = [
            d for d in (document.definitions if document else ())
            if isinstance(d, OperationDefinitionNode)
        ]  # fmt: skip
        if operations and any(op.operation is not OperationType.SUBSCRIPTION for op in operations):
            error = GraphQLError("Only subscriptions run over WebSocket; send queries over HTTP.")
            await self.send_message(
                {"id": message["id"], "type": "error", "payload": [error.formatted]}
            )
            return
        await super().handle_subscribe(message)

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
        error = GraphQLError(text, extensions={"code": code})
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
        documents: PersistedDocuments | None = None,
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
        self.documents = documents

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
