"""Which source records back a fact: one selection rule per fact, used both by the providers
(to list a fact's evidence) and by whoever fetches all of it again later (the GraphQL
`evidence` connection of a claimed fact), so the two can never disagree.

A fact lists at most its provider's evidence limit of record keys; `evidence_total` counts
all of them, and the selector (subject, record kinds, window, rule) reads them all back.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict

from engine.domain.models import SourceRecord, SourceRecordKind, from_ns, to_ns
from engine.domain.windows import TimeSpan, admits, whole_in


@dataclass(frozen=True, slots=True)
class EvidenceRequest:
    """A page of the records a fact rests on (this module), by key, after the key
    `after`: the subject's records of `kinds` that its rule (an EvidenceRule value) chooses
    for the half-open window [start_ns, end_ns). `limit` 0 with `evidence_counts`: all.
    With `actor`, only the records whose actor is that key (`others`: only those whose actor
    is not it, nor one of `also`): one person's part of a module's records, or everyone
    else's ("besides Nate and dependabot": everyone's but theirs)."""

    subject_key: str
    kinds: tuple[SourceRecordKind, ...]
    rule: str
    start_ns: int
    end_ns: int
    limit: int = 0
    after: str | None = None
    actor: str | None = None
    others: bool = False
    also: tuple[str, ...] = ()



ROLLUP_METRICS = ("commits", "lines_added", "lines_removed")


class EvidenceRule(enum.StrEnum):
    """Closed: how a fact's records are chosen among the subject's records of its kinds."""

    ATTRIBUTED_ROLLUPS = "attributed_rollups"  # a person's nonzero change rollups, whole days
    COMMIT_ROLLUPS = "commit_rollups"  # commit rollups, whole days
    MERGED = "merged"  # merged in the window or the window before it
    OPEN_AT_END = "open_at_end"  # open at the window's end
    STARTED = "started"  # started in the window
    RESOLVED = "resolved"  # started in the window and resolved before its end
    OVERDUE = "overdue"  # due before the window's end and open then
    COMPLETED = "completed"  # ended in the window
    PRODUCTION_DEPLOYS = "production_deploys"  # production deploys in the window
    FAILED_DEPLOYS = "failed_deploys"  # of those, failed or rolled back
    CHANGES = "changes"  # commits made, and pull requests merged, in the window
    # Commit rollups of whole days, and the commit records in the window on the days it cuts
    # (used when those days' records account for every commit their rollups count).
    EXACT_COMMITS = "exact_commits"
    # A person's change rollups of whole days, and the commit records with an author on the
    # days the window cuts (each carries its lines): when those days' records account for
    # every commit their rollups count. Active contributors and bus factor read to the instant.
    EXACT_ATTRIBUTED = "exact_attributed"


class EvidenceSelector(BaseModel):
    """Everything needed to read a fact's records back: a half-open window [start, end)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject_key: str
    record_kinds: tuple[SourceRecordKind, ...]
    start: datetime
    end: datetime
    rule: EvidenceRule
    # One person's part of the subject's records (engine/resolving/together.py): those whose actor
    # is `actor`, or with `others` those whose actor is anyone else (and none of `also`: several
    # people left out, "besides Nate and dependabot").
    actor: str | None = None
    others: bool = False
    also: tuple[str, ...] = ()

    @property
    def prior_start(self) -> datetime:
        return self.start - (self.end - self.start)

    def span(self) -> TimeSpan:
        """The span to read: rules that compare against the window before reach back; a
        rule that reads the days the window cuts reads them whole."""
        if self.rule in (EvidenceRule.EXACT_COMMITS, EvidenceRule.EXACT_ATTRIBUTED):
            return whole_days(self.start, self.end)
        start = self.prior_start if self.rule is EvidenceRule.MERGED else self.start
        return TimeSpan(_ns(start), _ns(self.end))

    def request(self, limit: int = 0, after: str | None = None) -> EvidenceRequest:
        """The store's page of these records (OrgGraph.evidence_pages), after the key `after`."""
        return EvidenceRequest(
            self.subject_key, self.record_kinds, self.rule.value, _ns(self.start),
            _ns(self.end), limit, after, self.actor, self.others, self.also,
        )  # fmt: skip

    @classmethod
    def of(cls, request: EvidenceRequest) -> EvidenceSelector:
        """The selector a store's request was made from (the in-memory store selects with it)."""
        start, end = from_ns(request.start_ns), from_ns(request.end_ns)
        assert start is not None and end is not None
        return cls(
            subject_key=request.subject_key, record_kinds=request.kinds, start=start, end=end,
            rule=EvidenceRule(request.rule), actor=request.actor, others=request.others,
            also=request.also,
        )  # fmt: skip


def _midnight(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def cut_days(start: datetime, end: datetime) -> list[datetime]:
    """The UTC days (their midnights) the window [start, end) covers only in part."""
    days = [_midnight(start)] if start != _midnight(start) else []
    if end != _midnight(end) and end > start:
        days.append(_midnight(end))
    return list(dict.fromkeys(days))


def whole_days(start: datetime, end: datetime) -> TimeSpan:
    """The window widened to whole UTC days (the cut days read whole)."""
    stop = _midnight(end) + timedelta(days=1) if end != _midnight(end) else end
    return TimeSpan(_ns(_midnight(start)), _ns(stop))


def unread_days(records: Sequence[SourceRecord], start: datetime, end: datetime) -> list[datetime]:
    """The days [start, end) cuts that its commit records cannot count exactly: days whose
    `commits` rollups count more (or fewer) commits than the day has `commit` records (the
    git import writes both; other sources may write rollups only)."""
    missing = []
    for day in cut_days(start, end):
        rolled = sum(
            int(r.value or 0) for r in records if r.metric == "commits" and r.start == day
        )
        made = sum(
            1
            for r in records
            if r.record_kind is SourceRecordKind.COMMIT and _midnight(r.start) == day
        )
        if rolled != made:
            missing.append(day)
    return missing


def on_cut_day(moment: datetime, start: datetime, end: datetime) -> bool:
    """`moment` lies in [start, end), on a day the window covers only in part."""
    return _in(moment, start, end) and _midnight(moment) in cut_days(start, end)


def counted_commits(r: SourceRecord, start: datetime, end: datetime) -> int:
    """What one record of the exact-commits rule adds: a whole day's rollup its value, a
    commit record on a cut day one."""
    if r.metric == "commits" and _whole_day(r, start, end):
        return int(r.value or 0)
    return 1


def _ns(moment: datetime) -> int:
    ns = to_ns(moment)  # whole microseconds, as records are stored (no float rounding)
    assert ns is not None
    return ns


def _whole_day(r: SourceRecord, start: datetime, end: datetime) -> bool:
    return whole_in(start, end, r.start, r.end if r.end is not None else r.start)


def _in(moment: datetime | None, start: datetime, end: datetime) -> bool:
    return moment is not None and admits(start, end, moment)


def _open_at(r: SourceRecord, moment: datetime) -> bool:
    return r.start <= moment and (r.end is None or r.end > moment)


Test = Callable[[SourceRecord, EvidenceSelector], bool]

def _attributed(r: SourceRecord, s: EvidenceSelector) -> bool:
    return (
        r.actor is not None
        and r.metric in ROLLUP_METRICS
        and bool(r.value)
        and _whole_day(r, s.start, s.end)
    )


def cut_commit(r: SourceRecord, start: datetime, end: datetime) -> bool:
    """A commit record with an author in [start, end), on a day the window cuts."""
    return (
        r.record_kind is SourceRecordKind.COMMIT
        and r.actor is not None
        and on_cut_day(r.start, start, end)
    )


_RULES: dict[EvidenceRule, Test] = {
    EvidenceRule.ATTRIBUTED_ROLLUPS: _attributed,
    EvidenceRule.EXACT_ATTRIBUTED: lambda r, s: _attributed(r, s) or cut_commit(r, s.start, s.end),
    EvidenceRule.COMMIT_ROLLUPS: lambda r, s: (
        r.metric == "commits" and _whole_day(r, s.start, s.end)
    ),
    EvidenceRule.MERGED: lambda r, s: r.status == "merged" and _in(r.end, s.prior_start, s.end),
    EvidenceRule.OPEN_AT_END: lambda r, s: _open_at(r, s.end),
    EvidenceRule.STARTED: lambda r, s: _in(r.start, s.start, s.end),
    EvidenceRule.RESOLVED: lambda r, s: (
        _in(r.start, s.start, s.end) and r.end is not None and r.end < s.end
    ),
    EvidenceRule.OVERDUE: lambda r, s: r.due is not None and r.due < s.end and _open_at(r, s.end),
    EvidenceRule.COMPLETED: lambda r, s: _in(r.end, s.start, s.end),
    EvidenceRule.PRODUCTION_DEPLOYS: lambda r, s: (
        r.environment == "production" and _in(r.start, s.start, s.end)
    ),
    EvidenceRule.FAILED_DEPLOYS: lambda r, s: (
        r.environment == "production"
        and _in(r.start, s.start, s.end)
        and r.status in ("failed", "rolled_back")
    ),
    EvidenceRule.CHANGES: lambda r, s: is_change(r, s.start, s.end),
    EvidenceRule.EXACT_COMMITS: lambda r, s: (
        (r.metric == "commits" and _whole_day(r, s.start, s.end))
        or (r.record_kind is SourceRecordKind.COMMIT and on_cut_day(r.start, s.start, s.end))
    ),
}


def change_time(r: SourceRecord) -> datetime | None:
    """When a record is a change: a commit when it was made, a pull request when merged."""
    if r.record_kind is SourceRecordKind.COMMIT:
        return r.start
    if r.record_kind is SourceRecordKind.PULL_REQUEST and r.status == "merged":
        return r.end
    return None


def is_change(r: SourceRecord, start: datetime, end: datetime) -> bool:
    return _in(change_time(r), start, end)


def by_actor(
    record: SourceRecord, actor: str | None, others: bool, also: tuple[str, ...] = ()
) -> bool:
    """The record is in one person's part (`actor`), or with `others` in everyone else's
    (everyone's but `actor`'s and `also`'s); every record when no actor is given."""
    return actor is None or (record.actor in (actor, *also)) is not others


def select(selector: EvidenceSelector, records: Sequence[SourceRecord]) -> list[SourceRecord]:
    """The records backing the fact, by key (each once)."""
    mine = [
        r
        for r in records
        if r.subject == selector.subject_key
        and r.record_kind in selector.record_kinds
        and by_actor(r, selector.actor, selector.others, selector.also)
    ]
    test = _RULES[selector.rule]
    chosen = {r.key: r for r in mine if test(r, selector)}
    return [chosen[k] for k in sorted(chosen)]
