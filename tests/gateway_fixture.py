"""A real gateway: uvicorn on a loopback port, serving the session's embedded FalkorDB."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn

from gateway import logs
from gateway.app import create_app
from gateway.auth import create_key
from gateway.server import server_options
from gateway.settings import Settings
from graph.falkor import FalkorStore


@dataclass
class Gateway:
    url: str
    store: FalkorStore
    client: httpx.AsyncClient

    async def token(self, org: str, actor: str = "tester", scopes: frozenset[str] | None = None) -> str:
        token, _ = await create_key(self.store.keys, org, actor, scopes or frozenset({"read", "write"}))
        return token

    async def query(self, token: str, query: str, variables: dict[str, Any] | None = None,
                    **headers: str) -> httpx.Response:
        body: dict[str, Any] = {"query": query}
        if variables is not None:
            body["variables"] = variables
        return await self.client.post(
            self.url, json=body, headers={"Authorization": f"Bearer {token}", **headers}
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def serve(
    store: FalkorStore, uvicorn_options: dict[str, Any] | None = None, **settings: Any
) -> AsyncIterator[Gateway]:
    """A gateway with `settings`, given to uvicorn as `fabric serve` does (gateway.server),
    but for `uvicorn_options`."""
    port = _free_port()
    # The session's gateways share one store: a lifecycle look (a statement per organisation
    # every minute) only where a test asks for one. A test counting statements counts its
    # requests' own (request_statements), which no sweep or look beside it reaches.
    settings.setdefault("epoch_watch_interval_s", 0)
    chosen = Settings(port=port, **settings)
    app = create_app(chosen, store=store)
    # A bounded shutdown: uvicorn otherwise waits without end for every connection and
    # task to finish, and a session's teardown hung idle that way under load (twice in one
    # day, in epoll wait with no child process).
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
        timeout_graceful_shutdown=10,
        **{**server_options(chosen), **(uvicorn_options or {})},
    )
    async with running(config), httpx.AsyncClient(timeout=30) as client:
        yield Gateway(f"http://127.0.0.1:{port}/graphql", store, client)


@asynccontextmanager
async def running(config: uvicorn.Config) -> AsyncIterator[None]:
    """A uvicorn server on this event loop, from its start until the block ends."""
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
        if task.done():
            task.result()
    try:
        yield
    finally:
        server.should_exit = True
        await task


class RequestStatements(logging.Handler):
    """The graph statements each request sent, by request id, as the gateway counts them for
    the request's access line (gateway.endpoint: the request's own, and its loaders').

    A test counting a request's statements reads them here, never off the store's counter:
    the session's store is shared, and its counter also takes whatever runs beside the test
    (each gateway's epoch sweep, a statement or more for every organisation holding a key,
    every minute; other fixtures' gateways): under load a sweep lands inside a test's
    request, which counted [4, 14] where its own were [4, 4]."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[str, int] = {}
        self._arrived = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        trips, current = getattr(record, "round_trips", None), logs.request_id.get()
        if trips is not None and current is not None:
            self.sent[current] = trips
            self._arrived.set()

    async def of(self, response: httpx.Response) -> int:
        """The statements `response`'s request sent (its access line may follow the body)."""
        current = response.headers[logs.HEADER]
        while current not in self.sent:
            self._arrived.clear()
            await asyncio.wait_for(self._arrived.wait(), 60)
        return self.sent[current]


@contextmanager
def request_statements() -> Iterator[RequestStatements]:
    """Count each request's statements while the block runs (the access lines are written at
    INFO: the logger is opened to it for the block only)."""
    counted = RequestStatements()
    level = logs.access.level
    logs.access.addHandler(counted)
    logs.access.setLevel(logging.INFO)
    try:
        yield counted
    finally:
        logs.access.removeHandler(counted)
        logs.access.setLevel(level)
