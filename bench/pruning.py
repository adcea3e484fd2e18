"""Pruning proven on real data: planned (pruned, narrowed) fact reads against reading every
provider for every subject, on a real git repository imported through the git source (and on
the demo organisation).

Usage: python bench/pruning.py [PATH ...]   (a repository or a git bundle; default: demo only)
Expected outcome of every case: the two reads give identical facts, and coverage differs by
exactly the planning observations (a pruned provider's `pruned` observation where the
unpruned read found nothing; one observation per narrowing). Cases: every subject alone,
every subject of each kind together, all subjects at once. The last line printed is one JSON
object: per data set the cases, facts compared, pruned and narrowed decisions, and `wrong`
(cases where facts or the coverage difference disagreed: expected 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.answering.framing import coverage_of, window_of
from engine.answering.planning import Decision, Plan, PlannedRead, plan, read_facts
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import resolve_time
from engine.memory import MemoryStore
from engine.ports import OrgGraph, SubjectQuery
from engine.providers import Window, default_providers
from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from sources.demo import generate

PROVIDERS = default_providers()
# Every kind asked by name: a plan for no kinds leaves out the providers read only on
# request (the changes), which the unpruned read does not.
EVERY_KIND = sorted({k for p in PROVIDERS for k in p.kinds})
Observed = Counter[tuple[str, str, str, int | None]]


def _observed(coverage: Sequence[Any]) -> Observed:
    return Counter((o.source, o.state.value, o.reason.value, o.count) for o in coverage)


def _facts(results: Sequence[Any]) -> list[str]:
    found = [f for r in results for f in r.facts]
    return sorted(json.dumps(f.model_dump(mode="json"), sort_keys=True) for f in found)


async def case(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window
) -> dict[str, int]:
    planned = plan(PROVIDERS, subjects, EVERY_KIND)
    everything = Plan(tuple(PlannedRead(p, tuple(subjects)) for p in PROVIDERS), ())
    pruned_read = await read_facts(planned, graph, window)
    full_read = await read_facts(everything, graph, window)
    extra: Observed = Counter()
    missing: Observed = Counter()
    for e in planned.entries:
        if e.decision is Decision.PRUNED:
            extra[(e.provider, "pruned", e.decision.value, len(e.dropped))] += 1
            missing[(e.provider, "no_data", "no_rows_in_window", 0)] += 1
        elif e.decision is Decision.NARROWED:
            extra[(e.provider, "pruned", e.decision.value, len(e.dropped))] += 1
    with_pruning = _observed(coverage_of(planned.entries, pruned_read, subjects))
    without = _observed(coverage_of((), full_read, subjects))
    right = (
        _facts(pruned_read) == _facts(full_read)
        and with_pruning - without == extra
        and without - with_pruning == missing
    )
    decisions = Counter(e.decision for e in planned.entries)
    return {
        "facts": len(_facts(full_read)),
        "pruned": decisions[Decision.PRUNED],
        "narrowed": decisions[Decision.NARROWED],
        "wrong": 0 if right else 1,
    }


async def prove(graph: OrgGraph, now: datetime) -> dict[str, Any]:
    window = window_of(resolve_time(None, None, None, now))
    everyone = list((await graph.find_subjects(SubjectQuery(), first=1_000_000)).items)
    by_kind: dict[SubjectKind, list[StoredSubject]] = {}
    for s in everyone:
        by_kind.setdefault(s.kind, []).append(s)
    cases = [[s] for s in everyone] + list(by_kind.values()) + [everyone]
    started = time.monotonic()
    totals: Counter[str] = Counter()
    for subjects in cases:
        totals.update(await case(graph, subjects, window))
    return {
        "subjects": len(everyone),
        "kinds": len(by_kind),
        "cases": len(cases),
        **dict(totals),
        "seconds": round(time.monotonic() - started, 2),
    }


def _checkout(path: Path, into: Path) -> tuple[Path, datetime]:
    """A working clone (bundles too) and its head commit's time (the question's 'now')."""
    subprocess.run(["git", "clone", "-q", str(path), str(into)], check=True)
    stamp = subprocess.run(
        ["git", "-C", str(into), "log", "-1", "--format=%cI"], check=True, capture_output=True
    ).stdout.decode().strip()
    return into, datetime.fromisoformat(stamp).astimezone(UTC)


async def main(paths: list[Path]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    store = MemoryStore()
    demo = store.org("demo")
    lines = (json.dumps(r) for r in generate(2_000))
    assert (await Projector(demo, source="demo").run(lines)).ok
    out["demo"] = await prove(demo, datetime(2026, 11, 20, 12, 0, tzinfo=UTC))
    for n, path in enumerate(paths):
        with tempfile.TemporaryDirectory() as tmp:
            repo, now = _checkout(path, Path(tmp) / "repo")
            graph = store.org(f"repo{n}")
            report = await import_git(graph, GitImport(repo, name=path.stem))
            result = await prove(graph, now)
            out[path.stem] = {"commits": report.commits, **result}
    out["wrong"] = sum(v["wrong"] for v in out.values() if isinstance(v, dict))
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("paths", nargs="*", type=Path)
    args = parser.parse_args()
    result = asyncio.run(main(args.paths))
    print(json.dumps(result), flush=True)
    sys.exit(1 if result["wrong"] else 0)
