"""Relationships around subjects of one organisation: pages of edges and neighbours and
their counts for many subjects in one statement (a dataloader level), and edges by id
(graph.cypher.relationships). ScopedGraph serves the port's neighbourhood reads from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.domain.models import Direction, RelationshipType, StoredSubject, SubjectKind
from engine.ports import Edge, EdgeRequest, NeighborLevel, SubjectIdentity, TimeSpan
from engine.ports.shapes import preorder
from graph import rows
from graph.cypher import relationships as relationships_cypher
from graph.executor import Run


def _edge_groups(
    requests: Sequence[EdgeRequest],
) -> tuple[list[relationships_cypher.EdgeGroup], dict[str, list[list[Any]]]]:
    grouped: dict[relationships_cypher.EdgeGroup, list[list[Any]]] = {}
    # The types and direction become the statement's pattern: they pass through the closed
    # enums once per distinct shape, not once per request (hundreds per dashboard level).
    # Shapes are told apart by identity first (requests of one field share their types and
    # direction objects): hashing the enums themselves runs Python code, per request.
    shapes: dict[tuple[int, int, bool], list[list[Any]]] = {}
    for i, q in enumerate(requests):
        shape = (id(q.types), id(q.direction), q.brief)  # `requests` keeps them all alive
        rows = shapes.get(shape)
        if rows is None:
            types = tuple(RelationshipType(t) for t in q.types)
            group = (types, Direction(q.direction).value, q.brief)
            rows = shapes[shape] = grouped.setdefault(group, [])
        rows.append(_edge_row(i, q))
    groups = list(grouped)
    return groups, {f"g{n}": grouped[g] for n, g in enumerate(groups)}


def _edge_row(index: int, q: EdgeRequest) -> list[Any]:
    return [
        index,
        q.key,
        None,  # the types and direction are in the statement's pattern
        None,
        q.at.start_ns if q.at else None,
        q.at.end_ns if q.at else None,
        q.limit,
        *(q.after if q.after else (None, None, None)),
    ]


class Neighbourhood:
    """Edges of one organisation's subjects, read through `read` (its statements' $org bound)."""

    def __init__(self, read: Run) -> None:
        self._read = read

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        out: list[list[Edge]] = [[] for _ in requests]
        if not requests:
            return out
        groups, params = _edge_groups(requests)
        for index, page in await self._read(relationships_cypher.edges(groups), **params):
            anchor = requests[index].key
            for rel_type, props, other, outgoing in page:
                ends = (anchor, other[0]) if outgoing else (other[0], anchor)
                rel = rows.relationship_from(rel_type, props, *ends)
                out[index].append(Edge(rel, rows.subject_from(other), bool(outgoing)))
        return out

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        out: list[list[StoredSubject]] = [[] for _ in requests]
        if requests:
            groups, params = _edge_groups(requests)
            for index, others in await self._read(relationships_cypher.neighbors(groups), **params):
                out[index] = [rows.subject_from(other) for other in others]
        return out

    async def neighbor_levels(
        self, keys: Sequence[str], levels: Sequence[NeighborLevel]
    ) -> list[dict[str, list[StoredSubject | SubjectIdentity]]]:
        flat = preorder(levels)
        out: list[dict[str, list[StoredSubject | SubjectIdentity]]] = [{} for _ in flat]
        if not keys or not flat:
            return out
        shapes: list[relationships_cypher.LevelShape] = []
        params: dict[str, Any] = {"keys": list(keys)}
        for n, (level, parent) in enumerate(flat):
            types = tuple(RelationshipType(t) for t in level.types)
            shapes.append((types, Direction(level.direction).value, level.brief, parent))
            at = level.at
            params[f"l{n}"] = [at.start_ns if at else None, at.end_ns if at else None, level.limit]
        statement = relationships_cypher.neighbor_levels(tuple(shapes))
        kinds = rows.KINDS
        for n, key, others in await self._read(statement, **params):
            if flat[n][0].brief:  # identity only: a tuple, no model (rows.identity_from, inline)
                out[n][key] = [
                    SubjectIdentity(k, kinds.get(kind) or SubjectKind(kind), name)
                    for k, kind, name in others
                ]
            else:
                out[n][key] = [rows.subject_from(other) for other in others]
        return out

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]:
        counts = [0] * len(requests)
        if requests:
            groups, params = _edge_groups(requests)
            statement = relationships_cypher.edge_counts(groups)
            for index, count in await self._read(statement, **params):
                counts[index] = int(count)
        return counts

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        if not ids:
            return {}
        unique = list(dict.fromkeys(ids))
        reqs = [[i, start, rel_id] for i, (start, rel_id) in enumerate(unique)]
        out: dict[tuple[str, str], Edge] = {}
        found = await self._read(relationships_cypher.EDGES_BY_ID, reqs=reqs)
        for index, rel_type, props, other in found:
            start = unique[index][0]
            rel = rows.relationship_from(rel_type, props, start, other[0])
            out[unique[index]] = Edge(rel, rows.subject_from(other), True)
        return out

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]:
        unique = list(dict.fromkeys(keys))
        requests = [
            EdgeRequest(k, tuple(types), Direction(direction), at, limit_per_subject)
            for k in unique
        ]
        return dict(zip(unique, await self.edges(requests), strict=True))
