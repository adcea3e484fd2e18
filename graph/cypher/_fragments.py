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
)


def _values(var: str, fields: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"{var}.{f}" for f in fields) + "]"


S_VALUES = _values("s", SUBJECT_FIELDS)
O_VALUES = _values("o", SUBJECT_FIELDS)
S_BRIEF = _values("s", SUBJECT_BRIEF_FIELDS)
O_BRIEF = _values("o", SUBJECT_BRIEF_FIELDS)
R_VALUES = _values("r", RELATIONSHIP_FIELDS)


def assign(var: str, columns: tuple[str, ...], offset: int) -> str:
    """`v.col = row[i], ...` for positional write rows; columns are fixed identifiers."""
    return ", ".join(f"{var}.{col} = row[{i}]" for i, col in enumerate(columns, offset))


def floor_div(expr: str, divisor: int) -> str:
    """floor(expr / divisor) for a positive integer divisor, negative values too: Cypher's
    integer division truncates toward zero (a day or time slot before 1970, graph.rows)."""
    below = f"({expr} - {divisor - 1}) / {divisor}"
    return f"CASE WHEN {expr} >= 0 THEN {expr} / {divisor} ELSE {below} END"


# The time condition of a statement asked for no time: every element is admitted.
ALWAYS = "true"
