"""Change events, revisions and persisted documents on a Redis-protocol server (the FalkorDB
server itself, or `FABRIC_REDIS_URL` beside Neo4j), and their single-process stand-ins.

Keys: `fabric:revision:<org>` (a counter), `fabric:bookmarks:<org>` (a list of the latest
writes' bookmarks, Neo4j's), `fabric:apq:<org>` (a hash of documents) with
`fabric:apq-used:<org>` (a sorted set by last use, for the bound) and
`fabric:apq-footprint:<org>` (the bytes they take, counted), `fabric:trusted` (a hash).
Changes are published on `fabric:changes` as `<revision>|<json>`.

Bookmarks (Neo4j): a gateway that learns of revision N, by reading it for an ETag or by a
change event, may read from a cluster member that has not applied the write behind N yet,
and would answer (and tag) stale data as N. So the writer's bookmarks travel with the
revision, set with it in one step, and with the event; the reader hands them to its store
(`BookmarkHook.learned`) before it reads, and the store's reads then wait for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Any, Protocol

import redis.asyncio as aioredis
import redis.exceptions as redis_errors

from engine.memory.changes import (
    ENTRY_BYTES,
    MemoryChangeFeed,
    MemoryDocuments,
    documents_room,
)
from engine.ports import GraphUnavailable
from engine.ports.changes import ALL_ORGS, Change, ChangeKind, batch_change

__all__ = ["batch_change"]  # and the classes below

log = logging.getLogger("fabric.changes")

CHANNEL = "fabric:changes"
RETRY_S = 0.5  # between attempts to resubscribe after the server went away
# Closing a subscription waits for its socket to close, which redis-py can wait for forever
# (redis/redis-py#3941: PubSub.aclose awaits the writer's wait_closed); seen here as a
# gateway's shutdown hung after its embedded server was killed and restarted. Bounded: the
# connection is the process's to drop after that.
CLOSE_S = 2.0
BOOKMARKS_KEPT = 16  # the latest writes' bookmarks kept per organisation
# One round trip, atomic: the revision a change carries is the one its write produced, and
# whoever reads that revision reads the bookmarks of the writes up to it (the latest few:
# writers' commits and publications may interleave, so one writer's is not enough).
# KEYS: revision, bookmarks; ARGV: channel, body, kept, bookmarks...
_PUBLISH = """
local revision = redis.call('INCR', KEYS[1])
for i = 4, #ARGV do
  redis.call('LPUSH', KEYS[2], ARGV[i])
end
if #ARGV >= 4 then
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
end
redis.call('PUBLISH', ARGV[1], revision .. '|' .. ARGV[2])
return revision
"""
# One round trip, atomic: store a document, mark it used now, then forget the least recently
# used until the organisation's documents are within both the count and the byte budget
# (bytes kept in a counter; a store without one, written before the budget, is summed once).
# KEYS: documents (hash), last use (sorted set), bytes, the earlier counters (dropped);
# ARGV: sha256, text, now, limit, room (the budget less the organisation's fixed part), entry.
# What the server holds for a document (engine.memory.changes.footprint): its bytes with the
# string's header, rounded up to the allocator's size class (jemalloc: four classes per
# doubling), and the entry's own (the hash field, the sorted set's member and node). Counted
# as the text's length, 49 documents of 200,032 bytes (9.8 MB, "within" a 10 MB budget) took
# 11.2 MB: each sat in a 229,376-byte class. The count moved to a new key with each rule (the
# text's length, then with the size class): an older count is dropped and redone.
_PUT_DOCUMENT = """
local function held(n)
  n = n + 10
  if n <= 128 then return math.ceil(n / 16) * 16 end
  local step = 1
  while step * 8 < n do step = step * 2 end
  return math.ceil(n / step) * step
end
local entry = tonumber(ARGV[6])
local function size(name)
  local n = redis.call('HSTRLEN', KEYS[1], name)
  if n == 0 then return 0 end
  return held(n) + entry
end
if redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('DEL', KEYS[4], KEYS[5])
  local total = 0
  for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
    total = total + size(name)
  end
  redis.call('SET', KEYS[3], total)
end
local before = size(ARGV[1])
local bytes = redis.call('INCRBY', KEYS[3], held(string.len(ARGV[2])) + entry - before)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local count = redis.call('ZCARD', KEYS[2])
while count > tonumber(ARGV[4]) or bytes > tonumber(ARGV[5]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  bytes = redis.call('DECRBY', KEYS[3], size(oldest[1]))
  redis.call('HDEL', KEYS[1], oldest[1])
  count = count - 1
end
return bytes
"""
_FAILURES = (redis_errors.RedisError, OSError)


def _unavailable(exc: Exception) -> GraphUnavailable:
    return GraphUnavailable(f"change feed unavailable: {type(exc).__name__}")


class BookmarkHook(Protocol):
    """A store whose readers may lag behind its writer: the bookmarks of an organisation's
    writes so far (`held`), and those another process's writes left (`learned`)."""

    async def held(self, org_id: str) -> tuple[str, ...]: ...

    async def learned(self, org_id: str, bookmarks: Sequence[str]) -> None: ...


class RedisChangeFeed:
    """Revisions in counters, changes over the server's publish/subscribe: every gateway
    process on the same server sees every writer's changes. bookmarks: the store's, to send
    with each change and take from each revision read and event (None: a store whose
    readers never lag, FalkorDB)."""

    shared = True

    def __init__(
        self, client: aioredis.Redis, url: str, bookmarks: BookmarkHook | None = None
    ) -> None:
        self._client = client
        self._url = url  # the listener's own connection, outside the statement pool
        self._bookmarks = bookmarks

    async def revision(self, org_id: str) -> int | None:
        try:
            if self._bookmarks is None:
                value = await self._client.get(f"fabric:revision:{org_id}")
            else:
                pipe = self._client.pipeline(transaction=True)  # the pair as one write left it
                pipe.get(f"fabric:revision:{org_id}")
                pipe.lrange(f"fabric:bookmarks:{org_id}", 0, -1)
                value, marks = await pipe.execute()
                await self._bookmarks.learned(org_id, [str(m) for m in marks])
        except _FAILURES as exc:
            raise _unavailable(exc) from exc
        return int(value) if value is not None else 0

    async def publish(self, change: Change) -> int:
        if self._bookmarks is not None:
            change = replace(change, bookmarks=await self._bookmarks.held(change.org_id))
        keys = (f"fabric:revision:{change.org_id}", f"fabric:bookmarks:{change.org_id}")
        try:
            revision = await self._client.eval(
                _PUBLISH, len(keys), *keys, CHANNEL, change.encode(), BOOKMARKS_KEPT,
                *change.bookmarks,
            )  # fmt: skip
        except _FAILURES as exc:
            raise _unavailable(exc) from exc
        return int(revision)

    async def listen(self) -> AsyncIterator[Change]:
        gap = False
        while True:
            client = aioredis.from_url(self._url, decode_responses=True)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                if gap:  # whatever was published while we were away is lost: say so
                    yield Change(org_id=ALL_ORGS, kind=ChangeKind.RESET)
                    gap = False
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is None or message.get("type") != "message":
                        continue
                    revision, _, body = str(message["data"]).partition("|")
                    try:
                        change = Change.decode(body, int(revision))
                    except (ValueError, KeyError, TypeError):
                        log.warning("ignored a malformed change message")
                        continue
                    if self._bookmarks is not None and change.bookmarks:
                        await self._bookmarks.learned(change.org_id, change.bookmarks)
                    yield change
            except _FAILURES as exc:
                log.warning("change feed lost its connection (%s); resubscribing", exc)
                gap = True
                await asyncio.sleep(RETRY_S)
            finally:
                await _close(pubsub, client)


async def _close(pubsub: Any, client: aioredis.Redis) -> None:
    with contextlib.suppress(*_FAILURES, TimeoutError):
        async with asyncio.timeout(CLOSE_S):
            await pubsub.aclose()
            await client.aclose()


class LocalChangeFeed(MemoryChangeFeed):
    """This process only (Neo4j without `FABRIC_REDIS_URL`): writes made here reach
    subscribers here; no revision is kept, because another process's write would not bump it.
    The in-memory store's feed, minus the claim that it sees every writer."""

    shared = False

    async def revision(self, org_id: str) -> int | None:
        return None


class RedisDocuments:
    """Persisted documents on the server: automatic persisted queries per organisation, at
    most `limit` of them and `budget` bytes each (the least recently used go first), and
    the trusted documents."""

    def __init__(
        self, client: aioredis.Redis, limit: int = 10_000, budget: int = 10_000_000
    ) -> None:
        self._client = client
        self.limit = limit
        self.budget = budget

    async def get(self, org_id: str, sha256: str) -> str | None:
        try:
            pipe = self._client.pipeline(transaction=False)
            pipe.hget(f"fabric:apq:{org_id}", sha256)
            pipe.zadd(f"fabric:apq-used:{org_id}", {sha256: time.time()}, xx=True)
            text, _ = await pipe.execute()
        except _FAILURES as exc:
            raise _unavailable(exc) from exc
        return str(text) if text is not None else None

    async def put(self, org_id: str, sha256: str, text: str) -> None:
        keys = (
            f"fabric:apq:{org_id}", f"fabric:apq-used:{org_id}", f"fabric:apq-footprint:{org_id}",
            f"fabric:apq-held:{org_id}", f"fabric:apq-bytes:{org_id}",
        )  # fmt: skip
        room = documents_room(self.budget, org_id)
        try:
            await self._client.eval(
                _PUT_DOCUMENT, len(keys), *keys, sha256, text, time.time(), self.limit, room,
                ENTRY_BYTES,
            )  # fmt: skip
        except _FAILURES as exc:
            raise _unavailable(exc) from exc

    async def trusted(self, sha256: str) -> str | None:
        try:
            text = await self._client.hget("fabric:trusted", sha256)
        except _FAILURES as exc:
            raise _unavailable(exc) from exc
        return str(text) if text is not None else None

    async def register(self, documents: Sequence[tuple[str, str]]) -> int:
        if not documents:
            return 0
        try:
            added = await self._client.hset("fabric:trusted", mapping=dict(documents))
        except _FAILURES as exc:
            raise _unavailable(exc) from exc
        return int(added)


class LocalDocuments(MemoryDocuments):
    """Persisted queries in this process only (Neo4j without `FABRIC_REDIS_URL`), as the
    in-memory store keeps them. Trusted documents need a shared server: registering or reading
    them here is refused."""

    async def trusted(self, sha256: str) -> str | None:
        raise GraphUnavailable("trusted documents need FABRIC_REDIS_URL with Neo4j")

    async def register(self, documents: Sequence[tuple[str, str]]) -> int:
        raise GraphUnavailable("trusted documents need FABRIC_REDIS_URL with Neo4j")
