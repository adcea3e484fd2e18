"""Time series a chart can plot directly: counts or sums per day or week for one subject."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import strawberry
from strawberry.types import Info

from engine.domain.errors import PublicError
from engine.domain.models import SourceRecordKind, from_ns
from engine.ports import SeriesBucket, SeriesRequest, TimeSpan
from resolvers.context import RequestContext

if TYPE_CHECKING:
    from resolvers.subject import Subject

DAY_NS = 86_400 * 10**9
INT_MAX = 2**31 - 1  # GraphQL's Int is 32-bit signed
OUT_OF_RANGE = "VALUE_OUT_OF_RANGE"


def as_int(value: float) -> int:
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
    """Which records a metric counts and when: those of `kind` (with one of `statuses`, any
    when empty), at their start or end; with `metric`, rollups of it, their values summed."""

    kind: SourceRecordKind
    at_end: bool = False
    statuses: tuple[str, ...] = ()
    metric: str | None = None


RULES: dict[ActivityMetric, _Rule] = {
    ActivityMetric.PULL_REQUESTS_OPENED: _Rule(SourceRecordKind.PULL_REQUEST),
    ActivityMetric.PULL_REQUESTS_MERGED: _Rule(SourceRecordKind.PULL_REQUEST, True, ("merged",)),
    ActivityMetric.INCIDENTS_STARTED: _Rule(SourceRecordKind.INCIDENT),
    ActivityMetric.INCIDENTS_RESOLVED: _Rule(SourceRecordKind.INCIDENT, True),
    ActivityMetric.DEPLOYS: _Rule(SourceRecordKind.DEPLOY),
    ActivityMetric.FAILED_DEPLOYS: _Rule(SourceRecordKind.DEPLOY, False, ("failed", "rolled_back")),
    ActivityMetric.WORK_ITEMS_COMPLETED: _Rule(SourceRecordKind.WORK_ITEM, True),
    ActivityMetric.COMMITS: _Rule(SourceRecordKind.METRIC_ROLLUP, metric="commits"),
    ActivityMetric.LINES_CHANGED: _Rule(SourceRecordKind.METRIC_ROLLUP, metric="lines_changed"),
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
        return as_int(sum(p.value for p in self.points))


def _bucket_start(ns: int, width: int, weekly: bool) -> int:
    # 1970-01-01 was a Thursday; weeks start on Monday, four days later.
    offset = 4 * DAY_NS if weekly else 0
    return ((ns - offset) // width) * width + offset


def bucket_starts(span: TimeSpan, bucket: TimeBucket) -> range:
    """Every bucket of a window, zero-filled: what `points` holds (and the cost limiter
    charges: resolvers/costs.py)."""
    weekly = bucket is TimeBucket.WEEK
    width = DAY_NS * (7 if weekly else 1)
    return range(_bucket_start(span.start_ns, width, weekly), span.end_ns + 1, width)


def request(key: str, rule: _Rule, span: TimeSpan, bucket: TimeBucket) -> SeriesRequest:
    weekly = bucket is TimeBucket.WEEK
    width = DAY_NS * (7 if weekly else 1)
    offset = 4 * DAY_NS if weekly else 0
    return SeriesRequest(
        key, rule.kind, span, width, offset, rule.at_end, rule.statuses, rule.metric
    )


def points(found: list[SeriesBucket], span: TimeSpan, bucket: TimeBucket) -> list[TimePoint]:
    """The store's non-empty buckets, zero-filled over the window. Every metric counts or sums
    whole things; the store sums rollup values as floats, rounded here once per bucket."""
    added = {slot: (value, count) for slot, value, count in found}
    return [
        TimePoint(start=from_ns(s), value=as_int(added.get(s, (0.0, 0))[0]),  # type: ignore[arg-type]
                  count=added.get(s, (0.0, 0))[1])
        for s in bucket_starts(span, bucket)
    ]  # fmt: skip


async def activity(
    info: Info[RequestContext, None],
    subject: Subject,
    metric: ActivityMetric,
    bucket: TimeBucket | None,
    span: TimeSpan,
) -> TimeSeries:
    """One row per non-empty bucket leaves the store (OrgGraph.series), not the records."""
    bucket = bucket or TimeBucket.DAY
    asked = request(subject.key, RULES[metric], span, bucket)
    found = await info.context.loaders.series.load(asked)
    return TimeSeries(metric=metric, bucket=bucket, points=points(found, span, bucket))
