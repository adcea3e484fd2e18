"""Consistency across gateways on a Neo4j cluster: the bookmarks of a write travel with the
revision it produced and with its change event (graph/changes.py), so a gateway that learns
of revision N reads, and tags its answer N, only once the member it reads from has applied
the write behind N. Without them gateway B could read a secondary that had not caught up
and cache a stale body under the new ETag.

Revisions and events go through a real Redis-protocol server (the embedded FalkorDB's); the
reads are answered by a scripted driver recording the bookmarks each session sends
(tests/neo4j_fakes.py). That the server waits for them is Neo4j's causal consistency
(https://neo4j.com/docs/operations-manual/current/clustering/introduction/#causal-consistency).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.ports.changes import Change, ChangeKind
from graph.epochs import scope_of
from graph.neo4j_adapter import Neo4jStore
from tests.neo4j_fakes import ScriptedDriver

URI = "neo4j://db.invalid:7687"
READ = "MATCH (s:Subject {org_id: $org}) RETURN count(s)"


@pytest.fixture
async def gateways(falkor_server: Any) -> AsyncIterator[tuple[Neo4jStore, Neo4jStore, str]]:
    writer = Neo4jStore(URI, redis_url=falkor_server.url)
    reader = Neo4jStore(URI, redis_url=falkor_server.url)
    await reader.driver.close()
    reader.driver = ScriptedDriver(lambda statement, attempt: [[0]])  # type: ignore[assignment]
    org = f"t-{secrets.token_hex(4)}"
    # What a committed write leaves in its session's bookmark manager (the driver's doing).
    await writer.bookmarks({"org": org}).update_bookmarks((), ["FB:write-behind-n"])
    yield writer, reader, org
    assert writer._redis is not None
    await writer._redis.delete(f"fabric:revision:{org}", f"fabric:bookmarks:{org}")
    await writer.close()
    await reader.close()


async def test_a_gateway_that_reads_a_revision_reads_after_the_write_behind_it(
    gateways: tuple[Neo4jStore, Neo4jStore, str],
) -> None:
    writer, reader, org = gateways
    revision = await writer.changes.publish(Change(org_id=org, kind=ChangeKind.BATCH))
    assert await reader.changes.revision(org) == revision  # what an ETag is made of
    await reader._executor.run(READ, {"org": scope_of(org, 2)})  # the serving epoch's scope
    driver: Any = reader.driver
    assert "FB:write-behind-n" in driver.attempts[0].bookmarks
    # Another organisation's reads do not wait for it.
    await reader._executor.run(READ, {"org": "other-org"})
    assert driver.attempts[1].bookmarks == ()


async def test_a_change_event_carries_the_bookmarks_of_its_write(
    gateways: tuple[Neo4jStore, Neo4jStore, str],
) -> None:
    writer, reader, org = gateways
    events = reader.changes.listen()

    async def ours() -> Change:
        # Another test's served app may publish its own organisation's changes on the same
        # server (the whole suite on 74e55c4): only this organisation's is awaited.
        async for change in events:
            if change.org_id == org:
                return change
        raise AssertionError("the change feed ended")

    received = asyncio.ensure_future(ours())
    await asyncio.sleep(0)  # subscribed before the publication (retried below until it is)
    for _ in range(100):
        await writer.changes.publish(Change(org_id=org, kind=ChangeKind.BATCH))
        done, _ = await asyncio.wait({received}, timeout=0.05)
        if done:
            break
    change = received.result()
    await events.aclose()
    assert change.org_id == org and "FB:write-behind-n" in change.bookmarks
    await reader._executor.run(READ, {"org": org})  # a subscriber's re-read
    driver: Any = reader.driver
    assert "FB:write-behind-n" in driver.attempts[0].bookmarks
