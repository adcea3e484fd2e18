"""What every GraphQL type of the graph's elements shares: the closed enums, the request's
`Info` (`Ctx`), Relay's `Node` and `PageInfo`, and the way to `Subject` for the types it
imports (`subject_type`).

The element types themselves have a module each: subject.py (the hub: its fields walk to
the others), relationship.py, episode.py and records.py.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated

import strawberry
from strawberry.types import Info

from engine.domain import models
from resolvers.args import TimeWindowInput
from resolvers.context import RequestContext

if TYPE_CHECKING:
    from resolvers.subject import Subject

SubjectKind = strawberry.enum(models.SubjectKind, description="The closed set of subject kinds.")
RelationshipType = strawberry.enum(
    models.RelationshipType, description="The closed set of relationship types."
)
Direction = strawberry.enum(models.Direction, description="Which way a relationship points.")
SourceRecordKind = strawberry.enum(
    models.SourceRecordKind, description="Kinds of canonical source records."
)
Ctx = Info[RequestContext, None]
WindowArg = Annotated[TimeWindowInput | None, strawberry.argument(name="window")]


@strawberry.interface(description="An object with an opaque global id (Relay).")
class Node:
    id: strawberry.ID


@strawberry.type(description="Relay page information for keyset-paginated connections.")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None

    @classmethod
    def of(cls, cursors: list[str], has_next: bool, had_after: bool) -> PageInfo:
        return cls(
            has_next_page=has_next,
            has_previous_page=had_after,
            start_cursor=cursors[0] if cursors else None,
            end_cursor=cursors[-1] if cursors else None,
        )


@cache
def subject_type() -> type[Subject]:
    """`Subject`, for the types whose fields return subjects (episode.py, records.py): they
    cannot import it at the top, since resolvers.subject imports them. Looked up once; an
    import inside each resolver would cost about as much as building the subject."""
    from resolvers.subject import Subject

    return Subject
