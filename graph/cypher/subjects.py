"""Subjects: their writes, lookups by key or id, and filtered, keyset-paginated pages
(by name, by key, or most recently active first, with `recent_window`'s fast path).

The filters a page carries are a `FilterShape`, so that only the terms present are written
into the statement (an index is used only when its term is not hidden in a disjunction).
"""

from __future__ import annotations

from typing import NamedTuple

from graph.cypher._fragments import ALWAYS, S_BRIEF, S_VALUES, assign, assign_new, slot_window
from graph.dialect import Dialect
from graph.rows import STUB_COLUMNS, SUBJECT_COLUMNS


# An element is admitted when its half-open window [valid_from, valid_to) overlaps the query
# interval [$t_start, $t_end]; a point in time is the interval [T, T]. No window: admitted.
def admitted(var: str) -> str:
    return (
        f"({var}.valid_from_ns IS NULL OR {var}.valid_from_ns <= $t_end) AND "
        f"({var}.valid_to_ns IS NULL OR {var}.valid_to_ns > $t_start)"
    )


def merge_subjects(dialect: Dialect) -> str:
    return f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
{assign("s", SUBJECT_COLUMNS, 1, dialect.subject_set)}
"""


def create_subjects(dialect: Dialect, labelled: bool) -> str:
    """Subjects the batch's read found absent ($rows, as merge_subjects'), created; with the
    dialect's vector label when `labelled` (their vectors follow: graph.search). FalkorDB
    (graph module 4.16.3) gives an existing node a label at a cost that grows with the
    graph's nodes (about 0.13 ms a node in a graph of 5,000 nodes, 0.9 ms in one of 40,000),
    and the vectors' statement gave every new subject its label so; a node created with it
    costs nothing more. If another writer made one of them since the read, nothing is
    written and no row returned (graph.writer then merges them), as CREATE_SOURCE_RECORDS."""
    label = f":{dialect.vector_label}" if labelled and dialect.vector_label else ""
    return f"""
UNWIND $rows AS row
OPTIONAL MATCH (held:Subject {{org_id: $org, key: row[0]}})
WITH count(held) AS taken
UNWIND CASE WHEN taken = 0 THEN [1] ELSE [] END AS go
UNWIND $rows AS row
CREATE (s:Subject{label} {{org_id: $org, key: row[0]}})
SET {assign_new("s", SUBJECT_COLUMNS, 1)}{dialect.subject_set}
WITH go, count(*) AS subjects
RETURN go
"""


# Stubs assert identity only: they never carry a validity window, and a later authoritative
# subject record overwrites them.
MERGE_STUBS = f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
ON CREATE SET {assign_new("s", STUB_COLUMNS, 1)}, s.stub = true
"""


def subjects_by_keys(timed: bool) -> str:
    return f"""
UNWIND $keys AS k
MATCH (s:Subject {{org_id: $org, key: k}})
WHERE {admitted("s") if timed else ALWAYS}
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
    return f"\nMATCH (s:Subject {{org_id: $org}})\nWHERE {subject_where(shape)}\n"


def subject_where(shape: FilterShape) -> str:
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
OPTIONAL MATCH (:Activity {{org_id: $org, subject_key: s.key}})-[:HOLDS]->(a:SourceRecord)
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
    each of those at or after the floor is in the window. They are read through the time
    slots of every kind in [$floor_slot, $t_end_slot] (graph.cypher.activity): a record
    with an endpoint in the window is reached from that endpoint's slot (by STARTS, or by
    ENDS when its end is in another slot than its start), perhaps twice, which the greatest
    time per subject does not mind; the slots at the edges also reach records outside the
    window, which the exact times leave out. A subject's kind is its key's prefix
    (engine.domain.models), so other kinds are left out before a subject is looked up."""
    if shape.timed:
        window = slot_window(shape.kinds)
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
WHERE {subject_where(shape)}
WITH s, last ORDER BY last DESC, s.key LIMIT $limit
RETURN {S_BRIEF if shape.brief else S_VALUES}, last, s.key
"""


def count_subjects(shape: FilterShape) -> str:
    return _subject_filter(shape) + "RETURN count(s)"
