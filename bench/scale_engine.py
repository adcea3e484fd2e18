"""The engine's figures at a size, as bench/scale.py measures them against the served data
directory: resolve p50/p95 of `Resolver.resolve` on subject names (exact handles, one per
subject drawn, in process), and investigate p50/p95 of the engine on bench/investigate.py's
questions plus the cohort questions on their own, each judged (`wrong` must be 0).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench.dashboard import ORG
from bench.investigate import judge, questions

COHORT = (
    "which services had incidents last week?",
    "which services had incidents in the last 30 days?",
    "which repositories had the most pull requests last week?",
)


def _ms(values: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=100) if len(values) > 1 else values * 99
    p50 = statistics.median(values)
    return {"p50_ms": round(p50 * 1000, 1), "p95_ms": round(cuts[94] * 1000, 1)}


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
