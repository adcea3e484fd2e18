"""The `Relationship` type: a typed, time-bounded edge between two subjects, and its page.

Its ends are subjects, and a subject's `relationships` field builds it: `Subject` is named
lazily here (resolvers.subject imports this module).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import strawberry

from engine.ports import Edge, EdgeRequest
from resolvers.relay import to_global_id
from resolvers.types import Ctx, Node, PageInfo, RelationshipType

if TYPE_CHECKING:
    from resolvers.subject import Subject

LazySubject = Annotated["Subject", strawberry.lazy("resolvers.subject")]


@strawberry.type(description="A typed, time-bounded relationship between two subjects.")
class Relationship(Node):
    type: RelationshipType  # type: ignore[valid-type]
    valid_from: datetime | None
    valid_to: datetime | None
    evidence: str | None = strawberry.field(description="Reference to what asserts it.")
    source: str | None
    # (start, end). A tuple, not two Subject fields: strawberry's federation walk counts a
    # private field's type as a schema type, and would list the Subject entity twice.
    ends: strawberry.Private[tuple[Subject, Subject]]

    @classmethod
    def from_edge(cls, edge: Edge, anchor: Subject) -> Relationship:
        rel = edge.relationship
        other = anchor.from_model(edge.other, anchor.at)  # a Subject, as `anchor` is
        start, end = (anchor, other) if edge.outgoing else (other, anchor)
        return cls(
            id=strawberry.ID(to_global_id("Relationship", json.dumps([rel.from_key, rel.rel_id]))),
            type=rel.type,
            valid_from=rel.valid_from,
            valid_to=rel.valid_to,
            evidence=rel.evidence,
            source=rel.source,
            ends=(start, end),
        )

    @strawberry.field(name="from", description="The subject the relationship starts at.")
    def from_(self) -> LazySubject:
        return self.ends[0]

    @strawberry.field(description="The subject the relationship points to.")
    def to(self) -> LazySubject:
        return self.ends[1]


@strawberry.type
class RelationshipEdge:
    cursor: str
    node: Relationship


@strawberry.type(description="A page of relationships.")
class RelationshipConnection:
    edges: list[RelationshipEdge]
    page_info: PageInfo
    count_request: strawberry.Private[EdgeRequest]

    @strawberry.field(description="How many relationships match (all pages).")
    async def total_count(self, info: Ctx) -> int:
        count: int = await info.context.loaders.edge_counts.load(self.count_request)
        return count


