"""WebSocket messages are bounded as request bodies are (FABRIC_MAX_BODY_BYTES), by uvicorn
(`ws_max_size`, as `fabric serve` sets it) and by the gateway's own handler, and the memory
one connection can hold follows docs/security.md's bound. Real gateway, real sockets.

A subscribe message of 15 MB passed uvicorn's 16 MiB default: ten on one socket took the
gateway from 166 to 352 MB until the socket closed.
"""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from gateway.server import WS_MAX_QUEUE
from graph.falkor import FalkorStore
from tests.gateway_fixture import Gateway, serve
from tests.test_subscriptions import _org, _until_active, _ws

MAX_BODY = 64_000
MAX_SUBSCRIPTIONS = 5
TOO_BIG = 1009  # RFC 6455: message too big
PROTOCOL = [Subprotocol("graphql-transport-ws")]


def _subscribe(n: int, size: int) -> str:
    """A valid subscribe message of about `size` bytes (the document padded with spaces)."""
    query = "subscription { recordsIngested { __typename } }"
    message = {"id": str(n), "type": "subscribe", "payload": {"query": query}}
    pad = size - len(json.dumps(message))
    message["payload"]["query"] = query[:-1] + " " * max(pad, 0) + "}"
    return json.dumps(message)


async def _open(gateway: Gateway, token: str) -> ClientConnection:
    socket = await connect(_ws(gateway.url), subprotocols=PROTOCOL, max_size=None)
    init = {"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}
    await socket.send(json.dumps(init))
    assert json.loads(await socket.recv()) == {"type": "connection_ack"}
    return socket


async def _closed_with(socket: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(socket.recv(), timeout=60)  # a bound for a hang
    return closed.value.rcvd.code if closed.value.rcvd else None


async def _serve(falkor: FalkorStore, options: dict[str, Any]) -> AsyncIterator[Gateway]:
    async for running in serve(
        falkor, options, max_body_bytes=MAX_BODY,
        max_subscriptions_per_connection=MAX_SUBSCRIPTIONS,
    ):  # fmt: skip
        yield running


@pytest.fixture(scope="module")
async def served(falkor: FalkorStore) -> AsyncIterator[Gateway]:
    """As `fabric serve` runs it."""
    async for running in _serve(falkor, {}):
        yield running


@pytest.fixture(scope="module", params=["fabric-serve", "handler-alone"])
async def bounded(
    request: pytest.FixtureRequest, served: Gateway, falkor: FalkorStore
) -> AsyncIterator[Gateway]:
    """As `fabric serve` runs it, and with uvicorn's 16 MiB default: the handler's check."""
    if request.param == "fabric-serve":
        yield served
        return
    async for running in _serve(falkor, {"ws_max_size": 2**24}):
        yield running


async def test_a_message_over_the_body_limit_closes_the_socket_with_1009(
    bounded: Gateway,
) -> None:
    _, token = await _org(bounded)
    socket = await _open(bounded, token)
    await socket.send(_subscribe(1, MAX_BODY - 100))  # within the limit: it runs
    await _until_active({bounded.url: 1})
    await socket.send(_subscribe(2, MAX_BODY + 1))
    assert await _closed_with(socket) == TOO_BIG


async def test_the_memory_one_connection_holds_is_bounded(served: Gateway) -> None:
    """docs/security.md: per connection at most (WS_MAX_QUEUE + 1) messages of
    FABRIC_MAX_BODY_BYTES in flight and FABRIC_MAX_SUBSCRIPTIONS_PER_CONNECTION documents of
    that size kept. Measured with tracemalloc in this process (the gateway's), while one
    connection keeps its subscriptions of near the limit and another sends 4 MB ones (uvicorn
    refuses each at its header, as `fabric serve` configures it: gateway/server.py)."""
    bounded = served
    _, token = await _org(bounded)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = await _open(bounded, token)
        for n in range(MAX_SUBSCRIPTIONS):
            await kept.send(_subscribe(n, MAX_BODY - 100))
        hostile = await _open(bounded, token)
        try:
            for n in range(MAX_SUBSCRIPTIONS):
                await hostile.send(_subscribe(n, 4_000_000))
        except ConnectionClosed:
            pass  # closed at the first: nothing more can be sent
        await _until_active({bounded.url: MAX_SUBSCRIPTIONS})
        await asyncio.sleep(0.5)  # whatever the hostile socket sent has been read by now
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    bound = 2 * ((WS_MAX_QUEUE + 1) + 2 * MAX_SUBSCRIPTIONS) * MAX_BODY  # two connections
    assert grown < bound + 2_000_000, (grown, bound)  # 2 MB: the sockets' own state
    await kept.close()
    await hostile.close()


# Every close code the WebSocket endpoint sends: the gateway's (1009, 1013, 4403) and
# strawberry's graphql-transport-ws handler's.
CLOSE_CODES = (1009, 1013, 4400, 4401, 4403, 4406, 4408, 4409, 4429)
SECURITY = Path(__file__).resolve().parent.parent / "docs" / "security.md"


def _undocumented() -> list[int]:
    table = SECURITY.read_text(encoding="utf-8")
    return [code for code in CLOSE_CODES if f"| WebSocket close {code}" not in table]


async def test_every_close_code_is_documented(served: Gateway) -> None:
    """A client asking for the legacy `graphql-ws` subprotocol is closed with 4406, which
    docs/security.md did not list."""
    legacy = [Subprotocol("graphql-ws")]
    async with connect(_ws(served.url), subprotocols=legacy) as socket:
        assert await _closed_with(socket) == 4406
    assert _undocumented() == []
