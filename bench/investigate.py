"""Investigations: latency and evidence closure over a fixed mix of questions, no model.

Usage: python bench/investigate.py [--subjects 100000] [--questions 300] [--seed 3]

Loads demo data with about N subjects into a fresh embedded FalkorDB (local embedder), then
asks a fixed mix, each question with the outcome (and subject) it must give: why is
<repository> behind, how is <service> doing, who owned <repository> as of a date, which
services had incidents last week, an ambiguous person, an absent subject, time phrases
(last 3 months, last quarter, between two dates), and hard cases (a phrase not understood,
a range too wide, a future year). The last line is one JSON object: subjects, p50_ms,
p95_ms, the outcome counts, `wrong` (outcome or subject other than expected: must be 0) with
examples, and evidence_closed_ratio (over answers with drivers: non-withheld drivers that
close to evidence, and to claimed facts where their category requires one).
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import Outcome, Standing, Versions, requires_claimed_fact
from engine.domain.embedding import HashingEmbedder
from engine.domain.errors import BadUserInput
from engine.domain.text import handle_forms, handles
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.providers import default_providers
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import DEFAULT_ANCHOR, generate

ORG = "bench"


@dataclass(frozen=True)
class Question:
    """A generated question and what it must give: an outcome (answered,
    clarification_required, no_match, or refused: a BadUserInput naming the phrase) and, when
    answered about a named subject, that subject's key."""

    text: str
    outcome: str
    subject: str | None = None


def _forms(subject: dict[str, Any]) -> set[str]:
    """Every form an exact reference can take to this subject (as the resolver folds it)."""
    named = handles(
        subject["kind"],
        subject["name"],
        subject.get("aliases", []),
        subject.get("previous_names", []),
        subject.get("attributes"),
    )
    return {form for h in named for form in handle_forms(h, subject["kind"])}


def _unique(subjects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """Subjects of a kind whose name no other subject is known by: their expected answer is
    determined by the data (a shared name must give a clarification instead)."""
    owners = Counter(form for s in subjects for form in _forms(s))
    return [
        s
        for s in subjects
        if s["kind"] == kind and all(owners[f] == 1 for f in handle_forms(s["name"], kind))
    ]


def questions(subjects: list[dict[str, Any]], count: int, seed: int) -> list[Question]:
    rng = random.Random(seed)
    repos = _unique(subjects, "repository")
    services = _unique(subjects, "service")
    alexes = [s for s in subjects if s["kind"] == "person" and "alex" in s["name"].lower().split()]
    alex = "clarification_required" if len(alexes) > 1 else "answered"

    def on(pool: list[dict[str, Any]], text: str, outcome: str = "answered") -> Question:
        chosen = rng.choice(pool)
        return Question(text.format(chosen["name"]), outcome, chosen["key"])

    templates: list[Callable[[], Question]] = [
        lambda: on(repos, "why is {} behind?"),
        lambda: on(services, "how is {} doing?"),
        lambda: on(repos, "who owned {} as of 2026-03-01?"),
        lambda: Question("which services had incidents last week?", "answered"),
        lambda: Question("why is Alex behind?", alex),
        lambda: Question(f"why is zq{rng.randint(0, 10**6)}x-nothing behind?", "no_match"),
        # Time phrases, relative to the engine's clock: each must be understood.
        lambda: on(repos, "how many commits to {} in the last 3 months?"),
        lambda: on(repos, "who changed {} last quarter?"),
        lambda: on(repos, "how many pull requests merged in {} between 2026-08-01 and 2026-10-31?"),
        lambda: on(repos, "who has driven changes to {} lately?"),
        # Hard cases: a phrase not understood is named, never answered over another window
        # (no match); a range too wide asks again, offering the last 400 days; a future time
        # is refused.
        lambda: on(repos, "how many commits to {} since the outage?", "no_match"),
        lambda: on(repos, "how many commits to {} since 2020?", "clarification_required"),
        lambda: on(services, "how is {} doing next year in 2031?", "refused"),
    ]
    return [templates[n % len(templates)]() for n in range(count)]


def judge(question: Question, outcome: str, subjects: tuple[str, ...]) -> bool:
    """Whether the engine gave what the question must give (see Question)."""
    if outcome != question.outcome:
        return False
    return question.subject is None or outcome != "answered" or subjects == (question.subject,)


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
        ok = total = wrong = with_drivers = 0
        wrong_examples: list[str] = []
        for n, question in enumerate(asked):
            started = time.perf_counter()
            try:
                result, _ = await engine.investigate(
                    f"bench-{n}", InvestigationRequest(question.text)
                )
                outcome, keys = result.outcome.value, result.subject_keys
            except BadUserInput:
                result, outcome, keys = None, "refused", ()
            latencies.append(time.perf_counter() - started)
            outcomes[outcome] += 1
            if not judge(question, outcome, keys):
                wrong += 1
                wrong_examples.append(f"{question.text} -> {outcome} {list(keys)}")
            good, seen = closed(result) if result is not None else (0, 0)
            with_drivers += bool(seen)
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
        "refused": outcomes["refused"],
        "failed": outcomes[Outcome.FAILED.value],
        "wrong": wrong,
        "wrong_examples": wrong_examples[:5],
        "answers_with_drivers": with_drivers,
        "drivers": total,
        # Over answers with drivers only: an answer without drivers proves nothing.
        "evidence_closed_ratio": round(ok / total, 4) if total else None,
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
