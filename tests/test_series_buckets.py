"""The graph port's time series (OrgGraph.series), on every backend: the buckets a store adds up
are what the chart's old rule made of the window's full read (restated here: each record of
the kind counts at its start or end, if that lies in the closed span, in the bucket whose
floor holds it; a rollup adds its value), with records on the span's and the buckets'
boundaries, a microsecond either side, without an end, of every status, and, for weekly
buckets, in the first days of 1970, before the first Monday (a negative offset)."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest

from engine.domain.models import SourceRecord, SourceRecordKind, to_ns
from engine.ports import GraphStore, SeriesRequest, TimeSpan
from tests.helpers import load, subject

KEY = "repository:s"
DAY = 86_400 * 10**9
MOMENTS = [
    "1970-01-01T00:00:00Z", "1970-01-02T06:00:00Z", "1970-01-05T00:00:00Z",
    "1970-01-04T23:59:59.999999Z", "2026-03-01T00:00:00Z", "2026-03-01T23:59:59.999999Z",
    "2026-03-02T00:00:00Z", "2026-03-02T00:00:00.000001Z", "2026-03-09T12:00:00Z",
    "2026-03-15T23:59:59.999999Z", "2026-03-16T00:00:00Z", "2026-03-31T00:00:00Z",
]  # fmt: skip
KINDS = ["pull_request", "incident", "work_item", "deploy", "metric_rollup"]
SPANS = [
    ("2026-03-01T00:00:00Z", "2026-03-16T00:00:00Z"),
    ("2026-03-01T23:59:59.999999Z", "2026-03-15T23:59:59.999999Z"),
    ("1970-01-01T00:00:00Z", "1970-01-20T00:00:00Z"),
]


def _ns(text: str) -> int:
    ns = to_ns(datetime.fromisoformat(text))
    assert ns is not None
    return ns


def _records(n: int) -> list[dict[str, Any]]:
    pick = random.Random(9).choice
    rows = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        start = pick(MOMENTS)
        row: dict[str, Any] = {"type": "source_record", "key": f"s:{i:03d}", "record_kind": kind,
                               "subject": KEY, "start": start}  # fmt: skip
        end = pick([None, *[m for m in MOMENTS if _ns(m) >= _ns(start)]])
        if end is not None:
            row["end"] = end
        row["status"] = pick([None, "merged", "open", "failed", "rolled_back"])
        if kind == "metric_rollup":
            row["metric"] = pick(["commits", "lines_changed", "churn"])
            row["value"] = pick([1, 2.25, 0, -3, 1000.5])
        rows.append(row)
    return rows


def _expected(records: list[SourceRecord], q: SeriesRequest) -> list[tuple[int, float, int]]:
    values: dict[int, float] = defaultdict(float)
    counts: dict[int, int] = defaultdict(int)
    for r in records:
        if r.record_kind is not q.kind or (q.statuses and r.status not in q.statuses):
            continue
        if q.metric is not None and r.metric != q.metric:
            continue
        moment = to_ns(r.end if q.at_end else r.start)
        if moment is None or not q.span.start_ns <= moment <= q.span.end_ns:
            continue
        slot = (moment - q.offset_ns) // q.width_ns * q.width_ns + q.offset_ns
        values[slot] += 1.0 if q.metric is None else float(r.value or 0.0)
        counts[slot] += 1
    return [(s, values[s], counts[s]) for s in sorted(values)]


def _requests() -> list[SeriesRequest]:
    shapes: list[tuple[SourceRecordKind, bool, tuple[str, ...], str | None]] = [
        (SourceRecordKind.PULL_REQUEST, False, (), None),
        (SourceRecordKind.PULL_REQUEST, True, ("merged",), None),
        (SourceRecordKind.INCIDENT, True, (), None),
        (SourceRecordKind.DEPLOY, False, ("failed", "rolled_back"), None),
        (SourceRecordKind.WORK_ITEM, True, (), None),
        (SourceRecordKind.METRIC_ROLLUP, False, (), "commits"),
        (SourceRecordKind.METRIC_ROLLUP, False, (), "lines_changed"),
    ]
    return [
        SeriesRequest(KEY, kind, TimeSpan(_ns(a), _ns(b)), width, offset, end, statuses, metric)
        for kind, end, statuses, metric in shapes
        for a, b in SPANS
        for width, offset in ((DAY, 0), (7 * DAY, 4 * DAY))
    ]


async def test_a_stores_buckets_are_the_old_rules_over_the_full_read(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    assert (await load(graph, [subject(KEY), *_records(300)])).ok
    everything = (await graph.source_records_of([KEY]))[KEY]
    asked = _requests()
    got = await graph.series(asked)
    assert len(got) == len(asked)
    for q, buckets in zip(asked, got, strict=True):
        want = _expected(everything, q)
        assert [(s, n) for s, _, n in buckets] == [(s, n) for s, _, n in want], q
        assert [v for _, v, _ in buckets] == pytest.approx([v for _, v, _ in want]), q
    assert sum(len(b) for b in got) > len(asked)  # the comparison is not of empty series
    # Weekly buckets before 1970's first Monday start on the Monday before the epoch.
    early = [b for q, b in zip(asked, got, strict=True)
             if q.width_ns == 7 * DAY and q.span.start_ns == 0 and b]  # fmt: skip
    assert early and any(b[0][0] == -3 * DAY for b in early)
    assert await graph.series([]) == []
    none = SeriesRequest("repository:none", SourceRecordKind.DEPLOY, TimeSpan(0, DAY), DAY)
    assert await graph.series([none]) == [[]]


def test_the_rule_restated_here_is_the_floor_for_either_sign() -> None:
    q = SeriesRequest(KEY, SourceRecordKind.DEPLOY, TimeSpan(0, 30 * DAY), 7 * DAY, 4 * DAY)
    record = SourceRecord(key="deploy:d", record_kind=SourceRecordKind.DEPLOY, subject=KEY,
                          start=datetime(1970, 1, 2, tzinfo=UTC))  # fmt: skip
    assert _expected([record], q) == [(-3 * DAY, 1.0, 1)]
