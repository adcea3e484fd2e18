"""Hostile documents against trusted-documents mode and automatic persisted queries, while
/healthz is probed: refusals with stable codes, no 5xx, a free event loop, a bounded store.

Usage: python bench/hostile.py [--documents 1000] [--concurrency 4] [--records 200]

Starts two `fabric serve --demo` gateways (the real processes, each with its embedded
FalkorDB and a fresh data directory): one with FABRIC_TRUSTED_DOCUMENTS on, one with
persisted queries (the default). Each gets `--documents` hostile requests, cycling through the
kinds below, `--concurrency` at a time, while another process asks its /healthz every 10 ms.
Every kind states its expected outcome per mode (HTTP status and `extensions.code`, or the
WebSocket close code); anything else counts as wrong, and any 5xx is counted apart.

* oversized: a body over FABRIC_MAX_BODY_BYTES (413 PAYLOAD_TOO_LARGE);
* padded: `{ __typename }` in 900 KB of spaces, registered with its hash (APQ: runs, stored
  minified; trusted: DOCUMENT_NOT_TRUSTED);
* many-selections: 25,000 selections with a selection each (QUERY_TOO_COMPLEX: tokens);
* deep: selections nested 150 levels (QUERY_TOO_COMPLEX: depth);
* directives: 1,000 unknown directives (QUERY_TOO_COMPLEX: directive count);
* huge-hash: a 500,000-character `sha256Hash` (400 BAD_REQUEST);
* filler: a distinct valid document of 200 KB (a long key), registered with its hash (APQ:
  stored, then answers `subject: null`, no such key; trusted: DOCUMENT_NOT_TRUSTED): what
  the per-organisation byte budget (FABRIC_MAX_PERSISTED_QUERY_BYTES) bounds;
* frame: a 2 MB WebSocket message after connection_ack (close 1009).

The baseline does the same number of requests of `{ __typename }` at the same concurrency,
with the same probe, on the APQ gateway first. The last line is one JSON object: per mode the
requests, wrong answers, 5xx, /healthz p50/p99/max (ms) and the FalkorDB server's and the
gateway's RSS before and after (MB), with the byte budget they are held to; and what the
budget bounds, apart from the rest of the server's growth: the server's `used_memory` before
and after, and `MEMORY USAGE` (every element) of the persisted documents' keys after
(`documents_held_mb`, per organisation at most the budget).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as `python bench/hostile.py`: the repository is not on the path
    sys.path.insert(0, str(ROOT))
from bench.load import falkordb_pid, percentile, rss_mb, start_gateway  # noqa: E402

BUDGET = 10_000_000  # FABRIC_MAX_PERSISTED_QUERY_BYTES's default, set explicitly below
MAX_BODY = 1_000_000
GRAPHQL_RESPONSE = "application/graphql-response+json"
Expected = tuple[int, str]  # HTTP status (or WebSocket close code) and extensions.code


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _apq(text: str) -> dict[str, Any]:
    persisted = {"version": 1, "sha256Hash": _sha(text)}
    return {"query": text, "extensions": {"persistedQuery": persisted}}


NOT_TRUSTED: Expected = (400, "DOCUMENT_NOT_TRUSTED")
TOO_COMPLEX: Expected = (400, "QUERY_TOO_COMPLEX")
DEEP = '{ subject(key: "service:x") { ' + "neighbors(first: 1) { " * 150 + "key" + " }" * 151 + " }"
# kind -> (body for request n, expected with APQ, expected in trusted mode); None: a frame.
KINDS: dict[str, tuple[Callable[[int], dict[str, Any] | None], Expected, Expected]] = {
    "oversized": (lambda n: {"query": "{ __typename }", "pad": " " * (MAX_BODY + n)},
                  (413, "PAYLOAD_TOO_LARGE"), (413, "PAYLOAD_TOO_LARGE")),
    "padded": (lambda n: _apq(f"query P{n} {{" + " " * 900_000 + "__typename }"),
               (200, ""), NOT_TRUSTED),
    "many-selections": (lambda n: {"query": "{ " + "a { b } " * 25_000 + f"c{n} }}"},
                        TOO_COMPLEX, NOT_TRUSTED),
    "deep": (lambda n: {"query": DEEP}, TOO_COMPLEX, NOT_TRUSTED),
    "directives": (lambda n: {"query": "{ " + "__typename @nosuch " * 1_000 + "}"},
                   TOO_COMPLEX, NOT_TRUSTED),
    "huge-hash": (lambda n: {"extensions": {"persistedQuery": {
        "version": 1, "sha256Hash": "f" * 500_000}}}, (400, "BAD_REQUEST"), (400, "BAD_REQUEST")),
    "filler": (lambda n: _apq(f'query F{n} {{ subject(key: "{n}-' + "x" * 200_000 + '") { key } }'),
               (200, ""), NOT_TRUSTED),
    "frame": (lambda n: None, (1009, ""), (1009, "")),
}  # fmt: skip


def probe(base: str, ready: Any, stop: Any, out: Any) -> None:
    """In its own process: /healthz every 10 ms until `stop` (`ready` once the first has
    answered: it is not counted); the latencies (s) to `out`."""
    latencies: list[float] = []
    with httpx.Client(base_url=base, timeout=30) as client:
        client.get("/healthz")
        ready.set()
        while not stop.is_set():
            started = time.perf_counter()
            client.get("/healthz")
            latencies.append(time.perf_counter() - started)
            time.sleep(0.01)
    out.send(latencies)


async def _frame(base: str, token: str) -> tuple[int, str]:
    url = base.replace("http://", "ws://") + "/graphql"
    async with connect(url, subprotocols=["graphql-transport-ws"], max_size=None) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "connection_init",
                                  "payload": {"Authorization": f"Bearer {token}"}}))
        await ws.recv()
        try:
            await ws.send("x" * 2_000_000)
            await asyncio.wait_for(ws.recv(), timeout=60)
        except ConnectionClosed as closed:
            return (closed.rcvd.code if closed.rcvd else 0), ""
    return 0, "not closed"


async def _one(
    client: httpx.AsyncClient, base: str, token: str, kind: str, n: int
) -> tuple[int, str]:
    body = KINDS[kind][0](n)
    if body is None:
        return await _frame(base, token)
    response = await client.post("/graphql", content=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    try:
        errors = response.json().get("errors") or []
    except ValueError:
        return response.status_code, "not JSON"
    code = (errors[0].get("extensions") or {}).get("code") if errors else ""
    return response.status_code, str(code)


async def _run(base: str, token: str, documents: int, concurrency: int,
               expected: Callable[[str], Expected] | None) -> dict[str, Any]:
    kinds = list(KINDS) if expected is not None else []
    tally: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(documents):
        queue.put_nowait(n)
    headers = {"Authorization": f"Bearer {token}", "Accept": GRAPHQL_RESPONSE}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=120) as client:

        async def worker() -> None:
            while not queue.empty():
                n = queue.get_nowait()
                if kinds and expected is not None:
                    kind = kinds[n % len(kinds)]
                    got = await _one(client, base, token, kind, n)
                    want = expected(kind)
                else:
                    kind, want = "baseline", (200, "")
                    response = await client.post("/graphql", json={"query": "{ __typename }"})
                    got = (response.status_code, "" if response.json().get("data") else "error")
                statuses[f"{kind}:{got[0]}:{got[1]}"] += 1
                tally["5xx"] += 500 <= got[0] < 600
                tally["wrong"] += got != want

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return {"requests": documents, "wrong": tally["wrong"], "5xx": tally["5xx"],
            "outcomes": dict(sorted(statuses.items()))}


def _probed(base: str, work: Callable[[], Any]) -> tuple[Any, dict[str, float]]:
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    receiving, sending = context.Pipe(duplex=False)
    prober = context.Process(target=probe, args=(base, ready, stop, sending))
    prober.start()
    ready.wait(timeout=120)
    result = work()
    time.sleep(0.05)  # at least a few probes, however quick the work
    stop.set()
    latencies = [s * 1000 for s in receiving.recv()]
    prober.join(timeout=60)
    healthz = {"probes": len(latencies), "p50_ms": round(percentile(latencies, 50), 2),
               "p99_ms": round(percentile(latencies, 99), 2), "max_ms": round(max(latencies), 2)}
    return result, healthz


# Where the rest of a server's memory goes (INFO memory): Lua's VM (started by the first
# stored document), client buffers (a 200 KB document arrives in one command), the
# append-only file's buffer.
_PARTS = ("used_memory_vm_eval", "mem_clients_normal", "mem_aof_buffer")


def _server_memory(data_dir: Path) -> dict[str, float]:
    """The FalkorDB server's used_memory, some of its parts, and what its persisted
    documents' keys hold (`documents`), in MB."""
    import redis

    from graph.embedded.directory import socket_path

    client = redis.Redis(unix_socket_path=socket_path(data_dir))
    try:
        info = client.info("memory")
        held = sum(int(client.memory_usage(name, samples=0) or 0)
                   for name in client.scan_iter(match="fabric:apq*"))  # fmt: skip
    finally:
        client.close()
    found = {name: int(info.get(name, 0)) for name in ("used_memory", *_PARTS)}
    return {name: round(n / 1e6, 3) for name, n in {**found, "documents": held}.items()}


def _mode(name: str, args: argparse.Namespace, baseline: bool) -> dict[str, Any]:
    settings = {"FABRIC_MAX_PERSISTED_QUERY_BYTES": str(BUDGET),
                "FABRIC_MAX_BODY_BYTES": str(MAX_BODY),
                "FABRIC_TRUSTED_DOCUMENTS": "true" if name == "trusted" else "false"}
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, token = start_gateway(Path(tmp), args.records, settings)
        try:
            pids = (proc.pid, falkordb_pid(Path(tmp)))
            figures: dict[str, Any] = {}
            if baseline:
                same_work = _probed(base, lambda: asyncio.run(
                    _run(base, token, args.documents, args.concurrency, None)))
                figures["baseline"] = {**same_work[0], "healthz": same_work[1]}
            before = [rss_mb(p) for p in pids]
            memory_before = _server_memory(Path(tmp))
            column = 1 if name == "apq" else 2
            result, healthz = _probed(base, lambda: asyncio.run(_run(
                base, token, args.documents, args.concurrency,
                lambda kind: KINDS[kind][column])))  # type: ignore[return-value]
            after = [rss_mb(p) for p in pids]
            memory_after = _server_memory(Path(tmp))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    return {**figures, **result, "healthz": healthz,
            "falkordb_rss_mb": {"before": before[1], "after": after[1]},
            "falkordb_memory_mb": {"before": memory_before, "after": memory_after},
            "documents_held_mb": memory_after["documents"],
            "gateway_rss_mb": {"before": before[0], "after": after[0]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=1_000, help="hostile requests per mode")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--records", type=int, default=200, help="demo records to load")
    args = parser.parse_args()
    apq = _mode("apq", args, baseline=True)
    trusted = _mode("trusted", args, baseline=False)
    growth = {}
    for name, mode in (("apq", apq), ("trusted", trusted)):
        rss = mode["falkordb_rss_mb"]
        if rss["before"] is not None and rss["after"] is not None:
            growth[name] = round(rss["after"] - rss["before"], 1)
    print(json.dumps({
        "documents_per_mode": args.documents, "concurrency": args.concurrency,
        "budget_mb": BUDGET / 1e6, "apq": apq, "trusted": trusted,
        "falkordb_growth_mb": growth,
        "documents_held_mb": {"apq": apq["documents_held_mb"],
                              "trusted": trusted["documents_held_mb"]},
        "documents_within_budget": apq["documents_held_mb"] <= BUDGET / 1e6,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "wrong": apq["wrong"] + trusted["wrong"], "5xx": apq["5xx"] + trusted["5xx"],
        "healthz_p99_ms": max(apq["healthz"]["p99_ms"], trusted["healthz"]["p99_ms"]),
    }))


if __name__ == "__main__":
    main()
