"""The statements of a page tied at a midnight (graph.ties): the window above the midnight,
the midnight's tie nodes in key order, the subjects on some of them, and the page's lookup.

A midnight's tie nodes (graph.cypher.activity, format 9) hold the records with an endpoint
exactly on it, one node per record kind and subject key prefix (graph.recordrows.tie_of).
"""

from __future__ import annotations

from graph.cypher._fragments import S_BRIEF, S_VALUES, slot_window
from graph.cypher.subjects import FilterShape, subject_where


def above(shape: FilterShape, after: bool) -> str:
    """Every subject (of $kinds) with a record start or end in [$floor_us, $t_end_us], the
    window above the midnight, and its latest one there in nanoseconds, most recent first,
    then by key; `next` says it comes after the cursor. The midnight's own tie nodes are
    left out: every endpoint on them is at the midnight, under the window (the reason they
    exist is that they hold thousands of records at a million subjects)."""
    cursor = "last < $after_sort OR (last = $after_sort AND k > $after_key)" if after else "true"
    window = slot_window(shape.kinds, but_mark_ties=True)
    return f"""{window}
RETURN k, last, {cursor} AS next
ORDER BY last DESC, k
"""


def ties(kinds: bool) -> str:
    """The midnight's ties at or after $first_tie ('' for all), of $kinds, in order (the
    database's, which the keys' is read in too), with how many records each holds: the
    relationships counted, no record read."""
    of_kinds = " AND split(t.tie, ':')[0] IN $kinds" if kinds else ""
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n = $mark_slot AND t.tie IS NOT NULL AND t.tie >= $first_tie{of_kinds}
MATCH (t)-[e:STARTS|ENDS]->(:SourceRecord)
RETURN t.tie AS tie, count(e) AS n
ORDER BY tie
"""


def _tied_keys(after: bool, kinds: bool, first: bool) -> str:
    of_kinds = " AND split(t.tie, ':')[0] IN $kinds" if kinds else ""
    cursor = "\nWHERE k > $after_key" if after else ""
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n = $mark_slot AND t.tie {">=" if first else ">"} $lo_tie AND t.tie <= $hi_tie{of_kinds}
MATCH (t)-[:STARTS|ENDS]->(r:SourceRecord)
WHERE r.start_us = $mark_us OR r.end_us = $mark_us
WITH DISTINCT r.subject_key AS k{cursor}"""


def tied(after: bool, kinds: bool, first: bool) -> str:
    """The subjects with a record start or end exactly on the midnight, on its tie nodes from
    $lo_tie (on it when `first`, else after it: where the chunk before ended) to $hi_tie, of
    $kinds, by key; after the cursor's key when it is at the midnight. A range, not a list:
    a tie node made since the ties were listed is read too."""
    return _tied_keys(after, kinds, first) + "\nRETURN k\nORDER BY k\n"


def tied_page(shape: FilterShape, after: bool) -> str:
    """`tied` from the first tie ($lo_tie) and `lookup` in one statement, for a page with
    nothing above the midnight (as of the midnight itself): the first $need subjects on the
    ties up to $hi_tie, by key, looked up with the page's filter, the first $limit of them
    as `lookup` gives rows, each at $mark (the midnight, in nanoseconds)."""
    return f"""{_tied_keys(after, shape.kinds, True)}
WITH k ORDER BY k LIMIT $need
MATCH (s:Subject {{org_id: $org, key: k}})
WHERE {subject_where(shape)}
WITH s ORDER BY s.key LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, $mark, s.key
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
