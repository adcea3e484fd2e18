"""Reference resolution: latency and correctness on a labelled set of references.

Usage: python bench/resolve.py [--subjects 100000] [--references 2000] [--seed 5]

Loads demo data with about N subjects (with the local embedder) into a fresh embedded
FalkorDB, then resolves a generated, labelled set of references: exact names, aliases,
previous names and typos of handles that belong to exactly one subject (expected: resolved
to it), handles shared by several subjects (expected: ambiguous) and absent strings
(expected: not found). A commit to any other subject, or a commit where ambiguity or absence
was expected, is a wrong commit. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine.embedding import HashingEmbedder
from engine.models import SubjectKind
from engine.resolution import (
    Ambiguous,
    NotFound,
    Resolved,
    Resolver,
    handle_forms,
    normalise,
)
from engine.ring import ReferenceRing
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate

ORG = "bench"


def _typo(text: str, rng: random.Random) -> str | None:
    letters = [i for i in range(1, len(text) - 2) if text[i].isalpha() and text[i + 1].isalpha()]
    if len(text) < 8 or not letters:
        return None
    i = rng.choice(letters)
    return text[:i] + text[i + 1] + text[i] + text[i + 2 :]


def labelled(
    subjects: list[dict[str, Any]], count: int, seed: int
) -> list[tuple[str, str | None, str, str | None]]:
    """(category, kind, reference, expected key or None) tuples."""
    rng = random.Random(seed)
    owners: dict[tuple[str, str], set[str]] = defaultdict(set)
    for s in subjects:
        for handle in [s["name"], *s.get("aliases", []), *s.get("previous_names", [])]:
            # Every form the resolver reads a handle as ("Ledger Service" is also "ledger").
            for form in handle_forms(handle, SubjectKind(s["kind"])):
                owners[(s["kind"], form)].add(s["key"])
                owners[("*", form)].add(s["key"])

    def unique(kind: str, handle: str) -> bool:
        return len(owners[(kind, normalise(handle))]) == 1

    out: list[tuple[str, str | None, str, str | None]] = []
    per = count // 6
    pool = subjects[:]
    rng.shuffle(pool)
    for s in pool:
        kinds = {
            "exact": s["name"],
            "alias": (s.get("aliases") or [None])[0],
            "previous": (s.get("previous_names") or [None])[0],
        }
        for category, handle in kinds.items():
            taken = sum(1 for o in out if o[0] == category)
            if handle and taken < per and unique("*", handle):
                out.append((category, None, handle, s["key"]))
        typo = _typo(s["name"], rng)
        if (
            typo
            and sum(1 for o in out if o[0] == "typo") < per
            and unique(s["kind"], s["name"])
            and not owners[("*", normalise(typo))]
        ):
            out.append(("typo", s["kind"], typo, s["key"]))
    shared = [(k, h) for (k, h), keys in owners.items() if k != "*" and len(keys) > 1 and h]
    rng.shuffle(shared)
    for kind, handle in shared[:per]:
        out.append(("ambiguous", kind, handle, None))
    for n in range(per):
        garbage = "".join(rng.choice("qxzjvwk") for _ in range(rng.randint(6, 12)))
        out.append(("absent", None, f"{garbage} {n}", None))
    return out


async def run(subjects: int, references: int, seed: int) -> dict[str, Any]:
    records = list(generate(int(subjects / 0.08), seed=seed))
    subject_records = [r for r in records if r["type"] == "subject"]
    with tempfile.TemporaryDirectory() as tmp, EmbeddedServer(Path(tmp)) as server:
        store = FalkorStore(server.url, embedder=HashingEmbedder(128))
        await store.bootstrap(ORG)
        lines = (json.dumps(r) for r in records)
        await Projector(store.org(ORG), source="bench").run(lines)
        del records
        cases = labelled(subject_records, references, seed)
        resolver = Resolver(store.org(ORG), ReferenceRing(capacity=1), ORG)
        latencies: list[float] = []
        outcomes: dict[str, list[bool]] = defaultdict(list)
        wrong = 0
        for n, (category, kind, reference, expected) in enumerate(cases):
            started = time.perf_counter()
            outcome = await resolver.resolve(
                f"bench-{n}", reference, SubjectKind(kind) if kind else None
            )
            latencies.append(time.perf_counter() - started)
            if isinstance(outcome, Resolved) and outcome.subject.key != expected:
                wrong += 1
            if expected is not None:
                ok = isinstance(outcome, Resolved) and outcome.subject.key == expected
            elif category == "ambiguous":
                ok = isinstance(outcome, Ambiguous)
            else:
                ok = isinstance(outcome, NotFound)
            outcomes[category].append(ok)
        await store.close()
    unambiguous = [ok for c in ("exact", "alias", "previous", "typo") for ok in outcomes[c]]
    quantiles = statistics.quantiles(latencies, n=100)
    return {
        "subjects": len(subject_records),
        "references": len(cases),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(quantiles[94] * 1000, 2),
        "wrong_commits": wrong,
        "commit_rate_unambiguous": round(sum(unambiguous) / max(len(unambiguous), 1), 4),
        "ambiguous_detected": round(
            sum(outcomes["ambiguous"]) / max(len(outcomes["ambiguous"]), 1), 4
        ),
        "not_found_detected": round(sum(outcomes["absent"]) / max(len(outcomes["absent"]), 1), 4),
        "by_category": {c: round(sum(v) / len(v), 4) for c, v in sorted(outcomes.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--subjects", type=int, default=100_000)
    parser.add_argument("--references", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.subjects, args.references, args.seed))))


if __name__ == "__main__":
    main()
