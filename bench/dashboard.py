"""Dashboard query: the gateway against a hand-written endpoint answering the same JSON.

Usage: python bench/dashboard.py [--subjects 10000] [--seconds 15] [--concurrency 8]
                                [--workload repositories|organisation]

Loads demo data with about N subjects into a fresh embedded FalkorDB, serves the gateway and
a baseline endpoint (hand-written Cypher, no GraphQL; it authenticates the same bearer token)
from one uvicorn process, checks both answer the same whole page, then drives each from this
process for the same time, in alternating rounds, checking again after each (`wrong_answers`:
a run with any fails). The dashboard: the 100 most recently active repositories
as of a date, each with its owning team, its dependencies and each dependency's owner. The last
line is one JSON object: gateway_rps, raw_rps, ratio, round_trips, p50 latencies, wrong_answers.

`--workload organisation` drives the dashboard's organisation page instead: its exact
documents as the page sends them, cold and revalidated (bench/organisation_page.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

ORG = "bench"
AS_OF = "2026-11-01T00:00:00Z"
QUERY = """query Dashboard($asOf: DateTime!) {
  subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 100, asOf: $asOf) {
    edges { node { key name
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name }
      dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 10) { key name
        owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name } } } } } }"""

_ADMITTED = (
    "({v}.valid_from_ns IS NULL OR {v}.valid_from_ns <= $t) AND "
    "({v}.valid_to_ns IS NULL OR {v}.valid_to_ns > $t)"
)
_PAGE = 100
# The hand-written endpoint reads the page the best direct way it can, with the structures the
# gateway keeps (the issue lets it): the repositories last active since a floor, from the
# records reached through the time slots of the window (graph.cypher.activity, format 8: ten
# minutes each, by number; the records' exact times in microseconds, graph.rows), a
# repository's kind being its key's prefix, ranked before any subject is looked up; the floor
# sized from the per-day record counts and widened until the page is whole. Then the owners,
# dependencies and their owners, in one statement.
_SLOT_US = 600_000_000
_WINDOW = """
MATCH (t:TimeSlot {org_id: $org})
WHERE t.n >= $floor_slot AND t.n <= $t_slot
MATCH (t)-[:STARTS|ENDS]->(a:SourceRecord)
UNWIND [x IN [a.start_us, a.end_us] WHERE x >= $floor_us AND x <= $t_us] AS at
WITH a.subject_key AS k, max(at) * 1000 AS last
WHERE k STARTS WITH 'repository:'
WITH k, last ORDER BY last DESC, k LIMIT $candidates
MATCH (s:Subject {org_id: $org, key: k})
"""
# Past the window: every repository ranked by its records (never active ones last, by key).
_EVERY = """
MATCH (s:Subject {org_id: $org, kind: 'repository'})
OPTIONAL MATCH (:Activity {org_id: $org, subject_key: s.key})-[:HOLDS]->(a:SourceRecord)
WITH s, max(CASE WHEN a.start_ns > $t THEN null
                 WHEN a.end_ns IS NOT NULL AND a.end_ns <= $t THEN a.end_ns
                 ELSE a.start_ns END) AS seen
WITH s, coalesce(seen, -1) AS last
"""
_RANKED = f"""
WITH s, last WHERE s.kind = 'repository' AND s.stub = false AND {_ADMITTED.format(v="s")}
RETURN s.key, s.name ORDER BY last DESC, s.key LIMIT {_PAGE}
"""
RANK_WINDOW = _WINDOW + _RANKED
RANK_EVERY = _EVERY + _RANKED
DAYS = """
MATCH (c:RecordDay {org_id: $org}) WHERE c.n > 0
RETURN c.day AS day, sum(c.n) AS n ORDER BY day DESC
"""
# The page's owners (tag 0), dependencies (1) and dependencies' owners (2) in one statement:
# [tag, key, neighbor key, neighbor name] for each admitted edge.
_START = """
UNWIND $keys AS key
MATCH (s:Subject {org_id: $org, key: key})
WITH s
"""
_EDGE = f"WHERE {_ADMITTED.format(v='r')} AND {_ADMITTED.format(v='n')}"
LOOKUPS = f"""{_START}MATCH (n:Subject)-[r:OWNS]->(s) {_EDGE}
RETURN 0 AS tag, s.key AS k, n.key AS other, n.name AS name
UNION ALL{_START}MATCH (s)-[r:DEPENDS_ON]->(n:Subject) {_EDGE}
RETURN 1 AS tag, s.key AS k, n.key AS other, n.name AS name
UNION ALL{_START}MATCH (s)-[d:DEPENDS_ON]->(dep:Subject)
WHERE {_ADMITTED.format(v="d")} AND {_ADMITTED.format(v="dep")}
WITH DISTINCT dep
MATCH (n:Subject)-[r:OWNS]->(dep) {_EDGE}
RETURN 2 AS tag, dep.key AS k, n.key AS other, n.name AS name
"""
_DAY_NS = 86_400_000_000_000
_DAYS_TTL_S = 5.0  # the counts size the window only, as the gateway's copy


def _floor(days: list[tuple[int, int]], t: int, records: float) -> int | None:
    """The time after which about `records` records of `days` (newest first) lie, up to t;
    None when all of them do not reach that many."""
    total = 0.0
    for day, n in days:
        start, end = day * _DAY_NS, min((day + 1) * _DAY_NS, t + 1)
        if start > t:
            continue
        held = n * (end - start) / _DAY_NS
        if total + held >= records:
            return int(end - (records - total) * _DAY_NS / n)
        total += held
    return None


def _neighbors(
    rows: list[list[Any]], tag: int, limit: int
) -> dict[str, list[dict[str, Any]]]:
    """Each key's neighbors of one tag, by key, the first `limit` (the gateway's order for
    one edge type)."""
    found: dict[str, dict[str, str]] = {}
    for _, key, other, name in (row for row in rows if row[0] == tag):
        found.setdefault(key, {})[other] = name
    return {k: [{"key": o, "name": n[o]} for o in sorted(n)[:limit]] for k, n in found.items()}


class Raw:
    """The hand-written endpoint's reads for one organisation's graph."""

    def __init__(self, read: Callable[..., Awaitable[list[list[Any]]]]) -> None:
        self._read = read
        self._days: list[tuple[int, int]] = []
        self._fetched = float("-inf")

    async def ranked(self, t: int) -> list[list[Any]]:
        if time.monotonic() - self._fetched > _DAYS_TTL_S:
            self._days = [(int(d), int(n)) for d, n in await self._read(DAYS)]
            self._fetched = time.monotonic()
        records, candidates = 4.0 * _PAGE, 2 * _PAGE
        while (floor := _floor(self._days, t, records)) is not None:
            floor -= floor % 1000  # microseconds, as the records' times are held
            t_us, floor_us = t // 1000, floor // 1000
            rows = await self._read(RANK_WINDOW, t=t, t_us=t_us, floor_us=floor_us,
                                    t_slot=t_us // _SLOT_US, floor_slot=floor_us // _SLOT_US,
                                    candidates=candidates)
            if len(rows) >= _PAGE:
                return rows
            records, candidates = records * 8, candidates * 8
        return await self._read(RANK_EVERY, t=t)

    async def page(self, t: int) -> dict[str, Any]:
        ranked = await self.ranked(t)
        keys = [key for key, _ in ranked]
        found = await self._read(LOOKUPS, keys=keys, t=t)
        owners, deps = _neighbors(found, 0, 1), _neighbors(found, 1, 10)
        dep_owners = _neighbors(found, 2, 1)
        edges = [
            {"node": {"key": key, "name": name, "owner": owners.get(key, []),
                      "dependencies": [{**d, "owner": dep_owners.get(d["key"], [])}
                                       for d in deps.get(key, [])]}}
            for key, name in ranked
        ]
        return {"data": {"subjects": {"edges": edges}}}


def serve(url: str, port: int) -> None:
    """The server process: the gateway app plus the baseline route, on one uvicorn."""
    import uvicorn
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from engine.domain.models import to_ns
    from gateway.app import create_app
    from gateway.auth import authenticate
    from gateway.settings import Settings
    from graph.falkor import FalkorStore

    store = FalkorStore(url)
    app = create_app(Settings(port=port, max_cost=10_000_000), store=store)
    moment = to_ns(__import__("datetime").datetime.fromisoformat(AS_OF))
    assert moment is not None

    pages: dict[str, Raw] = {}

    async def raw(request: Request) -> Response:
        principal = await authenticate(store.keys, request.headers.get("authorization"))
        if principal is None:
            return JSONResponse({"error": "unauthenticated"}, status_code=401)
        # The baseline reaches past the port on purpose: it is the hand-written query.
        org = principal.org_id
        reader = pages.get(org) or pages.setdefault(org, Raw(store.org(org)._read))
        return JSONResponse(await reader.page(moment))

    app.router.routes.append(Route("/raw", raw, methods=["POST"]))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


async def drive(url: str, body: dict[str, Any], token: str, seconds: float,
                concurrency: int) -> tuple[int, list[float]]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=60) as client:
        async def worker() -> None:
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                response = await client.post(url, json=body, headers=headers)
                response.raise_for_status()
                latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return len(latencies), latencies


async def prepare(url: str, subjects: int) -> tuple[str, int]:
    from gateway.auth import create_key
    from graph.falkor import FalkorStore
    from graph.keystore import SYSTEM_SCOPE
    from graph.projection import Projector
    from sources.demo import generate

    store = FalkorStore(url)
    await store.bootstrap(SYSTEM_SCOPE)
    await store.bootstrap(ORG)
    records = int(subjects / 0.08)  # the demo shape is about 8% subjects
    lines = (json.dumps(r) for r in generate(records, seed=11))
    await Projector(store.org(ORG), source="bench").run(lines)
    counts = dict(await store.org(ORG).counts())
    token, _ = await create_key(store.keys, ORG, "bench")
    await store.close()
    return token, counts.get("Subject", 0)


async def measure(base: str, token: str, seconds: float, concurrency: int) -> dict[str, Any]:
    gql = {"query": QUERY, "variables": {"asOf": AS_OF}, "operationName": "Dashboard"}
    via_gateway, wrong = await _compare(base, gql, token)
    if wrong:
        raise SystemExit("the gateway and the baseline disagree on the data")
    async with httpx.AsyncClient(timeout=60) as client:
        metrics = (await client.get(base + "/metrics")).text
    before = _trips(metrics)
    # Alternate short rounds of each, so that anything else the machine does in the meantime
    # weighs on both sides alike rather than on whichever ran second.
    rounds = max(2, round(seconds / 2.5))
    gateway_n = raw_n = 0
    gateway_lat: list[float] = []
    raw_lat: list[float] = []
    for _ in range(rounds):
        n, lat = await drive(base + "/graphql", gql, token, seconds / rounds, concurrency)
        gateway_n, gateway_lat = gateway_n + n, gateway_lat + lat
        n, lat = await drive(base + "/raw", {}, token, seconds / rounds, concurrency)
        raw_n, raw_lat = raw_n + n, raw_lat + lat
        wrong += (await _compare(base, gql, token))[1]  # still the same page under load
    async with httpx.AsyncClient() as client:
        after = _trips((await client.get(base + "/metrics")).text)
    return {
        "repositories": len(via_gateway["data"]["subjects"]["edges"]),
        "wrong_answers": wrong,
        "gateway_rps": round(gateway_n / seconds, 1),
        "raw_rps": round(raw_n / seconds, 1),
        "ratio": round(gateway_n / raw_n, 3),
        "round_trips": round((after[1] - before[1]) / max(after[0] - before[0], 1), 2),
        "gateway_p50_ms": round(statistics.median(gateway_lat) * 1000, 1),
        "raw_p50_ms": round(statistics.median(raw_lat) * 1000, 1),
        "concurrency": concurrency,
    }


async def _compare(base: str, gql: dict[str, Any], token: str) -> tuple[dict[str, Any], int]:
    """The gateway's page, and 1 when the baseline's differs or the page is not the whole
    page of repositories the demo data holds (expected: _PAGE of them), else 0."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=60) as client:
        via_gateway = (await client.post(base + "/graphql", json=gql, headers=headers)).json()
        via_raw = (await client.post(base + "/raw", json={}, headers=headers)).json()
    edges = via_gateway.get("data", {}).get("subjects", {}).get("edges", [])
    return via_gateway, int(via_gateway != via_raw or len(edges) != _PAGE)


def _trips(metrics: str) -> tuple[float, float]:
    count = total = 0.0
    for line in metrics.splitlines():
        if line.startswith("fabric_graph_round_trips_count"):
            count = float(line.split()[-1])
        elif line.startswith("fabric_graph_round_trips_sum"):
            total = float(line.split()[-1])
    return count, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workload", choices=["repositories", "organisation"],
                        default="repositories", help="the page measured (default: repositories)")
    parser.add_argument("--serve", nargs=2, metavar=("URL", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return

    from graph.embedded import EmbeddedServer

    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as db:
        token, subjects = asyncio.run(prepare(db.url, args.subjects))
        port = 18_000 + os.getpid() % 1000
        server = subprocess.Popen([sys.executable, __file__, "--serve", db.url, str(port)])
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(200):
                try:
                    httpx.get(base + "/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            if args.workload == "organisation":
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
                from bench import organisation_page

                result = asyncio.run(
                    organisation_page.measure(base, token, args.seconds, args.concurrency))
            else:
                result = asyncio.run(measure(base, token, args.seconds, args.concurrency))
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(json.dumps({"subjects": subjects, **result}))
    if result["wrong_answers"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
