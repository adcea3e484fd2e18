"""Time series a chart can plot directly: counts or sums per day or week for one subject."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import strawberry
from strawberry.types import Info

from engine.errors import PublicError
from engine.models import SourceRecord, SourceRecordKind, from_ns, to_ns
from engine.ports import TimeSpan
from resolvers.context import RequestContext
from resolvers.loaders import RecordsKey

if TYPE_CHECKING:
    from resolvers.types import Subject

DAY_NS = 86_400 * 10**9
INT_MAX = 2**31 - 1  # GraphQL's Int is 32-bit signed
OUT_OF_RANGE = "VALUE_OUT_OF_RANGE"


def _int(value: float) -> int:
    """A value as GraphQL's Int, or a stated refusal: a sum of metric rollups can outgrow it
    (the values are any finite number), and a clamped or wrapped count would be a wrong one."""
    whole = round(value)
    if not -INT_MAX - 1 <= whole <= INT_MAX:
        raise PublicError(
            "This time series sums beyond the range of GraphQL's Int (2^31 - 1); ask for a "
            "narrower window or a smaller bucket.",
            code=OUT_OF_RANGE,
        )
    return whole


@strawberry.enum(description="Width of one time-series bucket (UTC, weeks start on Monday).")
class TimeBucket(enum.Enum):
    DAY = "day"
    WEEK = "week"


@strawberry.enum(description="What a time series counts or sums.")
class ActivityMetric(enum.Enum):
    PULL_REQUESTS_OPENED = "pull_requests_opened"
    PULL_REQUESTS_MERGED = "pull_requests_merged"
    INCIDENTS_STARTED = "incidents_started"
    INCIDENTS_RESOLVED = "incidents_resolved"
    DEPLOYS = "deploys"
    FAILED_DEPLOYS = "failed_deploys"
    WORK_ITEMS_COMPLETED = "work_items_completed"
    COMMITS = "commits"
    LINES_CHANGED = "lines_changed"


@dataclass(frozen=True)
class _Rule:
    kind: SourceRecordKind
    # The instant a record counts at (None: it does not count), and what it adds.
    when: Callable[[SourceRecord], datetime | None]
    amount: Callable[[SourceRecord], float] = lambda _: 1.0


def _merged(r: SourceRecord) -> datetime | None:
    return r.end if r.status == "merged" else None


def _failed(r: SourceRecord) -> datetime | None:
    return r.start if r.status in ("failed", "rolled_back") else None


def _metric(name: str) -> _Rule:
    return _Rule(
        SourceRecordKind.METRIC_ROLLUP,
        lambda r: r.start if r.metric == name else None,
        lambda r: float(r.value or 0.0),
    )


RULES: dict[ActivityMetric, _Rule] = {
    ActivityMetric.PULL_REQUESTS_OPENED: _Rule(SourceRecordKind.PULL_REQUEST, lambda r: r.start),
    ActivityMetric.PULL_REQUESTS_MERGED: _Rule(SourceRecordKind.PULL_REQUEST, _merged),
    ActivityMetric.INCIDENTS_STARTED: _Rule(SourceRecordKind.INCIDENT, lambda r: r.start),
    ActivityMetric.INCIDENTS_RESOLVED: _Rule(SourceRecordKind.INCIDENT, lambda r: r.end),
    ActivityMetric.DEPLOYS: _Rule(SourceRecordKind.DEPLOY, lambda r: r.start),
    ActivityMetric.FAILED_DEPLOYS: _Rule(SourceRecordKind.DEPLOY, _failed),
    ActivityMetric.WORK_ITEMS_COMPLETED: _Rule(SourceRecordKind.WORK_ITEM, lambda r: r.end),
    ActivityMetric.COMMITS: _metric("commits"),
    ActivityMetric.LINES_CHANGED: _metric("lines_changed"),
}


@strawberry.type(description="One bucket of a time series.")
class TimePoint:
    start: datetime
    value: int = strawberry.field(
        description="What the bucket adds up: records counted, or commits and lines changed "
        "summed from metric rollups (whole numbers; a rollup value with a fraction is rounded "
        "to the nearest)."
    )
    count: int = strawberry.field(description="Records that fell into the bucket.")


@strawberry.type(description="A zero-filled series of buckets covering the whole window.")
class TimeSeries:
    metric: ActivityMetric
    bucket: TimeBucket
    points: list[TimePoint]

    @strawberry.field(description="Sum of every bucket's value.")
    def total(self) -> int:
        return _int(sum(p.value for p in self.points))


def _bucket_start(ns: int, width: int, weekly: bool) -> int:
    # 1970-01-01 was a Thursday; weeks start on Monday, four days later.
    offset = 4 * DAY_NS if weekly else 0
    return ((ns - offset) // width) * width + offset


def bucketize(
    records: list[SourceRecord], rule: _Rule, span: TimeSpan, bucket: TimeBucket
) -> list[TimePoint]:
    weekly = bucket is TimeBucket.WEEK
    width = DAY_NS * (7 if weekly else 1)
    first = _bucket_start(span.start_ns, width, weekly)
    starts = range(first, span.end_ns + 1, width)
    values = dict.fromkeys(starts, 0.0)
    counts = dict.fromkeys(starts, 0)
    for record in records:
        moment = rule.when(record)
        ns = to_ns(moment) if moment else None
        if ns is None or not span.start_ns <= ns <= span.end_ns:
            continue
        slot = _bucket_start(ns, width, weekly)
        values[slot] += rule.amount(record)
        counts[slot] += 1
    # Every metric counts or sums whole things; summed as floats (rollup values are
    # numbers), then rounded once per bucket.
    return [
        TimePoint(start=from_ns(s), value=_int(values[s]), count=counts[s])  # type: ignore[arg-type]
        for s in starts
    ]


async def activity(
    info: Info[RequestContext, None],
    subject: Subject,
    metric: ActivityMetric,
    bucket: TimeBucket | None,
    span: TimeSpan,
) -> TimeSeries:
    rule = RULES[metric]
    bucket = bucket or TimeBucket.DAY
    records = await info.context.loaders.records.load(RecordsKey(subject.key, (rule.kind,), span))
    return TimeSeries(metric=metric, bucket=bucket, points=bucketize(records, rule, span, bucket))
