"""The gateway's garbage collection: what a collection costs after real traffic, and how many
clock ticks cyclic garbage waits, by how long it was alive before it was dropped.

Usage: python bench/heap.py [--records 20000] [--pages 150]

Loads the demo organisation into a fresh embedded FalkorDB, serves the gateway in this
process (startup leftovers frozen, automatic collection off, as `fabric serve` runs), drives
`--pages` dashboard pages (50 repositories, three levels of neighbors), then times collections
and runs the cases: a reference cycle alive at 0, 1, 2 and 40 ticks (40 is past the old full
collection every 30th tick), then dropped. Expected for every case: freed by the first tick
after the drop (1). The last line is one JSON object: collection times, the live and frozen
object counts, each case's ticks, and `wrong`, the cases that waited longer.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import socket
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from engine.domain.embedding import HashingEmbedder
from gateway import heap
from gateway.app import create_app
from gateway.auth import create_key
from gateway.settings import Settings
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from graph.projection import Projector
from sources.demo import generate

ORG = "bench"
PAGE = """query($n: Int!) { subjects(filter: {kind: REPOSITORY}, first: $n, orderBy: KEY) {
  edges { node { key owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key }
    deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 5) { key
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } } } } } }"""
CASES = (0, 1, 2, 40)  # ticks the garbage was alive at before it was dropped
EXPECTED_TICKS = 1


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def ticks_until_freed(alive_ticks: int) -> int:
    freed: list[bool] = []
    kept = _Cycle()
    weakref.finalize(kept, freed.append, True)
    for _ in range(alive_ticks):
        heap.tick()
    del kept
    waited = 0
    while not freed and waited < 100:
        heap.tick()
        waited += 1
    return waited


def timed(generation: int, times: int = 5) -> list[float]:
    out = []
    for _ in range(times):
        start = time.perf_counter()
        gc.collect(generation)
        out.append(round((time.perf_counter() - start) * 1000, 2))
    return out


async def run(records: int, pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data, EmbeddedServer(Path(data)) as server:
        store = FalkorStore(server.url, embedder=HashingEmbedder(128))
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap(ORG)
        lines = (json.dumps(r) for r in generate(records))
        await Projector(store.org(ORG), source="demo").run(lines)
        token, _ = await create_key(store.keys, ORG, "bench", frozenset({"read"}))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        # The clock is set far out: this script makes the ticks itself, to count them.
        app = create_app(Settings(port=port, gc_interval_s=3600), store=store)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server_task = uvicorn.Server(config)
        task = asyncio.create_task(server_task.serve())
        while not server_task.started:  # noqa: ASYNC110 - uvicorn offers no event for it
            await asyncio.sleep(0.02)
        try:
            async with httpx.AsyncClient(timeout=60) as client:
                headers = {"Authorization": f"Bearer {token}"}
                for _ in range(pages):
                    response = await client.post(
                        f"http://127.0.0.1:{port}/graphql", headers=headers,
                        json={"query": PAGE, "variables": {"n": 50}},
                    )  # fmt: skip
                    assert response.status_code == 200 and "errors" not in response.json()
            young = timed(1)
            full = timed(2)
            cases = {str(alive): ticks_until_freed(alive) for alive in CASES}
            return {
                "records": records,
                "pages": pages,
                "collect_young_ms": young,
                "collect_full_ms": full,
                "tracked_objects": len(gc.get_objects()),
                "frozen_objects": gc.get_freeze_count(),
                "expected_ticks": EXPECTED_TICKS,
                "ticks_until_freed_by_ticks_alive": cases,
                "wrong": sum(1 for t in cases.values() if t != EXPECTED_TICKS),
            }
        finally:
            server_task.should_exit = True
            await task
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--pages", type=int, default=150)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.records, args.pages))))


if __name__ == "__main__":
    main()
