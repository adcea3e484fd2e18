"""Providers over canonical source records: delivery, incidents, schedule, deploys, activity.

All derive state from immutable interval fields (opened/merged, started/resolved,
created/completed, deployed) or daily rollups, so they can answer for the past.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.evidence import EvidenceRule as R
from engine.domain.evidence import counted_commits, cut_days, select, unread_days, whole_days
from engine.domain.facts import Fact, FactKind, Grain, HistoryTier
from engine.domain.models import SourceRecord, SourceRecordKind, StoredSubject, SubjectKind
from engine.ports import FactSource
from engine.providers.base import Provider, Window, hours, open_at, prior, within


class DeliveryProvider(Provider):
    """Pull requests: merged throughput (against the prior window), cycle time, open ones."""

    name = "delivery"
    kinds = frozenset({FactKind.THROUGHPUT, FactKind.CYCLE_TIME, FactKind.OPEN_PULL_REQUESTS})
    subject_kinds = frozenset({SubjectKind.REPOSITORY, SubjectKind.SERVICE})
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL
    record_kinds = (SourceRecordKind.PULL_REQUEST,)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        before_window = prior(window)
        found = await source.source_records_of(
            [s.key for s in subjects],
            kinds=self.record_kinds,
            span=Window(before_window.start, window.end, window.historical).span,
        )
        facts: list[Fact] = []
        for key, records in found.items():
            if records:
                facts += self._facts(key, records, window, before_window)
        return facts

    def _facts(
        self, key: str, records: Sequence[SourceRecord], window: Window, before_window: Window
    ) -> list[Fact]:
        """Throughput and cycle time against the window before, and the open pull requests."""
        merged = [r for r in records if r.status == "merged" and within(r.end, window)]
        before = [r for r in records if r.status == "merged" and within(r.end, before_window)]
        still_open = [r for r in records if open_at(r, window.end)]
        return [
            self.fact(
                FactKind.THROUGHPUT,
                key,
                {"merged": len(merged), "prior_merged": len(before)},
                window,
                [r.key for r in merged + before],
                R.MERGED,
            ),
            self.fact(
                FactKind.CYCLE_TIME,
                key,
                {
                    "median_hours": hours(merged),
                    "prior_median_hours": hours(before),
                    "merged": len(merged),
                },
                window,
                [r.key for r in merged + before],
                R.MERGED,
            ),
            self.fact(
                FactKind.OPEN_PULL_REQUESTS,
                key,
                {"open": len(still_open)},
                window,
                [r.key for r in still_open],
                R.OPEN_AT_END,
            ),
        ]


class IncidentProvider(Provider):
    """Incidents on a service: started in the window, open at its end, time to resolve.

    Severity is revised in place (the record keeps only its latest value), so a historical
    read does not report it: a caveat would not undo a wrong value."""

    name = "incidents"
    kinds = frozenset({FactKind.INCIDENT_COUNT, FactKind.OPEN_INCIDENTS, FactKind.TIME_TO_RESOLVE})
    subject_kinds = frozenset({SubjectKind.SERVICE, SubjectKind.REPOSITORY})
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL
    record_kinds = (SourceRecordKind.INCIDENT,)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        for key, records in (await self.records(source, subjects, window)).items():
            if not records:
                continue
            started = [r for r in records if within(r.start, window)]
            unresolved = [r for r in records if open_at(r, window.end)]
            resolved = [r for r in started if r.end is not None and r.end < window.end]
            count: dict[str, object] = {"started": len(started)}
            if not window.historical:
                count["by_severity"] = _severities(started)
            facts.append(
                self.fact(
                    FactKind.INCIDENT_COUNT, key, count, window, [r.key for r in started], R.STARTED
                )
            )
            facts.append(
                self.fact(
                    FactKind.OPEN_INCIDENTS,
                    key,
                    {"open": len(unresolved)},
                    window,
                    [r.key for r in unresolved],
                    R.OPEN_AT_END,
                )
            )
            facts.append(
                self.fact(
                    FactKind.TIME_TO_RESOLVE,
                    key,
                    {"median_hours": hours(resolved), "resolved": len(resolved)},
                    window,
                    [r.key for r in resolved],
                    R.RESOLVED,
                )
            )
        return facts


def _severities(records: Sequence[SourceRecord]) -> dict[str, int]:
    out: dict[str, int] = {}
    for record in records:
        out[record.severity or "unknown"] = out.get(record.severity or "unknown", 0) + 1
    return dict(sorted(out.items()))


class ScheduleProvider(Provider):
    """Work items: overdue at the window's end (due before it, not completed by it), and
    completed within the window."""

    name = "schedule"
    kinds = frozenset({FactKind.WORK_ITEMS_OVERDUE, FactKind.WORK_ITEMS_COMPLETED})
    subject_kinds = frozenset({SubjectKind.PROJECT, SubjectKind.REPOSITORY, SubjectKind.TEAM})
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL
    record_kinds = (SourceRecordKind.WORK_ITEM,)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        for key, records in (await self.records(source, subjects, window)).items():
            if not records:
                continue
            overdue = [
                r
                for r in records
                if r.due is not None and r.due < window.end and open_at(r, window.end)
            ]
            done = [r for r in records if within(r.end, window)]
            days = [(window.end - r.due).days for r in overdue if r.due is not None]
            facts.append(
                self.fact(
                    FactKind.WORK_ITEMS_OVERDUE,
                    key,
                    {"overdue": len(overdue), "max_days_late": max(days, default=0)},
                    window,
                    [r.key for r in overdue],
                    R.OVERDUE,
                )
            )
            facts.append(
                self.fact(
                    FactKind.WORK_ITEMS_COMPLETED,
                    key,
                    {"completed": len(done)},
                    window,
                    [r.key for r in done],
                    R.COMPLETED,
                )
            )
        return facts


class DeployProvider(Provider):
    """Production deploys in the window, and those that failed or were rolled back."""

    name = "deploys"
    kinds = frozenset({FactKind.DEPLOY_FREQUENCY, FactKind.FAILED_DEPLOYS})
    subject_kinds = frozenset({SubjectKind.SERVICE})
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL
    record_kinds = (SourceRecordKind.DEPLOY,)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        for key, records in (await self.records(source, subjects, window)).items():
            production = [
                r for r in records if within(r.start, window) and r.environment == "production"
            ]
            if not production:
                continue
            failed = [r for r in production if r.status in ("failed", "rolled_back")]
            facts.append(
                self.fact(
                    FactKind.DEPLOY_FREQUENCY,
                    key,
                    {"deploys": len(production)},
                    window,
                    [r.key for r in production],
                    R.PRODUCTION_DEPLOYS,
                )
            )
            facts.append(
                self.fact(
                    FactKind.FAILED_DEPLOYS,
                    key,
                    {"failed": len(failed), "deploys": len(production)},
                    window,
                    [r.key for r in failed],
                    R.FAILED_DEPLOYS,
                )
            )
        return facts


class ActivityProvider(Provider):
    """Commits in the window. Whole UTC days count by their daily commit rollups; a day the
    window cuts (asOf 12:00) counts by its commit records inside the window, when the day's
    records account for every commit its rollups count (the git import writes both): the
    count is then exact to the instant (grain instant). A cut day that cannot be read so is
    left out, and the answer says so (grain day)."""

    name = "activity"
    kinds = frozenset({FactKind.COMMIT_ACTIVITY})
    subject_kinds = frozenset({SubjectKind.REPOSITORY, SubjectKind.MODULE, SubjectKind.PERSON})
    grain = Grain.DAY
    tier = HistoryTier.ROLLUP
    record_kinds = (SourceRecordKind.METRIC_ROLLUP, SourceRecordKind.COMMIT)

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        found = await source.source_records_of(
            [s.key for s in subjects],
            kinds=self.record_kinds,
            span=whole_days(window.start, window.end),
        )
        for key, records in found.items():
            exact = not unread_days(records, window.start, window.end)
            rule = R.EXACT_COMMITS if exact else R.COMMIT_ROLLUPS
            selector = self.selector(key, window, rule)
            counted = select(selector, records)
            if not counted:
                continue
            total = sum(counted_commits(r, window.start, window.end) for r in counted)
            # Rollups attributed to people (git import) come several to a day.
            distinct = len({r.start.date() for r in counted})
            cut = bool(cut_days(window.start, window.end))
            facts.append(
                self.fact(
                    FactKind.COMMIT_ACTIVITY,
                    key,
                    {"commits": total, "days": distinct},
                    window,
                    [r.key for r in counted],
                    rule,
                    grain=Grain.INSTANT if exact and cut else Grain.DAY,
                )
            )
        return facts
