"""Admission control for /graphql: at most N requests execute at once, the rest wait their turn.

Without it a burst beyond capacity runs everything interleaved: each request holds graph
connections while it waits for the CPU, the connection pool runs dry, and requests fail with
a misleading GRAPH_UNAVAILABLE while the graph is fine. With it, excess requests wait here,
holding nothing, and the backlog drains at full speed once the burst passes. A request that
cannot start within the per-request time limit is refused with 503 OVERLOADED and
`Retry-After`, never queued without bound. Health probes and metrics are not behind it.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.http import error_response, negotiate


class Admission:
    """app: the /graphql endpoint; limit: requests executing at once; wait_s: longest wait."""

    def __init__(self, app: ASGIApp, limit: int, wait_s: float) -> None:
        self.app = app
        self.wait_s = wait_s
        self._slots = asyncio.Semaphore(limit)
        self.waiting = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.waiting += 1
        try:
            async with asyncio.timeout(self.wait_s):
                await self._slots.acquire()
        except TimeoutError:
            headers = dict(scope.get("headers") or [])
            media = negotiate(headers.get(b"accept", b"").decode("latin-1"))
            message = "The gateway is at capacity; retry shortly."
            response = error_response(503, "OVERLOADED", message, media, **{"Retry-After": "1"})
            await response(scope, receive, send)
            return
        finally:
            self.waiting -= 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._slots.release()
