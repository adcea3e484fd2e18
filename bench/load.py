"""Load: dashboards, resolutions and investigations from concurrent clients, then memory.

Usage: python bench/load.py [--seconds 300] [--max-requests 500000] [--records 20000]
                            [--probe-seconds 4] [--share 0.8] [--url URL --token TOKEN]
                            [--subscriptions 200] [--ingest-interval 1] [--ingest-batch 20]

By default starts `fabric serve --demo` (the real gateway process, which starts its embedded
FalkorDB) on a loopback port with a fresh data directory, and stops it at the end; `--url`
points it at a running gateway on this machine instead (loopback only; give `--pid` and
`--data-dir` to have its memory measured). It first finds the maximum throughput briefly
(open loop at rising rates, `--probe-seconds` per step, the highest rate still served), then
offers a steady `--share` of it (open loop: requests start on a fixed schedule, whatever the
answers take) until `--seconds` or `--max-requests`, whichever comes first. It stops by itself.

The mix, by weight: dashboard queries 6 (recently active repositories with owners and
dependencies, a subject's relationships and activity, search, the investigation list),
resolutions 3 (exact names, partial and misspelled names, absent ones), investigations 1.

The subscription mix (bench/live.py) runs alongside the steady run: `--subscriptions` open
WebSocket subscriptions to `recordsIngested` while a batch is ingested every
`--ingest-interval` seconds; its figures are under "live": errors (missing, duplicate or
resync events, closed sockets), the delivery latency from the start of the ingest request to
the client and the fan-out latency from the committed write to the client, p50 and p99.
`--subscriptions 0` leaves it out.

The last line is one JSON object: seconds, requests, errors, p50_ms, p99_ms, rss_start_mb and
rss_end_mb (the gateway and its FalkorDB server together, at the start and the end of the
steady run; the probe before it is the warm-up), each process's own figures, the rates, the
error codes seen and the stored investigation results.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as `python bench/load.py`: the repository is not on the path
    sys.path.insert(0, str(ROOT))
from bench.live import run_live, summary  # noqa: E402

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
MAX_IN_FLIGHT = 256  # open loop, but bounded: a stalled gateway cannot make this grow
PROBE_P99_S = 2.0  # a rate whose slowest answers take longer is not "served"
WEIGHTS = {"dashboard": 6, "resolve": 3, "investigate": 1}

DASHBOARD = """query Dashboard {
  subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 20) {
    totalCount edges { node { key name
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key name }
      dependencies: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 5) { key name
        owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } } } } } }"""
SUBJECT = """query Subject($key: String!) { subject(key: $key) { key name kind
  relationships(first: 10) { totalCount edges { node { type from { key } to { key } } } }
  episodes(first: 5) { edges { node { key text } } }
  activity(metric: COMMITS) { total } } }"""
SEARCH = """query Search($q: String!) { search(query: $q, first: 10) { score subject { key } } }"""
RECENT = """query Recent { investigations(first: 10) { edges { node { id outcome } } } }"""
RESOLVE = """query Resolve($ref: String!) { resolveReference(ref: $ref) { __typename
  ... on Resolved { subject { key } confidence } ... on Ambiguous { total }
  ... on NotFound { stage } } }"""
INVESTIGATE = """mutation Investigate($q: String!) { investigate(input: {question: $q}) {
  reused result { id outcome drivers { statement } limitations } } }"""
CATALOG = """query Catalog($kind: SubjectKind!) {
  subjects(filter: {kind: $kind}, first: 200) { edges { node { key name } } } }"""


@dataclass
class Catalog:
    repositories: list[tuple[str, str]]
    services: list[tuple[str, str]]
    people: list[tuple[str, str]]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    done_at: list[float] = field(default_factory=list)  # perf_counter() at each answer


def request(rng: random.Random, catalog: Catalog) -> tuple[str, dict[str, Any]]:
    """One request of the mix: (kind, GraphQL body)."""
    kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    repo = rng.choice(catalog.repositories)
    service = rng.choice(catalog.services or catalog.repositories)
    person = rng.choice(catalog.people or catalog.repositories)
    if kind == "dashboard":
        query, variables = rng.choice(
            [
                (DASHBOARD, {}),
                (SUBJECT, {"key": rng.choice([repo, service, person])[0]}),
                (SEARCH, {"q": rng.choice([repo, service])[1].split("-")[0]}),
                (RECENT, {}),
            ]
        )
    elif kind == "resolve":
        name = rng.choice([repo, service, person])[1]
        ref = rng.choice([name, name[: max(3, len(name) // 2)], name[:-1] + "x", "zq-absent"])
        query, variables = RESOLVE, {"ref": ref}
    else:
        query = INVESTIGATE
        variables = {
            "q": rng.choice(
                [
                    f"why is {repo[1]} behind?",
                    f"how is {service[1]} doing?",
                    f"who owned {repo[1]} as of 2026-03-01?",
                    "which services had incidents last week?",
                    f"what is {person[1]} working on?",
                ]
            )
        }
    return kind, {"query": query, "variables": variables}


def percentile(values: list[float], p: int) -> float:
    """The p-th percentile (nearest rank); infinity for no values."""
    if not values:
        return float("inf")
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def failure(response: httpx.Response) -> str | None:
    """The error code of a failed answer, None for a clean one."""
    if response.status_code != 200:
        return f"http_{response.status_code}"
    errors = response.json().get("errors")
    if errors:
        return str((errors[0].get("extensions") or {}).get("code", "unknown"))
    return None


async def send(client: httpx.AsyncClient, body: dict[str, Any], kind: str, tally: Tally) -> None:
    started = time.perf_counter()
    try:
        code = failure(await client.post("/graphql", json=body))
    except httpx.HTTPError as exc:
        code = type(exc).__name__
    took = time.perf_counter() - started
    tally.latencies.append(took)
    tally.by_kind.setdefault(kind, []).append(took)
    tally.done_at.append(started + took)
    tally.kinds[kind] += 1
    if code is not None:
        tally.errors[code] += 1


async def probe(
    client: httpx.AsyncClient, catalog: Catalog, seconds: float
) -> tuple[float, dict[float, float]]:
    """The highest rate the gateway sustains, offered the way the steady run offers it (open
    loop): rates rise by a fifth per step of `seconds`, from half of what one client sending
    back to back gets, until a step is not served (under 95% of it answered within the step,
    an error, or a p99 over PROBE_P99_S); when the first is not, from half of it. Also each
    step's offered and achieved rate."""
    one, _ = await steady(client, catalog, 10_000.0, seconds, 1_000_000, seed=1, in_flight=1)
    rate = max(0.5 * len(one.latencies) / seconds, 1.0)
    best = 0.0
    steps: dict[float, float] = {}
    for step in range(12):
        began = time.perf_counter()
        tally, _ = await steady(client, catalog, rate, seconds, 1_000_000, seed=2 + step)
        # Throughput: answers completed within the step, not the ones drained after it.
        achieved = sum(t <= began + seconds for t in tally.done_at) / seconds
        steps[round(rate, 1)] = round(achieved, 1)
        if achieved < 0.95 * rate or tally.errors or percentile(tally.latencies, 99) > PROBE_P99_S:
            if best or rate < 2:
                break
            rate /= 2  # not even the first rate was served (a busy moment?): look lower
            continue
        best = rate
        rate *= 1.2
    return best, steps


async def steady(
    client: httpx.AsyncClient,
    catalog: Catalog,
    rate: float,
    seconds: float,
    limit: int,
    seed: int = 42,
    in_flight: int = MAX_IN_FLIGHT,
) -> tuple[Tally, float]:
    """Open loop: request n starts at n / rate seconds (or when one of `in_flight` slots
    frees), for `seconds` or `limit` requests; then waits for the answers."""
    rng = random.Random(seed)
    tally = Tally()
    gate = asyncio.Semaphore(in_flight)
    tasks: set[asyncio.Task[None]] = set()

    def finished(task: asyncio.Task[None]) -> None:
        gate.release()
        tasks.discard(task)

    started = time.perf_counter()
    for n in range(limit):
        due = started + n / rate
        if due - started >= seconds or time.perf_counter() - started >= seconds:
            break
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        await gate.acquire()
        kind, body = request(rng, catalog)
        task = asyncio.create_task(send(client, body, kind, tally))
        task.add_done_callback(finished)
        tasks.add(task)
    await asyncio.gather(*tasks)
    return tally, time.perf_counter() - started


# --- the gateway and its memory -----------------------------------------------------------------


def rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def falkordb_pid(data_dir: Path | None) -> int | None:
    if data_dir is None:
        return None
    with contextlib.suppress(OSError, ValueError, KeyError):
        return int(json.loads((data_dir / "falkordb.json").read_text())["pid"])
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _drain(stream: IO[str]) -> None:
    for _ in stream:  # keep the pipe from filling; the gateway's log is in the data dir
        pass


def start_gateway(
    data_dir: Path, records: int, settings: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], str, str]:
    """`fabric serve --demo` on a free loopback port, with `settings` (FABRIC_* variables)
    beside the environment: (process, base URL, bearer token)."""
    port = _free_port()
    env = {**os.environ, "FABRIC_DEMO_RECORDS": str(records), "FABRIC_HOST": "127.0.0.1"}
    env.update(settings or {})
    log = (data_dir / "gateway.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.cli", "serve", "--demo", "--port", str(port),
         "--data-dir", str(data_dir), "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    token = ""
    for line in proc.stdout:  # ends when the process exits: bounded
        if line.startswith("Bearer token:"):
            token = line.split(":", 1)[1].strip()
            break
    if not token:
        raise SystemExit(f"the gateway did not start; see {data_dir / 'gateway.log'}")
    threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
    return proc, f"http://127.0.0.1:{port}", token


async def catalog_of(client: httpx.AsyncClient) -> Catalog:
    found: dict[str, list[tuple[str, str]]] = {}
    for kind in ("REPOSITORY", "SERVICE", "PERSON"):
        body = {"query": CATALOG, "variables": {"kind": kind}}
        answer = (await client.post("/graphql", json=body)).json()
        edges = answer["data"]["subjects"]["edges"]
        found[kind] = [(e["node"]["key"], e["node"]["name"]) for e in edges]
    if not found["REPOSITORY"]:
        raise SystemExit("the gateway's organisation has no repositories to ask about")
    return Catalog(found["REPOSITORY"], found["SERVICE"], found["PERSON"])


async def stored_results(client: httpx.AsyncClient) -> int:
    """How many investigation results the organisation holds (they are kept: data growth)."""
    count, after = 0, None
    query = """query($after: String) { investigations(first: 500, after: $after) {
      edges { cursor } hasNextPage endCursor } }"""
    for _ in range(10_000):
        page = await client.post("/graphql", json={"query": query, "variables": {"after": after}})
        answer = page.json()
        if "data" not in answer:
            raise SystemExit(f"cannot list investigation results: {answer}")
        connection = answer["data"]["investigations"]
        count += len(connection["edges"])
        if not connection["hasNextPage"]:
            break
        after = connection["endCursor"]
    return count


async def run(args: argparse.Namespace, base: str, token: str, pids: tuple[int | None, int | None]
              ) -> dict[str, Any]:  # fmt: skip
    # Idle connections expire before uvicorn's 5 s keep-alive closes them under a request.
    limits = httpx.Limits(
        max_connections=MAX_IN_FLIGHT, max_keepalive_connections=64, keepalive_expiry=2.0
    )
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60, limits=limits) as c:
        catalog = await catalog_of(c)
        boot = [rss_mb(p) for p in pids]
        max_rps, steps = await probe(c, catalog, args.probe_seconds)
        rate = max(args.share * max_rps, 0.5)
        results_before = await stored_results(c)
        start = [rss_mb(p) for p in pids]
        http = steady(c, catalog, rate, args.seconds, args.max_requests)
        live = None
        if args.subscriptions:
            (tally, elapsed), live_tally = await asyncio.gather(http, run_live(
                c, base, token, args.subscriptions, args.seconds, args.ingest_interval,
                args.ingest_batch))  # fmt: skip
            live = summary(live_tally, args.subscriptions, percentile)
        else:
            tally, elapsed = await http
        end = [rss_mb(p) for p in pids]
        results_after = await stored_results(c)
    ordered = sorted(tally.latencies)

    def total(values: list[float | None]) -> float | None:
        return round(sum(v for v in values if v is not None), 1) if any(values) else None

    rss_start, rss_end = total(start), total(end)
    return {
        "seconds": round(elapsed, 1),
        "requests": len(ordered),
        "errors": sum(tally.errors.values()),
        "p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
        "p99_ms": round(percentile(ordered, 99) * 1000, 1) if ordered else None,
        "rss_start_mb": rss_start,
        "rss_end_mb": rss_end,
        "rss_growth": round(rss_end / rss_start - 1, 4) if rss_start and rss_end else None,
        "gateway_rss_mb": {"boot": boot[0], "start": start[0], "end": end[0]},
        "falkordb_rss_mb": {"boot": boot[1], "start": start[1], "end": end[1]},
        "max_rps": round(max_rps, 1),
        "probe_achieved_by_offered_rps": steps,
        "target_rps": round(rate, 1),
        "achieved_rps": round(len(ordered) / elapsed, 1) if elapsed else None,
        "mix": dict(tally.kinds),
        "p50_ms_by_kind": {
            k: round(statistics.median(v) * 1000, 1) for k, v in sorted(tally.by_kind.items())
        },
        "error_codes": dict(tally.errors),
        "stored_results": {"start": results_before, "end": results_after},
        "live": live,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--max-requests", type=int, default=500_000)
    parser.add_argument("--probe-seconds", type=float, default=4.0)
    parser.add_argument("--share", type=float, default=0.8, help="of the maximum throughput")
    parser.add_argument("--records", type=int, default=20_000, help="demo records to load")
    parser.add_argument("--url", help="a running gateway (loopback only)")
    parser.add_argument("--token", help="bearer token for --url")
    parser.add_argument("--pid", type=int, help="the --url gateway's process id (for RSS)")
    parser.add_argument("--data-dir", type=Path, help="the --url gateway's data directory")
    parser.add_argument("--subscriptions", type=int, default=200, help="WebSocket subscriptions")
    parser.add_argument("--ingest-interval", type=float, default=1.0, help="s between batches")
    parser.add_argument("--ingest-batch", type=int, default=20, help="records per ingested batch")
    args = parser.parse_args()
    if not (0 < args.share <= 1 and args.seconds > 0 and args.max_requests > 0):
        parser.error("--share must be in (0, 1]; --seconds and --max-requests positive")
    if args.url:
        if urlsplit(args.url).hostname not in LOOPBACK or not args.token:
            parser.error("--url must be a loopback address, and --token is required")
        pids = (args.pid, falkordb_pid(args.data_dir))
        result = asyncio.run(run(args, args.url.rstrip("/"), args.token, pids))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            data_dir = Path(tmp)
            proc, base, token = start_gateway(data_dir, args.records)
            try:
                pids = (proc.pid, falkordb_pid(data_dir))
                result = asyncio.run(run(args, base, token, pids))
            finally:
                proc.terminate()
                proc.wait(timeout=60)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
