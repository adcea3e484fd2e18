"""What tracing costs: the dashboard query through two gateways, tracing off and on.

Usage: python bench/observability.py [--subjects 1000] [--rounds 6] [--queries 20]

Loads demo data into a fresh embedded FalkorDB and builds two gateways in this process over
the same store: one as configured by default (metrics, request ids and access logging, no
spans) and one with FABRIC_TRACING on and an OpenTelemetry SDK provider whose spans go to an
exporter that drops them (so the figure is the cost of making spans, not of shipping them).
Rounds alternate between the two so that load on a shared machine hits both alike. Requests go
through httpx's ASGI transport (no sockets), one at a time. The last line is one JSON object:
milliseconds per query (median over rounds) for each, spans per query, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from gateway.app import create_app
from gateway.auth import create_key
from gateway.settings import Settings
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from graph.projection import Projector
from sources.demo import generate

ORG = "bench"
QUERY = """query Dashboard($asOf: DateTime!) {
  subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 100, asOf: $asOf) {
    totalCount
    edges { node { key name
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name }
      dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 10) { key name
        owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name } } } } } }"""


class Counting(SpanExporter):
    def __init__(self) -> None:
        self.spans = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.spans += len(spans)
        return SpanExportResult.SUCCESS


async def run(url: str, subjects: int, rounds: int, queries: int) -> dict[str, Any]:
    exporter = Counting()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    store = FalkorStore(url)
    await store.bootstrap(SYSTEM_SCOPE)
    await store.bootstrap(ORG)
    lines = (json.dumps(r) for r in generate(int(subjects / 0.08), seed=11))
    await Projector(store.org(ORG), source="bench").run(lines)
    token, _ = await create_key(store.keys, ORG, "bench", frozenset({"read"}))
    body = {"query": QUERY, "variables": {"asOf": "2026-11-01T00:00:00Z"}}
    headers = {"Authorization": f"Bearer {token}"}
    timings: dict[str, list[float]] = {"off": [], "on": []}
    clients = {
        name: httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(Settings(tracing=on), store=store)),
            base_url="http://bench",
        )
        for name, on in (("off", False), ("on", True))
    }
    try:
        for _ in range(rounds):
            for name, client in clients.items():
                await client.post("/graphql", json=body, headers=headers)  # warm
                started = time.perf_counter()
                for _ in range(queries):
                    response = await client.post("/graphql", json=body, headers=headers)
                    if response.status_code != 200 or "errors" in response.json():
                        raise SystemExit(f"the dashboard query failed: {response.text[:300]}")
                timings[name].append((time.perf_counter() - started) / queries * 1000)
        spans_before = exporter.spans
        await clients["on"].post("/graphql", json=body, headers=headers)
        spans_per_query = exporter.spans - spans_before
    finally:
        for client in clients.values():
            await client.aclose()
        await store.close()
    off = statistics.median(timings["off"])
    on = statistics.median(timings["on"])
    return {
        "subjects": subjects,
        "tracing_off_ms": round(off, 1),
        "tracing_on_ms": round(on, 1),
        "ratio": round(on / off, 3),
        "spans_per_query": spans_per_query,
        "rounds": rounds,
        "queries_per_round": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--subjects", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--queries", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as db:
        print(json.dumps(asyncio.run(run(db.url, args.subjects, args.rounds, args.queries))))


if __name__ == "__main__":
    main()
