"""Cohort counts ("which services had incidents last week") on every backend (the `store` fixture):
a Cypher store counts the window's records on their start_us index (microseconds,
graph.cypher.activity_reads.active_subjects); the answer must be exactly what the records
themselves give, for windows on and off day boundaries and microseconds, and stay so through
re-ingest, moves and retraction, and through the removal of format 5's per-subject day counts
(SubjectDay) on reopening a data directory. The expected answers are recomputed here from the
records loaded, never read from a store."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine.domain.models import SourceRecordKind, SubjectKind, to_ns
from engine.ports import GraphStore, TimeSpan
from graph import activity
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
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
                TimeSpan(ns(start + US), ns(stop)), TimeSpan(ns(start - US), ns(stop + US)),
                TimeSpan(ns(start) + 1, ns(stop) - 1)]  # a nanosecond inside: midnights out  # fmt: skip
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


# How format 5 kept per-subject day counts (main before format 6): their index and key, and
# the counts of every (kind, day, subject) as its migration set them from the records.
_TO_FORMAT_5 = (
    "MATCH (t:TimeSlot) DETACH DELETE t",  # format 8's
    "CREATE INDEX FOR (n:SubjectDay) ON (n.slot)",
    "CREATE INDEX FOR (n:SubjectDay) ON (n.record_kind, n.subject_kind, n.day)",
    """MATCH (r:SourceRecord)
    WITH r.org_id AS org, r.subject_key AS k, r.record_kind AS kind, r.day AS day, count(r) AS n
    MERGE (c:SubjectDay {org_id: org, slot: kind + ':' + toString(day) + ':' + k})
    ON CREATE SET c.subject_key = k, c.subject_kind = split(k, ':')[0], c.record_kind = kind,
                  c.day = day
    SET c.n = n""",
    # A count a retraction took to zero stays (format 5 never deleted one).
    """CREATE (:SubjectDay {org_id: 'acme', slot: 'incident:0:service:gone', n: 0,
       subject_key: 'service:gone', subject_kind: 'service', record_kind: 'incident', day: 0})""",
)


async def _subject_days(store: FalkorStore) -> tuple[int, set[str]]:
    graph = store.client.select_graph("fabric:org:acme")
    nodes = (await graph.query("MATCH (c:SubjectDay) RETURN count(c)")).result_set[0][0]
    indexes = (await graph.query("CALL db.indexes()")).result_set
    return int(nodes), {f"{row[0]}.{p}" for row in indexes for p in row[1] if row[0] == "SubjectDay"}


async def test_a_format_5_directory_loses_its_subject_days_once_with_the_same_cohorts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(11)
    records = {f"r:{n}": _record(f"r:{n}", rng) for n in range(300)}
    with EmbeddedServer(tmp_path) as server:
        old = FalkorStore(server.url)
        await old.bootstrap(SYSTEM_SCOPE)
        await load(old.org("acme"), list(records.values()))
        for statement in _TO_FORMAT_5:
            await old.client.select_graph("fabric:org:acme").query(statement)
        for graph in ("fabric:org:acme", "fabric:system"):
            await old.client.select_graph(graph).query("MATCH (m:Format) SET m.activity = 5")
        made, indexed = await _subject_days(old)
        assert made > 200 and indexed == {
            "SubjectDay.slot", "SubjectDay.record_kind", "SubjectDay.subject_kind", "SubjectDay.day"
        }  # fmt: skip
        await old.close()
    monkeypatch.setattr(activity, "_FILL_BATCH", 64)  # several batches
    capsys.readouterr()
    for opening in range(2):
        with EmbeddedServer(tmp_path) as server:
            store = FalkorStore(server.url)
            await store.bootstrap(SYSTEM_SCOPE)
            await store.bootstrap("acme")
            left = await _subject_days(store)
            await _check(store.org("acme"), records, random.Random(opening))
            await store.close()
        progress = capsys.readouterr().err
        if opening == 0:
            assert f"migrating acme: removing {made:,} per-subject day counts 100%" in progress
            # Format 5 had the times and activity already; its records get their time slots.
            assert "times of" not in progress and "activity of" not in progress
            assert "migrating acme: the time slots of 300 source records 100%" in progress
        else:
            assert "migrating" not in progress  # once only
        assert left == (0, set())
