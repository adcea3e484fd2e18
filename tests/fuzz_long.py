"""The long fuzzing run, as a script: `python -m tests.fuzz_long [--cases 10000]`.

Starts its own embedded FalkorDB (in a temporary directory) and a gateway on a loopback port,
loads the demo data into a target organisation, then sends `--cases` generated requests (the
generators and oracle of tests/fuzz_cases.py) without stopping at a failure. Prints a few
examples of each kind of failure, then, as its last line, one JSON object: cases, failures,
counts by kind, and whether the gateway stayed up, the target's data stayed unchanged and the
scratch organisation's (ingest) data reads back cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from typing import Any

import httpx

from engine.domain.embedding import HashingEmbedder
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from tests.fuzz_cases import Fuzzer
from tests.gateway_fixture import serve
from tests.helpers import content_hash
from tests.test_fuzz import hypothesis_run, ingest_sink, setup_orgs


async def fuzz(url: str, cases: int) -> dict[str, Any]:
    store = FalkorStore(url, embedder=HashingEmbedder(128))
    await store.bootstrap(SYSTEM_SCOPE)
    try:
        async for gateway in serve(store):
            target, target_token, scratch, scratch_token = await setup_orgs(gateway)
            before = await content_hash(store.org(target))
            sink = ingest_sink(store.org(scratch), asyncio.get_running_loop())
            started = time.perf_counter()
            with httpx.Client(timeout=60) as client:
                fuzzer = Fuzzer(client, gateway.url, target_token, scratch_token, sink)
                await asyncio.to_thread(hypothesis_run(fuzzer, cases, stop_on_failure=False))
                alive = await asyncio.to_thread(fuzzer.alive)
                unreadable = await asyncio.to_thread(fuzzer.scratch_unreadable)
            summary = fuzzer.summary()
            summary["seconds"] = round(time.perf_counter() - started, 1)
            summary["gateway_up"] = alive
            summary["target_unchanged"] = await content_hash(store.org(target)) == before
            summary["scratch_readable"] = unreadable is None
            for name, examples in sorted(fuzzer.failures.items()):
                print(f"-- {name}", *examples, sep="\n  ", file=sys.stderr)
            if unreadable:
                print("-- scratch read-back:", unreadable, file=sys.stderr)
            return summary
    finally:
        await store.close()
    raise AssertionError("the gateway did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fabric-fuzz-") as data_dir:
        server = EmbeddedServer(data_dir)
        server.start()
        try:
            summary = asyncio.run(fuzz(server.url, args.cases))
        finally:
            server.stop()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
