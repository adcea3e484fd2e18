"""Relationships between subjects: their writes by type, their pages and counts for many
subjects at once (`edges`, `neighbors`, `edge_counts`), lookups by id and retraction by id.

A page of edges is read for a whole dataloader level in one statement, grouped by
(types, direction, brief): see the comment on `_ARROWS` for why each group gets a typed
pattern of its own.
"""

from __future__ import annotations

import functools

from engine.domain.models import RelationshipType
from graph.cypher._fragments import O_BRIEF, O_IDENTITY, O_VALUES, R_VALUES, assign
from graph.dialect import Dialect
from graph.rows import RELATIONSHIP_COLUMNS


def merge_relationships(rel_type: RelationshipType) -> str:
    label = RelationshipType(rel_type).value  # closed enum: never caller text
    return f"""
UNWIND $rows AS row
MATCH (a:Subject {{org_id: $org, key: row[0]}})
MATCH (b:Subject {{org_id: $org, key: row[1]}})
MERGE (a)-[r:{label} {{org_id: $org, id: row[2]}}]->(b)
{assign("r", RELATIONSHIP_COLUMNS, 3)}
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


# A tree of neighbour levels (OrgGraph.neighbor_levels), each level's shape as an EdgeGroup's
# and its parent's position (-1: anchored on $keys), in preorder.
LevelShape = tuple[tuple[RelationshipType, ...], str, bool, int]


def _level_step(n: int, types: tuple[RelationshipType, ...], direction: str) -> str:
    """From anchor `a`, level n's edges `r` to other ends `o`, admitted at the level's time,
    in `neighbors`' order; `$l<n>` is [time start, time end, page size] (a null start: any
    time). The order leaves out what cannot change a page of other ends: the type when
    there is one, and the relationship's id (it orders edges to the same subject). The
    edge's own organisation is not compared: both its ends are the organisation's (the
    anchor and `o`), and every edge is written between two subjects of one organisation
    (merge_relationships); the comparison was a twentieth of the statement's time."""
    left, right = _ARROWS[direction]
    labels = "|".join(RelationshipType(t).value for t in types)  # closed enum
    rel = f"[r:{labels}]" if labels else "[r]"
    untyped = "" if labels else "AND type(r) <> 'MENTIONS'"
    start, end = f"$l{n}[0]", f"$l{n}[1]"
    return f"""MATCH (a){left}{rel}{right}(o:Subject)
WHERE o.org_id = $org {untyped}
  AND ({start} IS NULL OR ({_admitted_at("r", start, end)}
                         AND {_admitted_at("o", start, end)}))
WITH a, {"" if len(types) == 1 else "type(r) AS t, "}o
ORDER BY {"" if len(types) == 1 else "t, "}o.key
"""


@functools.lru_cache(maxsize=256)
def neighbor_levels(shapes: tuple[LevelShape, ...]) -> str:
    """One statement for a whole tree: an arm per level, joined by UNION ALL, each walking
    from $keys down its ancestors' pages (the first `$l<p>[2]` other ends of each anchor, in
    `neighbors`' order, then the distinct ones) to its own, returned as `neighbors` returns
    a page: [level, anchor key, others]. An ancestor's walk is repeated in each arm under it,
    as a hand-written UNION of the same levels repeats it; one round trip instead of one per
    level. The text is kept per tree shape: a dashboard sends the same few on every page."""
    arms = []
    for n, (types, direction, brief, _) in enumerate(shapes):
        path = [n]
        while shapes[path[0]][3] >= 0:
            path.insert(0, shapes[path[0]][3])
        # The anchors, each once: one index scan for the list is cheaper than a lookup per
        # key (UNWIND, then a MATCH per row: a tenth of the dashboard's neighbour statement),
        # and a key given twice no longer doubles its page (UNWIND made two rows of one
        # anchor, which the aggregation below then collected twice, so `first` cut the page
        # at half its subjects). Written here, not as a module constant: a fragment ending in
        # WITH is no statement for Neo4j's linter (tests/test_neo4j_dialect).
        walk = ["MATCH (a:Subject)\nWHERE a.org_id = $org AND a.key IN $keys\nWITH a\n"]
        for p in path[:-1]:
            walk.append(_level_step(p, shapes[p][0], shapes[p][1]))
            walk.append(f"WITH a, collect(o) AS page\nUNWIND page[0..$l{p}[2]] AS o\n"
                        "WITH DISTINCT o AS a\n")  # fmt: skip
        walk.append(_level_step(n, types, direction))
        values = O_IDENTITY if brief else O_VALUES
        walk.append(f"WITH a.key AS k, collect({values}) AS others\n"
                    f"RETURN {n} AS level, k, others[0..$l{n}[2]] AS others\n")  # fmt: skip
        arms.append("".join(walk))
    return "UNION ALL\n".join(arms)
