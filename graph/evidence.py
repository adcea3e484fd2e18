"""A fact's evidence read in the database: each rule of engine/domain/evidence.py as a Cypher
condition, so a page of a fact's records (by key) is chosen and cut in the statement and only
the page leaves the store, not every record of the fact's window.

The conditions restate engine/domain/evidence.py's tests over the stored properties (times as int64
nanoseconds, half-open windows); the contract suite (tests/test_evidence_pages.py) holds every
rule, on every backend, to the in-memory store's answer, which is the rule itself. Rules come
from a closed enum; constants and times are parameters, never text in the statement.

A request row: [index, subject key, kinds, span start, span end, window start, window end,
prior window start, after key, limit, actor key or null, others, further keys left out],
where the span is what the window's records meet (EvidenceSelector.span): the same first cut
as the Python read, then the rule; with an actor, only its records (or, `others`, everyone
else's: the actor's and the further keys' left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.domain.evidence import ROLLUP_METRICS, EvidenceRule, EvidenceSelector
from engine.ports import EvidenceRequest

_S, _E, _P = "q[5]", "q[6]", "q[7]"
_WHOLE = f"{_S} <= r.start_ns AND coalesce(r.end_ns, r.start_ns) <= {_E}"
_OPEN_AT_END = f"r.start_ns <= {_E} AND (r.end_ns IS NULL OR r.end_ns > {_E})"
_STARTED = f"{_S} <= r.start_ns AND r.start_ns < {_E}"
_PRODUCTION = "r.environment = $production"

_ATTRIBUTED = (
    "r.actor_key IS NOT NULL AND r.metric IN $rollups AND r.value IS NOT NULL "
    f"AND r.value <> 0 AND {_WHOLE}"
)
# A day the window cuts: the window's start is not a midnight and the record falls before
# the next one, or its end is not and the record falls at or after the last one.
_CUT_COMMIT = (
    f"r.record_kind = $commit AND {_STARTED} AND "
    f"(({_S} % $day <> 0 AND r.start_ns < {_S} - {_S} % $day + $day) OR "
    f"({_E} % $day <> 0 AND r.start_ns >= {_E} - {_E} % $day))"
)

RULES: dict[EvidenceRule, str] = {
    EvidenceRule.ATTRIBUTED_ROLLUPS: _ATTRIBUTED,
    EvidenceRule.EXACT_ATTRIBUTED: (
        f"(({_ATTRIBUTED}) OR (r.actor_key IS NOT NULL AND {_CUT_COMMIT}))"
    ),
    EvidenceRule.COMMIT_ROLLUPS: f"r.metric = $commits AND {_WHOLE}",
    EvidenceRule.MERGED: (
        f"r.status = $merged AND r.end_ns IS NOT NULL AND {_P} <= r.end_ns AND r.end_ns < {_E}"
    ),
    EvidenceRule.OPEN_AT_END: _OPEN_AT_END,
    EvidenceRule.STARTED: _STARTED,
    EvidenceRule.RESOLVED: f"{_STARTED} AND r.end_ns IS NOT NULL AND r.end_ns < {_E}",
    EvidenceRule.OVERDUE: f"r.due_ns IS NOT NULL AND r.due_ns < {_E} AND {_OPEN_AT_END}",
    EvidenceRule.COMPLETED: f"r.end_ns IS NOT NULL AND {_S} <= r.end_ns AND r.end_ns < {_E}",
    EvidenceRule.PRODUCTION_DEPLOYS: f"{_PRODUCTION} AND {_STARTED}",
    EvidenceRule.FAILED_DEPLOYS: f"{_PRODUCTION} AND r.status IN $failed AND {_STARTED}",
    EvidenceRule.CHANGES: (
        f"((r.record_kind = $commit AND {_STARTED}) OR (r.record_kind = $pull_request AND "
        f"r.status = $merged AND r.end_ns IS NOT NULL AND {_S} <= r.end_ns AND r.end_ns < {_E}))"
    ),
    EvidenceRule.EXACT_COMMITS: f"((r.metric = $commits AND {_WHOLE}) OR ({_CUT_COMMIT}))",
}
# The constants the conditions compare with (engine/domain/evidence.py's).
CONSTANTS: dict[str, Any] = {
    "rollups": list(ROLLUP_METRICS),
    "commits": "commits",
    "merged": "merged",
    "production": "production",
    "failed": ["failed", "rolled_back"],
    "commit": "commit",
    "pull_request": "pull_request",
    "day": 86_400_000_000_000,  # one UTC day in nanoseconds
}


def _match(param: str, rule: EvidenceRule) -> str:
    return f"""
UNWIND ${param} AS q
MATCH (:Activity {{org_id: $org, subject_key: q[1]}})-[:HOLDS]->(r:SourceRecord)
WHERE r.record_kind IN q[2]
  AND r.start_ns <= q[4] AND (r.end_ns IS NULL OR r.end_ns >= q[3])
  AND {RULES[rule]}
  AND (q[10] IS NULL OR (q[11] AND NOT (coalesce(r.actor_key, '') IN ([q[10]] + q[12])))
       OR (NOT q[11] AND r.actor_key = q[10]))
"""


def pages(rules: Sequence[EvidenceRule]) -> str:
    """One statement for every rule; rule n's requests are the parameter `$g<n>`."""
    return "UNION ALL".join(
        _match(f"g{n}", rule)
        + """  AND (q[8] IS NULL OR r.key > q[8])
WITH q[0] AS i, q[9] AS lim, r
ORDER BY i, r.key
WITH i, lim, collect(properties(r)) AS rows
RETURN i, rows[0..lim] AS rows
"""
        for n, rule in enumerate(rules)
    )


def counts(rules: Sequence[EvidenceRule]) -> str:
    return "UNION ALL".join(
        _match(f"g{n}", rule) + "RETURN q[0] AS i, count(r) AS rows\n"
        for n, rule in enumerate(rules)
    )


def grouped(requests: Sequence[EvidenceRequest]) -> tuple[list[EvidenceRule], dict[str, Any]]:
    """The rules asked (in first-asked order) and the parameters: each rule's request rows,
    indexed by their place in `requests`, and the constants."""
    groups: dict[EvidenceRule, list[list[Any]]] = {}
    for index, q in enumerate(requests):
        selector = EvidenceSelector.of(q)
        span = selector.span()
        groups.setdefault(selector.rule, []).append([
            index, q.subject_key, [k.value for k in q.kinds], span.start_ns, span.end_ns,
            q.start_ns, q.end_ns, q.start_ns - (q.end_ns - q.start_ns), q.after, q.limit,
            q.actor, q.others, list(q.also),
        ])  # fmt: skip
    params: dict[str, Any] = {f"g{n}": rows for n, rows in enumerate(groups.values())}
    return list(groups), {**params, **CONSTANTS}
