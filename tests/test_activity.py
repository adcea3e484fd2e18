"""The activity structures kept at ingest (graph.cypher.activity), on every backend.

Each check compares what is stored, or what a page reads through it, with what the records
themselves say, recomputed here from the records loaded (never from the store)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.domain.models import SourceRecord, SourceRecordKind, Subject, SubjectKind, to_ns
from engine.ports import GraphStore, RecordPageRequest, SubjectOrder, SubjectQuery, TimeSpan
from graph import activity, recordrows, rows
from graph.cypher import activity as activity_cypher
from graph.cypher import formats as formats_cypher
from graph.cypher import subjects as subjects_cypher
from graph.cypher._fragments import floor_div
from graph.dialect import FALKORDB
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from graph.recordrows import DAY_NS
from graph.scoped import ScopedGraph
from sources.demo import generate
from tests.conftest import new_org
from tests.helpers import load, subject

Records = dict[str, dict[str, Any]]


def ns(text: str) -> int:
    value = to_ns(datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC))
    assert value is not None
    return value


Slots = dict[str, tuple[str, str | None]]
Summary = tuple[dict[str, int], dict[tuple[str, int], int], dict[str, str], Slots]
TEN_MINUTES_US = 600_000_000


def slot_of(kind: str, text: str, subject: str = "") -> tuple[str, int]:
    """A time's slot node: on a midnight, the tie node of the subject key's kind and first
    character (format 9)."""
    us = ns(text) // 1_000
    n = us // TEN_MINUTES_US  # floor, before 1970 too
    tie = f":{subject.split(':')[0]}:{subject.split(':', 1)[1][:1]}" if us % 86_400_000_000 == 0 else ""
    return f"{kind}:{n}{tie}", n


def truth(records: Records) -> Summary:
    """Each subject's latest activity, the records per (kind, day), each record's subject
    (whose Activity node holds it) and its time slots: the one of its start, and the one of
    its end when that is another (format 8)."""
    latest: dict[str, int] = {}
    days: dict[tuple[str, int], int] = {}
    slots: Slots = {}
    for k, r in records.items():
        t = ns(r.get("end") or r["start"])
        latest[r["subject"]] = max(latest.get(r["subject"], -1), t)
        key = (r["record_kind"], ns(r["start"]) // DAY_NS)
        days[key] = days.get(key, 0) + 1
        first = slot_of(r["record_kind"], r["start"], r["subject"])[0]
        last = slot_of(r["record_kind"], r["end"], r["subject"])[0] if r.get("end") else first
        slots[k] = (first, None if last == first else last)
    return latest, days, {k: r["subject"] for k, r in records.items()}, slots


async def held(graph: ScopedGraph) -> dict[str, str]:
    """Each record's subject as the HOLDS relationships say (format 7), checking that every
    record has exactly one."""
    # The relationship named: FalkorDB walks an unnamed one once per pair of nodes, however
    # many join them.
    found = await graph._read(
        "MATCH (v:Activity {org_id: $org})-[h:HOLDS]->(r:SourceRecord) "
        "RETURN r.key, v.subject_key, count(h)"
    )
    out = {str(k): str(v) for k, v, _ in found}
    assert len(out) == len(found) and {int(n) for _, _, n in found} <= {1}  # none held twice
    records = await graph._read("MATCH (r:SourceRecord {org_id: $org}) RETURN count(r)")
    assert int(records[0][0]) == len(out)  # none held by nothing
    return out


async def placed(graph: ScopedGraph) -> Slots:
    """Each record's time slots as the STARTS and ENDS relationships say (formats 8 and 9),
    checking that every record has exactly one STARTS, at most one ENDS, each from a slot
    node of the record's kind whose number its key names, on the tie node of its subject's
    key prefix exactly when that endpoint is on a midnight, and that no slot has two nodes."""
    out: dict[str, list[Any]] = {}
    for rel, at in (("STARTS", 0), ("ENDS", 1)):
        found = await graph._read(
            f"MATCH (t:TimeSlot {{org_id: $org}})-[h:{rel}]->(r:SourceRecord) "
            "RETURN r.key, r.record_kind, t.slot, t.n, t.record_kind, t.tie, r.subject_key, "
            f"{'r.start_ns' if rel == 'STARTS' else 'r.end_ns'} / 1000"
        )
        for key, kind, slot, n, slot_kind, tie, owner, at_us in found:  # the ns time
            on_midnight = at_us % (86_400 * 10**6) == 0
            assert tie == (owner[: owner.index(":") + 2] if on_midnight else None), (key, tie)
            assert slot == ":".join(str(p) for p in (kind, n, tie) if p is not None), (rel, key)
            assert slot_kind == kind and n == at_us // TEN_MINUTES_US, (rel, key, slot, n)
            seen = out.setdefault(str(key), [None, None])
            assert seen[at] is None, (rel, key)  # none twice
            seen[at] = str(slot)
    assert all(first is not None for first, _ in out.values())  # an ENDS alone
    records = await graph._read("MATCH (r:SourceRecord {org_id: $org}) RETURN count(r)")
    assert int(records[0][0]) == len(out)  # none placed by nothing
    nodes = await graph._read("MATCH (t:TimeSlot {org_id: $org}) RETURN t.slot, count(t)")
    assert {int(n) for _, n in nodes} <= {1}
    return {k: (first, last) for k, (first, last) in out.items()}


async def stored(graph: ScopedGraph) -> Summary:
    latest, days = await graph.activity_summary()
    # The latest time again in microseconds (the index "most recently active" reads).
    found = await graph._read(
        "MATCH (a:Activity {org_id: $org}) RETURN a.subject_key, a.latest_ns, a.latest_us"
    )
    assert {k: u for k, _, u in found} == {k: -1 if t == -1 else t // 1000 for k, t, _ in found}
    # Format 5's per-subject day counts are neither written nor left behind (format 6).
    assert not await graph._read("MATCH (c:SubjectDay {org_id: $org}) RETURN c.slot LIMIT 1")
    latest = {k: t for k, t in latest.items() if t >= 0}
    return latest, days, await held(graph), await placed(graph)


async def test_a_migration_places_times_before_1970_in_the_slot_a_write_would(
    cypher_store: GraphStore,
) -> None:
    # No record is before 1970 (engine.domain.models refuses it), but the migration's slot number
    # (graph.dialect, in Cypher) and a write's (graph.rows) must agree on a floor anyway.
    org = new_org()
    await cypher_store.bootstrap(org)
    graph = cypher_store.org(org)
    assert isinstance(graph, ScopedGraph)
    times = [-TEN_MINUTES_US - 1, -TEN_MINUTES_US, -1, 0, TEN_MINUTES_US - 1, TEN_MINUTES_US]
    expression = floor_div("x", recordrows.SLOT_US)  # as graph.dialect places the records
    try:
        found = await graph._read(f"UNWIND $times AS x RETURN x, {expression}", times=times)
    finally:
        await cypher_store.drop_org(org)
    assert [(int(x), int(n)) for x, n in found] == [(t, t // TEN_MINUTES_US) for t in times]
    assert [recordrows.slots("incident", "service:x", t, None)[1] for t in times] == [t // TEN_MINUTES_US for t in times]


def record(key: str, subj: str, start: str, end: str | None = None, kind: str = "incident"):
    out = {"type": "source_record", "key": key, "record_kind": kind, "subject": subj,
           "start": start}  # fmt: skip
    return {**out, "end": end} if end else out


def tombstone(key: str) -> dict[str, Any]:
    return {"type": "tombstone", "target": "source_record", "key": key}


async def test_structures_follow_writes_reingest_moves_and_retraction(
    cypher_store: GraphStore,
) -> None:
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        await _follow(cypher_store.org(org))
    finally:
        await cypher_store.drop_org(org)


async def _follow(graph: Any) -> None:
    assert isinstance(graph, ScopedGraph)
    records: Records = {}

    async def put(*items: dict[str, Any], **options: Any) -> None:
        await load(graph, list(items), **options)
        for item in items:
            if item["type"] == "source_record":
                records[item["key"]] = item
            elif item["type"] == "tombstone":
                records.pop(item["key"], None)
        assert await stored(graph) == truth(records)
        # Each subject's records, read through its HOLDS, are the ones that name it.
        found = await graph.source_records_of([a, b])
        for k in (a, b):
            want = sorted(key for key, r in records.items() if r["subject"] == k)
            assert sorted(r.key for r in found.get(k, [])) == want, k
        pages = await graph.source_record_pages([RecordPageRequest(key=k, limit=100) for k in (a, b)])
        for k, page in zip((a, b), pages, strict=True):
            assert {r.key for r in page} == {key for key, r in records.items() if r["subject"] == k}

    a, b = "service:a", "service:b"
    first = [
        record("incident:1", a, "2026-01-01T10:00:00Z", "2026-01-03T00:00:00Z"),
        record("incident:2", a, "2026-01-01T11:00:00Z"),
        record("incident:3", b, "2026-01-02T00:00:00Z", kind="deploy"),
        record("incident:4", b, "1970-01-01T00:00:00Z"),  # day 0
    ]
    await put(subject(a), subject(b), *first)
    assert (await stored(graph))[1][("incident", 0)] == 1
    await put(*first)  # the same records again: nothing counted twice
    await put(*first, source="other")
    # a's latest record moves back in time: a's latest activity is taken again
    await put(record("incident:1", a, "2025-12-01T00:00:00Z"))
    # a record moves to another subject, kind and day
    await put(record("incident:2", b, "2026-02-01T00:00:00Z", kind="work_item"))
    assert (await stored(graph))[0][a] == ns("2025-12-01T00:00:00Z")
    await put(tombstone("incident:1"))  # a has no record left
    latest, _ = await graph.activity_summary()
    assert latest[a] == -1
    await put(tombstone("incident:1"), tombstone("incident:404"))  # retracting again: no-op
    await put(record("incident:1", a, "2026-03-01T00:00:00Z"))  # and back
    # Time slots (format 8): the first two, an end that moves to a later slot and back into
    # its start's, a start that moves one slot within its day.
    await put(record("incident:7", b, "1970-01-01T00:05:00Z", "1970-01-01T00:10:00Z"))
    await put(record("incident:3", b, "2026-01-02T00:00:00Z", "2026-01-02T00:10:00Z", "deploy"))
    await put(record("incident:3", b, "2026-01-02T00:00:00Z", "2026-01-02T00:09:59Z", "deploy"))
    await put(record("incident:3", b, "2026-01-02T00:10:00Z", "2026-01-02T00:19:59Z", "deploy"))
    assert (await stored(graph))[3]["incident:7"] == ("incident:0", "incident:1")
    # The same record twice in one batch: its last version, counted once.
    await put(record("incident:6", a, "2026-05-01T00:00:00Z"), record("incident:6", b, "2026-05-02"))
    # A complete snapshot that omits a record its source wrote before deletes it.
    await put(record("incident:5", b, "2026-04-01T00:00:00Z"), source="full")
    report = await load(graph, [subject(a), subject(b)], source="full", complete=True)
    assert report.deleted == 1
    records.pop("incident:5")
    assert await stored(graph) == truth(records)


def _expected(
    subjects: dict[str, dict[str, Any]],
    records: list[dict[str, Any]],
    at: int | None,
    kinds: tuple[str, ...],
) -> list[str]:
    last: dict[str, int] = {}
    for r in records:
        start, end = ns(r["start"]), ns(r["end"]) if "end" in r else None
        if at is not None and start > at:
            continue
        t = end if end is not None and (at is None or end <= at) else start
        last[r["subject"]] = max(last.get(r["subject"], -1), t)

    def admitted(s: dict[str, Any]) -> bool:
        if at is None:
            return True
        lo, hi = s.get("valid_from"), s.get("valid_to")
        return (lo is None or ns(lo) <= at) and (hi is None or ns(hi) > at)

    keys = [k for k, s in subjects.items() if (not kinds or s["kind"] in kinds) and admitted(s)]
    return sorted(keys, key=lambda k: (-last.get(k, -1), k))


@pytest.mark.parametrize("first", [3, 25])
async def test_recent_pages_rank_as_the_records_say(
    store: GraphStore, org: str, first: int
) -> None:
    items = list(generate(1_500, seed=11))
    await load(store.org(org), [json.loads(json.dumps(i)) for i in items])
    subjects = {i["key"]: i for i in items if i["type"] == "subject"}
    records = [i for i in items if i["type"] == "source_record"]
    starts = sorted(ns(r["start"]) for r in records)
    rng = random.Random(5)
    times: list[int | None] = [None, starts[len(starts) // 2], starts[-1], starts[0] - 1]
    times += [rng.choice(starts) + rng.randrange(-DAY_NS, DAY_NS) for _ in range(2)]
    graph = store.org(org)
    for at in times:
        for kinds in ((), ("repository",), ("service", "project")):
            query = SubjectQuery(
                kinds=tuple(SubjectKind(k) for k in kinds),
                at=None if at is None else TimeSpan.point(at),
                order=SubjectOrder.RECENT,
                brief=True,
            )
            want = _expected(subjects, records, at, kinds)[: first * 4]
            got: list[str] = []
            after = None
            while len(got) < len(want):
                page = await graph.find_subjects(query, first, after)
                got += [s.key for s in page.items]
                assert page.has_next == (len(got) < len(_expected(subjects, records, at, kinds)))
                if not page.items:
                    break
                after = page.positions[-1]
            assert got[: len(want)] == want, (at, kinds)


# How source records were written before the activity structures (format of main at e801a55):
# no `day`, nothing else kept.
_EARLIER_RECORD_WRITE = """
UNWIND $rows AS row
MERGE (r:SourceRecord {org_id: $org, key: row[0]})
SET r.record_kind = row[1], r.subject_key = row[2], r.start_ns = row[4], r.end_ns = row[5],
    r.source = row[7], r.run_id = row[8], r.title = row[14]
"""


# Format 7 (main at 6738c24): today's writes without the time slots.
_TO_FORMAT_7 = (
    "MATCH (t:TimeSlot) DETACH DELETE t",
    "CREATE INDEX FOR (n:SourceRecord) ON (n.start_us, n.end_us)",
)
# Format 8 (main at 9272860): endpoints on midnights on the plain slots, no tie nodes; made
# from today's by placing every record again as format 8's migration did.
_F8_SLOTS = f"""
MATCH (r:SourceRecord)
WITH r, r.record_kind AS kind, {floor_div("r.start_us", recordrows.SLOT_US)} AS n0,
     CASE WHEN r.end_us IS NULL THEN null ELSE {floor_div("r.end_us", recordrows.SLOT_US)} END AS n1"""
_TO_FORMAT_8 = (
    "MATCH (t:TimeSlot) DETACH DELETE t",
    f"""{_F8_SLOTS}
UNWIND [n0, n1] AS n
WITH DISTINCT r.org_id AS org, kind, n
WHERE n IS NOT NULL
MERGE (t:TimeSlot {{org_id: org, slot: kind + ':' + toString(n)}})
ON CREATE SET t.record_kind = kind, t.n = n""",
    f"""{_F8_SLOTS}
MATCH (t:TimeSlot {{org_id: r.org_id, slot: kind + ':' + toString(n0)}})
OPTIONAL MATCH (u:TimeSlot {{org_id: r.org_id, slot: kind + ':' + toString(n1)}})
WHERE n1 <> n0
CREATE (t)-[:STARTS]->(r)
FOREACH (_ IN CASE WHEN u IS NULL THEN [] ELSE [1] END | CREATE (u)-[:ENDS]->(r))""",
)
# Format 6 (main at c2719b3): format 7 without the HOLDS relationships, the records indexed by
# subject_key instead. Format 4 (main at 067f363) held the same (format 5 added SubjectDay,
# format 6 took it away again).
_TO_FORMAT_6 = (
    *_TO_FORMAT_7,
    "MATCH (:Activity)-[h:HOLDS]->(:SourceRecord) DELETE h",
    "CREATE INDEX FOR (n:SourceRecord) ON (n.subject_key)",
)


async def _write_earlier(
    path: Path, version: int, items: list[dict[str, Any]], halfway: bool = False
) -> None:
    """A data directory of format `version`; halfway: with the migration to the next format
    stopped half way (format 6: the records of some subjects held; 7: some records placed)."""
    subjects = [Subject.model_validate({k: v for k, v in i.items() if k != "type"})
                for i in items if i["type"] == "subject"]  # fmt: skip
    records = [SourceRecord.model_validate({k: v for k, v in i.items() if k != "type"})
               for i in items if i["type"] == "source_record"]  # fmt: skip
    with EmbeddedServer(path) as server:  # written the earlier way, by raw statements
        old = FalkorStore(server.url)
        graph = old.client.select_graph("fabric:org:acme")
        system = old.client.select_graph("fabric:system")
        if version == 0:
            params = {"org": "acme",
                      "rows": [rows.subject_row("acme", s, "x", "r") for s in subjects]}  # fmt: skip
            await graph.query(subjects_cypher.merge_subjects(FALKORDB), params)
            params["rows"] = [recordrows.source_record_row(r, "x", "r") for r in records]
            await graph.query(_EARLIER_RECORD_WRITE, params)
            await system.query("CREATE (:ApiKey {org_id: '_'})")
        else:
            await old.bootstrap(SYSTEM_SCOPE)
            await load(old.org("acme"), items)
            earlier = {8: _TO_FORMAT_8, 7: _TO_FORMAT_7}.get(version, _TO_FORMAT_6)
            for statement in earlier:
                await graph.query(statement)
            for g in (graph, system):
                await g.query("MATCH (m:Format) SET m.activity = $v", {"v": version})
            indexed = await _indexed(old, "fabric:org:acme")
            assert ("SourceRecord.subject_key" in indexed) == (version < 7)
            assert ({"SourceRecord.start_us", "SourceRecord.end_us"} <= indexed) == (version < 8)
            if version == 8:  # times a re-ingest lost before writes deleted one at a time
                await graph.query("MATCH (r:SourceRecord) WITH r ORDER BY r.key LIMIT 2 "
                                  "REMOVE r.start_us")  # fmt: skip
                await graph.query("MATCH (r:SourceRecord) WHERE r.end_us IS NULL AND r.start_us > 0 "
                                  "WITH r "
                                  "ORDER BY r.key LIMIT 1 SET r.end_us = r.start_us + 60")  # fmt: skip
            if halfway and version == 8:  # some records on their tie nodes already
                half = {"org": "acme", "lo": 0, "hi": await _top_id(graph) // 2}
                unplaced = await graph.query(FALKORDB.slots[3], half)
                assert unplaced.result_set[0][0] > 0
                found = await graph.query(FALKORDB.slots[1], half)
                slots = [[recordrows.slot_key(k, n, t), k, n, t] for k, n, t in found.result_set]
                await graph.query(activity_cypher.MAKE_SLOTS, {"org": "acme", "slots": slots})
                await graph.query(FALKORDB.slots[2], half)
            elif halfway:  # a migration stopped half way: some records held, or placed
                half = {"org": "acme", "lo": 0, "hi": await _top_id(graph) // 2}
                if version == 7:  # the range's slots made, then its records placed
                    found = await graph.query(FALKORDB.slots[1], half)
                    slots = [[recordrows.slot_key(k, n, t), k, n, t] for k, n, t in found.result_set]
                    await graph.query(activity_cypher.MAKE_SLOTS, {"org": "acme", "slots": slots})
                step = FALKORDB.holds[1] if version == 6 else FALKORDB.slots[2]
                made = await graph.query(step, half)
                assert made.result_set[0][0] > 0
        await old.close()


async def _top_id(graph: Any) -> int:
    found = await graph.query("MATCH (n) RETURN max(id(n))")
    return int(found.result_set[0][0])


@pytest.mark.parametrize(
    ("version", "halfway"),
    [(0, False), (4, False), (6, True), (7, False), (7, True), (8, False), (8, True)],
)
async def test_a_data_directory_of_an_earlier_format_is_migrated_once_on_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: int, halfway: bool
) -> None:
    items = [json.loads(json.dumps(i)) for i in generate(800, seed=3)]
    everyone = {i["key"]: i for i in items if i["type"] == "subject"}
    await _write_earlier(tmp_path, version, items, halfway)
    capsys.readouterr()
    source_records = [i for i in items if i["type"] == "source_record"]
    last = max(ns(r["start"]) for r in source_records)
    window = TimeSpan(last - 30 * DAY_NS, last)  # off day boundaries: days and edges
    incidents = [SourceRecordKind.INCIDENT, SourceRecordKind.DEPLOY]
    for opening in range(2):
        with EmbeddedServer(tmp_path) as server:
            store = FalkorStore(server.url)
            await store.bootstrap(SYSTEM_SCOPE)
            graph_ = store.org("acme")
            got = await stored(graph_)  # every record held once (7), placed once (8)
            page = await graph_.find_subjects(SubjectQuery(order=SubjectOrder.RECENT), 5)
            cohort = await graph_.active_subjects(incidents, window, 1_000)
            busiest = max(everyone, key=lambda k: sum(r["subject"] == k for r in source_records))
            records_of = await graph_.source_records_of([busiest], span=window)
            indexed = await _indexed(store, "fabric:org:acme")
            found = await graph_._read(formats_cypher.FILL_MICROSECONDS.replace(
                "SET r.start_us = r.start_ns / 1000, r.end_us = r.end_ns / 1000", ""), batch=10**6)
            wrong_times = int(found[0][0])
            await store.close()
        progress = capsys.readouterr().err
        if opening == 0:
            assert ("migrating acme: the records of" in progress) == (version < 7)
            placing = "the midnight ties of" if version == 8 else "the time slots of"
            assert f"migrating acme: {placing}" in progress and "100%" in progress
            if version == 8:  # nothing but the midnights' records moved, and the times
                assert "migrating acme: the records of" not in progress
                assert "repaired the times of 3 source records" in progress
            assert "per-subject day counts" not in progress  # none made on the way to 6
            assert ("acme: activity of" in progress) == (version == 0)
        else:  # once only
            assert "migrating" not in progress
        # The records' subject_key index is dropped once the relationships are made, their
        # times' once the time slots are.
        assert not {"SourceRecord.subject_key", "SourceRecord.start_us", "SourceRecord.end_us"} & indexed
        assert {"Activity.subject_key", "TimeSlot.n", "TimeSlot.slot"} <= indexed
        want = truth({r["key"]: r for r in source_records})
        assert got == want
        assert wrong_times == 0  # in microseconds as in nanoseconds
        assert sorted(r.key for r in records_of.get(busiest, [])) == sorted(
            r["key"] for r in source_records
            if r["subject"] == busiest and ns(r["start"]) <= window.end_ns
            and ("end" not in r or ns(r["end"]) >= window.start_ns)  # an open one lasts
        )
        ranked = _expected(everyone, source_records, None, ())
        assert [s.key for s in page.items] == ranked[:5]
        counted: dict[str, int] = {}
        for r in source_records:
            if r["record_kind"] in incidents and window.start_ns <= ns(r["start"]) <= last:
                counted[r["subject"]] = counted.get(r["subject"], 0) + 1
        assert cohort == sorted(counted.items(), key=lambda kv: (-kv[1], kv[0]))
        assert cohort  # the window holds some


# How format 1 (activity structures, FORMAT_VERSION 1) wrote new records: day counts
# keyed by (record_kind, day), with no text key. The row is today's (graph.rows), read by
# column name: a column added since (`added`, b6f029d) shifted title and day by one, and
# the positions written here as numbers stored a title as the day.
_AT = {name: i for i, name in enumerate(("key", *rows.RECORD_COLUMNS))}
_FORMAT_1_WRITE = """
UNWIND $rows AS row
MERGE (r:SourceRecord {org_id: $org, key: row[0]})
SET r.record_kind = row[$at.record_kind], r.subject_key = row[$at.subject_key],
    r.start_ns = row[$at.start_ns], r.end_ns = row[$at.end_ns], r.source = row[$at.source],
    r.run_id = row[$at.run_id], r.title = row[$at.title], r.day = row[$at.day]
WITH count(*) AS written
UNWIND $days AS d
MERGE (c:RecordDay {org_id: $org, record_kind: d[0], day: d[1]})
SET c.n = coalesce(c.n, 0) + d[2]
WITH count(*) AS days
UNWIND $latest AS a
MERGE (v:Activity {org_id: $org, subject_key: a[0]})
ON CREATE SET v.subject_kind = split(a[0], ':')[0], v.latest_ns = a[1]
"""


async def test_day_counts_of_format_1_keep_counting_after_the_upgrade(tmp_path: Path) -> None:
    items = [json.loads(json.dumps(i)) for i in generate(600, seed=5)]
    loaded = [i for i in items if i["type"] == "source_record"]
    records = [SourceRecord.model_validate({k: v for k, v in i.items() if k != "type"})
               for i in loaded]  # fmt: skip
    with EmbeddedServer(tmp_path) as server:
        old = FalkorStore(server.url)
        data = [recordrows.source_record_row(r, "x", "r") for r in records]
        days, latest = recordrows.record_summary(data)
        graph = old.client.select_graph("fabric:org:acme")
        params = {"org": "acme", "rows": data, "days": days, "latest": latest, "at": _AT}
        await graph.query(_FORMAT_1_WRITE, params)
        await graph.query("CREATE (:Format {org_id: 'acme', activity: 1})")
        system = old.client.select_graph("fabric:system")
        await system.query("CREATE (:Format {org_id: $org, activity: 1})", {"org": SYSTEM_SCOPE})
        await old.close()
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        await store.bootstrap(SYSTEM_SCOPE)
        graph_ = store.org("acme")
        want: Records = {i["key"]: i for i in loaded}
        assert await stored(graph_) == truth(want)
        # Loaded again, one record moved to another day and one retracted: each day is still
        # one count, not an old one and a new one beside it.
        moved = {**loaded[0], "start": "2020-02-02T00:00:00Z"}
        moved.pop("end", None)
        await load(graph_, [*loaded[1:], moved, tombstone(loaded[1]["key"])])
        want[moved["key"]] = moved
        want.pop(loaded[1]["key"])
        assert await stored(graph_) == truth(want)
        per_day = await graph_._read(
            "MATCH (c:RecordDay {org_id: $org}) RETURN c.record_kind, c.day, count(c)"
        )
        assert {int(n) for _, _, n in per_day} == {1}
        await store.close()


async def test_recent_pages_when_one_day_holds_many_pages(store: GraphStore, org: str) -> None:
    # A window reaches back part of a day when a day holds several pages' worth of records.
    rng = random.Random(3)
    subjects = {f"repository:r{i}": {"key": f"repository:r{i}", "kind": "repository"}
                for i in range(120)}  # fmt: skip
    base = datetime(2026, 3, 1, tzinfo=UTC)
    records = []
    for n in range(900):
        start = base.timestamp() + rng.randrange(0, 2 * 86_400)
        text = datetime.fromtimestamp(start, UTC).isoformat()
        end = datetime.fromtimestamp(start + rng.randrange(60, 7_200), UTC).isoformat()
        records.append(record(f"incident:{n}", rng.choice(list(subjects)), text,
                              end if n % 3 else None))  # fmt: skip
    await load(store.org(org), [subject(k) for k in subjects] + records)
    graph = store.org(org)
    for at in (None, ns("2026-03-01T13:00:00+00:00"), ns("2026-03-02T23:00:00+00:00")):
        query = SubjectQuery(at=None if at is None else TimeSpan.point(at),
                             order=SubjectOrder.RECENT, brief=True)  # fmt: skip
        want = _expected(subjects, records, at, ())
        page = await graph.find_subjects(query, 5)
        rest = await graph.find_subjects(query, 5, page.positions[-1])
        assert [s.key for s in [*page.items, *rest.items]] == want[:10], at


async def _pages(
    graph: ScopedGraph, query: SubjectQuery, first: int
) -> tuple[list[tuple[str, Any]], int]:
    """Every subject in order, a page of `first` at a time: (key, position), and how many
    pages that took."""
    out: list[tuple[str, Any]] = []
    after = None
    pages = 0
    while True:
        page = await graph.find_subjects(query, first, after)
        pages += 1
        out += list(zip([s.key for s in page.items], page.positions, strict=True))
        if not page.has_next:
            return out, pages
        after = page.positions[-1]


async def _fast_and_plain(
    graph: ScopedGraph, kinds: tuple[str, ...], at: int | None, first: int
) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]], int, int]:
    """The recent-activity pages of `kinds` as of `at` (None: now), read through the windows
    fast path and through the plain ranking: (fast, plain, pages, pages that fell back)."""
    query = SubjectQuery(
        kinds=tuple(SubjectKind(k) for k in kinds),
        at=None if at is None else TimeSpan.point(at),
        order=SubjectOrder.RECENT,
        brief=True,
    )
    ranked_all = graph.activity.ranked_all
    fast, pages = await _pages(graph, query, first)
    fell_back = graph.activity.ranked_all - ranked_all
    graph.activity.use_windows = False
    try:
        plain, _ = await _pages(graph, query, first)
    finally:
        graph.activity.use_windows = True
    return fast, plain, pages, fell_back


async def test_window_pages_equal_the_plain_ranking_now_and_as_of_past_times(
    cypher_store: GraphStore,
) -> None:
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        await _fast_equals_plain(graph)
    finally:
        await cypher_store.drop_org(org)


async def _fast_equals_plain(graph: ScopedGraph) -> None:
    rng = random.Random(7)
    subjects = {f"repository:r{i:02d}": subject(f"repository:r{i:02d}") for i in range(30)}
    subjects |= {f"service:s{i:02d}": subject(f"service:s{i:02d}") for i in range(12)}
    subjects["repository:r00"]["valid_to"] = "2026-03-02T00:00:00Z"  # gone before some T
    subjects["repository:r01"]["valid_from"] = "2026-03-02T12:00:00Z"  # not there yet
    keys = sorted(subjects)
    base = datetime(2026, 3, 1, tzinfo=UTC).timestamp()
    ticks = [base + 3_600 * h for h in range(72)]  # few distinct times: many ties
    records: Records = {}

    def stamp(t: float) -> str:
        return datetime.fromtimestamp(t, UTC).isoformat()

    def make(n: int, subj: str) -> dict[str, Any]:
        start = rng.choice(ticks)
        end = stamp(start + 3_600 * rng.randrange(1, 30)) if n % 3 else None
        return record(f"incident:{n}", subj, stamp(start), end)

    batch = [make(n, rng.choice(keys[:36])) for n in range(160)]  # some never active
    times: list[int | None] = [None, ns(stamp(ticks[0])) - 1, ns(stamp(ticks[40]))]
    times += [ns(stamp(ticks[20])) + 1_000, ns(stamp(ticks[-1] + 3 * 86_400))]
    states = [
        ("first load", [*subjects.values(), *batch]),
        ("the same again", batch),
        # moved to other subjects, some back in time, some later
        ("moves", [make(n, rng.choice(keys)) for n in range(0, 160, 4)]),
        ("retractions", [tombstone(f"incident:{n}") for n in range(1, 160, 5)]),
    ]
    for name, items in states:
        await load(graph, items)
        for item in items:
            if item["type"] == "source_record":
                records[item["key"]] = item
            elif item["type"] == "tombstone":
                records.pop(item["key"], None)
        graph.activity._fetched = float("-inf")  # the day counts as they are now
        for at in times:
            for kinds in ((), ("repository",)):
                fast, plain, pages, fell_back = await _fast_and_plain(graph, kinds, at, 7)
                assert fast == plain, (name, at, kinds)
                want = _expected(subjects, list(records.values()), at, kinds)
                assert [k for k, _ in fast] == want, (name, at, kinds)
                # A page is read from windows while the active subjects fill it (and the
                # one after it, which says there is a next page); past them, every subject
                # is ranked.
                active = sum(1 for _, (last, _k) in fast if last >= 0)
                assert fell_back == sum(1 for i in range(pages) if 7 * i + 8 > active)


# Format 2 (main at 1ae0065): the activity structures, times in nanoseconds only, indexed there.
_TO_FORMAT_2 = (
    "MATCH (r:SourceRecord) REMOVE r.start_us, r.end_us",
    "MATCH (a:Activity) REMOVE a.latest_us",
    "DROP INDEX FOR (n:Activity) ON (n.latest_us)",
    "CREATE INDEX FOR (n:SourceRecord) ON (n.start_ns)",
    "CREATE INDEX FOR (n:SourceRecord) ON (n.end_ns)",
    "CREATE INDEX FOR (n:Activity) ON (n.latest_ns)",
    "MATCH (m:Format) SET m.activity = 2",
)


async def _indexed(store: FalkorStore, graph: str) -> set[str]:
    found = await store.client.select_graph(graph).query("CALL db.indexes()")
    return {f"{row[0]}.{p}" for row in found.result_set for p in row[1]}


async def test_a_data_directory_of_format_2_gets_its_times_in_microseconds_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [json.loads(json.dumps(i)) for i in generate(800, seed=5)]
    with EmbeddedServer(tmp_path) as server:
        old = FalkorStore(server.url)
        await old.bootstrap(SYSTEM_SCOPE)
        await old.bootstrap("acme")
        await load(old.org("acme"), items)
        for graph in ("fabric:org:acme", "fabric:system"):
            for statement in _TO_FORMAT_2:
                await old.client.select_graph(graph).query(statement)
        assert "SourceRecord.start_ns" in await _indexed(old, "fabric:org:acme")
        await old.close()
    records = [i for i in items if i["type"] == "source_record"]
    everyone = {i["key"]: i for i in items if i["type"] == "subject"}
    at = sorted(ns(r["start"]) for r in records)[len(records) // 2]
    capsys.readouterr()
    for opening in range(2):
        with EmbeddedServer(tmp_path) as server:
            store = FalkorStore(server.url)
            await store.bootstrap(SYSTEM_SCOPE)
            graph_ = store.org("acme")
            got = await stored(graph_)
            query = SubjectQuery(at=TimeSpan.point(at), order=SubjectOrder.RECENT, brief=True)
            pages, count = await _pages(graph_, query, 5)
            fell_back = graph_.activity.ranked_all
            query = SubjectQuery(order=SubjectOrder.RECENT, brief=True)
            now, now_count = await _pages(graph_, query, 5)
            now_fell_back = graph_.activity.ranked_all - fell_back
            indexed = await _indexed(store, "fabric:org:acme")
            await store.close()
        progress = capsys.readouterr().err
        if opening == 0:
            assert "migrating acme: times of" in progress and "100%" in progress
            assert "migrating acme: latest activity of" in progress
            assert "acme: activity of" not in progress  # format 2 counted them already
        else:
            assert "migrating" not in progress  # once only
        assert got == truth({r["key"]: r for r in records})
        assert [k for k, _ in pages] == _expected(everyone, records, at, ())
        # Read through the time slots: only pages past the active subjects rank every one.
        active = sum(1 for _, (last, _k) in pages if last >= 0)
        assert active > 10 and fell_back == sum(1 for i in range(count) if 5 * i + 6 > active)
        assert [k for k, _ in now] == _expected(everyone, records, None, ())
        active = sum(1 for _, (last, _k) in now if last >= 0)
        assert now_fell_back == sum(1 for i in range(now_count) if 5 * i + 6 > active)
        assert {"TimeSlot.n", "Activity.latest_us"} <= indexed
        assert not {"SourceRecord.start_ns", "SourceRecord.end_ns", "Activity.latest_ns"} & indexed
        assert not {"SourceRecord.start_us", "SourceRecord.end_us"} & indexed  # format 8


async def test_window_pages_when_the_most_recent_subjects_are_turned_away(
    cypher_store: GraphStore,
) -> None:
    """The most recently active subjects of a window fail the rest of the filter (records of
    subjects that are no node, subjects no longer valid): a window then looks further down
    and the page is still the plain ranking's."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        rng = random.Random(11)
        day = 86_400.0
        base = datetime(2026, 3, 1, tzinfo=UTC).timestamp()

        def at(t: float) -> str:
            return datetime.fromtimestamp(t, UTC).isoformat()

        live = {f"repository:live{i}": subject(f"repository:live{i}") for i in range(12)}
        retired = {f"repository:old{i}": subject(f"repository:old{i}", valid_to=at(base + 21 * day))
                   for i in range(30)}  # fmt: skip
        subjects = live | retired
        records = [record(f"incident:l{n}", rng.choice(list(live)),
                          at(base + rng.randrange(0, 25 * 24) * 3_600)) for n in range(60)]  # fmt: skip
        records += [record(f"incident:o{n}", k, at(base + (15 + rng.random() * 5.5) * day))
                    for n, k in enumerate(retired)]  # fmt: skip
        records += [record(f"incident:g{n}", f"repository:ghost{n}", at(base + (23 + n / 30) * day))
                    for n in range(30)]  # no such subject  # fmt: skip
        await load(graph, [*subjects.values(), *records])
        for when in (None, ns(at(base + 25 * day)), ns(at(base + 19 * day))):
            for kinds in ((), ("repository",)):
                fast, plain, pages, fell_back = await _fast_and_plain(graph, kinds, when, 3)
                assert fell_back < pages  # windows served some
                assert fast == plain, (when, kinds)
                assert [k for k, _ in fast] == _expected(subjects, records, when, kinds)
    finally:
        await cypher_store.drop_org(org)


async def test_time_windows_through_slots_equal_the_records_at_slot_edges(
    cypher_store: GraphStore,
) -> None:
    """Windows read through the time slots (format 8) against what the records say, computed
    here: records and window edges on slot boundaries and a microsecond either side, records
    ending in a later slot, records spanning many slots, every kind."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        await _slot_edges(graph)
    finally:
        await cypher_store.drop_org(org)


async def _slot_edges(graph: ScopedGraph) -> None:
    rng = random.Random(21)
    base_us = ns("2026-03-01T00:00:00Z") // 1_000  # a slot boundary
    slot = TEN_MINUTES_US
    kinds = ["incident", "deploy", "work_item"]
    keys = [f"service:s{i:02d}" for i in range(16)]

    def stamp(us: int) -> str:
        return datetime.fromtimestamp(us // 1_000_000, UTC).replace(
            microsecond=us % 1_000_000
        ).isoformat()

    def edge(k: int) -> int:  # on a boundary or a microsecond either side
        return base_us + k * slot + rng.choice((-1, 0, 1, rng.randrange(slot)))

    records: Records = {}
    for n in range(240):
        start = edge(rng.randrange(0, 30))
        length = rng.choice([None, 0, 1, slot - 1, slot, 3 * slot + 7, 40 * slot])
        end = None if length is None else start + length
        item = record(f"incident:{n}", rng.choice(keys), stamp(start),
                      None if end is None else stamp(end), rng.choice(kinds))  # fmt: skip
        if end == start:
            item["end"] = item["start"]
        records[item["key"]] = item
    await load(graph, [*(subject(k) for k in keys), *records.values()])
    assert await stored(graph) == truth(records)

    def us(text: str) -> int:
        return ns(text) // 1_000

    bounds = [base_us + k * slot + d for k in (0, 3, 7, 12, 29, 31, 45) for d in (-1, 0, 1)]
    shape = subjects_cypher.FilterShape(timed=True, brief=True)
    statement = subjects_cypher.recent_window(shape, False)
    for lo in bounds[::2]:
        for hi in bounds[1::2]:
            if hi < lo:
                continue
            last: dict[str, int] = {}
            for r in records.values():
                for x in (us(r["start"]), us(r["end"]) if "end" in r else None):
                    if x is not None and lo <= x <= hi:
                        last[r["subject"]] = max(last.get(r["subject"], -1), x * 1_000)
            want = sorted(last.items(), key=lambda kv: (-kv[1], kv[0]))
            found = await graph._read(
                statement, floor_us=lo, floor_slot=lo // slot, t_end_us=hi,
                t_end_slot=hi // slot, candidates=100, limit=100, t_start=hi * 1_000,
                t_end=hi * 1_000,
            )  # fmt: skip
            assert [(s[0], int(t)) for s, t, _ in found] == want, (lo, hi)
            for of in (["incident"], ["deploy", "work_item"]):
                counted: dict[str, int] = {}
                for r in records.values():
                    if r["record_kind"] in of and lo <= us(r["start"]) <= hi:
                        counted[r["subject"]] = counted.get(r["subject"], 0) + 1
                span = TimeSpan(lo * 1_000, hi * 1_000)
                cohort = await graph.active_subjects([SourceRecordKind(k) for k in of], span, 100)
                assert cohort == sorted(counted.items(), key=lambda kv: (-kv[1], kv[0])), (lo, of)


class _Counted(list[tuple[int, int]]):
    """A day histogram that counts the days read from it."""

    read = 0

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for day in super().__iter__():
            self.read += 1
            yield day


# (day number, records that day), newest first, some days empty.
_DAYS = [(20_000 - i, (i * 37) % 50 + (0 if i % 7 == 3 else 1)) for i in range(60)]


def test_window_floors_are_made_as_a_page_asks_for_them() -> None:
    """The first window's floor is found without reading the histogram's every day (a page at
    100k subjects is whole from it; a request read every day of records to make floors it
    never used), and the floors are the ones a page reads, in order, to the last day."""
    days = _Counted((20_000 - i, 500) for i in range(1_000))
    first = next(iter(activity._floors(days, None, 200)))
    assert first == 20_000 * DAY_NS + DAY_NS * 300 // 500 and days.read == 1
    top = 20_000 * DAY_NS - 5 * 3_600 * 10**9
    assert list(activity._floors(_DAYS, top, 40)) == [
        1727879328000000000, 1726997920000000000, 1722902400000000000]  # fmt: skip
    assert list(activity._floors(_DAYS, None, 40)) == [
        1727910144000000000, 1727015040000000000, 1722902400000000000]  # fmt: skip
    assert list(activity._floors(_DAYS, 19_970 * DAY_NS, 10**6)) == [1722902400000000000]
    assert list(activity._floors([], None, 40)) == []
