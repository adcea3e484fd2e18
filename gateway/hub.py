"""The process's hub of change events, which GraphQL subscriptions (gateway/subscriptions.py)
read.

* One listener per process reads the change feed (the graph server's publish/subscribe) and
  hands each change to the subscriptions of its organisation only.
* Each subscription buffers at most `subscription_buffer` changes; a subscriber that falls
  behind loses what was queued and gets one `Resync` instead, so memory never grows with a
  slow client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from engine.ports.changes import ALL_ORGS, Change, ChangeFeed, ChangeKind
from resolvers.subscriptions import RESYNC

# Named as before the hub had a module of its own, so its lines read as they did.
log = logging.getLogger("fabric.subscriptions")
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
        self._connections = 0
        self._by_org: dict[str, set[Listener]] = {}
        self.watchers: list[Callable[[], None]] = []  # told when either count changes
        self._task: asyncio.Task[None] | None = None

    @property
    def connections(self) -> int:
        """Open WebSocket connections (gateway/subscriptions.py counts them)."""
        return self._connections

    @connections.setter
    def connections(self, value: int) -> None:
        self._connections = value
        self._changed()

    def _changed(self) -> None:
        for watcher in self.watchers:
            watcher()

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
        self._changed()
        try:
            yield listener
        finally:
            group = self._by_org.get(org_id)
            if group is not None:
                group.discard(listener)
                if not group:
                    del self._by_org[org_id]
            self._changed()
