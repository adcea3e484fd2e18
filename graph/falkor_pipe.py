"""A bulk load's calls to FalkorDB (graph.falkor_build), sent in order on a connection of
their own by a thread, without waiting for each answer: the loader makes the next call (reading,
checking, encoding: its core) while the server runs the ones before (the server's core).

Awaited one by one, the two took turns: on a 100k-subject demo load the loader's 28 s of CPU
and the server's 27 s (7 s of GRAPH.BULK calls, 20 s building the vectors' index) added up to
the load's 56 s. The thread spends its time in the socket's send and receive, which release
the interpreter's lock. The first error of a call is raised by the next `send` or `drain`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import redis
import redis.exceptions as redis_errors

from graph.falkor_executor import translate


class Pipe:
    """Calls to the server at `url`, in the order sent; at most DEPTH sent and not answered
    (the server has the next call while it runs one, so it never waits for the loader)."""

    DEPTH = 2

    def __init__(self, url: str, timeout_s: float | None) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=5)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="bulk-load")
        self._pending: deque[Future[None]] = deque()

    @property
    def backlog(self) -> int:
        """How many calls sent the server has not answered yet."""
        return sum(not call.done() for call in self._pending)

    async def send(self, *command: Any) -> None:
        """`command` sent once fewer than DEPTH calls are unanswered; returns as it is sent."""
        while self._pending and (self._pending[0].done() or len(self._pending) >= self.DEPTH):
            await self._answered()
        self._pending.append(self._thread.submit(self._call, command))

    def _call(self, command: tuple[Any, ...]) -> None:
        self._redis.execute_command(*command)  # type: ignore[no-untyped-call]  # redis-py: untyped

    async def _answered(self) -> None:
        """The oldest call answered; its failure raised (as a graph error)."""
        call = self._pending.popleft()
        try:
            await asyncio.wrap_future(call)
        except (redis_errors.RedisError, OSError) as exc:
            raise translate(exc) from exc

    async def drain(self) -> None:
        """Every call sent answered; the first failure raised."""
        while self._pending:
            await self._answered()

    async def close(self) -> None:
        """Nothing in flight any more, and the connection closed. A failure of a call is not
        raised here: a load that got this far without `drain` is failing already."""
        while self._pending:
            with contextlib.suppress(Exception):
                await self._answered()
        self._thread.shutdown(wait=True)
        self._redis.close()
