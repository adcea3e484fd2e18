"""Scale: the same measurements at growing data sizes, each in a fresh data directory.

Usage: python bench/scale.py [--sizes 10000 100000 1000000] [--seconds 10] [--dir /tmp]

For each size (subjects; the demo shape has about 12.5 records per subject) it streams the
demo generator into a fresh embedded FalkorDB (nothing is held in memory but the subjects,
which the question sets are drawn from), stops the server, reopens the directory with
`fabric serve`, and then measures:

* dashboard (bench/dashboard.py's query and its hand-written endpoint, served by one
  uvicorn process): p50 with one client, requests per second with 8, and their ratio; and
  the gateway's p50 with one client as of a time no record is at (`..._off_tie`: the
  benchmark's as-of is a midnight, where the demo's daily rollups tie);
* resolve: p50/p95 of `Resolver.resolve` on subject names (exact handles, one per subject
  drawn), in process;
* investigate: p50/p95 of the engine on bench/investigate.py's questions, plus the cohort
  questions ("which services had incidents last week?", ...) on their own;
* re-ingest of the same input (`reingest_s`, and its ratio to the first load's seconds): a
  check of each element's stored digest (graph.unchanged), `reingest_unchanged` the records
  it found as they were (expected: every one);
* ingest seconds and records/s (generation and encoding included: the input is streamed;
  the store is the one `fabric ingest` opens, with the default embedder, so every subject's
  vector is written as on a user's directory);
* bulk load seconds, records/s and the loader's peak RSS: the same input written to a file
  and loaded by `fabric ingest FILE --bulk` (a subprocess; `bulk_s` is the load's own time
  as it reports it, `bulk_command_s` the whole command's) into a new epoch, which is then
  discarded; `bulk_same_counts` says whether every label and relationship type has the count
  the incremental load made (expected: true);
* reopen as a user restarts: `fabric serve --data-dir D` (a subprocess) until /readyz
  (`reopen_s`), until the first whole dashboard page (`first_page_s`, asked as soon as
  /readyz is green, and again until whole: `page_errors_while_opening` counts the failures a
  user would have seen) and until every index of every graph is built (`indexes_built_s`);
  the measurements below run against that server;
* data directory size after the stop, and the server's RSS after the
  load, at its peak while loading (append-only file rewrites fork it) and once measured;
  this process's own peak RSS (it keeps the subjects' names for the question sets), and
  the load averages before and after (the machine may be shared).

Expected outcome of every generated case: each investigate question is judged as
bench/investigate.py judges it (`wrong` counts the misses, and must be 0); each resolve case
is a subject's exact name and must resolve to a subject of that name, or ask (a name shared
by several subjects: `ambiguous` counts them); `wrong` counts resolutions to another name.
The last line printed is one JSON object: a row per size and the growth factors from the
smallest size to the largest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

from bench import dashboard
from bench.investigate import judge, questions

ORG = dashboard.ORG
ROOT = Path(__file__).resolve().parent.parent
OFF_TIE = "2026-11-01T12:00:30Z"  # between two whole minutes: no record starts or ends at it
COHORT = (
    "which services had incidents last week?",
    "which services had incidents in the last 30 days?",
    "which repositories had the most pull requests last week?",
)


def _handles_only(subject: dict[str, Any]) -> dict[str, Any]:
    from engine.domain.text import SEARCH_ATTRIBUTES

    kept = {k: subject[k] for k in ("key", "kind", "name")}
    kept.update((k, subject[k]) for k in ("aliases", "previous_names") if subject.get(k))
    attributes = subject.get("attributes") or {}
    wanted = SEARCH_ATTRIBUTES.get(subject["kind"], ())
    if identifying := {a: attributes[a] for a in wanted if attributes.get(a) is not None}:
        kept["attributes"] = identifying
    return kept


def _ms(values: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    p50 = statistics.median(values)
    return {"p50_ms": round(p50 * 1000, 1), "p95_ms": round(cuts[94] * 1000, 1)}


def rss_mb(pid: int | None, field: str = "VmRSS") -> float | None:
    """A process's resident memory now (VmRSS) or at its peak so far (VmHWM)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def load_average() -> list[float]:
    # The machine is shared: a figure measured under load says so.
    return [round(x, 2) for x in os.getloadavg()]


def dir_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


async def load(
    url: str, subjects: int, seed: int
) -> tuple[str, list[dict[str, Any]], float, int, dict[str, Any]]:
    """The load, then the same input loaded again (nothing changed: `reingest_*`)."""
    from engine.domain.embedding import HashingEmbedder
    from gateway.auth import create_key
    from graph.falkor import FalkorStore
    from graph.keystore import SYSTEM_SCOPE
    from graph.projection import Projector
    from sources.demo import generate

    kept: list[dict[str, Any]] = []
    keep = True

    def lines() -> Any:
        for record in generate(int(subjects / 0.08), seed=seed):
            if record["type"] == "subject" and keep:
                # Only what the question sets read (names and handles): at a million
                # subjects the whole records held about 0.9 GB in this process.
                kept.append(_handles_only(record))
            yield json.dumps(record, separators=(",", ":"))

    # The store `fabric ingest` opens: the default embedder writes every subject's vector,
    # whose index a reopen builds again (graph.indexes), as a user's directory holds it.
    store = FalkorStore(url, embedder=HashingEmbedder(128))
    await store.bootstrap(SYSTEM_SCOPE)
    await store.bootstrap(ORG)
    started = time.perf_counter()
    report = await Projector(store.org(ORG), source="bench").run(lines())
    seconds = time.perf_counter() - started
    keep = False
    started = time.perf_counter()
    again = await Projector(store.org(ORG), source="bench").run(lines())
    reingest_s = time.perf_counter() - started
    reingest = {
        "reingest_s": round(reingest_s, 1),
        "reingest_ratio": round(reingest_s / seconds, 2),
        "reingest_unchanged": again.unchanged,
    }
    token, _ = await create_key(store.keys, ORG, "bench")
    await store.close()
    return token, kept, seconds, report.accepted, reingest


# The labels and relationship types a load writes (an organisation's epoch 0 also holds its
# lifecycle and results): the same counts of each in the two graphs, or `bulk_same_counts`
# is false. tests/test_bulk_load.py compares them node by node and edge by edge.
LOADED = ("Subject", "Embedding", "Episode", "SourceRecord", "Activity", "RecordDay",
          "TimeSlot", "Checkpoint", "Format", "EmbeddingMeta")  # fmt: skip
COUNT_LABEL = "MATCH (n:{label}) RETURN count(n)"
COUNT_TYPES = "MATCH ()-[r]->() RETURN type(r), count(r)"


async def _counts(url: str, graph: str) -> dict[str, int]:
    from falkordb.asyncio import FalkorDB

    client = FalkorDB.from_url(url)
    try:
        g = client.select_graph(graph)
        out = {}
        for label in LOADED:  # a constant: never input
            out[label] = (await g.ro_query(COUNT_LABEL.format(label=label))).result_set[0][0]
        for rel_type, n in (await g.ro_query(COUNT_TYPES)).result_set:
            out[f"-{rel_type}-"] = n
        return out
    finally:
        await client.aclose()


def bulk_load(url: str, subjects: int, seed: int, parent: Path) -> dict[str, Any]:
    """The same input loaded again by `fabric ingest FILE --bulk` (a subprocess, as a user
    runs it) into a new epoch of the organisation: its seconds, records/s and peak RSS, and
    whether every label and relationship type has the count the incremental load made; the
    epoch is then discarded and deleted (a reopen would build its indexes too)."""
    import resource

    from sources.demo import generate

    path = parent / f"bulk-{subjects}.ndjson"
    with path.open("w") as out:
        for record in generate(int(subjects / 0.08), seed=seed):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "gateway.cli", "ingest", str(path), "--bulk", "--org", ORG,
               "--source", "bench", "--graph-uri", url]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    path.unlink()
    if done.returncode:
        raise SystemExit(f"fabric ingest --bulk failed: {done.stderr[-2000:]}")
    report = json.loads(done.stdout.splitlines()[-1])
    epoch = int(report["epoch"])
    plain = asyncio.run(_counts(url, f"fabric:org:{ORG}"))
    bulk = asyncio.run(_counts(url, f"fabric:org:{ORG}@{epoch}"))
    asyncio.run(_discard(url, epoch))
    # The load's own time, as `ingest_s` is (reading the input to the checkpoint, indexes
    # built); the command's adds starting Python and opening the store.
    return {
        "bulk_s": round(float(report["seconds"]), 1),
        "bulk_records_per_s": round(int(report["accepted"]) / float(report["seconds"])),
        "bulk_command_s": round(seconds, 1),
        "bulk_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "bulk_same_counts": plain == bulk,
        "bulk_counts": bulk,
    }


async def _discard(url: str, epoch: int) -> None:
    from graph.falkor import FalkorStore

    store = FalkorStore(url)
    try:
        await store.epochs(ORG).abort_build()
        await store.forget_graph(ORG, epoch)
    finally:
        await store.close()


async def engine_figures(url: str, subjects: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    from engine.answering.synthesis import DeterministicSynthesizer
    from engine.domain.contract import Versions
    from engine.domain.embedding import HashingEmbedder
    from engine.domain.errors import BadUserInput
    from engine.investigation.investigate import InvestigationRequest, Investigator
    from engine.providers import default_providers
    from engine.resolving.receipts import ReceiptSigner
    from engine.resolving.resolution import Ambiguous, Resolved, Resolver
    from engine.resolving.ring import ReferenceRing
    from graph.falkor import FalkorStore
    from sources.demo import DEFAULT_ANCHOR

    store = FalkorStore(url, embedder=HashingEmbedder(128))
    graph = store.org(ORG)
    rng = random.Random(seed)
    resolver = Resolver(graph, ReferenceRing(capacity=1), ORG)
    names = rng.sample(subjects, min(300, len(subjects)))
    resolve_lat: list[float] = []
    ambiguous = wrong_names = 0
    for n, s in enumerate(names):
        started = time.perf_counter()
        found = await resolver.resolve(f"r{n}", s["name"], None, 5)
        resolve_lat.append(time.perf_counter() - started)
        if isinstance(found, Resolved):
            wrong_names += found.subject.name.lower() != s["name"].lower()
        elif isinstance(found, Ambiguous):
            ambiguous += 1
        else:  # a subject's exact name not found is as wrong as another subject
            wrong_names += 1
    engine = Investigator(
        graph,
        Resolver(graph, ReferenceRing(capacity=1), ORG),
        default_providers(),
        DeterministicSynthesizer(),
        ReceiptSigner(b"b" * 32),
        Versions(projection="v1", embedder=HashingEmbedder(128).identity.stamp()),
        now=lambda: DEFAULT_ANCHOR,
    )
    asked = questions(subjects, 120, seed)
    all_lat: list[float] = []
    wrong = 0
    for n, question in enumerate(asked):
        started = time.perf_counter()
        try:
            result, _ = await engine.investigate(f"q{n}", InvestigationRequest(question.text))
            outcome, keys = result.outcome.value, tuple(result.subject_keys)
        except BadUserInput:
            outcome, keys = "refused", ()
        all_lat.append(time.perf_counter() - started)
        wrong += not judge(question, outcome, keys)
    cohort_lat: list[float] = []
    cohort_answered = 0
    for _ in range(5):
        for n, text in enumerate(COHORT):
            started = time.perf_counter()
            result, _ = await engine.investigate(f"c{n}", InvestigationRequest(text))
            cohort_lat.append(time.perf_counter() - started)
            cohort_answered += result.outcome.value == "answered"
    await store.close()
    investigate = _ms(all_lat + cohort_lat)
    return {
        "resolve": {**_ms(resolve_lat), "cases": len(names), "ambiguous": ambiguous,
                    "wrong": wrong_names},
        "investigate": {**investigate, "questions": len(asked) + len(cohort_lat),
                        "wrong": wrong},
        "cohort": {**_ms(cohort_lat), "questions": len(cohort_lat),
                   "answered": cohort_answered},
    }


async def one_client(base: str, token: str, seconds: float) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, url, body in (("gateway", "/graphql", _page(dashboard.AS_OF)), ("raw", "/raw", {})):
        _, lat = await dashboard.drive(base + url, body, token, seconds, 1)
        out[f"{name}_p50_ms_1_client"] = round(statistics.median(lat) * 1000, 1)
    # The same page as of a time no record is stamped at (demo times are whole minutes).
    # AS_OF is a midnight, and the demo's daily rollups start and end at midnights: every
    # repository with one ties for "most recently active" there, a tie ranked by key (about
    # 47 records at 10k subjects, 4,700 at 1M), which the page reads in key order a few tie
    # nodes at a time (graph/ties.py, format 9; format 8 read all of it). Both are kept: a
    # date picker asks as of midnights; this one shows what the page costs without a tie.
    off_tie = _page(OFF_TIE)
    await _whole_page(base, token, off_tie)
    _, lat = await dashboard.drive(base + "/graphql", off_tie, token, seconds, 1)
    out["gateway_p50_ms_1_client_off_tie"] = round(statistics.median(lat) * 1000, 1)
    return out


def _page(as_of: str) -> dict[str, Any]:
    return {"query": dashboard.QUERY, "variables": {"asOf": as_of}, "operationName": "Dashboard"}


async def _whole_page(base: str, token: str, body: dict[str, Any]) -> None:
    """The off-tie page must be a page (drive checks only the HTTP status): no errors and
    a full first page of repositories, or the figure measures a failure."""
    async with httpx.AsyncClient(timeout=120) as client:
        response = await client.post(
            base + "/graphql", json=body, headers={"Authorization": f"Bearer {token}"}
        )
    payload = response.json()
    edges = (payload.get("data") or {}).get("subjects", {}).get("edges", [])
    if payload.get("errors") or len(edges) != 100:
        raise SystemExit(f"the off-tie dashboard page failed: {response.text[:300]}")


def serve_directory(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`fabric serve --data-dir D` as a user starts it (a subprocess of this checkout)."""
    port = 18_000 + os.getpid() % 1000
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),  # this checkout's packages, not an install's
        "FABRIC_GRAPHIQL": "false",  # no asset download on a first start
        "FABRIC_LOG_LEVEL": "warning",
    }
    command = [sys.executable, "-m", "gateway.cli", "serve", "--data-dir", str(data),
               "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    return proc, f"http://127.0.0.1:{port}"


async def reopen(data: Path, token: str) -> tuple[subprocess.Popen[bytes], str, dict[str, Any]]:
    """Restart as a user sees it: seconds from `fabric serve --data-dir D` to /readyz, to the
    first whole dashboard page (asked as soon as /readyz is green, again until whole) and
    to every index of every graph built; any page that failed once /readyz was green is
    counted (`page_errors_while_opening`: a user saw an error)."""
    started = time.perf_counter()
    proc, base = serve_directory(data)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=300) as client:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"fabric serve exited with {proc.returncode} while opening")
            try:
                if (await client.get(base + "/readyz")).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.05)
        ready_s = time.perf_counter() - started
        errors = 0
        while True:
            response = await client.post(base + "/graphql", json=_page(dashboard.AS_OF),
                                         headers=headers)  # fmt: skip
            payload = response.json() if response.status_code == 200 else {}
            edges = (payload.get("data") or {}).get("subjects", {}).get("edges", [])
            if not payload.get("errors") and len(edges) == 100:
                break
            errors += 1
            await asyncio.sleep(0.1)
        page_s = time.perf_counter() - started
    indexes_s = await _indexes_built(data) + page_s
    return proc, base, {
        "reopen_s": round(ready_s, 2),
        "first_page_s": round(page_s, 2),
        "indexes_built_s": round(indexes_s, 2),
        "page_errors_while_opening": errors,
    }


async def _indexes_built(data: Path) -> float:
    """Seconds from now until every index of every graph on `data`'s server is built."""
    from falkordb.asyncio import FalkorDB

    from graph.embedded.directory import find_running
    from graph.falkor_ready import INDEX_STATUS, building

    info = find_running(data)
    if info is None:
        raise SystemExit("fabric serve's FalkorDB server is not running")
    started = time.perf_counter()
    client = FalkorDB(unix_socket_path=info.socket)
    try:
        for name in await client.list_graphs():
            graph = client.select_graph(name)
            while True:
                if not building((await graph.ro_query(INDEX_STATUS)).result_set):
                    break
                await asyncio.sleep(0.05)
    finally:
        await client.aclose()
    return time.perf_counter() - started


def run_size(subjects: int, seconds: float, parent: Path, seed: int) -> dict[str, Any]:
    from graph.embedded import EmbeddedServer
    from graph.embedded.directory import find_running

    data = Path(tempfile.mkdtemp(prefix=f"fabric-scale-{subjects}-", dir=parent))
    load_before = load_average()
    try:
        with EmbeddedServer(data) as server:
            loaded = asyncio.run(load(server.url, subjects, seed))
            token, kept, ingest_s, records, reingest = loaded
            loaded_rss = rss_mb(server.pid)
            loading_peak_rss = rss_mb(server.pid, "VmHWM")
            bulk = bulk_load(server.url, subjects, seed, parent)
        size = dir_mb(data)  # after the stop, which rewrote the log into a snapshot
        serve, _, opening = asyncio.run(reopen(data, token))
        try:
            info = find_running(data)
            assert info is not None
            gateway, base = dashboard.start_server(info.url, 1)  # the same baseline
            try:
                single = asyncio.run(one_client(base, token, seconds / 2))
                dash = asyncio.run(dashboard.measure(base, token, seconds, 8))
                gateway_rss = rss_mb(gateway.pid)
            finally:
                gateway.terminate()
                gateway.wait(timeout=30)
            figures = asyncio.run(engine_figures(info.url, kept, seed))
            server_rss = rss_mb(info.pid)
        finally:
            serve.send_signal(signal.SIGINT)  # as Ctrl-C: the gateway stops its server in order
            serve.wait(timeout=600)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    return {
        "subjects": len(kept),
        "records": records,
        "ingest_s": round(ingest_s, 1),
        "ingest_records_per_s": round(records / ingest_s),
        **reingest,
        **bulk,
        "dashboard": {**single, **dash},
        **figures,
        **opening,
        "data_dir_mb": size,
        "server_rss_mb_after_load": loaded_rss,
        "server_peak_rss_mb_loading": loading_peak_rss,
        "server_rss_mb": server_rss,
        "gateway_rss_mb": gateway_rss,
        "bench_peak_rss_mb": rss_mb(os.getpid(), "VmHWM"),
        "load_average_before_after": [load_before, load_average()],
    }


def growth(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if len(rows) < 2:
        return {}
    first, last = rows[0], rows[-1]

    def factor(get: Any) -> float | None:
        a, b = get(first), get(last)
        return round(b / a, 2) if a and b else None

    return {
        "from_subjects": first["subjects"],
        "to_subjects": last["subjects"],
        "dashboard_p50_1_client": factor(lambda r: r["dashboard"]["gateway_p50_ms_1_client"]),
        "dashboard_p50_1_client_off_tie": factor(
            lambda r: r["dashboard"]["gateway_p50_ms_1_client_off_tie"]
        ),
        "dashboard_rps_8_clients": factor(lambda r: r["dashboard"]["gateway_rps"]),
        "resolve_p95": factor(lambda r: r["resolve"]["p95_ms"]),
        "investigate_p95": factor(lambda r: r["investigate"]["p95_ms"]),
        "cohort_p95": factor(lambda r: r["cohort"]["p95_ms"]),
        "reopen": factor(lambda r: r["reopen_s"]),
        "ingest_rate": factor(lambda r: r["ingest_records_per_s"]),
        "bulk_rate": factor(lambda r: r["bulk_records_per_s"]),
        "first_page": factor(lambda r: r["first_page_s"]),
        "data_dir": factor(lambda r: r["data_dir_mb"]),
        "server_rss": factor(lambda r: r["server_rss_mb"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    # A data directory holds about 115 MB per million records after a stop; while loading,
    # the log between rewrites and a rewrite's new base sit beside it: ask for four times that.
    need = 4 * 115e6 * max(args.sizes) / 0.08 / 1e6
    free = shutil.disk_usage(args.dir).free
    if free < need:
        raise SystemExit(f"{args.dir} has {free / 1e9:.1f} GB free; the largest size needs "
                         f"about {need / 1e9:.1f} GB (choose another --dir)")
    rows = []
    for size in args.sizes:
        row = run_size(size, args.seconds, args.dir, args.seed)
        print(json.dumps(row), file=sys.stderr, flush=True)
        rows.append(row)
    print(json.dumps({"sizes": rows, "growth": growth(rows)}))


if __name__ == "__main__":
    main()
