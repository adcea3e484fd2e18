"""Ingest throughput: demo records into a fresh embedded FalkorDB.

Usage: python bench/ingest.py --records 100000 [--batch-size 5000] [--seed 7] [--no-embeddings]
Subjects are embedded (local 128-d embedder) and indexed for vector search unless told not to.
The last line printed is one JSON object: records, seconds, records_per_s, peak_rss_mb, ...
Generation and JSON encoding happen before the clock starts; parsing and validation of
every line are inside the measured time (they are part of ingest).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from engine.domain.embedding import HashingEmbedder
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate


def _peak_rss_mb() -> float:
    # ru_maxrss is KiB on Linux, bytes on macOS.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


async def run(records: int, batch_size: int, seed: int, embed: bool) -> dict[str, object]:
    lines = [json.dumps(r, separators=(",", ":")) for r in generate(records, seed=seed)]
    embedder = HashingEmbedder(128) if embed else None
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as server:
        store = FalkorStore(server.url, embedder=embedder)
        await store.bootstrap("bench")
        started = time.perf_counter()
        report = await Projector(store.org("bench"), source="bench", batch_size=batch_size).run(
            lines
        )
        seconds = time.perf_counter() - started
        counts = dict(await store.org("bench").counts())
        await store.close()
    return {
        "records": records,
        "accepted": report.accepted,
        "invalid": report.invalid_count,
        "batch_size": batch_size,
        "seconds": round(seconds, 3),
        "records_per_s": round(report.accepted / seconds, 1),
        "round_trips": store.round_trips.total,
        "embeddings": embedder.identity.stamp() if embedder else None,
        "subjects": counts.get("Subject", 0),
        "peak_rss_mb": _peak_rss_mb(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--batch-size", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-embeddings", action="store_true", help="lexical search only")
    args = parser.parse_args()
    result = run(args.records, args.batch_size, args.seed, not args.no_embeddings)
    print(json.dumps(asyncio.run(result)))


if __name__ == "__main__":
    main()
