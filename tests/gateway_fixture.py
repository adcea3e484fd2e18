"""A real gateway: uvicorn on a loopback port, serving the session's embedded FalkorDB."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn

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
    # The session's gateways share one store, whose round trips some tests count: a lifecycle
    # look (a statement per organisation every minute) only where a test asks for one.
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
