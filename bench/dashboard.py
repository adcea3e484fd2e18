"""Dashboard query: the gateway against a hand-written endpoint answering the same JSON.

Usage: python bench/dashboard.py [--subjects 10000] [--seconds 15] [--concurrency 8]
                                [--workers N] [--workload repositories|organisation]
                                [--bulk] [--data-dir DIR]

Loads demo data with about N subjects into a fresh embedded FalkorDB, serves the gateway and
a baseline endpoint (/raw: no GraphQL; it authenticates the same bearer token) from one
server, and drives each from this process for the same time, in alternating rounds. The
dashboard: the 100 most recently active repositories as of a date, each with its owning
team, its dependencies and each dependency's owner.

The baseline is fair: it ranks the page through the store's own reader of the activity
structures (graph.activity: the day counts, the time-slot windows and, at a midnight, the
tie nodes; the same statements the gateway sends) and reads the neighbours in one
hand-written statement, so the ratio measures what GraphQL adds. Expected outcome of every
case: the gateway and the baseline return the same JSON, a whole page of 100 repositories,
on each page of PAGES before the run and on the measured page after every round;
`wrong_answers` counts the pages where they do not, and a run with any exits 1.

`--workers N` measures it all again with N server processes on the port (gateway.workers,
as `fabric serve --workers N`), after the one-process run; the JSON then holds both
(`workers`) and the N-process rates over the one-process ones (`gateway_scaling`).
The last line is one JSON object: gateway_rps, raw_rps, ratio, round_trips,
p50 latencies, wrong_answers, and the load average before and after (the machine may be
shared). With one server process it also holds each side's `db_p50_ms`: per page, the
database's own execution time of the organisation's statements (FalkorDB's "internal
execution time" of each reply, summed), its median over the measured pages; it leaves out
the waiting in either process, which makes it the figure least moved by a loaded machine.
Each side's `cpu_ms_per_page` is the CPU each process spent over that side's rounds per page
(bench/cpu.py, from /proc): the server (with its workers), the database, this driver, and
`others`, what the rest of the machine took meanwhile; `cpu_ratio` is the hand-written
endpoint's CPU per page over the gateway's (server and database): the ratio the page rates
would have were the cores theirs alone, which the other work of a shared machine, whose share
moves from round to round, does not move. With `--workers N`,
`gateway_scaling_bound` is the most N workers can serve over one on these `cores` at the
one-process run's cost per page: where the database's part is larger than the gateway's, a
second worker cannot gain 1.6x on 2 cores, however fast the gateway.
Measuring starts once every index of the database is built: a reopened data directory
builds them again in the background, and statements meanwhile scan (seconds at 100k).

`--workload organisation` drives the dashboard's organisation page instead: its exact
documents as the page sends them, cold and revalidated (bench/organisation_page.py).

`--bulk` loads the demo data as `fabric ingest --bulk` does (100k subjects in minutes, where
the incremental load takes most of an hour); `--data-dir DIR` keeps the database there, and a
later run on it measures without loading again (a new key each run).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from engine.domain.models import SubjectKind, to_ns
from engine.domain.windows import TimeSpan
from engine.ports import SubjectOrder, SubjectQuery

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from starlette.applications import Starlette
    from starlette.types import ASGIApp, Receive, Scope, Send

    from graph.scoped import ScopedGraph

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as `python bench/dashboard.py`: the repository is not on path
    sys.path.insert(0, str(ROOT))
from bench import cpu  # noqa: E402

READY = b"workers ready"  # what a server of several workers prints once every one serves
ORG = "bench"
AS_OF = "2026-11-01T00:00:00Z"
QUERY = """query Dashboard($asOf: DateTime!) {
  subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 100, asOf: $asOf) {
    edges { node { key name
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name }
      dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 10) { key name
        owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name } } } } } }"""

# The pages compared before the run, each expected to be the same JSON both ways and a whole
# page: the measured one (a midnight, where the demo's daily rollups tie), the same day off
# any tie (between two whole minutes), and a week and a day before it.
PAGES = (AS_OF, "2026-11-01T12:00:30Z", "2026-10-25T00:00:00Z", "2026-10-31T18:00:30Z")
_ADMITTED = (
    "({v}.valid_from_ns IS NULL OR {v}.valid_from_ns <= $t) AND "
    "({v}.valid_to_ns IS NULL OR {v}.valid_to_ns > $t)"
)
_PAGE = 100
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
    """The hand-written endpoint's reads for one organisation's graph.

    The ranking is the store's own (ScopedGraph.find_subjects, so graph.activity's day
    counts, windows and tie nodes, the very statements the gateway sends for this page, with
    the caches it keeps): the fair baseline the issue asks for, which a ranking of its own
    was not (it skipped the tie nodes, so at a million subjects it did other work than the
    gateway). The neighbours are one hand-written statement (LOOKUPS) where the gateway reads
    a level at a time: the best a direct endpoint can do over the same edges."""

    def __init__(self, graph: ScopedGraph) -> None:
        self._graph = graph

    async def ranked(self, t: int) -> list[tuple[str, str]]:
        query = SubjectQuery(
            kinds=(SubjectKind.REPOSITORY,), at=TimeSpan.point(t), order=SubjectOrder.RECENT,
            brief=True,  # as the gateway asks it: its page selects key, name and neighbours
        )  # fmt: skip
        page = await self._graph.find_subjects(query, _PAGE)
        return [(s.key, s.name) for s in page.items]

    async def page(self, t: int) -> dict[str, Any]:
        ranked = await self.ranked(t)
        keys = [key for key, _ in ranked]
        # The baseline reaches past the port on purpose: it is the hand-written query.
        found = await self._graph._read(LOOKUPS, keys=keys, t=t)
        owners, deps = _neighbors(found, 0, 1), _neighbors(found, 1, 10)
        dep_owners = _neighbors(found, 2, 1)
        edges = [
            {"node": {"key": key, "name": name, "owner": owners.get(key, []),
                      "dependencies": [{**d, "owner": dep_owners.get(d["key"], [])}
                                       for d in deps.get(key, [])]}}
            for key, name in ranked
        ]
        return {"data": {"subjects": {"edges": edges}}}


# The database's own time of the statements sent for the request being served, in ms.
_SPENT: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar(
    "bench_db_ms", default=None
)
_EXECUTION = "internal execution time:"


def _execution_ms(reply: Any) -> float:
    """FalkorDB's own execution time of one statement, from its reply's statistics."""
    for line in reply[-1] if isinstance(reply, list) and reply else ():
        text = line.decode() if isinstance(line, bytes) else str(line)
        if _EXECUTION in text.lower():
            return float(text.lower().split(_EXECUTION)[1].split()[0])
    return 0.0


class DatabaseClock:
    """Per page (request) served on /graphql and /raw: the database's own execution time of
    the statements it sent, summed (`spent`, by path). Sees the statements of the
    organisation's graphs (the system graph's key lookup, the same on both sides, is sent
    through a client selected before the clock was set)."""

    def __init__(self, app: ASGIApp, spent: dict[str, list[float]]) -> None:
        self._app = app
        self._spent = spent

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or path not in self._spent:
            await self._app(scope, receive, send)
            return
        mine: list[float] = []
        token = _SPENT.set(mine)
        try:
            await self._app(scope, receive, send)
        finally:
            _SPENT.reset(token)
            self._spent[path].append(sum(mine))


def _timed(execute: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def execute_timed(*args: Any, **kwargs: Any) -> Any:
        reply = await execute(*args, **kwargs)
        spent = _SPENT.get()
        if spent is not None:
            spent.append(_execution_ms(reply))
        return reply

    return execute_timed


def bench_app(url: str, port: int) -> Starlette:
    """The gateway app plus the baseline route (/raw), as each server process builds it."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from gateway.app import create_app
    from gateway.auth import authenticate
    from gateway.settings import Settings
    from graph.falkor import FalkorStore

    store = FalkorStore(url)
    # Every organisation graph the store selects from now on sends through the clock.
    store.client.execute_command = _timed(store.client.execute_command)
    app = create_app(Settings(port=port, max_cost=10_000_000), store=store)
    pages: dict[str, Raw] = {}
    spent: dict[str, list[float]] = {"/graphql": [], "/raw": []}

    async def raw(request: Request) -> Response:
        principal = await authenticate(store.keys, request.headers.get("authorization"))
        if principal is None:
            return JSONResponse({"error": "unauthenticated"}, status_code=401)
        body = await request.json() if await request.body() else {}
        moment = to_ns(datetime.fromisoformat(str(body.get("asOf", AS_OF))))
        assert moment is not None
        org = principal.org_id
        reader = pages.get(org) or pages.setdefault(org, Raw(await store.serving(org)))
        return JSONResponse(await reader.page(moment))

    async def database(_: Request) -> Response:
        return JSONResponse(spent)

    app.router.routes.append(Route("/raw", raw, methods=["POST"]))
    app.router.routes.append(Route("/bench/db", database, methods=["GET"]))
    app.add_middleware(DatabaseClock, spent=spent)
    return app


def serve(url: str, port: int, workers: int) -> None:
    """The server: `workers` processes of bench_app on one port (gateway.workers, as
    `fabric serve --workers N` runs them), or one plain uvicorn process."""
    import uvicorn

    from gateway import workers as gateway_workers

    config = uvicorn.Config(
        functools.partial(bench_app, url, port), factory=True, host="127.0.0.1", port=port,
        log_level="warning", workers=workers,
    )  # fmt: skip
    if workers > 1:
        gateway_workers.serve(config, ready=lambda _: print(READY.decode(), flush=True))
    else:
        uvicorn.Server(config).run()


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


async def prepare(url: str, subjects: int, bulk: bool = False) -> tuple[str, int]:
    """A key for the organisation and how many subjects it serves: the demo data loaded,
    unless the serving graph already holds subjects (a kept `--data-dir`). `bulk`: loaded as
    `fabric ingest --bulk` loads it (graph.bulk_load, into a new epoch, then served), in
    minutes where the incremental load takes most of an hour at 100k subjects."""
    from gateway.auth import create_key
    from graph import falkor_ready
    from graph.bulk_load import BulkProjector
    from graph.falkor import FalkorStore
    from graph.falkor_executor import GraphExecutor
    from graph.keystore import SYSTEM_SCOPE
    from graph.projection import Projector
    from sources.demo import generate

    store = FalkorStore(url)
    await store.bootstrap(SYSTEM_SCOPE)
    await store.bootstrap(ORG)
    counts = dict(await (await store.serving(ORG)).counts())
    if not counts.get("Subject"):
        records = int(subjects / 0.08)  # the demo shape is about 8% subjects
        lines = (json.dumps(r) for r in generate(records, seed=11))
        if bulk:
            control = store.epochs(ORG)
            epoch = (await control.begin_build()).id
            loader = store.bulk_loader(ORG, epoch)
            await BulkProjector(store.org(ORG, epoch), loader, ORG, source="bench").run(lines)
            await control.flip(epoch)
            await store.close()  # a new store: this one keeps the serving epoch it read
            store = FalkorStore(url)
        else:
            await Projector(store.org(ORG), source="bench").run(lines)
        counts = dict(await (await store.serving(ORG)).counts())
    token, _ = await create_key(store.keys, ORG, "bench")
    for name in await store.client.list_graphs():  # built again on every reopen
        await falkor_ready.await_indexes(GraphExecutor(store, name).read, name)
    await store.close()
    return token, counts.get("Subject", 0)


async def measure(
    base: str, token: str, seconds: float, concurrency: int, trips: bool = True,
    database: bool = True, meter: cpu.Meter | None = None,
) -> dict[str, Any]:
    """Every page of PAGES compared, then the gateway and the baseline driven in alternating
    rounds on the first. `trips`: read the round trips per request from /metrics (with
    workers, the whole server's: gateway/scrape.py). `database`: each side's db_p50_ms
    (one server process: its DatabaseClock holds every page). `meter`: each side's CPU
    milliseconds per page by process over its rounds (`cpu_ms_per_page`, bench/cpu.py)."""
    gql = _page(AS_OF)
    wrong = 0
    for as_of in PAGES:
        wrong += (await _compare(base, as_of, token))[1]
    via_gateway, _ = await _compare(base, AS_OF, token)
    before = await _trips(base) if trips else None
    clocked = await _database(base) if database else None
    # Alternate short rounds of each, so that anything else the machine does in the meantime
    # weighs on both sides alike rather than on whichever ran second.
    rounds = max(2, round(seconds / 2.5))
    gateway_n = raw_n = 0
    gateway_lat: list[float] = []
    raw_lat: list[float] = []
    used: dict[str, dict[str, float]] = {"gateway": {}, "raw": {}}
    for _ in range(rounds):
        mark = meter.sample() if meter else {}
        n, lat = await drive(base + "/graphql", gql, token, seconds / rounds, concurrency)
        gateway_n, gateway_lat = gateway_n + n, gateway_lat + lat
        mark = _tally(meter, mark, used["gateway"])
        n, lat = await drive(base + "/raw", {}, token, seconds / rounds, concurrency)
        raw_n, raw_lat = raw_n + n, raw_lat + lat
        _tally(meter, mark, used["raw"])
        wrong += (await _compare(base, AS_OF, token))[1]  # still the same page under load
    result = {
        "repositories": len(((via_gateway.get("data") or {}).get("subjects") or {})
                            .get("edges", [])),
        "pages_compared": len(PAGES) + rounds,
        "wrong_answers": wrong,
        "gateway_rps": round(gateway_n / seconds, 1),
        "raw_rps": round(raw_n / seconds, 1),
        "ratio": round(gateway_n / raw_n, 3) if raw_n else None,
        "gateway_p50_ms": round(statistics.median(gateway_lat) * 1000, 1) if gateway_lat else None,
        "raw_p50_ms": round(statistics.median(raw_lat) * 1000, 1) if raw_lat else None,
        "concurrency": concurrency,
    }  # fmt: skip
    if meter is not None:
        cost = {"gateway": cpu.per_page(used["gateway"], gateway_n),
                "raw": cpu.per_page(used["raw"], raw_n)}  # fmt: skip
        result["cpu_ms_per_page"] = cost
        result["cpu_ratio"] = cpu.ratio(cost["gateway"], cost["raw"])
    if clocked is not None:
        now = await _database(base)
        for side, path in (("gateway", "/graphql"), ("raw", "/raw")):
            pages = now[path][len(clocked[path]):]
            result[f"{side}_db_p50_ms"] = round(statistics.median(pages), 2) if pages else None
    if before is not None:
        after = await _trips(base)
        trips_per = (after[1] - before[1]) / max(after[0] - before[0], 1)
        result["round_trips"] = round(trips_per, 2)
    return result


def _tally(
    meter: cpu.Meter | None, mark: dict[str, float], into: dict[str, float]
) -> dict[str, float]:
    """Adds the CPU seconds spent since `mark` into `into`; the new mark."""
    if meter is None:
        return mark
    now = meter.sample()
    for name, seconds in cpu.spent(mark, now).items():
        into[name] = into.get(name, 0.0) + seconds
    return now


def _page(as_of: str) -> dict[str, Any]:
    return {"query": QUERY, "variables": {"asOf": as_of}, "operationName": "Dashboard"}


async def _compare(base: str, as_of: str, token: str) -> tuple[dict[str, Any], int]:
    """The gateway's page as of `as_of`, and 1 when the baseline's differs or the page is not
    the whole page of repositories the demo data holds (expected: _PAGE of them), else 0."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=60) as client:
        gql = _page(as_of)
        via_gateway = (await client.post(base + "/graphql", json=gql, headers=headers)).json()
        raw = await client.post(base + "/raw", json={"asOf": as_of}, headers=headers)
    edges = ((via_gateway.get("data") or {}).get("subjects") or {}).get("edges", [])
    return via_gateway, int(via_gateway != raw.json() or len(edges) != _PAGE)


async def _database(base: str) -> dict[str, list[float]]:
    async with httpx.AsyncClient(timeout=60) as client:
        found: dict[str, list[float]] = (await client.get(base + "/bench/db")).json()
    return found


async def _trips(base: str) -> tuple[float, float]:
    async with httpx.AsyncClient(timeout=60) as client:
        metrics = (await client.get(base + "/metrics")).text
    count = total = 0.0
    for line in metrics.splitlines():
        if line.startswith("fabric_graph_round_trips_count"):
            count = float(line.split()[-1])
        elif line.startswith("fabric_graph_round_trips_sum"):
            total = float(line.split()[-1])
    return count, total


def start_server(url: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """The server process (serve) on a free port, once every worker of it serves."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's packages
    command = [sys.executable, __file__, "--serve", url, str(port), "--workers", str(workers)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE)
    assert server.stdout is not None
    if workers > 1 and server.stdout.readline().strip() != READY:
        server.terminate()
        raise SystemExit("the workers did not start")
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(base + "/healthz", timeout=1)
            return server, base
        except httpx.HTTPError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the server did not start")


def load_average() -> list[float]:
    # The machine may be shared: every figure says under what load it was measured.
    return [round(x, 2) for x in os.getloadavg()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1,
                        help="also measure N server processes on the port (default: 1 only)")
    parser.add_argument("--workload", choices=["repositories", "organisation"],
                        default="repositories", help="the page measured (default: repositories)")
    parser.add_argument("--bulk", action="store_true",
                        help="load the demo data as `fabric ingest --bulk` does")
    parser.add_argument("--data-dir", type=Path, help="keep the database here; a directory "
                        "already holding the organisation's subjects is not loaded again")
    parser.add_argument("--serve", nargs=2, metavar=("URL", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.workers)
        return

    from graph.embedded import EmbeddedServer

    before = load_average()
    runs: dict[int, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(args.data_dir or Path(tmp)) as db:
        token, subjects = asyncio.run(prepare(db.url, args.subjects, args.bulk))
        for workers in sorted({1, args.workers}):
            server, base = start_server(db.url, workers)
            meter = cpu.Meter({
                "server": cpu.Process(server.pid, descendants=True),  # and its workers
                "database": cpu.Process(db.pid or 0),
                "driver": cpu.Process(os.getpid()),  # this process: the clients
            })  # fmt: skip
            try:
                if args.workload == "organisation":
                    from bench import organisation_page

                    runs[workers] = asyncio.run(
                        organisation_page.measure(base, token, args.seconds, args.concurrency))
                else:
                    runs[workers] = asyncio.run(measure(
                        base, token, args.seconds, args.concurrency, database=workers == 1,
                        meter=meter))  # fmt: skip
            finally:
                server.terminate()
                server.wait(timeout=60)
    result = {"subjects": subjects, **runs[1]}
    if args.workers > 1:
        result["wrong_answers"] = sum(r["wrong_answers"] for r in runs.values())
        result["workers"] = {str(n): _rates(r) for n, r in runs.items()}
        for side in ("gateway_rps", "raw_rps"):
            if side in runs[1]:
                scaling = runs[args.workers][side] / max(runs[1][side], 1e-9)
                result[side.replace("_rps", "_scaling")] = round(scaling, 2)
        # What the cores allow N workers over one, from the one-process run's cost per page.
        cost = runs[1].get("cpu_ms_per_page", {}).get("gateway", {})
        result["gateway_scaling_bound"] = cpu.scaling_bound(cost, args.workers, cpu.cores())
    result["cores"] = cpu.cores()
    result["load_average_before_after"] = [before, load_average()]
    print(json.dumps(result))
    if result["wrong_answers"]:
        raise SystemExit(1)


def _rates(run: dict[str, Any]) -> dict[str, Any]:
    kept = ("_rps", "_per_s", "ratio", "p50_ms", "round_trips", "cpu_ms_per_page")
    return {k: v for k, v in run.items() if k.endswith(kept)}


if __name__ == "__main__":
    main()
