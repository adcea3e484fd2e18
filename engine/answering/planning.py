"""Planning canonical fact reads: which providers can answer for which resolved subjects.

A provider that supports none of the resolved subjects' kinds is pruned: it could not have
produced one admissible fact, so pruning it is a proof, not a heuristic, and not a
degradation. A provider that supports some is narrowed to those. Every decision is recorded
with a closed reason. The mapping is the providers' own declaration; interpretation only
contributes closed fact kinds, so no phrasing can prune a provider.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.domain.facts import FactKind, ProviderState
from engine.domain.models import StoredSubject
from engine.ports import GraphError
from engine.providers import FactSource, Provider, ProviderResult, Window


class Decision(enum.StrEnum):
    SELECTED = "selected"
    NARROWED = "narrowed_subject_kinds"
    PRUNED = "unsupported_subject_kinds"
    NOT_ASKED = "fact_kind_not_asked"


@dataclass(frozen=True)
class PlannedRead:
    provider: Provider
    subjects: tuple[StoredSubject, ...]


@dataclass(frozen=True)
class PlanEntry:
    provider: str
    decision: Decision
    kept: tuple[str, ...]
    dropped: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    reads: tuple[PlannedRead, ...]
    entries: tuple[PlanEntry, ...]


def plan(
    providers: Sequence[Provider], subjects: Sequence[StoredSubject], kinds: Sequence[FactKind]
) -> Plan:
    """kinds: the fact kinds the question asks about; empty means every kind but those of
    providers read only on request (Provider.on_request: the changes themselves)."""
    reads: list[PlannedRead] = []
    entries: list[PlanEntry] = []
    asked = set(kinds)
    for provider in providers:
        keys = tuple(s.key for s in subjects)
        if not provider.kinds & asked if asked else provider.on_request:
            entries.append(PlanEntry(provider.name, Decision.NOT_ASKED, (), keys))
            continue
        kept = tuple(s for s in subjects if s.kind in provider.subject_kinds)
        dropped = tuple(s.key for s in subjects if s.kind not in provider.subject_kinds)
        if not kept:
            entries.append(PlanEntry(provider.name, Decision.PRUNED, (), dropped))
            continue
        decision = Decision.NARROWED if dropped else Decision.SELECTED
        entries.append(PlanEntry(provider.name, decision, tuple(s.key for s in kept), dropped))
        reads.append(PlannedRead(provider, kept))
    return Plan(tuple(reads), tuple(entries))


async def read_facts(plan: Plan, source: FactSource, window: Window) -> list[ProviderResult]:
    """Run the planned reads together. A provider's own failure degrades its coverage; the
    graph being unavailable fails the whole read (the caller tags the stage)."""

    async def one(read: PlannedRead) -> ProviderResult:
        try:
            return await read.provider.read(source, read.subjects, window)
        except GraphError:
            raise
        except Exception:  # a provider bug must not take the investigation down
            keys = tuple(s.key for s in read.subjects)
            return ProviderResult(
                read.provider.name,
                ProviderState.FAILED,
                "provider_error",
                read.provider.grain,
                (),
                keys,
            )

    return list(await asyncio.gather(*(one(r) for r in plan.reads)))
