"""The provider contract: what every fact provider declares, reads and returns."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any, ClassVar

from engine.domain.evidence import EvidenceRule, EvidenceSelector
from engine.domain.facts import Fact, FactKind, Grain, HistoryTier, ProviderState, fact_id
from engine.domain.models import (
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
    to_ns,
)
from engine.domain.timecontext import iso
from engine.domain.windows import admits, preceding, whole_in
from engine.ports import FactSource, TimeSpan


@dataclass(frozen=True)
class Window:
    """The window facts are computed over: half-open [start, end), `end` being the effective
    time (nothing at or after it is counted)."""

    start: datetime
    end: datetime
    historical: bool  # the effective time is in the past (as_of or range axis)
    # The period a question compares the window with ("than last year", "q4 '25 vs q1 '26":
    # engine/questions/compared.py), which the churn fact's prior lines and commits read instead of
    # `prior` (the window of the same length just before). Only churn: a rule judging a slowdown
    # (delivery) would read a month so far against a whole one as one.
    before: Window | None = None

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
    notes: tuple[str, ...] = ()  # what the answer must say about these facts' reach


@dataclass
class Provider:
    """Base of every provider. Subclasses set the class attributes and `compute`."""

    name: ClassVar[str]
    kinds: ClassVar[frozenset[FactKind]]
    subject_kinds: ClassVar[frozenset[SubjectKind]]
    grain: ClassVar[Grain]
    tier: ClassVar[HistoryTier]
    record_kinds: ClassVar[tuple[SourceRecordKind, ...]] = ()
    # Read only for a question that asks for one of `kinds` (engine.answering.planning): not for one
    # that names no fact kind, which reads every other provider.
    on_request: ClassVar[bool] = False
    evidence_limit: int = field(default=20)

    async def read(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> ProviderResult:
        # A provider answers only for the kinds it declares: the declaration is what makes
        # planning's pruning a proof. The pruning harness (tests/test_pruning.py) found three
        # answering outside it: a service profile for a repository with a `runtime`
        # attribute, active contributors and a bus factor for a person.
        subjects = [s for s in subjects if s.kind in self.subject_kinds]
        keys = tuple(s.key for s in subjects)
        if window.historical and self.tier is HistoryTier.NONE:
            return self._result(ProviderState.NOT_APPLICABLE, "no_history_for_time", keys)
        facts = await self.compute(source, subjects, window)
        if not facts:
            return self._result(ProviderState.NO_DATA, "no_rows_in_window", keys)
        # The grain answered at: a provider may read finer than it declares where it can
        # (activity reads the days a window cuts from commit records).
        grain = Grain.coarsest([f.grain for f in facts]) or self.grain
        notes = day_grain_notes(window) if grain is Grain.DAY else ()
        return ProviderResult(self.name, ProviderState.AVAILABLE, "ok", grain, tuple(facts),
                              keys, notes)  # fmt: skip

    def _result(
        self,
        state: ProviderState,
        reason: str,
        keys: tuple[str, ...],
        facts: tuple[Fact, ...] = (),
        notes: tuple[str, ...] = (),
    ) -> ProviderResult:
        return ProviderResult(self.name, state, reason, self.grain, facts, keys, notes)

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
        rule: EvidenceRule | None = None,
        grain: Grain | None = None,
    ) -> Fact:
        """`evidence`: every record the value rests on (the fact lists the first
        evidence_limit by key); `rule`: how those records are selected, so that all of them
        can be read back."""
        keys = sorted(set(evidence))
        selector = None
        if rule is not None and self.record_kinds:
            selector = self.selector(subject, window, rule)
        return Fact(
            id=fact_id(self.name, kind, subject, window.start, window.end),
            kind=kind,
            subject_key=subject,
            value=value,
            window_start=window.start,
            window_end=window.end,
            grain=grain or self.grain,
            provider=self.name,
            evidence=tuple(keys[: self.evidence_limit]),
            evidence_total=len(keys),
            evidence_selector=selector,
        )

    def selector(self, subject: str, window: Window, rule: EvidenceRule) -> EvidenceSelector:
        return EvidenceSelector(
            subject_key=subject,
            record_kinds=self.record_kinds,
            start=window.start,
            end=window.end,
            rule=rule,
        )

    async def records(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> dict[str, list[SourceRecord]]:
        return await source.source_records_of(
            [s.key for s in subjects], kinds=self.record_kinds, span=window.span
        )


def within(moment: datetime | None, window: Window) -> bool:
    """An instant in the window (half-open: see timecontext.admits)."""
    return moment is not None and admits(window.start, window.end, moment)


def whole_day(record: SourceRecord, window: Window) -> bool:
    """A daily rollup counts only when its whole UTC day lies in the window: a day that
    runs past the window's end (asOf 12:00) holds changes made after it."""
    stop = record.end if record.end is not None else record.start
    return whole_in(window.start, window.end, record.start, stop)


def day_grain_notes(window: Window) -> tuple[str, ...]:
    """What a day-grain answer leaves out: the partial UTC days at the window's edges."""
    days = []
    if window.start.time() != time():
        days.append(window.start.date().isoformat())
    if window.end.time() != time() and window.end > window.start:
        days.append(window.end.date().isoformat())
    if not days:
        return ()
    return (
        "Daily rollups count whole UTC days only (day grain): the partial day(s) "
        f"{' and '.join(dict.fromkeys(days))} at the edges of the window {iso(window.start)} "
        f"to {iso(window.end)} are not counted.",
    )


def open_at(record: SourceRecord, moment: datetime) -> bool:
    return record.start <= moment and (record.end is None or record.end > moment)


def hours(records: Sequence[SourceRecord]) -> float | None:
    spans = [(r.end - r.start).total_seconds() / 3600 for r in records if r.end is not None]
    return round(statistics.median(spans), 2) if spans else None


def prior(window: Window) -> Window:
    """The window of the same length just before: [start - length, start), so a record at
    `start` counts in the window and not in its prior."""
    return Window(*preceding(window.start, window.end), window.historical)
