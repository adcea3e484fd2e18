"""The provider contract: what every fact provider declares, reads and returns."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from engine.facts import Fact, FactKind, Grain, HistoryTier, ProviderState, fact_id
from engine.models import (
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
    to_ns,
)
from engine.ports import FactSource, TimeSpan


@dataclass(frozen=True)
class Window:
    """The window facts are computed over: [start, end], `end` being the effective time."""

    start: datetime
    end: datetime
    historical: bool  # the effective time is in the past (as_of or range axis)

    @property
    def start_ns(self) -> int:
        return to_ns(self.start) or 0

    @property
    def end_ns(self) -> int:
        return to_ns(self.end) or 0

    @property
    def span(self) -> TimeSpan:
        """The window as the graph port's span."""
        return TimeSpan(self.start_ns, self.end_ns)


@dataclass(frozen=True)
class ProviderResult:
    provider: str
    state: ProviderState
    reason: str  # closed: ok, no_rows_in_window, no_history_for_time, provider_error
    grain: Grain
    facts: tuple[Fact, ...] = ()
    subject_keys: tuple[str, ...] = ()


@dataclass
class Provider:
    """Base of every provider. Subclasses set the class attributes and `compute`."""

    name: ClassVar[str]
    kinds: ClassVar[frozenset[FactKind]]
    subject_kinds: ClassVar[frozenset[SubjectKind]]
    grain: ClassVar[Grain]
    tier: ClassVar[HistoryTier]
    record_kinds: ClassVar[tuple[SourceRecordKind, ...]] = ()
    evidence_limit: int = field(default=20)

    async def read(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> ProviderResult:
        keys = tuple(s.key for s in subjects)
        if window.historical and self.tier is HistoryTier.NONE:
            return self._result(ProviderState.NOT_APPLICABLE, "no_history_for_time", keys)
        facts = await self.compute(source, subjects, window)
        if not facts:
            return self._result(ProviderState.NO_DATA, "no_rows_in_window", keys)
        return self._result(ProviderState.AVAILABLE, "ok", keys, tuple(facts))

    def _result(
        self, state: ProviderState, reason: str, keys: tuple[str, ...], facts: tuple[Fact, ...] = ()
    ) -> ProviderResult:
        return ProviderResult(self.name, state, reason, self.grain, facts, keys)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        raise NotImplementedError

    def fact(
        self,
        kind: FactKind,
        subject: str,
        value: dict[str, Any],
        window: Window,
        evidence: Sequence[str],
    ) -> Fact:
        return Fact(
            id=fact_id(self.name, kind, subject, window.start, window.end),
            kind=kind,
            subject_key=subject,
            value=value,
            window_start=window.start,
            window_end=window.end,
            grain=self.grain,
            provider=self.name,
            evidence=tuple(sorted(evidence))[: self.evidence_limit],
        )

    async def records(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> dict[str, list[SourceRecord]]:
        return await source.source_records_of(
            [s.key for s in subjects], kinds=self.record_kinds, span=window.span
        )


def within(moment: datetime | None, window: Window) -> bool:
    return moment is not None and window.start <= moment <= window.end


def open_at(record: SourceRecord, moment: datetime) -> bool:
    return record.start <= moment and (record.end is None or record.end > moment)


def hours(records: Sequence[SourceRecord]) -> float | None:
    spans = [(r.end - r.start).total_seconds() / 3600 for r in records if r.end is not None]
    return round(statistics.median(spans), 2) if spans else None


def prior(window: Window) -> Window:
    return Window(window.start - (window.end - window.start), window.start, window.historical)
