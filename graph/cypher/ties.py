"""The statements of a page tied at a midnight (graph.ties): the window above the midnight,
the midnight's tie nodes in key order, the subjects on some of them, and the page's lookup.

A midnight's tie nodes (graph.cypher.activity, format 9) hold the records with an endpoint
exactly on it, one node per record kind and subject key prefix (graph.rows.tie_of).
"""

from __future__ import annotations

from graph.cypher._fragments import S_BRIEF, S_VALUES
from graph.cypher.subjects import FilterShape, subject_where


def above(shape: FilterShape, after: bool) -> str:
    """Every subject (of $kinds) with a record start or end in [$floor_us, $t_end_us], the
    window above the midnight, and its latest one there in nanoseconds, most recent first,
    then by key; `next` says it comes after the cursor. The midnight's own tie nodes are
    left out: every endpoint on them is at the midnight, under the window (the reason they
    exist is that they hold thousands of records at a million subjects)."""
    kinds = "\nWHERE split(k, ':')[0] IN $kinds" if shape.kinds else ""
    cursor = "last < $after_sort OR (last = $after_sort AND k > $after_key)" if after else "true"
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n >= $floor_slot AND t.n <= $t_end_slot AND NOT (t.n = $mark_slot AND t.tie IS NOT NULL)
MATCH (t)-[:STARTS|ENDS]->(r:SourceRecord)
UNWIND [x IN [r.start_us, r.end_us] WHERE x >= $floor_us AND x <= $t_end_us] AS x
WITH r.subject_key AS k, max(x) * 1000 AS last{kinds}
RETURN k, last, {cursor} AS next
ORDER BY last DESC, k
"""


# The midnight's ties at or after $first_tie ('' for all), in order: the database's order, which
# the keys' order is read in too.
TIES = """
MATCH (t:TimeSlot {org_id: $org})
WHERE t.n = $mark_slot AND t.tie IS NOT NULL AND t.tie >= $first_tie
RETURN DISTINCT t.tie AS tie
ORDER BY tie
"""


def tied(after: bool) -> str:
    """The subjects with a record start or end exactly on the midnight, on the tie nodes
    $ties (consecutive ones), by key; after the cursor's key when it is at the midnight."""
    cursor = "\nWHERE k > $after_key" if after else ""
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n = $mark_slot AND t.tie IN $ties
MATCH (t)-[:STARTS|ENDS]->(r:SourceRecord)
WHERE r.start_us = $mark_us OR r.end_us = $mark_us
WITH DISTINCT r.subject_key AS k{cursor}
RETURN k
ORDER BY k
"""


def lookup(shape: FilterShape) -> str:
    """The page from $candidates, [key, last activity] each in the page's order: those whose
    subject passes the filter, the first $limit of them, as `find_subjects` gives rows."""
    return f"""
UNWIND range(0, size($candidates) - 1) AS i
WITH i, $candidates[i] AS c
MATCH (s:Subject {{org_id: $org, key: c[0]}})
WHERE {subject_where(shape)}
WITH s, c, i ORDER BY i LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, c[1], s.key
"""
