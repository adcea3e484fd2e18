"""Reads of the activity structures the writes of source records keep (graph.cypher.activity
says what each holds): their inventory, the days a window must reach back to, and the cohort
count on the records' time slots.
"""

from __future__ import annotations

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

# The kinds of records the organisation holds any of (a deletion leaves a count of 0).
RECORD_KINDS = """
MATCH (c:RecordDay {org_id: $org})
WHERE c.n > 0
RETURN DISTINCT c.record_kind
"""


def active_subjects(subject_kinds: bool) -> str:
    """Subjectless cohort discovery: the subjects with the most records of some kinds starting
    in a window, most first, then by key.

    The time slots of $kinds in [$lo_slot, $hi_slot] (one range read of their n index), each
    record from its start slot (exactly one STARTS each: counted once), its start then
    compared exactly with [$lo_us, $hi_us] (microseconds, graph.rows). With $subject_kinds
    the kind is the subject key's prefix, filtered before the limit: a cohort of one kind
    must not lose its members to busier subjects of other kinds, and a record's subject need
    not exist."""
    of_kind = "AND split(r.subject_key, ':')[0] IN $subject_kinds" if subject_kinds else ""
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n >= $lo_slot AND t.n <= $hi_slot AND t.record_kind IN $kinds
MATCH (t)-[:STARTS]->(r:SourceRecord)
WHERE r.start_us >= $lo_us AND r.start_us <= $hi_us {of_kind}
WITH r.subject_key AS k, count(r) AS n
ORDER BY n DESC, k
LIMIT $limit
RETURN k, n
"""
