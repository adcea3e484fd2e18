"""The reader a question type's own read is given before synthesis (engine/questions/base.py
`Reader`): the graph, the providers' facts planned as the question's own are (of one person's
part, when that is asked), and what the planned reading leaves unrecorded.

What the question asks and nothing records (engine/answering/recordgaps.py) is judged over the
planned reading: once, when first asked for, and again after the reading starts elsewhere
(`replanned`); facts a question type reads beside it do not change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.answering.planning import PlanEntry, plan, read_facts
from engine.answering.recordgaps import unasked
from engine.domain.facts import Fact, FactKind
from engine.domain.models import StoredSubject
from engine.ports import FactSource, OrgGraph
from engine.providers import Provider, ProviderResult, Window
from engine.reading.interpretation import Interpretation
from engine.resolving import together


@dataclass
class RunReader:
    """One run's reader. entries, facts: the planned reading (`replanned` when read again)."""

    source: OrgGraph
    providers: Sequence[Provider]
    understood: Interpretation
    subjects: Sequence[StoredSubject]
    part: together.Part | None
    entries: Sequence[PlanEntry] = ()
    planned: Sequence[Fact] = ()
    _gaps: tuple[tuple[str, ...], str | None] | None = field(default=None, init=False)

    @property
    def graph(self) -> OrgGraph:
        return self.source

    def replanned(self, entries: Sequence[PlanEntry], facts: Sequence[Fact]) -> None:
        self.entries, self.planned, self._gaps = entries, facts, None

    async def facts(
        self, subjects: Sequence[StoredSubject], kinds: Sequence[FactKind], window: Window
    ) -> list[ProviderResult]:
        part = self.part
        source: FactSource = self.source if part is None else together.PartSource(self.source, part)
        results = await read_facts(plan(self.providers, subjects, kinds), source, window)
        if part is None:
            return results
        return [replace(r, facts=tuple(map(part.fact, r.facts))) for r in results]

    async def unanswerable(self) -> str | None:
        return (await self.gaps())[1]

    async def gaps(self) -> tuple[tuple[str, ...], str | None]:
        """The limitations saying what is asked and not recorded, and the judgment when
        nothing asked can be answered (engine/answering/recordgaps.py `unasked`)."""
        if self._gaps is None:
            self._gaps = await unasked(
                self.source, self.understood, self.providers,
                self.entries, self.subjects, self.planned,
            )  # fmt: skip
        return self._gaps
