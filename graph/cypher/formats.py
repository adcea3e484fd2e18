"""The migrations that bring an organisation's graph written by an earlier format version up to
date, and the format marker (graph.activity runs them; graph.falkor and graph.neo4j_schema read
and set the marker). The counting of a format-0 graph's records keeps the activity structures
as the writes of records do, and is with them (graph.cypher.activity.MIGRATE_ACTIVITY).
"""

from __future__ import annotations

from graph.cypher._fragments import day_slot

# Format 1 keyed a day's count by (record_kind, day): give each its text key.
SLOT_RECORD_DAYS = f"""
MATCH (c:RecordDay {{org_id: $org}})
WHERE c.slot IS NULL
SET c.slot = {day_slot("c.record_kind", "c.day")}
"""

# The records' times in microseconds as their times in nanoseconds say, a batch at a time
# until one comes back short. Format 3 gave them (graph.rows: the range indexes held them);
# format 9 repairs those a re-ingest lost before the writes deleted at most one property per
# clause (graph.cypher._fragments.assign): a record re-ingested without its end could lose
# its start_us and keep its old end_us on FalkorDB, which the time windows compare.
FILL_MICROSECONDS = """
MATCH (r:SourceRecord {org_id: $org})
WHERE r.start_us IS NULL OR r.start_us <> r.start_ns / 1000
   OR (r.end_ns IS NULL) <> (r.end_us IS NULL) OR r.end_us <> r.end_ns / 1000
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

# The highest record node id and the records' count (format 1's migration, by node ids).
RECORD_IDS = """
MATCH (r:SourceRecord {org_id: $org})
RETURN max(id(r)), count(r)
"""

UNCOUNTED = """
MATCH (r:SourceRecord {org_id: $org})
WHERE r.day IS NULL
RETURN count(r)
"""

GET_FORMAT = """
MATCH (m:Format {org_id: $org})
RETURN m.activity
"""

SET_FORMAT = """
MERGE (m:Format {org_id: $org})
SET m.activity = $version
"""
