"""The activity structures kept by the writes of source records, and those writes.

Every statement that writes or deletes source records is here, because it changes the
structures that summarise them (a subject's latest activity, records per kind and day) in the
same statement; so is the counting of a format-0 graph's records (MIGRATE_ACTIVITY), which
keeps them as those writes do. The comment below says what each structure holds. Their reads
are in graph.cypher.activity_reads, the other migrations from earlier format versions and the
format marker in graph.cypher.formats (graph.activity runs them).
"""

from __future__ import annotations

from graph.cypher._fragments import assign, assign_new, day_slot, floor_div
from graph.recordrows import DAY_NS, SLOT_AT
from graph.rows import RECORD_COLUMNS

_SUBJECT = RECORD_COLUMNS.index("subject_key") + 1  # its position in a record row
# A record row's columns as the properties of a record created with them (a null one is not set).
_NEW_RECORD = ", ".join(f"{c}: row[{i}]" for i, c in enumerate(RECORD_COLUMNS, 1))

# --- activity: read structures kept by the writes of source records --------------------------
#
# (:Activity {subject_key, subject_kind, latest_ns, latest_us}): a subject's latest activity,
#   the greatest end (or start, for a record with no end) of its records; -1 once none is
#   left. "Most recently active" at the present reads a page of these from the latest_us
#   index (microseconds, as the records' time indexes: graph.rows).
# (:RecordDay {slot, record_kind, day, n}): how many records of a kind start on each day (UTC);
#   it sizes the window a page is read from, here and as of any past time. Its key is `slot`,
#   the text "kind:day" (day_slot): on FalkorDB a lookup on a text key costs a thirtieth of one on
#   (record_kind, day), whose numeric part is a range query (it was half the cost of a write).
# (:Activity)-[:HOLDS]->(:SourceRecord): each record from its subject's Activity node, exactly
#   one (format 7). Every read of a subject's records walks it: it replaced the records' index
#   on subject_key, which a reopen rebuilt at about 3.5 us a record (a million distinct values
#   at 1M subjects: docs/operations.md), where a relationship costs a reopen almost nothing.
#   The records keep their `subject_key` (reads return it).
# (:TimeSlot {slot, record_kind, n})-[:STARTS]->(:SourceRecord): each record from the slot
#   of its kind and start, exactly one (format 8); n = floor(start_us / SLOT_US), ten minutes
#   (graph.rows, floor before 1970 too), and `slot` the text "kind:n" (a text key, as
#   RecordDay's). (:TimeSlot)-[:ENDS]->(:SourceRecord) from the slot of its end, only when
#   that is another one (most records are points or end within their slot). A time window is
#   read from the slots' n index and walks to the records (recent_window as of a past time,
#   active_subjects): it replaced the records' start_us and end_us indexes, which a reopen
#   rebuilt at about 1.6 us a record (docs/operations.md, the 1M reopen); the few slot nodes
#   (one per kind and ten minutes that holds any record) cost a reopen little. A record
#   with an endpoint in a window is reached from that endpoint's slot: its start by STARTS,
#   its end by STARTS when in the same slot, else by ENDS. Slot nodes whose records went
#   stay, empty: every read filters the records' exact times, and counts records, not slots.
# (:TimeSlot {slot, record_kind, n, tie}): an endpoint exactly on a midnight (UTC) is on a
#   tie node of its slot instead, one per subject key prefix (graph.recordrows.tie_of), whose
#   `slot` is "kind:n:tie" (format 9). Reads of a window reach them as any slot of its n;
#   a page tied at a midnight reads them in key order (graph.ties says why).
# A cohort question ("which services had incidents last week") counts the window's records
#   through their start slots (active_subjects): per-subject day counts (SubjectDay, format 5)
#   made about one node per record and answered no faster (graph.activity, format 6).
# All change in the statement that writes or deletes the records they summarise. A write
# compares a record with what it replaces (a record is counted once its `day` is set):
# re-ingesting it unchanged counts nothing twice;
# a record that moved to another day, kind or subject, or whose time went back, is counted
# over and its subjects' latest activity is taken again from their records.


def _latest(var: str) -> str:
    return f"coalesce({var}.end_ns, {var}.start_ns)"


def _raise_latest(top: str) -> str:
    # Set only when it moves (measured a little cheaper than setting the same value again).
    moved = f"coalesce(v.latest_ns, -1) < {top}"
    return (
        f"FOREACH (_ IN CASE WHEN {moved} THEN [1] ELSE [] END |\n"
        f"  SET v.latest_ns = {top}, v.latest_us = {top} / 1000)"
    )


def _count_day(kind: str, day: str, n: str) -> str:
    return f"""MERGE (c:RecordDay {{org_id: $org, slot: {day_slot(kind, day)}}})
ON CREATE SET c.record_kind = {kind}, c.day = {day}
SET c.n = coalesce(c.n, 0) + {n}"""


def _keep_activity() -> str:
    """Rows in: r (the record as now written), subject0/last0 (its subject and latest time
    before this statement, null for a new record) and deltas ([kind, day, +-1] for RecordDay).
    Rows out: k, each subject whose latest activity must be taken again (_retake_latest)."""
    return f"""
UNWIND deltas + [null] AS d
WITH d[0] AS kind, d[1] AS day, toInteger(sum(coalesce(d[2], 0))) AS n,
     collect(CASE WHEN d IS NULL
                  THEN [r.subject_key, {_latest("r")}, subject0, last0] END) AS acts
FOREACH (_ IN CASE WHEN kind IS NULL OR n = 0 THEN [] ELSE [1] END |
  {_count_day("kind", "day", "n")})
WITH acts
UNWIND acts AS a
WITH a[0] AS k, max(a[1]) AS top,
     collect(CASE WHEN a[2] IS NOT NULL AND (a[2] <> a[0] OR a[3] > a[1]) THEN a[2] END) AS stale
MERGE (v:Activity {{org_id: $org, subject_key: k}})
ON CREATE SET v.subject_kind = split(k, ':')[0], v.latest_ns = top, v.latest_us = top / 1000
{_raise_latest('top')}
WITH collect(stale) AS stale
UNWIND stale AS some
UNWIND some AS k
WITH DISTINCT k
"""


def _retake_latest() -> str:
    """Rows in: k, a subject whose latest activity is taken again from its records."""
    return f"""
MATCH (v:Activity {{org_id: $org, subject_key: k}})
OPTIONAL MATCH (v)-[:HOLDS]->(x:SourceRecord)
WITH v, max({_latest("x")}) AS top
SET v.latest_ns = coalesce(top, -1),
    v.latest_us = CASE WHEN top IS NULL THEN -1 ELSE top / 1000 END
"""


def _place() -> str:
    """Rows in: r and row, a record as this statement wrote it and its write row (one row
    each), with its slots (graph.recordrows.SLOT_AT). It gets exactly one STARTS from its start
    slot and an ENDS from its end slot when that is another: a new record (or one without)
    gets them, one whose kind or times changed slot has them moved, an unchanged one keeps
    them (re-ingesting writes nothing). Rows out: the same, with the variables before."""
    s, n, e, m, st, et = (SLOT_AT + i for i in range(6))
    return f"""
WITH r, row, kind0, day0, subject0, last0
OPTIONAL MATCH (t0:TimeSlot)-[h:STARTS]->(r)
OPTIONAL MATCH (u0:TimeSlot)-[g:ENDS]->(r)
WITH r, row, kind0, day0, subject0, last0, h, g,
     t0 IS NULL OR t0.slot <> row[{s}] AS moved,
     coalesce(u0.slot, '') <> coalesce(row[{e}], '') AS ended
FOREACH (_ IN CASE WHEN moved AND h IS NOT NULL THEN [1] ELSE [] END | DELETE h)
FOREACH (_ IN CASE WHEN moved THEN [1] ELSE [] END |
  MERGE (t:TimeSlot {{org_id: $org, slot: row[{s}]}})
  ON CREATE SET t.record_kind = r.record_kind, t.n = row[{n}], t.tie = row[{st}]
  CREATE (t)-[:STARTS]->(r))
FOREACH (_ IN CASE WHEN ended AND g IS NOT NULL THEN [1] ELSE [] END | DELETE g)
FOREACH (_ IN CASE WHEN ended AND row[{e}] IS NOT NULL THEN [1] ELSE [] END |
  MERGE (u:TimeSlot {{org_id: $org, slot: row[{e}]}})
  ON CREATE SET u.record_kind = r.record_kind, u.n = row[{m}], u.tie = row[{et}]
  CREATE (u)-[:ENDS]->(r))"""


def _hold() -> str:
    """Rows in: r, a record as this statement wrote it (one row each: graph.writer sends a
    record once), its subject's Activity node merged already. It gets exactly one HOLDS
    from that Activity: a new record (or one without) gets it, one whose subject changed
    has it moved, an unchanged one keeps it (re-ingesting writes nothing). Rows out: the
    same, with the variables before (kind0, day0, subject0, last0)."""
    return """
WITH r, kind0, day0, subject0, last0
OPTIONAL MATCH (old:Activity)-[h:HOLDS]->(r)
WITH r, kind0, day0, subject0, last0, h,
     old IS NULL OR old.subject_key <> r.subject_key AS moved
FOREACH (_ IN CASE WHEN moved AND h IS NOT NULL THEN [1] ELSE [] END | DELETE h)
FOREACH (_ IN CASE WHEN moved THEN [1] ELSE [] END |
  MERGE (v:Activity {org_id: $org, subject_key: r.subject_key})
  CREATE (v)-[:HOLDS]->(r))"""


def _merge_slot() -> str:
    """A time slot, `sl` being [key, kind, n, tie] (graph.recordrows.record_slots)."""
    return """MERGE (t:TimeSlot {org_id: $org, slot: sl[0]})
ON CREATE SET t.record_kind = sl[1], t.n = sl[2], t.tie = sl[3]"""


# Time slots made ahead of the records they place ($slots: [key, kind, n, tie] each, a thousand or
# so): FalkorDB's MERGE of many new nodes in a statement that also creates relationships
# grew faster than the rows (a format-8 migration of 200k records at 1M, spanning 400 days,
# had not ended after 28 minutes); alone, a MERGE is linear.
MAKE_SLOTS = f"""
UNWIND $slots AS sl
{_merge_slot()}
"""

# $days: [kind, day, n] and $latest: [subject key, latest time], the batch's own counts and
# latest times, added up by the writer (a database aggregation over the rows was a third of
# the write). They hold for new records; each record that was already counted takes its old
# count back here (an unchanged one then nets to zero), and a subject that lost a record or
# saw one move back in time has its latest time taken again from its records (at the end,
# once the HOLDS it reads have moved). The batch's time slots ($slots,
# graph.recordrows.record_slots) and the subjects' Activity nodes come first, so that the
# records' STARTS, ENDS and HOLDS only find them (MAKE_SLOTS says why). No list is carried
# through a grouping (`WITH stale, written, ...` hashed the batch's records for every row: a
# seventh of the speed).
MERGE_SOURCE_RECORDS = f"""
UNWIND $slots AS sl
{_merge_slot()}
WITH count(*) AS slots
UNWIND $latest AS a
MERGE (v:Activity {{org_id: $org, subject_key: a[0]}})
ON CREATE SET v.subject_kind = split(a[0], ':')[0], v.latest_ns = a[1],
              v.latest_us = a[1] / 1000
{_raise_latest('a[1]')}
WITH count(*) AS subjects
UNWIND $rows AS row
MERGE (r:SourceRecord {{org_id: $org, key: row[0]}})
WITH r, row, r.record_kind AS kind0, r.day AS day0, r.subject_key AS subject0,
     {_latest("r")} AS last0
{assign("r", RECORD_COLUMNS, 1)}
{_place()}{_hold()}
WITH collect(CASE WHEN day0 IS NOT NULL THEN [kind0, day0, -1] END) AS fixes,
     collect(CASE WHEN subject0 <> r.subject_key OR last0 > {_latest("r")}
                  THEN subject0 END) AS stale
UNWIND $days + fixes AS d
WITH stale, d[0] AS kind, d[1] AS day, toInteger(sum(d[2])) AS n
{_count_day("kind", "day", "n")}
WITH stale, count(*) AS days
UNWIND stale AS k
WITH DISTINCT k
{_retake_latest()}"""


# Records the batch's read found absent ($rows, as MERGE_SOURCE_RECORDS' with its $slots,
# $latest and $days): each is created with its STARTS, its ENDS where it ends on another
# slot, and its HOLDS, with no comparison with what it replaces (there is nothing). That
# skips what a new record pays for in MERGE_SOURCE_RECORDS: the per-column deletions, the
# three reads of its old links and the counts taken back; on a 10k-subject graph a batch of
# 5,000 new records cost the server about 40 % less CPU. The read was made before the batch
# before was written (graph.writer), and another writer may have written one since: then the
# statement writes nothing and returns no row (a filter by UNWIND, not by WITH ... WHERE, and
# before any write), and the writer sends the rows through MERGE_SOURCE_RECORDS instead.
CREATE_SOURCE_RECORDS = f"""
UNWIND $rows AS row
OPTIONAL MATCH (held:SourceRecord {{org_id: $org, key: row[0]}})
WITH count(held) AS taken
UNWIND CASE WHEN taken = 0 THEN [1] ELSE [] END AS go
UNWIND $slots AS sl
{_merge_slot()}
WITH go, count(*) AS slots
UNWIND $latest AS a
MERGE (v:Activity {{org_id: $org, subject_key: a[0]}})
ON CREATE SET v.subject_kind = split(a[0], ':')[0], v.latest_ns = a[1],
              v.latest_us = a[1] / 1000
{_raise_latest("a[1]")}
WITH go, count(*) AS subjects
UNWIND $rows AS row
MERGE (t:TimeSlot {{org_id: $org, slot: row[{SLOT_AT}]}})
MERGE (v:Activity {{org_id: $org, subject_key: row[{_SUBJECT}]}})
CREATE (r:SourceRecord {{org_id: $org, key: row[0]}})
SET {assign_new("r", RECORD_COLUMNS, 1)}
CREATE (t)-[:STARTS]->(r), (v)-[:HOLDS]->(r)
FOREACH (_ IN CASE WHEN row[{SLOT_AT + 2}] IS NOT NULL THEN [1] ELSE [] END |
  MERGE (u:TimeSlot {{org_id: $org, slot: row[{SLOT_AT + 2}]}})
  CREATE (u)-[:ENDS]->(r))
WITH go, count(*) AS records
UNWIND $days AS d
WITH go, d[0] AS kind, d[1] AS day, d[2] AS n
{_count_day("kind", "day", "n")}
WITH go, count(*) AS days
RETURN go"""

# CREATE_SOURCE_RECORDS where a MERGE matches before it takes the write lock (FalkorDB: two
# writers can each create the node, tests/test_falkordb_behaviour): each slot, Activity and
# day count is matched, then created if absent (FOREACH), and each record row matches its
# start slot, end slot and Activity, made just before in the statement. The same graph, as
# safe there as MERGE, for less: FalkorDB's MERGE cost about four times a MATCH on the same
# key, matched or not (a 5,000-record batch at 10k subjects: 250-320 ms down to 185-250 ms).
# $slots, $latest and $days hold each key once (graph.rows), so nothing is created twice.
CREATE_SOURCE_RECORDS_MATCHED = f"""
UNWIND $rows AS row
OPTIONAL MATCH (held:SourceRecord {{org_id: $org, key: row[0]}})
WITH count(held) AS taken
UNWIND CASE WHEN taken = 0 THEN [1] ELSE [] END AS go
UNWIND $slots AS sl
OPTIONAL MATCH (t:TimeSlot {{org_id: $org, slot: sl[0]}})
FOREACH (_ IN CASE WHEN t IS NULL THEN [1] ELSE [] END |
  CREATE (:TimeSlot {{org_id: $org, slot: sl[0], record_kind: sl[1], n: sl[2], tie: sl[3]}}))
WITH go, count(*) AS slots
UNWIND $latest AS a
OPTIONAL MATCH (v:Activity {{org_id: $org, subject_key: a[0]}})
FOREACH (_ IN CASE WHEN v IS NULL THEN [1] ELSE [] END |
  CREATE (:Activity {{org_id: $org, subject_key: a[0], subject_kind: split(a[0], ':')[0],
                      latest_ns: a[1], latest_us: a[1] / 1000}}))
FOREACH (_ IN CASE WHEN coalesce(v.latest_ns, -1) < a[1] AND v IS NOT NULL THEN [1] ELSE [] END |
  SET v.latest_ns = a[1], v.latest_us = a[1] / 1000)
WITH go, count(*) AS subjects
UNWIND $rows AS row
MATCH (t:TimeSlot {{org_id: $org, slot: row[{SLOT_AT}]}})
MATCH (v:Activity {{org_id: $org, subject_key: row[{_SUBJECT}]}})
OPTIONAL MATCH (u:TimeSlot {{org_id: $org, slot: row[{SLOT_AT + 2}]}})
CREATE (r:SourceRecord {{org_id: $org, key: row[0], {_NEW_RECORD}}})
CREATE (t)-[:STARTS]->(r), (v)-[:HOLDS]->(r)
FOREACH (_ IN CASE WHEN u IS NULL THEN [] ELSE [1] END | CREATE (u)-[:ENDS]->(r))
WITH go, count(*) AS records
UNWIND $days AS d
OPTIONAL MATCH (c:RecordDay {{org_id: $org, slot: {day_slot("d[0]", "d[1]")}}})
FOREACH (_ IN CASE WHEN c IS NULL THEN [1] ELSE [] END |
  CREATE (:RecordDay {{org_id: $org, slot: {day_slot("d[0]", "d[1]")}, record_kind: d[0],
                       day: d[1], n: d[2]}}))
FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | SET c.n = coalesce(c.n, 0) + d[2])
WITH go, count(*) AS days
RETURN go"""

# A graph written before these structures existed: count its records a range of node ids at
# a time (graph.activity; a window of start times read the records' start_us index, which
# format 8 dropped). A record is counted when its `day` is set, so an interrupted run resumes
# without counting anything twice, and records written meanwhile are never counted again.
# Their HOLDS and time slots come after, from format 7's and 8's steps (graph.dialect's
# `holds` and `slots`), as a format-6 graph's do. (Neo4j seeks no range of ids: there each
# range filters the organisation's records, a slow first open of a format-0 graph only, as
# graph.activity runs this only when UNCOUNTED finds a record to count.)
MIGRATE_ACTIVITY = f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE id(r) >= $lo AND id(r) < $hi AND r.day IS NULL
SET r.day = {floor_div("r.start_ns", DAY_NS)}
WITH r, null AS subject0, null AS last0, [[r.record_kind, r.day, 1]] AS deltas
{_keep_activity()}{_retake_latest()}"""

# DETACH: the record's HOLDS, STARTS and ENDS go with it.
DELETE_SOURCE_RECORDS = f"""
UNWIND $keys AS key
MATCH (r:SourceRecord {{org_id: $org, key: key}})
WITH r, r.subject_key AS k, [r.record_kind, r.day, -1] AS d
DETACH DELETE r
WITH collect(k) AS ks, collect(d) AS ds
FOREACH (d IN [x IN ds WHERE x[1] IS NOT NULL] |
  {_count_day("d[0]", "d[1]", "d[2]")})
WITH ks
UNWIND ks AS k
WITH DISTINCT k
{_retake_latest()}"""
