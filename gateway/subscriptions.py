"""GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol): the process's hub
of change events, and the endpoint that authenticates and bounds connections.

* One listener per process reads the change feed (the graph server's publish/subscribe) and
  hands each change to the subscriptions of its organisation only.
* Each subscription buffers at most `subscription_buffer` changes; a subscriber that falls
  behind loses what was queued and gets one `Resync` instead, so memory never grows with a
  slow client.
* A connection authenticates in `connection_init` (payload `{"Authorization": "Bearer ..."}`,
  or the upgrade request's header), with the same API keys and JWTs as HTTP, and is checked
  again every `subscription_recheck_s`: a revoked key or an expired JWT closes it with 4403.
* With FABRIC_TRUSTED_DOCUMENTS, only registered documents subscribe, as over HTTP.
* At most `max_subscription_connections` per process (more: close 1013, try again later) and
  `max_subscriptions_per_connection` operations per connection; only subscriptions run here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
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
from engine.ports.changes import ALL_ORGS, Change, ChangeFeed, ChangeKind
from engine.principal import Principal
from gateway.auth import authenticate
from gateway.documents import DocumentRefused, PersistedDocuments
from gateway.errors import GRAPH_MESSAGES
from gateway.jwt_auth import JwtVerifier
from resolvers.subscriptions import RESYNC, SocketContext

log = logging.getLogger("fabric.subscriptions")
OVERLOADED = 1013  # WebSocket "try again later": graphql-ws clients retry it
FORBIDDEN = 4403
# A stop waits this long for the change-feed reader to end once cancelled: a shutdown must
# not hang on a feed whose close never returns (graph.changes.CLOSE_S says why one may not).
STOP_S = 5.0


class Listener:
    """One subscription's bounded buffer of changes."""

    def __init__(self, size: int) -> None:
        self._items: deque[Change] = deque()
        self._size = size
        self._dropped = False
        self._ready = asyncio.Event()

    def offer(self, change: Change) -> None:
        if self._dropped:
            return  # a resync is already owed: nothing queued before it matters
        if len(self._items) >= self._size:
            self._items.clear()
            self._dropped = True
        else:
            self._items.append(change)
        self._ready.set()

    async def __anext__(self) -> Change | Any:
        while not self._items and not self._dropped:
            self._ready.clear()
            await self._ready.wait()
        if self._dropped:
            self._dropped = False
            return RESYNC
        return self._items.popleft()

    def __aiter__(self) -> Listener:
        return self


class ChangeHub:
    """The process's one reader of the change feed, and the subscriptions it serves."""

    def __init__(self, buffer: int) -> None:
        self.buffer = buffer
        self.connections = 0
        self._by_org: dict[str, set[Listener]] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def subscriptions(self) -> int:
        return sum(len(listeners) for listeners in self._by_org.values())

    def start(self, feed: ChangeFeed) -> None:
        self._task = asyncio.create_task(self._pump(feed))

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        done, _ = await asyncio.wait({self._task}, timeout=STOP_S)
        if not done:  # left to the process's exit, said
            log.warning("the change feed reader did not stop within %.0f s; left behind", STOP_S)
            return
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    async def _pump(self, feed: ChangeFeed) -> None:
        while True:
            try:
                async for change in feed.listen():
                    self.dispatch(change)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug or a driver surprise must not end every subscription
                log.exception("change feed listener failed; restarting")
                self.dispatch(Change(org_id=ALL_ORGS, kind=ChangeKind.RESET))
                await asyncio.sleep(1.0)

    def dispatch(self, change: Change) -> None:
        if change.org_id == ALL_ORGS:
            targets = [listener for group in self._by_org.values() for listener in group]
        else:
            targets = list(self._by_org.get(change.org_id, ()))
        for listener in targets:
            listener.offer(change)

    @contextlib.asynccontextmanager
    async def subscribe(self, org_id: str) -> AsyncIterator[AsyncIterator[Change | Any]]:
        listener = Listener(self.buffer)
        self._by_org.setdefault(org_id, set()).add(listener)
        try:
            yield listener
        finally:
            group = self._by_org.get(org_id)
            if group is not None:
                group.discard(listener)
                if not group:
                    del self._by_org[org_id]


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
