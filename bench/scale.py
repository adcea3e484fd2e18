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

With `--data-dir D1 D2 ...` it measures kept data directories instead (bench/scale_pages.py:
a read key made on each, then the reopen and page figures above), loading nothing: the page
growth of sizes loaded once, such as a million subjects' (hours to load record by record).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

from bench import dashboard, scale_pages
from bench.scale_engine import engine_figures
from bench.scale_pages import dir_mb, load_average, rss_mb

ORG = dashboard.ORG
ROOT = Path(__file__).resolve().parent.parent


def _handles_only(subject: dict[str, Any]) -> dict[str, Any]:
    from engine.domain.text import SEARCH_ATTRIBUTES

    kept = {k: subject[k] for k in ("key", "kind", "name")}
    kept.update((k, subject[k]) for k in ("aliases", "previous_names") if subject.get(k))
    attributes = subject.get("attributes") or {}
    wanted = SEARCH_ATTRIBUTES.get(subject["kind"], ())
    if identifying := {a: attributes[a] for a in wanted if attributes.get(a) is not None}:
        kept["attributes"] = identifying
    return kept


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


def run_size(subjects: int, seconds: float, parent: Path, seed: int) -> dict[str, Any]:
    from graph.embedded import EmbeddedServer

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
        pages = scale_pages.served(
            data, token, seconds, lambda url: asyncio.run(engine_figures(url, kept, seed))
        )
    finally:
        shutil.rmtree(data, ignore_errors=True)
    return {
        "subjects": len(kept),
        "records": records,
        "ingest_s": round(ingest_s, 1),
        "ingest_records_per_s": round(records / ingest_s),
        **reingest,
        **bulk,
        **pages,
        "data_dir_mb": size,
        "server_rss_mb_after_load": loaded_rss,
        "server_peak_rss_mb_loading": loading_peak_rss,
        "bench_peak_rss_mb": rss_mb(os.getpid(), "VmHWM"),
        "load_average_before_after": [load_before, load_average()],
    }


def growth(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if len(rows) < 2:
        return {}
    first, last = rows[0], rows[-1]

    def factor(get: Any) -> float | None:
        try:
            a, b = get(first), get(last)
        except KeyError:  # a kept directory's row (--data-dir) has no load figures
            return None
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
    parser.add_argument(
        "--data-dir", type=Path, nargs="+", metavar="DATA_DIR",
        help="kept data directories to measure instead of loading (smallest first; each "
        "serving the organisation 'bench', as `fabric ingest --org bench` leaves it): each "
        "is reopened as a user restarts it and its pages measured (reopen_s, first_page_s, "
        "indexes_built_s, the dashboard figures, memory). Nothing is loaded: the ingest, "
        "re-ingest, bulk, resolve and investigate figures are absent from its row and its "
        "growth. A read key is made on each first; the directories are kept",
    )  # fmt: skip
    args = parser.parse_args()
    if args.data_dir:
        kept = [scale_pages.kept(data, args.seconds) for data in args.data_dir]
        for row in kept:
            print(json.dumps(row), file=sys.stderr, flush=True)
        print(json.dumps({"sizes": kept, "growth": growth(kept)}))
        return
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
