"""Every Cypher statement the gateway sends, shared by the FalkorDB and Neo4j adapters.

Rules: values travel only as parameters; the only text composed at run time is a
relationship type taken from the closed `RelationshipType` enum or a fixed fragment from this
module. Every statement matches on `org_id: $org`.
"""

from __future__ import annotations

from typing import NamedTuple

from engine import text as _text
from engine.models import RelationshipType
from graph.dialect import Dialect
from graph.rows import (
    EPISODE_COLUMNS,
    RECORD_COLUMNS,
    RELATIONSHIP_COLUMNS,
    RELATIONSHIP_FIELDS,
    STUB_COLUMNS,
    SUBJECT_BRIEF_FIELDS,
    SUBJECT_COLUMNS,
    SUBJECT_FIELDS,
)


def _values(var: str, fields: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"{var}.{f}" for f in fields) + "]"


S_VALUES = _values("s", SUBJECT_FIELDS)
O_VALUES = _values("o", SUBJECT_FIELDS)
S_BRIEF = _values("s", SUBJECT_BRIEF_FIELDS)
O_BRIEF = _values("o", SUBJECT_BRIEF_FIELDS)
R_VALUES = _values("r", RELATIONSHIP_FIELDS)


def _assign(var: str, columns: tuple[str, ...], offset: int) -> str:
    """`v.col = row[i], ...` for positional write rows; columns are fixed identifiers."""
    return ", ".join(f"{var}.{col} = row[{i}]" for i, col in enumerate(columns, offset))


# An element is admitted when its half-open window [valid_from, valid_to) overlaps the query
# interval [$t_start, $t_end]; a point in time is the interval [T, T]. No window: admitted.
def admitted(var: str) -> str:
    return (
        f"({var}.valid_from_ns IS NULL OR {var}.valid_from_ns <= $t_end) AND "
        f"({var}.valid_to_ns IS NULL OR {var}.valid_to_ns > $t_start)"
    )


_ALWAYS = "true"

# --- subjects -------------------------------------------------------------------------------

# Every label whose nodes belong to one organisation (the system scope's keys and secrets
# are not an organisation's).
ORG_LABELS = (
    "Subject", "Episode", "SourceRecord", "Checkpoint", "Investigation", "EmbeddingMeta",
    "ProjectionEpoch", "Lifecycle", "Epoch", "Activity", "RecordDay", "Format",
)  # fmt: skip


def merge_subjects(dialect: Dialect) -> str:
    return f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
SET {_assign("s", SUBJECT_COLUMNS, 1)}{dialect.subject_set}
"""


# Stubs assert identity only: they never carry a validity window, and a later authoritative
# subject record overwrites them.
MERGE_STUBS = f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
ON CREATE SET {_assign("s", STUB_COLUMNS, 1)}, s.stub = true
"""


def subjects_by_keys(timed: bool) -> str:
    return f"""
UNWIND $keys AS k
MATCH (s:Subject {{org_id: $org, key: k}})
WHERE {admitted("s") if timed else _ALWAYS}
RETURN {S_VALUES}
"""


SUBJECTS_BY_IDS = f"""
UNWIND $ids AS i
MATCH (s:Subject {{org_id: $org, id: i}})
RETURN {S_VALUES}
"""


class FilterShape(NamedTuple):
    """Which subject filters a statement carries. Only those present are written into it:
    a disjunction such as `size($kinds) = 0 OR ...` would keep the kind index unused."""

    kinds: bool = False
    prefix: bool = False
    search: bool = False
    pairs: bool = False
    stubs: bool = False
    timed: bool = False
    brief: bool = False


def _subject_filter(shape: FilterShape) -> str:
    return f"\nMATCH (s:Subject {{org_id: $org}})\nWHERE {_subject_where(shape)}\n"


def _subject_where(shape: FilterShape) -> str:
    terms = [
        "s.kind IN $kinds" if shape.kinds else "",
        "s.name STARTS WITH $prefix" if shape.prefix else "",
        "toLower(s.search_text) CONTAINS $search" if shape.search else "",
        "all(p IN $pairs WHERE p IN s.attr_pairs)" if shape.pairs else "",
        "" if shape.stubs else "s.stub = false",
        admitted("s") if shape.timed else "",
    ]
    return " AND ".join(t for t in terms if t) or "true"


def find_subjects(shape: FilterShape, order: str, after: bool) -> str:
    """Keyset-paginated subjects; every row is [properties, sort value, key].

    The page is cut before properties are projected: projecting first built a map for every
    matching subject, not just the page."""
    if order == "recent":
        return _recent_subjects(shape, after)
    sort = "s.name" if order == "name" else "''"
    cursor = f"AND ({sort} > $after_sort OR ({sort} = $after_sort AND s.key > $after_key))"
    return f"""{_subject_filter(shape)} {cursor if after else ""}
WITH s ORDER BY {sort}, s.key LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, {sort}, s.key
"""


def _recent_subjects(shape: FilterShape, after: bool) -> str:
    # Most recently active first: the latest source-record time not after the query time.
    # The time test sits inside the aggregate, not in a WHERE: there FalkorDB chose the
    # start-time index and scanned every record of the organisation for each subject.
    until = "$t_end" if shape.timed else "9223372036854775807"
    cursor = "WHERE last < $after_sort OR (last = $after_sort AND s.key > $after_key)"
    return f"""{_subject_filter(shape)}
OPTIONAL MATCH (a:SourceRecord {{org_id: $org, subject_key: s.key}})
WITH s, max(CASE WHEN a.start_ns > {until} THEN null
                 WHEN a.end_ns IS NOT NULL AND a.end_ns <= {until} THEN a.end_ns
                 ELSE a.start_ns END) AS seen
WITH s, coalesce(seen, -1) AS last
{cursor if after else ""}
WITH s, last ORDER BY last DESC, s.key LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, last, s.key
"""


def recent_window(shape: FilterShape, after: bool) -> str:
    """A page of the most recently active subjects among those last active at or after
    $floor (graph.activity widens the window until the page is whole). Every row is
    [properties, last activity, key], as `find_subjects` gives them.

    At the present the window is a range of the Activity index. As of a past time it is the
    records' start and end times in [$floor_us, $t_end_us] (microseconds, graph.rows): a
    subject's latest activity as of T is its greatest record start or end not after T, and
    each of those at or after the floor is in the window. The two ranges are two index reads
    joined by UNION ALL: one read of either range (OR) walked the whole index. A subject's
    kind is its key's prefix (engine.models), so other kinds are left out before a subject
    is looked up."""
    if shape.timed:
        window = """
CALL {
  MATCH (r:SourceRecord {org_id: $org})
  WHERE r.start_us >= $floor_us AND r.start_us <= $t_end_us
  RETURN r.subject_key AS k, r.start_us AS t
  UNION ALL
  MATCH (r:SourceRecord {org_id: $org})
  WHERE r.end_us >= $floor_us AND r.end_us <= $t_end_us
  RETURN r.subject_key AS k, r.end_us AS t
}
WITH k, max(t) * 1000 AS last"""
        if shape.kinds:
            window += "\nWHERE split(k, ':')[0] IN $kinds"
    else:
        kinds = "AND a.subject_kind IN $kinds" if shape.kinds else ""
        window = f"""
MATCH (a:Activity {{org_id: $org}})
WHERE a.latest_us >= $floor_us {kinds}
WITH a.subject_key AS k, a.latest_ns AS last"""
    cursor = "\nWITH k, last WHERE last < $after_sort OR (last = $after_sort AND k > $after_key)"
    # Only the first $candidates of the window (by the page's order: the key is the subject's)
    # are looked up; once $limit of them pass the filter they are the page, as every subject
    # further down ranks after them. Fewer: graph.activity reads a wider window with more.
    return f"""{window}{cursor if after else ""}
WITH k, last ORDER BY last DESC, k LIMIT $candidates
MATCH (s:Subject {{org_id: $org, key: k}})
WHERE {_subject_where(shape)}
WITH s, last ORDER BY last DESC, s.key LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, last, s.key
"""


def count_subjects(shape: FilterShape) -> str:
    return _subject_filter(shape) + "RETURN count(s)"


# --- relationships --------------------------------------------------------------------------


def merge_relationships(rel_type: RelationshipType) -> str:
    label = RelationshipType(rel_type).value  # closed enum: never caller text
    return f"""
UNWIND $rows AS row
MATCH (a:Subject {{org_id: $org, key: row[0]}})
MATCH (b:Subject {{org_id: $org, key: row[1]}})
MERGE (a)-[r:{label} {{org_id: $org, id: row[2]}}]->(b)
SET {_assign("r", RELATIONSHIP_COLUMNS, 3)}
"""


def _admitted_at(var: str, start: str, end: str) -> str:
    return (
        f"({var}.valid_from_ns IS NULL OR {var}.valid_from_ns <= {end}) AND "
        f"({var}.valid_to_ns IS NULL OR {var}.valid_to_ns > {start})"
    )


# Many edge requests (each its own subject, time and page) in one statement, so a dataloader
# level costs one round trip. Requests are grouped by (types, direction) and each group gets a
# typed pattern of its own, joined by UNION ALL: an untyped, undirected expansion filtered
# afterwards walked every edge of busy subjects. The anchor is matched in a clause of its own so
# the planner starts from its index even when the pattern points towards it (with the WITH
# in between; FalkorDB otherwise merges the two and scans the far end's label). A request row is
# positional:
# [index, key, -, -, t_start, t_end, limit, after_type, after_key, after_id].
_ARROWS = {"outgoing": ("-", "->"), "incoming": ("<-", "-"), "both": ("-", "-")}


def _edge_match(param: str, types: tuple[RelationshipType, ...], direction: str) -> str:
    left, right = _ARROWS[direction]
    labels = "|".join(RelationshipType(t).value for t in types)  # closed enum
    rel = f"[r:{labels}]" if labels else "[r]"
    untyped = "" if labels else "AND type(r) <> 'MENTIONS'"
    return f"""
UNWIND ${param} AS q
MATCH (s:Subject {{org_id: $org, key: q[1]}})
WITH q, s
MATCH (s){left}{rel}{right}(o:Subject)
WHERE r.org_id = $org AND o.org_id = $org {untyped}
  AND (q[4] IS NULL OR ({_admitted_at("r", "q[4]", "q[5]")}
                        AND {_admitted_at("o", "q[4]", "q[5]")}))
"""


def _edge_page(brief: bool) -> str:
    return f"""  AND (q[7] IS NULL OR type(r) > q[7]
       OR (type(r) = q[7] AND (o.key > q[8] OR (o.key = q[8] AND r.id > q[9]))))
WITH q[0] AS i, q[6] AS lim, r, o, startNode(r) = s AS outgoing
ORDER BY i, type(r), o.key, r.id
WITH i, lim, collect([type(r), {R_VALUES}, {O_BRIEF if brief else O_VALUES}, outgoing]) AS rels
RETURN i, rels[0..lim] AS rels
"""


# (relationship types, direction, brief other end)
EdgeGroup = tuple[tuple[RelationshipType, ...], str, bool]


def edges(groups: list[EdgeGroup]) -> str:
    """One statement for every group; group n's requests are the parameter `$g<n>`."""
    parts = [
        _edge_match(f"g{n}", types, d) + _edge_page(brief)
        for n, (types, d, brief) in enumerate(groups)
    ]
    return "UNION ALL".join(parts)


def _neighbor_page(brief: bool) -> str:
    return f"""WITH q[0] AS i, q[6] AS lim, r, o
ORDER BY i, type(r), o.key, r.id
WITH i, lim, collect({O_BRIEF if brief else O_VALUES}) AS others
RETURN i, others[0..lim] AS others
"""


def neighbors(groups: list[EdgeGroup]) -> str:
    """The other ends of each request's page of edges, in edge order: what `edges` reads less
    the relationships themselves, which a neighbour list never shows (a third of the cells
    to encode and decode)."""
    parts = [
        _edge_match(f"g{n}", types, d) + _neighbor_page(brief)
        for n, (types, d, brief) in enumerate(groups)
    ]
    return "UNION ALL".join(parts)


def edge_counts(groups: list[EdgeGroup]) -> str:
    parts = [
        _edge_match(f"g{n}", types, d) + "RETURN q[0] AS i, count(r) AS n\n"
        for n, (types, d, _) in enumerate(groups)
    ]
    return "UNION ALL".join(parts)


# Relationships by identity, anchored on their start subject: [index, from_key, id].
EDGES_BY_ID = f"""
UNWIND $reqs AS q
MATCH (s:Subject {{org_id: $org, key: q[1]}})-[r]->(o:Subject {{org_id: $org}})
WHERE r.org_id = $org AND r.id = q[2]
RETURN q[0], type(r), {R_VALUES}, {O_VALUES}
"""


def delete_relationships(dialect: Dialect) -> str:
    """Relationships by id. One graph per organisation: every subject's relationships are
    few enough to walk. In a database shared by every organisation each type is sought in
    its own relationship index on `id` instead (an index needs the type)."""
    if not dialect.shared_indexes:
        return """
UNWIND $keys AS id
MATCH (:Subject {org_id: $org})-[r]->(:Subject {org_id: $org})
WHERE r.org_id = $org AND r.id = id
DELETE r
"""
    arms = "  UNION ALL\n".join(
        f"  MATCH ()-[r:{t.value} {{id: id}}]->() WHERE r.org_id = $org RETURN r\n"
        for t in RelationshipType
    )
    return f"""
UNWIND $keys AS id
CALL (id) {{
{arms}}}
DELETE r
"""


# --- episodes and source records ------------------------------------------------------------

# An episode loaded again mentions what it says now: links to subjects it no longer names go
# (MERGE alone only ever added links, so the episode stayed listed under a subject it had
# stopped mentioning while its `mentions` said otherwise).
MERGE_EPISODES = f"""
UNWIND $rows AS row
MERGE (e:Episode {{org_id: $org, key: row[0]}})
SET {_assign("e", EPISODE_COLUMNS, 2)}
WITH e, row
OPTIONAL MATCH (e)-[gone:MENTIONS]->(o:Subject)
WHERE NOT o.key IN row[1]
DELETE gone
WITH DISTINCT e, row
UNWIND row[1] AS m
MATCH (s:Subject {{org_id: $org, key: m}})
MERGE (e)-[x:MENTIONS {{org_id: $org}}]->(s)
"""


# A request row: [index, key, start_ns, end_ns, limit, after_ns, after_key]; newest first.
# The subject is matched first, in a clause of its own: FalkorDB otherwise scanned every
# episode and walked to the subject.
EPISODES = """
UNWIND $reqs AS q
MATCH (s:Subject {org_id: $org, key: q[1]})
WITH q, s
MATCH (e:Episode)-[x:MENTIONS]->(s)
WHERE e.org_id = $org
  AND (q[2] IS NULL OR e.occurred_at_ns >= q[2]) AND (q[3] IS NULL OR e.occurred_at_ns <= q[3])
  AND (q[5] IS NULL OR e.occurred_at_ns < q[5] OR (e.occurred_at_ns = q[5] AND e.key > q[6]))
WITH q[0] AS i, q[4] AS lim, e
ORDER BY i, e.occurred_at_ns DESC, e.key
WITH i, lim, collect(properties(e)) AS rows
RETURN i, rows[0..lim]
"""

EPISODE_COUNTS = """
UNWIND $reqs AS q
MATCH (s:Subject {org_id: $org, key: q[1]})
WITH q, s
MATCH (e:Episode)-[x:MENTIONS]->(s)
WHERE e.org_id = $org
  AND (q[2] IS NULL OR e.occurred_at_ns >= q[2]) AND (q[3] IS NULL OR e.occurred_at_ns <= q[3])
RETURN q[0], count(e)
"""

EPISODES_BY_KEYS = """
UNWIND $keys AS k
MATCH (e:Episode {org_id: $org, key: k})
RETURN properties(e)
"""

SOURCE_RECORDS_BY_KEYS = """
UNWIND $keys AS k
MATCH (r:SourceRecord {org_id: $org, key: k})
RETURN properties(r)
"""


# --- activity: read structures kept by the writes of source records --------------------------
#
# (:Activity {subject_key, subject_kind, latest_ns, latest_us}): a subject's latest activity,
#   the greatest end (or start, for a record with no end) of its records; -1 once none is
#   left. "Most recently active" at the present reads a page of these from the latest_us
#   index (microseconds, as the records' time indexes: graph.rows).
# (:RecordDay {slot, record_kind, day, n}): how many records of a kind start on each day (UTC);
#   it sizes the window a page is read from, here and as of any past time. Its key is `slot`,
#   the text "kind:day" (_slot): on FalkorDB a lookup on a text key costs a thirtieth of one on
#   (record_kind, day), whose numeric part is a range query (it was half the cost of a write).
# A cohort question ("which services had incidents last week") counts the window's records
#   on their start_us index (active_subjects): per-subject day counts (SubjectDay, format 5)
#   made about one node per record and answered no faster (graph.activity, format 6).
# Both change in the statement that writes or deletes the records they summarise. A write
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


def _slot(kind: str, day: str) -> str:
    return f"{kind} + ':' + toString({day})"


def _count_day(kind: str, day: str, n: str) -> str:
    return f"""MERGE (c:RecordDay {{org_id: $org, slot: {_slot(kind, day)}}})
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
OPTIONAL MATCH (x:SourceRecord {{org_id: $org, subject_key: k}})
WITH k, max({_latest("x")}) AS top
MATCH (v:Activity {{org_id: $org, subject_key: k}})
SET v.latest_ns = coalesce(top, -1),
    v.latest_us = CASE WHEN top IS NULL THEN -1 ELSE top / 1000 END
"""


# $days: [kind, day, n] and $latest: [subject key, latest time], the batch's own counts and
# latest times, added up by the writer (a database aggregation over the rows was a third of
# the write). They hold for new records; each record that was already counted takes its old
# count back here (an unchanged one then nets to zero), and a subject that lost a record or
# saw one move back in time has its latest time taken again from its records.
MERGE_SOURCE_RECORDS = f"""
UNWIND $rows AS row
MERGE (r:SourceRecord {{org_id: $org, key: row[0]}})
WITH r, row, r.record_kind AS kind0, r.day AS day0, r.subject_key AS subject0,
     {_latest("r")} AS last0
SET {_assign("r", RECORD_COLUMNS, 1)}
WITH collect(CASE WHEN day0 IS NOT NULL THEN [kind0, day0, -1] END) AS fixes,
     collect(CASE WHEN subject0 <> r.subject_key OR last0 > {_latest("r")}
                  THEN subject0 END) AS stale
UNWIND $days + fixes AS d
WITH stale, d[0] AS kind, d[1] AS day, toInteger(sum(d[2])) AS n
{_count_day("kind", "day", "n")}
WITH stale, count(*) AS days
UNWIND $latest AS a
MERGE (v:Activity {{org_id: $org, subject_key: a[0]}})
ON CREATE SET v.subject_kind = split(a[0], ':')[0], v.latest_ns = a[1],
              v.latest_us = a[1] / 1000
{_raise_latest('a[1]')}
WITH stale, count(*) AS subjects
UNWIND stale AS k
WITH DISTINCT k
{_retake_latest()}"""


# A graph written before these structures existed: count its records a time window at a
# time. A record is counted when its `day` is set, so an interrupted run resumes without
# counting anything twice, and records written meanwhile are never counted again.
MIGRATE_ACTIVITY = f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE r.start_us >= $lo_us AND r.start_us < $hi_us AND r.day IS NULL
SET r.day = CASE WHEN r.start_ns >= 0 THEN r.start_ns / $day_ns
                 ELSE (r.start_ns - $day_ns + 1) / $day_ns END
WITH r, null AS subject0, null AS last0, [[r.record_kind, r.day, 1]] AS deltas
{_keep_activity()}{_retake_latest()}"""

# Format 1 keyed a day's count by (record_kind, day): give each its text key.
SLOT_RECORD_DAYS = f"""
MATCH (c:RecordDay {{org_id: $org}})
WHERE c.slot IS NULL
SET c.slot = {_slot("c.record_kind", "c.day")}
"""

# Format 3: the records' times in microseconds, which the range indexes hold (graph.rows).
# A batch at a time, until one comes back short; records written since have them already.
FILL_MICROSECONDS = """
MATCH (r:SourceRecord {org_id: $org})
WHERE r.start_us IS NULL
WITH r LIMIT $batch
SET r.start_us = r.start_ns / 1000, r.end_us = r.end_ns / 1000
RETURN count(r)
"""

# Format 4: each subject's latest activity in microseconds too (-1 stays -1: none left).
FILL_ACTIVITY_MICROSECONDS = """
MATCH (a:Activity {org_id: $org})
WHERE a.latest_us IS NULL
WITH a LIMIT $batch
SET a.latest_us = CASE WHEN a.latest_ns = -1 THEN -1 ELSE a.latest_ns / 1000 END
RETURN count(a)
"""

# Format 6: the per-subject day counts of format 5 go, a batch at a time (their index and
# key are dropped on open: graph.dialect); nothing reads or writes them any more.
COUNT_SUBJECT_DAYS = """
MATCH (c:SubjectDay {org_id: $org})
RETURN count(c)
"""

DELETE_SUBJECT_DAYS = """
MATCH (c:SubjectDay {org_id: $org})
WITH c LIMIT $batch
DELETE c
RETURN count(*)
"""

# Every organisation (or epoch scope) holding records: one written before a format version
# has no Format node of its own (the database-wide one says which version it was brought to).
ORGS_TO_MIGRATE = """
MATCH (r:SourceRecord)
RETURN DISTINCT r.org_id AS org
UNION
MATCH (c:RecordDay)
WHERE c.slot IS NULL
RETURN DISTINCT c.org_id AS org
UNION
MATCH (a:Activity)
WHERE a.latest_us IS NULL
RETURN DISTINCT a.org_id AS org
UNION
MATCH (c:SubjectDay)
RETURN DISTINCT c.org_id AS org
"""

RECORD_SPAN = """
MATCH (r:SourceRecord {org_id: $org})
RETURN min(r.start_ns), max(r.start_ns), count(r)
"""

GET_FORMAT = """
MATCH (m:Format {org_id: $org})
RETURN m.activity
"""

SET_FORMAT = """
MERGE (m:Format {org_id: $org})
SET m.activity = $version
"""

COUNT_ACTIVITY = """
MATCH (a:Activity {org_id: $org})
RETURN count(a)
"""

ACTIVITY_LATEST = """
MATCH (a:Activity {org_id: $org})
RETURN a.subject_key, a.latest_ns
"""

ACTIVITY_DAYS = """
MATCH (c:RecordDay {org_id: $org})
RETURN c.record_kind, c.day, c.n
"""

# Records per day (every kind), newest first: how far back a window must reach.
RECORD_DAYS = """
MATCH (c:RecordDay {org_id: $org})
WHERE c.n > 0
WITH c.day AS day, sum(c.n) AS n
RETURN day, n
ORDER BY day DESC
"""


def source_records_of(timed: bool) -> str:
    window = (
        "r.start_ns <= $t_end AND (r.end_ns IS NULL OR r.end_ns >= $t_start)" if timed else _ALWAYS
    )
    return f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE r.subject_key IN $keys
  AND (size($kinds) = 0 OR r.record_kind IN $kinds)
  AND {window}
RETURN properties(r)
ORDER BY r.start_ns, r.key
"""


# A request row: [index, subject key, kinds (all when empty), start_ns, end_ns, limit, after
# start_ns, after key]; oldest first, then by key, as `source_records_of` orders. The keyset
# condition skips what earlier pages returned, and only the page leaves the database.
SOURCE_RECORD_PAGES = """
UNWIND $reqs AS q
MATCH (r:SourceRecord {org_id: $org, subject_key: q[1]})
WHERE (size(q[2]) = 0 OR r.record_kind IN q[2])
  AND (q[3] IS NULL OR (r.start_ns <= q[4] AND (r.end_ns IS NULL OR r.end_ns >= q[3])))
  AND (q[6] IS NULL OR r.start_ns > q[6] OR (r.start_ns = q[6] AND r.key > q[7]))
WITH q[0] AS i, q[5] AS lim, r
ORDER BY i, r.start_ns, r.key
WITH i, lim, collect(properties(r)) AS rows
RETURN i, rows[0..lim]
"""


# --- deletion -------------------------------------------------------------------------------

DELETE_SUBJECTS = """
UNWIND $keys AS k
MATCH (s:Subject {org_id: $org, key: k})
DETACH DELETE s
"""

DELETE_EPISODES = """
UNWIND $keys AS k
MATCH (e:Episode {org_id: $org, key: k})
DETACH DELETE e
"""

DELETE_SOURCE_RECORDS = f"""
UNWIND $keys AS key
MATCH (r:SourceRecord {{org_id: $org, key: key}})
WITH r, r.subject_key AS k, [r.record_kind, r.day, -1] AS d
DELETE r
WITH collect(k) AS ks, collect(d) AS ds
FOREACH (d IN [x IN ds WHERE x[1] IS NOT NULL] |
  {_count_day("d[0]", "d[1]", "d[2]")})
WITH ks
UNWIND ks AS k
WITH DISTINCT k
{_retake_latest()}"""


# Complete-enumeration cleanup: what this source wrote before but not in this run. Each
# returns how many it deleted; the dialect batches the deletes (graph.dialect).
def delete_unseen_relationships(dialect: Dialect) -> str:
    return f"""
MATCH (:Subject {{org_id: $org}})-[r]->(:Subject {{org_id: $org}})
WHERE r.org_id = $org AND r.source = $source AND r.run_id <> $run
{dialect.batched("r", "DELETE")}
"""


# Source records go through DELETE_SOURCE_RECORDS instead, which keeps the activity
# structures.
UNSEEN_LABELS = ("Subject", "Episode")


def delete_unseen_nodes(dialect: Dialect) -> dict[str, str]:
    return {
        label: f"""
MATCH (n:{label} {{org_id: $org, source: $source}})
WHERE n.run_id <> $run
{dialect.batched("n", "DETACH DELETE")}
"""
        for label in UNSEEN_LABELS
    }


def delete_org(dialect: Dialect) -> dict[str, str]:
    """Every node of one organisation, label by label (each seeks on its org_id index)."""
    return {
        label: f"""
MATCH (n:{label} {{org_id: $org}})
{dialect.batched("n", "DETACH DELETE")}
"""
        for label in ORG_LABELS
    }


# Source records go through DELETE_SOURCE_RECORDS, which keeps the activity structures.
UNSEEN_SOURCE_RECORDS = """
MATCH (n:SourceRecord {org_id: $org, source: $source})
WHERE n.run_id <> $run
RETURN n.key
"""

# --- checkpoints and counts -----------------------------------------------------------------

GET_CHECKPOINT = """
MATCH (c:Checkpoint {org_id: $org, source: $source})
RETURN c.cursor, c.digest, c.run_id, c.finished
"""

SAVE_CHECKPOINT = """
MERGE (c:Checkpoint {org_id: $org, source: $source})
SET c.cursor = $cursor, c.digest = $digest, c.run_id = $run, c.finished = $finished
"""

# Label by label: an unlabelled match on org_id can use no index (every node is read).
COUNTS = "UNION ALL".join(
    f"""
MATCH (n:{label} {{org_id: $org}})
RETURN '{label}' AS label, count(n) AS c
"""
    for label in ORG_LABELS
)

COUNT_RELATIONSHIPS = """
MATCH (:Subject {org_id: $org})-[r]->()
WHERE r.org_id = $org
RETURN type(r), count(r)
"""

# --- API keys (the system scope) ------------------------------------------------------------

PUT_KEY = """
MERGE (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.secret_hash = $secret_hash, k.key_org = $key_org, k.actor = $actor,
    k.scopes = $scopes, k.revoked = $revoked
"""

GET_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
"""

LIST_KEYS = """
MATCH (k:ApiKey {org_id: $system})
WHERE $key_org IS NULL OR k.key_org = $key_org
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
ORDER BY k.key_id
"""

# A named secret shared by every gateway instance, created once (the first value wins).
SHARED_VALUE = """
MERGE (s:Secret {org_id: $system, name: $name})
ON CREATE SET s.value = $value
RETURN s.value
"""

REVOKE_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.revoked = true
RETURN count(k)
"""


# --- search -----------------------------------------------------------------------------------

_SEARCHABLE = "s.org_id = $org AND s.stub = false"


def merge_subject_vectors(dialect: Dialect) -> str:
    """Vectors of subjects already written: [key, vector, embedder stamp]."""
    return f"""
UNWIND $rows AS row
MATCH (s:Subject {{org_id: $org, key: row[0]}})
SET s.embedding = {dialect.vector_value.format("row[1]")}, s.embedder = row[2]
"""


def lexical_search(dialect: Dialect, kinds: bool) -> str:
    """Best full-text matches of $query, up to $limit."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    return f"""
{dialect.fulltext_call.format(param="query")}
WITH node AS s, score
WHERE {_SEARCHABLE} {kind}
WITH s, score ORDER BY score DESC, s.key LIMIT $limit
RETURN {S_VALUES}, score
"""


def vector_search(dialect: Dialect, kinds: bool) -> str:
    kind = "AND s.kind IN $kinds" if kinds else ""
    return f"""
{dialect.vector_call}
WITH node AS s, {dialect.similarity} AS similarity
WHERE {_SEARCHABLE} AND s.embedder = $stamp AND similarity >= $floor {kind}
WITH s, similarity ORDER BY similarity DESC, s.key LIMIT $limit
RETURN {S_VALUES}, similarity
"""


def exact_vector_search(dialect: Dialect, kinds: bool) -> str:
    """Every vector of the organisation compared with $vector (dialects whose vector index
    is shared by every organisation, for organisations small enough): the shared index's
    approximate nearest neighbours, filtered by organisation afterwards, could all be
    another organisation's."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    score = dialect.exact_similarity or "null"
    return f"""
MATCH (s:Subject {{org_id: $org}})
WHERE s.stub = false AND s.embedder = $stamp {kind}
WITH s, {score} AS score
WITH s, {dialect.similarity} AS similarity
WHERE similarity >= $floor
WITH s, similarity ORDER BY similarity DESC, s.key LIMIT $limit
RETURN {S_VALUES}, similarity
"""


# How many subjects the database holds (the count store answers without reading them), and
# how many of this organisation's have vectors of its embedder, counted up to $cap (no row:
# none). Beyond the cap only the number of neighbours asked for grows, within its own cap.
VECTOR_SHARE = """
MATCH (a:Subject)
WITH count(a) AS total
MATCH (s:Subject {org_id: $org})
WHERE s.embedder = $stamp
WITH total, s LIMIT $cap
RETURN count(s), total
"""


def subjects_by_handle(dialect: Dialect, kinds: bool, kind_text: bool = False) -> str:
    """Subjects with a handle equal to $handle once folded (engine.text.normalise), or equal
    to it with a trailing word naming the subject's kind: a count of all of them and the
    first $limit. The full-text read of every token ($query) narrows; the equality is
    decided on the stored search text, whose handles are separated by SEPARATOR: a padded
    search text containing SEPARATOR + $handle + SEPARATOR has it (a substring test costs a
    third of splitting every candidate's text). The kind, second, is not a handle: when
    $handle is a kind's own text (kind_text), the text is split and that place skipped. No
    LIMIT before the count: the total is the storage's, never a page's. The sample lists a
    name written exactly as $raw first, then goes by key."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    sep = _text.SEPARATOR
    if kind_text:
        test = f"""WITH s, split(s.search_text, '{sep}') AS parts
WHERE any(i IN range(0, size(parts) - 1) WHERE i <> 1 AND (parts[i] = $handle
      OR parts[i] = $handle + ' ' + replace(s.kind, '_', ' ') OR parts[i] = $handle + ' svc'))"""
    else:
        test = f"""WITH s, '{sep}' + s.search_text + '{sep}' AS padded
WHERE padded CONTAINS ('{sep}' + $handle + '{sep}')
   OR padded CONTAINS ('{sep}' + $handle + ' ' + replace(s.kind, '_', ' ') + '{sep}')
   OR padded CONTAINS ('{sep}' + $handle + ' svc{sep}')"""
    return f"""
{dialect.fulltext_call.format(param="query")}
WITH node AS s
WHERE {_SEARCHABLE} {kind}
{test}
WITH s ORDER BY CASE WHEN s.name = $raw THEN 0 ELSE 1 END, s.key
WITH count(s) AS total, collect({S_VALUES}) AS rows
RETURN total, rows[0..$limit]
"""


SUBJECTS_BY_ID_PREFIX = f"""
MATCH (s:Subject {{org_id: $org}})
WHERE s.id STARTS WITH $prefix
WITH s ORDER BY s.key
WITH count(s) AS total, collect({S_VALUES}) AS rows
RETURN total, rows[0..$limit]
"""

SEARCH_TEXTS = """
MATCH (s:Subject {org_id: $org})
WHERE s.key > $after
WITH s ORDER BY s.key LIMIT $limit
RETURN s.key, s.search_text
"""

GET_EMBEDDING_META = """
MATCH (m:EmbeddingMeta {org_id: $org})
RETURN m.stamp, m.dimension
"""

SET_EMBEDDING_META = """
MERGE (m:EmbeddingMeta {org_id: $org})
SET m.stamp = $stamp, m.dimension = $dimension
"""

# --- investigation results (immutable) -------------------------------------------------------

# One statement: a result is stored whole or not at all; an existing id is never overwritten.
SAVE_RESULT = """
MERGE (r:Investigation {org_id: $org, id: $id})
ON CREATE SET r.created_ns = $created_ns, r.payload = $payload, r.subject_keys = $subjects,
              r.reuse_key = $reuse_key, r.outcome = $outcome
RETURN r.payload = $payload
"""

GET_RESULTS = """
UNWIND $ids AS i
MATCH (r:Investigation {org_id: $org, id: i})
RETURN r.id, r.payload
"""

LIST_RESULTS = """
MATCH (r:Investigation {org_id: $org})
WHERE ($subject IS NULL OR $subject IN r.subject_keys)
  AND ($after_ns IS NULL OR r.created_ns < $after_ns
       OR (r.created_ns = $after_ns AND r.id > $after_id))
WITH r ORDER BY r.created_ns DESC, r.id LIMIT $limit
RETURN r.id, r.payload, r.created_ns
"""

FIND_REUSABLE = """
MATCH (r:Investigation {org_id: $org, reuse_key: $reuse_key})
WHERE r.created_ns >= $since_ns AND r.created_ns >= $not_before_ns
WITH r ORDER BY r.created_ns DESC LIMIT 1
RETURN r.id, r.payload
"""

GET_PROJECTION_EPOCH = """
MATCH (m:ProjectionEpoch {org_id: $org})
RETURN m.changed_ns
"""

TOUCH_PROJECTION_EPOCH = """
MERGE (m:ProjectionEpoch {org_id: $org})
SET m.changed_ns = $changed_ns
"""

def active_subjects(subject_kinds: bool) -> str:
    """Subjectless cohort discovery: the subjects with the most records of some kinds starting
    in a window, most first, then by key.

    One range read of the records' start_us index (microseconds, graph.rows), [$lo_us,
    $hi_us], exact for the whole window. With $subject_kinds the kind is the subject key's
    prefix, filtered before the limit: a cohort of one kind must not lose its members to
    busier subjects of other kinds, and a record's subject need not exist."""
    of_kind = "AND split(r.subject_key, ':')[0] IN $subject_kinds" if subject_kinds else ""
    return f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE r.start_us >= $lo_us AND r.start_us <= $hi_us AND r.record_kind IN $kinds {of_kind}
WITH r.subject_key AS k, count(r) AS n
ORDER BY n DESC, k
LIMIT $limit
RETURN k, n
"""
