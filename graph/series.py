"""Time series added up in the database: a chart's statement returns one row per non-empty
bucket (OrgGraph.series), not every record of its window. The in-memory store's
engine/memory/relations.series is the same arithmetic in Python; the contract suite
(tests/test_series_buckets.py) holds the two to each other on every backend.

A request row: [index, subject key, kind, at_end, statuses, metric, span start, span end,
bucket width, bucket offset]. Buckets are computed in integers (nanoseconds exceed a double's
precision): the floor of (t - offset) to a multiple of the width, for either sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ports import SeriesRequest

SERIES = """
UNWIND $reqs AS q
MATCH (:Activity {org_id: $org, subject_key: q[1]})-[:HOLDS]->(r:SourceRecord)
WHERE r.record_kind = q[2]
  AND (size(q[4]) = 0 OR r.status IN q[4])
  AND (q[5] IS NULL OR r.metric = q[5])
WITH q, r, CASE WHEN q[3] THEN r.end_ns ELSE r.start_ns END AS t
WHERE t IS NOT NULL AND q[6] <= t AND t <= q[7]
WITH q, r, t - q[9] AS x
WITH q[0] AS i, x - ((x % q[8]) + q[8]) % q[8] + q[9] AS slot,
     CASE WHEN q[5] IS NULL THEN 1.0 ELSE coalesce(toFloat(r.value), 0.0) END AS amount
RETURN i, slot, sum(amount) AS total, count(*) AS n
ORDER BY i, slot
"""


def rows(requests: Sequence[SeriesRequest]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for index, q in enumerate(requests):
        out.append([
            index, q.key, q.kind.value, q.at_end, list(q.statuses), q.metric,
            q.span.start_ns, q.span.end_ns, q.width_ns, q.offset_ns,
        ])  # fmt: skip
    return out
