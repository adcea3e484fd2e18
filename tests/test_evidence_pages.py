"""The graph port's evidence pages (OrgGraph.evidence_pages / evidence_counts), on every backend:
for every rule of engine/domain/evidence.py, the records a store chooses in its statement are the
records the rule itself chooses from the window's full read, page after page by key, and the
count is how many there are. The records sit on and around every boundary the rules compare
with (the window's start and end, the prior window's start, a day either side), with every
status, environment, metric, value and actor the rules look at."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from engine.domain.evidence import EvidenceRule, EvidenceSelector, select
from engine.domain.models import SourceRecordKind
from engine.ports import GraphStore
from tests.helpers import load, subject

KEY = "service:e"
START, END = datetime(2026, 1, 10, tzinfo=UTC), datetime(2026, 1, 20, tzinfo=UTC)
TIMES = [
    "2025-12-31T00:00:00Z", "2026-01-01T00:00:00Z", "2026-01-09T23:59:59.999999Z",
    "2026-01-10T00:00:00Z", "2026-01-10T00:00:00.000001Z", "2026-01-15T12:00:00Z",
    "2026-01-19T23:59:59.999999Z", "2026-01-20T00:00:00Z", "2026-01-20T00:00:00.000001Z",
    "2026-01-25T00:00:00Z",
]  # fmt: skip
KINDS = ["pull_request", "incident", "work_item", "deploy", "metric_rollup", "commit"]
# A window that cuts its first and last days (the exact-commits rule reads those days apart).
CUT_START, CUT_END = datetime(2026, 1, 9, 12, tzinfo=UTC), datetime(2026, 1, 15, 18, tzinfo=UTC)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _records(n: int) -> list[dict[str, Any]]:
    pick = random.Random(15).choice
    rows: list[dict[str, Any]] = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        start = pick(TIMES)
        row: dict[str, Any] = {"type": "source_record", "key": f"ev:{i:03d}",
                               "record_kind": kind, "subject": KEY, "start": start}  # fmt: skip
        end = pick([None, *[t for t in TIMES if _at(t) >= _at(start)]])
        due = pick([None, *TIMES])
        for name, value in [("end", end), ("due", due)]:
            if value is not None:
                row[name] = value
        row["status"] = pick([None, "merged", "open", "failed", "rolled_back", "succeeded"])
        row["environment"] = pick([None, "production", "staging"])
        if kind == "metric_rollup" or pick([True, False]):
            row["metric"] = pick(["commits", "lines_added", "lines_removed", "churn"])
            row["value"] = pick([0, 0.0, 1, 3.5, -2])
        if pick([True, False]):
            row["actor"] = pick(["person:a", "person:b"])
        rows.append(row)
    return rows


def _selectors() -> list[EvidenceSelector]:
    kinds_of = {
        (SourceRecordKind.PULL_REQUEST,), (SourceRecordKind.METRIC_ROLLUP,),
        (SourceRecordKind.INCIDENT, SourceRecordKind.WORK_ITEM), tuple(SourceRecordKind),
    }  # fmt: skip
    return [
        EvidenceSelector(subject_key=KEY, record_kinds=kinds, start=START, end=END, rule=rule)
        for rule in EvidenceRule
        for kinds in sorted(kinds_of, key=len)
    ] + [
        EvidenceSelector(subject_key=KEY, record_kinds=tuple(SourceRecordKind), start=CUT_START,
                         end=CUT_END, rule=rule)
        for rule in EvidenceRule
    ] + [  # one person's part of the records (engine/resolving/together.py), and everyone else's
        EvidenceSelector(subject_key=KEY, record_kinds=tuple(SourceRecordKind), start=CUT_START,
                         end=CUT_END, rule=rule, actor="person:a", others=others)
        for rule in (EvidenceRule.CHANGES, EvidenceRule.EXACT_COMMITS, EvidenceRule.STARTED)
        for others in (False, True)
    ] + [  # everyone's but several people's ("besides A and B")
        EvidenceSelector(subject_key=KEY, record_kinds=tuple(SourceRecordKind), start=CUT_START,
                         end=CUT_END, rule=rule, actor="person:a", others=True,
                         also=("person:b",))
        for rule in (EvidenceRule.CHANGES, EvidenceRule.EXACT_COMMITS, EvidenceRule.STARTED)
    ]  # fmt: skip


async def test_every_rule_chooses_in_the_store_what_it_chooses_in_python(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    people = [subject("person:a"), subject("person:b")]
    assert (await load(graph, [subject(KEY), *people, *_records(400)])).ok
    everything = (await graph.source_records_of([KEY]))[KEY]
    assert len(everything) == 400
    selectors = _selectors()
    chosen = [[r.key for r in select(s, everything)] for s in selectors]
    # Each rule chooses some records and leaves others: the comparison can fail.
    for rule in EvidenceRule:
        widest = chosen[[s.rule for s in selectors].index(rule) + 3]
        assert 0 < len(widest) < 400, rule
    # A part by actor chooses some of its rule's records, and everyone else's the rest.
    for n in range(-9, -3, 2):
        mine, others = chosen[n], chosen[n + 1]
        whole = chosen[selectors.index(selectors[n].model_copy(update={"actor": None}))]
        assert mine and others and sorted(mine + others) == whole
    # Everyone's but two people's: the records of neither (here, those naming no one).
    for n in range(-3, 0):
        plain = selectors[n].model_copy(update={"actor": None, "others": False, "also": ()})
        actors = {r.key: r.actor for r in everything}
        want = [k for k in chosen[selectors.index(plain)] if actors[k] is None]
        assert want and chosen[n] == want
    # All at once (one statement, every rule), then page by page.
    assert await graph.evidence_counts([s.request() for s in selectors]) == [len(c) for c in chosen]
    whole = await graph.evidence_pages([s.request(1_000) for s in selectors])
    assert [[r.key for r in page] for page in whole] == chosen
    for size in (1, 7):
        for selector, want in zip(selectors, chosen, strict=True):
            got: list[str] = []
            after: str | None = None
            while True:
                (page,) = await graph.evidence_pages([selector.request(size, after)])
                assert len(page) <= size
                got += [r.key for r in page]
                if len(page) < size:
                    break
                after = page[-1].key
            assert got == want, selector.rule


async def test_a_record_is_read_back_whole_and_pages_of_nothing_are_empty(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    rows = _records(25)
    assert (await load(graph, [subject(KEY), subject("person:a"), subject("person:b"), *rows])).ok
    (selector,) = [s for s in _selectors() if s.rule is EvidenceRule.OPEN_AT_END][-1:]
    full = {r.key: r for r in (await graph.source_records_of([KEY]))[KEY]}
    (page,) = await graph.evidence_pages([selector.request(100)])
    assert page and all(r == full[r.key] for r in page)
    other = selector.model_copy(update={"subject_key": "service:none"})
    assert await graph.evidence_pages([selector.request(0), other.request(5)]) == [[], []]
    assert await graph.evidence_counts([other.request()]) == [0]
    assert await graph.evidence_pages([]) == [] and await graph.evidence_counts([]) == []
