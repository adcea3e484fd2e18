"""The subscription mix of bench/load.py: open WebSocket subscriptions while ingesting.

`subscribers` clients (one graphql-transport-ws connection each, like that many open
dashboards) subscribe to `recordsIngested` for the bench's own source; every `interval`
seconds one batch of `batch` records is ingested through the `project` mutation, under a
source name unique to the batch. Expected outcome, for every subscriber: each batch's event
exactly once, with the batch's count, and no `Resync`, error or closed socket. Anything else
counts as an error (a missing event, a duplicate, a resync, a refusal, a close). Two latencies:
`delivery` from the start of the ingest request to the subscriber's receipt of the event (the
write included), and `fanout` from the batch being written (the event's `at`, stamped by the
writer; same machine, same clock) to the receipt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

SUBSCRIPTION = """subscription Live { recordsIngested {
  __typename ... on RecordsIngested { source count at } ... on Resync { reason } } }"""
PROJECT = """mutation Load($records: [JSON!]!, $source: String!) {
  project(records: $records, source: $source) { accepted invalid } }"""
PROTOCOL = "graphql-transport-ws"


@dataclass
class LiveTally:
    sent: dict[str, float] = field(default_factory=dict)  # source -> ingest start
    received: list[dict[str, float]] = field(default_factory=list)  # per subscriber
    fanout_s: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    ingest_s: list[float] = field(default_factory=list)


async def _subscriber(url: str, token: str, index: int, tally: LiveTally,
                      ready: asyncio.Event, count: list[int], wanted: int) -> None:  # fmt: skip
    got = tally.received[index]
    try:
        async with connect(url, subprotocols=[PROTOCOL], open_timeout=60,  # type: ignore[list-item]
                           max_size=2**22) as ws:  # fmt: skip
            await _handshake(ws, token)
            count[0] += 1
            if count[0] == wanted:
                ready.set()
            async for raw in ws:
                _take(json.loads(raw), got, tally)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a bench reports what broke, and goes on
        tally.errors[f"socket:{type(exc).__name__}"] += 1


async def _handshake(ws: ClientConnection, token: str) -> None:
    await ws.send(json.dumps({"type": "connection_init",
                              "payload": {"Authorization": f"Bearer {token}"}}))  # fmt: skip
    ack = json.loads(await ws.recv())
    if ack.get("type") != "connection_ack":
        raise ConnectionError(f"no connection_ack: {ack}")
    await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIPTION}}))


def _take(message: dict[str, Any], got: dict[str, float], tally: LiveTally) -> None:
    now, wall = time.perf_counter(), time.time()
    if message.get("type") == "ping":
        return
    if message.get("type") != "next":
        tally.errors[f"message:{message.get('type')}"] += 1
        return
    event = (message["payload"].get("data") or {}).get("recordsIngested") or {}
    if event.get("__typename") != "RecordsIngested":
        tally.errors[f"event:{event.get('__typename') or 'error'}"] += 1
        return
    source = event["source"]
    if not source.startswith("live-"):
        return  # someone else's ingest (the investigations of the HTTP mix write results)
    if source in got:
        tally.errors["duplicate"] += 1
    got[source] = now
    tally.fanout_s.append(wall - datetime.fromisoformat(event["at"]).timestamp())


async def _ingest(client: httpx.AsyncClient, n: int, batch: int, tally: LiveTally) -> None:
    source = f"live-{n}"
    records = [{"type": "subject", "key": f"project:live-{n}-{i}", "kind": "project",
                "name": f"live {n} {i}"} for i in range(batch)]  # fmt: skip
    started = time.perf_counter()
    tally.sent[source] = started
    try:
        answer = await client.post("/graphql", json={
            "query": PROJECT, "variables": {"records": records, "source": source}})  # fmt: skip
        body = answer.json()
        if answer.status_code != 200 or body.get("errors"):
            tally.errors["ingest"] += 1
            del tally.sent[source]
    except httpx.HTTPError:
        tally.errors["ingest"] += 1
        del tally.sent[source]
    tally.ingest_s.append(time.perf_counter() - started)


async def run_live(client: httpx.AsyncClient, base: str, token: str, subscribers: int,
                   seconds: float, interval: float, batch: int) -> LiveTally:  # fmt: skip
    """Open the subscriptions, ingest for `seconds`, wait for stragglers, close."""
    url = base.replace("http://", "ws://") + "/graphql"
    tally = LiveTally(received=[{} for _ in range(subscribers)])
    ready, count = asyncio.Event(), [0]
    tasks = [asyncio.create_task(_subscriber(url, token, i, tally, ready, count, subscribers))
             for i in range(subscribers)]  # fmt: skip
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(60):
            await ready.wait()
    await asyncio.sleep(0.5)  # the last subscribe message reaches the server
    started, n = time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        await _ingest(client, n, batch, tally)
        n += 1
        await asyncio.sleep(max(0.0, started + n * interval - time.perf_counter()))
    with contextlib.suppress(TimeoutError):  # every event is in, or 10 s have passed
        async with asyncio.timeout(10):
            while sum(len(g) for g in tally.received) < subscribers * len(tally.sent):  # noqa: ASYNC110 - many writers
                await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def summary(
    tally: LiveTally, subscribers: int, percentile: Callable[[list[float], int], float]
) -> dict[str, Any]:
    delays = [got[source] - at for got in tally.received
              for source, at in tally.sent.items() if source in got]  # fmt: skip
    missing = subscribers * len(tally.sent) - len(delays)
    errors = Counter(tally.errors)
    if missing:
        errors["missing"] += missing
    return {
        "subscriptions": subscribers,
        "batches": len(tally.sent),
        "events_expected": subscribers * len(tally.sent),
        "events_delivered": len(delays),
        "errors": sum(errors.values()),
        "error_codes": dict(errors),
        "delivery_p50_ms": round(percentile(delays, 50) * 1000, 1) if delays else None,
        "delivery_p99_ms": round(percentile(delays, 99) * 1000, 1) if delays else None,
        "fanout_p50_ms": round(percentile(tally.fanout_s, 50) * 1000, 1)
        if tally.fanout_s else None,
        "fanout_p99_ms": round(percentile(tally.fanout_s, 99) * 1000, 1)
        if tally.fanout_s else None,
        "ingest_p50_ms": round(percentile(tally.ingest_s, 50) * 1000, 1)
        if tally.ingest_s else None,
    }
