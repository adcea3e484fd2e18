"""Supervision of the embedded FalkorDB server: notice a crash, restart it with backoff.

The gateway keeps running while its server is down: statements fail as `GraphUnavailable`
(503 to clients) and `/readyz` turns red until the server answers again. The restarted server
reloads its append-only file (fsynced on every write), so nothing acknowledged is lost, and the
pooled client reconnects by itself: a pooled connection is checked when it is taken out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from graph.embedded import EmbeddedError, EmbeddedServer, cpu_ticks

log = logging.getLogger("fabric.supervisor")

Reconnect = Callable[[], Awaitable[None]]


async def _ping(sock_path: str, within: float) -> bytes:
    try:
        async with asyncio.timeout(within):
            reader, writer = await asyncio.open_unix_connection(sock_path)
            try:
                writer.write(b"PING\r\n")
                await writer.drain()
                return await reader.readline()
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
    except (OSError, TimeoutError):
        # A cancel that meets the timeout comes out of asyncio.timeout as TimeoutError (Python
        # 3.11): still a cancel, never "no answer", or the caller polls on, uncancelled.
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise asyncio.CancelledError from None
        return b""


async def answers(sock_path: str, within: float = 1.0) -> bool:
    """True when a server on the unix socket answers PING (not while it is still loading)."""
    return (await _ping(sock_path, within)).startswith(b"+PONG")


class Supervisor:
    """Watches one embedded server from the event loop and restarts it when it exits.

    server: the server this process started (the one whose data-directory lock it holds).
    interval: seconds between checks that the server process is still running.
    first_delay: seconds to wait before the first restart after a crash; each failed restart
        doubles the wait up to `max_delay`, and a restart that holds resets it.
    reconnect: awaited after every restart (drops pooled connections to the old server).
    """

    def __init__(
        self,
        server: EmbeddedServer,
        *,
        interval: float = 0.2,
        first_delay: float = 0.5,
        max_delay: float = 30.0,
        reconnect: Reconnect | None = None,
    ) -> None:
        self.server = server
        self.interval = interval
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.reconnect = reconnect
        self.crashes = 0
        self.restarting = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="falkordb-watch")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            if self.server.alive():
                continue
            self.crashes += 1
            log.error("the embedded FalkorDB server exited; restarting it")
            self.restarting = True
            try:
                await self._restart_with_backoff()
            finally:
                self.restarting = False

    async def _restart_with_backoff(self) -> None:
        delay = self.first_delay
        while True:
            await asyncio.sleep(delay)
            try:
                await self._restart()
            except EmbeddedError as exc:
                delay = min(delay * 2, self.max_delay)
                log.error("restarting the embedded FalkorDB server failed (%s); next try in "
                          "%.1fs", exc, delay)  # fmt: skip
                continue
            log.warning("the embedded FalkorDB server is back (restart %d)", self.server.restarts)
            return

    async def _restart(self) -> None:
        # Spawned here, on the event loop's thread, never in a worker thread: the server is
        # told to exit when the thread that started it ends (see graph.embedded).
        self.server.respawn()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.server.startup_timeout
        cpu = None
        while not (reply := await _ping(self.server.socket, within=0.5)).startswith(b"+PONG"):
            if not self.server.alive():
                raise EmbeddedError("the FalkorDB server exited while restarting")
            before, cpu = cpu, cpu_ticks(self.server.pid) if self.server.pid else None
            working = cpu is not None and before is not None and cpu > before
            if reply.startswith(b"-LOADING") or working:
                # Reading a large data set back: progress, not silence. Giving up here would
                # start the reading over, forever.
                deadline = loop.time() + self.server.startup_timeout
            elif loop.time() > deadline:
                raise EmbeddedError("the restarted FalkorDB server did not answer in time")
            await asyncio.sleep(0.05)
        self.server.restarts += 1
        if self.reconnect is not None:
            await self.reconnect()
