"""The page figures of a data directory, as bench/scale.py measures them at each size: the
directory reopened as a user restarts (`fabric serve --data-dir D` until /readyz, until the
first whole dashboard page and until every index is built), then the dashboard page with one
client (also as of a time no record is at) and with 8 against its hand-written baseline, and
the server's and gateway's memory. `served` runs them; bench/scale.py runs it on the directory
it has just loaded, or, with `--data-dir`, on kept directories (`kept`), loading nothing.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench import dashboard

ROOT = Path(__file__).resolve().parent.parent
OFF_TIE = "2026-11-01T12:00:30Z"  # between two whole minutes: no record starts or ends at it


def load_average() -> list[float]:
    # The machine may be shared: a figure measured under load says so.
    return [round(x, 2) for x in os.getloadavg()]


def dir_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6, 1)


def rss_mb(pid: int | None, field: str = "VmRSS") -> float | None:
    """A process's resident memory now (VmRSS) or at its peak so far (VmHWM)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


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


def served(
    data: Path, token: str, seconds: float, also: Callable[[str], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """`data` reopened by `fabric serve` (`reopen`), its pages measured (the gateway and the
    baseline served by one uvicorn process, against the server `fabric serve` runs), and
    `also` (given the server's URL) run while it serves; the server then stopped as on
    Ctrl-C (the gateway stops it in order, which rewrites its log into a snapshot)."""
    from graph.embedded.directory import find_running

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
        figures = also(info.url) if also is not None else {}
        server_rss = rss_mb(info.pid)
    finally:
        serve.send_signal(signal.SIGINT)  # as Ctrl-C: the gateway stops its server in order
        serve.wait(timeout=600)
    return {
        "dashboard": {**single, **dash},
        **figures,
        **opening,
        "server_rss_mb": server_rss,
        "gateway_rss_mb": gateway_rss,
    }


async def _key(url: str) -> tuple[str, int]:
    """A read key for the organisation of a kept directory (made now: keys are stored
    hashed, none can be read back) and how many subjects its serving epoch holds."""
    from gateway.auth import create_key
    from graph.falkor import FalkorStore
    from graph.keystore import SYSTEM_SCOPE

    store = FalkorStore(url)
    try:
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap(dashboard.ORG)
        counts = dict(await (await store.serving(dashboard.ORG)).counts())
        if not counts.get("Subject"):
            raise SystemExit(f"no subject of the organisation {dashboard.ORG!r} is served there")
        token, _ = await create_key(store.keys, dashboard.ORG, "bench")
    finally:
        await store.close()
    return token, int(counts["Subject"])


def kept(data: Path, seconds: float) -> dict[str, Any]:
    """The page figures of a kept data directory (`--data-dir`), loading nothing: a key is
    made on it first (its server started and stopped; at a million subjects the key's write
    waits for the vector index a start rebuilds, minutes), then `served`. The directory is
    kept; its stops rewrite its log into a snapshot, as every stop does."""
    from graph.embedded import EmbeddedServer

    if not (data / "appendonlydir").is_dir():
        raise SystemExit(f"{data} is not a data directory (no appendonlydir)")
    before = load_average()
    with EmbeddedServer(data) as server:
        token, subjects = asyncio.run(_key(server.url))
    size = dir_mb(data)
    pages = served(data, token, seconds)
    return {
        "subjects": subjects,
        "data_dir": str(data),
        "data_dir_mb": size,
        **pages,
        "load_average_before_after": [before, load_average()],
    }
