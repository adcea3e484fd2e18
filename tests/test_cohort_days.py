"""Cohort counts ("which services had incidents last week") on every backend (the `store`
fixture): a Cypher store sums a window's whole days from per-subject day counts kept at ingest
and reads only its partial edge days' records (graph.activity.cohort_spans); the answer must
be exactly what the records themselves give, for windows on and off day boundaries, and stay
so through re-ingest, moves and retraction. The expected answers are recomputed here from the
records loaded, never read from a store."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.models import SourceRecordKind, SubjectKind, to_ns
from engine.ports import GraphStore, TimeSpan
from graph.activity import cohort_spans
from graph.rows import DAY_NS
from tests.helpers import load

BASE = datetime(2026, 3, 1, tzinfo=UTC)
SUBJECTS = [f"{kind}:{n}" for kind in ("service", "repository", "team") for n in range(6)]
KINDS = ("incident", "deploy", "pull_request")
US = timedelta(microseconds=1)


def ns(moment: datetime) -> int:
    value = to_ns(moment)
    assert value is not None
    return value


def _moment(rng: random.Random) -> datetime:
    """Anywhere in twelve days, often right at a midnight or a microsecond either side."""
    day = BASE + timedelta(days=rng.randrange(12))
    return rng.choice([day, day - US, day + US, day + timedelta(seconds=rng.randrange(86_400))])


def _record(key: str, rng: random.Random) -> dict[str, Any]:
    return {"type": "source_record", "key": key, "record_kind": rng.choice(KINDS),
            "subject": rng.choice(SUBJECTS), "start": _moment(rng).isoformat()}  # fmt: skip


def _windows(rng: random.Random) -> list[TimeSpan]:
    """Closed windows: on day boundaries (the engine's "last week" ends at a midnight it
    includes), a microsecond short of or past them, inside one day, across one midnight, and
    anywhere."""
    out = []
    for _ in range(14):
        a, b = sorted([_moment(rng), _moment(rng)])
        out.append(TimeSpan(ns(a), ns(b)))
    for first, days in ((2, 7), (0, 12), (5, 1), (3, 2)):
        start = BASE + timedelta(days=first)
        stop = start + timedelta(days=days)
        out += [TimeSpan(ns(start), ns(stop)), TimeSpan(ns(start), ns(stop - US)),
                TimeSpan(ns(start + US), ns(stop)), TimeSpan(ns(start - US), ns(stop + US))]  # fmt: skip
    noon = BASE + timedelta(days=4, hours=12)
    out += [TimeSpan(ns(noon), ns(noon + timedelta(hours=15))),  # across one midnight
            TimeSpan(ns(noon), ns(noon + timedelta(hours=3))),  # inside one day
            TimeSpan.point(ns(BASE + timedelta(days=6)))]  # one instant, a midnight  # fmt: skip
    return out


def expected(
    records: dict[str, dict[str, Any]],
    kinds: tuple[str, ...],
    window: TimeSpan,
    limit: int,
    subject_kinds: tuple[str, ...],
) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for r in records.values():
        start = ns(datetime.fromisoformat(r["start"]))
        if (
            r["record_kind"] in kinds
            and window.start_ns <= start <= window.end_ns
            and (not subject_kinds or r["subject"].split(":")[0] in subject_kinds)
        ):
            counts[r["subject"]] = counts.get(r["subject"], 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


async def _check(graph: Any, records: dict[str, dict[str, Any]], rng: random.Random) -> None:
    for window in _windows(rng):
        for kinds in (("incident",), ("incident", "deploy")):
            for subject_kinds in ((), ("service",), ("service", "team")):
                for limit in (3, 100):
                    got = await graph.active_subjects(
                        [SourceRecordKind(k) for k in kinds],
                        window,
                        limit,
                        subject_kinds=[SubjectKind(k) for k in subject_kinds],
                    )
                    want = expected(records, kinds, window, limit, subject_kinds)
                    assert got == want, (window, kinds, subject_kinds, limit)


async def test_cohort_counts_are_the_records_counts_through_reingest_and_retraction(
    store: GraphStore, org: str
) -> None:
    rng = random.Random(7)
    graph = store.org(org)
    records = {f"r:{n}": _record(f"r:{n}", rng) for n in range(400)}
    await load(graph, list(records.values()))
    await _check(graph, records, rng)
    # Some move (another time, day, kind or subject), some are loaded again unchanged, some
    # are retracted, some are new; one batch holds them all.
    moved = {k: _record(k, rng) for k in rng.sample(sorted(records), 60)}
    again = [records[k] for k in rng.sample(sorted(set(records) - set(moved)), 40)]
    gone = rng.sample(sorted(set(records) - set(moved)), 50)
    new = {f"r:new{n}": _record(f"r:new{n}", rng) for n in range(30)}
    tombstones = [{"type": "tombstone", "target": "source_record", "key": k} for k in gone]
    await load(graph, [*moved.values(), *again, *tombstones, *new.values()])
    records.update(moved)
    records.update(new)
    for key in gone:
        del records[key]
    await _check(graph, records, rng)


def test_a_window_is_cut_into_whole_days_and_partial_edges() -> None:
    day = 20_500
    start = day * DAY_NS
    # On boundaries: whole days only, both edges empty.
    cut = cohort_spans(start, (day + 7) * DAY_NS - 1)
    assert (cut.first_day, cut.last_day, cut.has_edges) == (day, day + 6, False)
    # A closed end on the next midnight: that instant is an edge of its own.
    cut = cohort_spans(start, (day + 7) * DAY_NS)
    assert (cut.first_day, cut.last_day) == (day, day + 6)
    assert (cut.lo0, cut.hi0, cut.lo1, cut.hi1) == (start, start, (day + 7) * DAY_NS, (day + 7) * DAY_NS)
    # Off boundaries: the partial days on either side are edges.
    cut = cohort_spans(start + 5, (day + 3) * DAY_NS + 9)
    assert (cut.first_day, cut.last_day) == (day + 1, day + 2)
    assert (cut.lo0, cut.hi0) == (start + 5, (day + 1) * DAY_NS)
    assert (cut.lo1, cut.hi1) == ((day + 3) * DAY_NS, (day + 3) * DAY_NS + 9)
    # No whole day: the window is one edge.
    cut = cohort_spans(start + 5, start + DAY_NS + 9)
    assert (cut.has_days, cut.lo0 < cut.hi0, cut.lo1, cut.hi1) == (False, False, start + 5, start + DAY_NS + 9)
    # Before 1970, days still start at midnights.
    cut = cohort_spans(-3 * DAY_NS + 1, -1)
    assert (cut.first_day, cut.last_day, cut.lo0, cut.hi0) == (-2, -1, -3 * DAY_NS + 1, -2 * DAY_NS)
