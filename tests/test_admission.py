"""Admission control: requests beyond the limit wait, and are refused clearly if they cannot
start within their time limit; the gateway's graph connections are never what runs out."""

from __future__ import annotations

import asyncio

import httpx
from starlette.types import Receive, Scope, Send

from gateway.admission import Admission


class Held:
    """An endpoint that answers only when released, counting how many run at once."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.running = 0
        self.most = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        await self.release.wait()
        self.running -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


async def test_excess_requests_wait_their_turn() -> None:
    inner = Held()
    gate = Admission(inner, limit=2, wait_s=60)
    transport = httpx.ASGITransport(app=gate)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        calls = [asyncio.create_task(client.post("/graphql")) for _ in range(5)]
        for _ in range(200):
            if gate.waiting == 3:
                break
            await asyncio.sleep(0.01)
        assert inner.running == 2 and gate.waiting == 3
        inner.release.set()
        statuses = [r.status_code for r in await asyncio.gather(*calls)]
    assert statuses == [200] * 5 and inner.most == 2


async def test_a_request_that_cannot_start_in_time_is_refused_clearly() -> None:
    inner = Held()
    gate = Admission(inner, limit=1, wait_s=0.05)
    transport = httpx.ASGITransport(app=gate)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        first = asyncio.create_task(client.post("/graphql"))
        for _ in range(200):
            if inner.running:
                break
            await asyncio.sleep(0.01)
        refused = await client.post("/graphql", headers={"Accept": "application/json"})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert refused.json()["errors"][0]["extensions"]["code"] == "OVERLOADED"
        inner.release.set()
        assert (await first).status_code == 200
        assert (await client.post("/graphql")).status_code == 200  # the slot came back
