"""Pieces shared by the statements of several concept modules (graph.cypher.*).

A node's properties travel as positional lists, in the order of graph.rows' fields and columns:
the projection lists (`S_VALUES`, ...) read them, `assign` writes a positional row into them.
Kept in one place so every statement that reads or writes a subject, a relationship, an
episode or a record agrees with graph.rows on the order. A private module: these are pieces,
not statements; tests/cypher_statements.py checks each inside the statements that use it.
"""

from __future__ import annotations

from graph.rows import (
    RELATIONSHIP_FIELDS,
    SUBJECT_BRIEF_FIELDS,
    SUBJECT_FIELDS,
    SUBJECT_IDENTITY_FIELDS,
)


def _values(var: str, fields: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"{var}.{f}" for f in fields) + "]"


S_VALUES = _values("s", SUBJECT_FIELDS)
O_VALUES = _values("o", SUBJECT_FIELDS)
S_BRIEF = _values("s", SUBJECT_BRIEF_FIELDS)
O_BRIEF = _values("o", SUBJECT_BRIEF_FIELDS)
R_VALUES = _values("r", RELATIONSHIP_FIELDS)
O_IDENTITY = _values("o", SUBJECT_IDENTITY_FIELDS)


def assign(var: str, columns: tuple[str, ...], offset: int, also: str = "") -> str:
    """Clauses writing a positional row into `v`: `row[i]` into each column (fixed
    identifiers), a null deleting its property; `also` adds assignments to the SET clause.

    FalkorDB (graph module 4.16.3) corrupts an element when one update clause deletes two or
    more of its properties (consecutive SET clauses, `SET v += map` and `REMOVE a, b` too):
    as if it deleted by positions found before the first deletion moved the last property, it
    can keep one it was told to delete and lose one it was not (a record re-ingested without
    its end kept the old end and lost its start). So the SET clause deletes nothing (a null
    column keeps its property there), and each property to delete goes in a FOREACH of its
    own, an update clause deleting one (tests/test_null_writes.py measures both shapes;
    docs/operations.md has the figures). A clause per column, joined by WITH, was exact too
    but took three times as long as this on 5,000-row batches."""
    pairs = list(enumerate(columns, offset))
    keep = ", ".join(f"{var}.{c} = coalesce(row[{i}], {var}.{c})" for i, c in pairs)
    drop = "".join(
        f"\nFOREACH (_ IN CASE WHEN row[{i}] IS NULL AND {var}.{c} IS NOT NULL THEN [1] "
        f"ELSE [] END | REMOVE {var}.{c})"
        for i, c in pairs
    )
    return f"SET {keep}{also}{drop}"


def assign_new(var: str, columns: tuple[str, ...], offset: int) -> str:
    """`v.col = row[i], ...` in one clause, for an element just created (`ON CREATE SET`):
    it has no property to delete, so `assign`'s separate clauses are not needed."""
    return ", ".join(f"{var}.{col} = row[{i}]" for i, col in enumerate(columns, offset))


def day_slot(kind: str, day: str) -> str:
    """A RecordDay's key, the text "kind:day" (graph.cypher.activity; formats keys format 1's)."""
    return f"{kind} + ':' + toString({day})"


def floor_div(expr: str, divisor: int) -> str:
    """floor(expr / divisor) for a positive integer divisor, negative values too: Cypher's
    integer division truncates toward zero (a day or time slot before 1970, graph.rows)."""
    below = f"({expr} - {divisor - 1}) / {divisor}"
    return f"CASE WHEN {expr} >= 0 THEN {expr} / {divisor} ELSE {below} END"


# The time condition of a statement asked for no time: every element is admitted.
ALWAYS = "true"


def slot_window(kinds: bool, but_mark_ties: bool = False) -> str:
    """Each subject (of $kinds) with a record start or end in [$floor_us, $t_end_us], as `k`,
    and its greatest one there in nanoseconds, as `last`: the records reached through the time
    slots of [$floor_slot, $t_end_slot] (graph.cypher.activity); with `but_mark_ties`, not
    through the tie nodes of slot $mark_slot (graph.ties). Rows in no order."""
    skip = " AND NOT (t.n = $mark_slot AND t.tie IS NOT NULL)" if but_mark_ties else ""
    of_kinds = "\nWHERE split(k, ':')[0] IN $kinds" if kinds else ""
    return f"""
MATCH (t:TimeSlot {{org_id: $org}})
WHERE t.n >= $floor_slot AND t.n <= $t_end_slot{skip}
MATCH (t)-[:STARTS|ENDS]->(r:SourceRecord)
UNWIND [x IN [r.start_us, r.end_us] WHERE x >= $floor_us AND x <= $t_end_us] AS x
WITH r.subject_key AS k, max(x) * 1000 AS last{of_kinds}"""
