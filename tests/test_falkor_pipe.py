"""A bulk load's calls (graph.falkor_pipe) go out without waiting for the answer of the one
before, so the loader makes its next call while the server runs the last; they run in the
order sent, at most Pipe.DEPTH unanswered, and a call's failure is raised by the next send
or drain, never lost. Blocking list pops stand in for long calls: a call stays unanswered
until this test pushes, which no clock decides."""

from __future__ import annotations

import uuid

import pytest
from redis.asyncio import Redis

from engine.ports import GraphQueryError
from graph.falkor import FalkorStore
from graph.falkor_pipe import Pipe


async def test_a_call_sent_is_not_waited_for_and_calls_run_in_order(falkor: FalkorStore) -> None:
    key = f"pipe:{uuid.uuid4().hex}"
    pipe = Pipe(falkor.url, 60)
    redis = Redis.from_url(falkor.url, decode_responses=True)
    try:
        await pipe.send("BLPOP", key, 0)  # answered only once something is pushed
        await pipe.send("RPUSH", key + ":order", "second")
        assert pipe.backlog == 2  # both sent, neither answered: send did not wait
        await redis.rpush(key, "go")
        await pipe.drain()
        assert pipe.backlog == 0
        assert await redis.lrange(key + ":order", 0, -1) == ["second"]
        assert await redis.exists(key) == 0  # the pop ran first, and took what was pushed
    finally:
        await pipe.close()
        await redis.delete(key, key + ":order")
        await redis.aclose()


async def test_a_third_call_waits_for_the_first_answer(falkor: FalkorStore) -> None:
    key = f"pipe:{uuid.uuid4().hex}"
    pipe = Pipe(falkor.url, 60)
    redis = Redis.from_url(falkor.url, decode_responses=True)
    try:
        await pipe.send("BLPOP", key, 0)
        await pipe.send("RPUSH", key + ":order", "second")
        await redis.rpush(key, "go")
        await pipe.send("RPUSH", key + ":order", "third")  # the first answered before it
        assert pipe.backlog <= Pipe.DEPTH
        await pipe.drain()
        assert await redis.lrange(key + ":order", 0, -1) == ["second", "third"]
    finally:
        await pipe.close()
        await redis.delete(key, key + ":order")
        await redis.aclose()


async def test_a_failed_call_is_raised_by_the_next_send_or_drain(falkor: FalkorStore) -> None:
    pipe = Pipe(falkor.url, 60)
    name = f"pipe-{uuid.uuid4().hex}"
    try:
        await pipe.send("GRAPH.QUERY", name, "RETURN nosuchfunction(1)")
        with pytest.raises(GraphQueryError):
            await pipe.drain()
        await pipe.send("GRAPH.QUERY", name, "RETURN nosuchfunction(1)")
        with pytest.raises(GraphQueryError):  # whichever hears of it first
            await pipe.send("PING")
            await pipe.drain()
        await pipe.send("PING")  # a call after the failure heard goes as before
        await pipe.drain()
    finally:
        await pipe.close()
