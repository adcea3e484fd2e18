"""Investigations: latency and evidence closure over a fixed mix of questions, no model.

Usage: python bench/investigate.py [--subjects 100000] [--questions 300] [--seed 3]

Loads demo data with about N subjects into a fresh embedded FalkorDB (local embedder), then
asks a fixed mix: why is <repository> behind, how is <service> doing, who owned <repository>
as of a date, which services had incidents last week, an ambiguous person, an absent
subject. The last line is one JSON object: subjects, p50_ms, p95_ms, answered,
clarification, no_match, evidence_closed_ratio (non-withheld drivers that close to evidence,
and to claimed facts where their category requires one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engine.contract import Outcome, Standing, Versions, requires_claimed_fact
from engine.embedding import HashingEmbedder
from engine.investigate import InvestigationRequest, Investigator
from engine.providers import default_providers
from engine.receipts import ReceiptSigner
from engine.resolution import Resolver
from engine.ring import ReferenceRing
from engine.synthesis import DeterministicSynthesizer
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import DEFAULT_ANCHOR, generate

ORG = "bench"


def questions(subjects: list[dict[str, Any]], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    repos = [s["name"] for s in subjects if s["kind"] == "repository"]
    services = [s["name"] for s in subjects if s["kind"] == "service"]
    templates = [
        lambda: f"why is {rng.choice(repos)} behind?",
        lambda: f"how is {rng.choice(services)} doing?",
        lambda: f"who owned {rng.choice(repos)} as of 2026-03-01?",
        lambda: "which services had incidents last week?",
        lambda: "why is Alex behind?",
        lambda: f"why is zq{rng.randint(0, 10**6)}x-nothing behind?",
    ]
    return [templates[n % len(templates)]() for n in range(count)]


def closed(result: Any) -> tuple[int, int]:
    claims = {c.id for c in result.claimed_facts}
    total = ok = 0
    for driver in result.drivers:
        if driver.standing is Standing.WITHHELD:
            continue
        total += 1
        facts_ok = not requires_claimed_fact(driver.category) or (
            driver.claimed_fact_ids and all(c in claims for c in driver.claimed_fact_ids)
        )
        ok += int(bool(driver.evidence) and bool(facts_ok))
    return ok, total


async def run(subjects: int, count: int, seed: int) -> dict[str, Any]:
    records = list(generate(int(subjects / 0.08), seed=seed))
    subject_records = [r for r in records if r["type"] == "subject"]
    asked = questions(subject_records, count, seed)
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as server:
        store = FalkorStore(server.url, embedder=HashingEmbedder(128))
        await store.bootstrap(ORG)
        await Projector(store.org(ORG), source="bench").run(json.dumps(r) for r in records)
        del records
        graph = store.org(ORG)
        versions = Versions(projection="v1", embedder=HashingEmbedder(128).identity.stamp())
        engine = Investigator(
            graph,
            Resolver(graph, ReferenceRing(capacity=1), ORG),
            default_providers(),
            DeterministicSynthesizer(),
            ReceiptSigner(b"b" * 32),
            versions,
            # The demo's story is dated relative to its anchor; ask as of then.
            now=lambda: DEFAULT_ANCHOR,
        )
        latencies: list[float] = []
        outcomes: Counter[str] = Counter()
        ok = total = 0
        for n, question in enumerate(asked):
            started = time.perf_counter()
            result, _ = await engine.investigate(f"bench-{n}", InvestigationRequest(question))
            latencies.append(time.perf_counter() - started)
            outcomes[result.outcome.value] += 1
            good, seen = closed(result)
            ok, total = ok + good, total + seen
        await store.close()
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "subjects": len(subject_records),
        "questions": len(asked),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(quantiles[94] * 1000, 2),
        "answered": outcomes[Outcome.ANSWERED.value],
        "clarification": outcomes[Outcome.CLARIFICATION_REQUIRED.value],
        "no_match": outcomes[Outcome.NO_MATCH.value],
        "failed": outcomes[Outcome.FAILED.value],
        "drivers": total,
        "evidence_closed_ratio": round(ok / total, 4) if total else 1.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--subjects", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.subjects, args.questions, args.seed))))


if __name__ == "__main__":
    main()
