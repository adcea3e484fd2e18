"""GraphQL object types for the graph's elements."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from engine import models
from resolvers.relay import to_global_id

SubjectKind = strawberry.enum(models.SubjectKind, description="The closed set of subject kinds.")
RelationshipType = strawberry.enum(
    models.RelationshipType, description="The closed set of relationship types."
)


@strawberry.type(description="Relay page information for keyset-paginated connections.")
class PageInfo:
    has_next_page: bool
    has_previous_page: bool
    start_cursor: str | None
    end_cursor: str | None


@strawberry.type(description="A thing in the organisation: repository, service, team, person...")
class Subject:
    key: str = strawberry.field(description="Stable key, e.g. `repository:payments-api`.")
    kind: SubjectKind  # type: ignore[valid-type]
    name: str
    aliases: list[str]
    previous_names: list[str] = strawberry.field(
        description="Names this subject had before; it stays resolvable by them."
    )
    description: str
    attributes: JSON
    valid_from: datetime | None = strawberry.field(
        description="Start of the validity window (inclusive); null: always valid so far."
    )
    valid_to: datetime | None = strawberry.field(
        description="End of the validity window (exclusive); null: still valid."
    )
    stub: bool = strawberry.field(
        description="True when only referenced so far: identity without authoritative data."
    )

    @strawberry.field(description="Opaque global id.")
    def id(self) -> strawberry.ID:
        return strawberry.ID(to_global_id("Subject", self.key))

    @classmethod
    def from_model(cls, subject: models.StoredSubject) -> Subject:
        return cls(
            key=subject.key,
            kind=subject.kind,
            name=subject.name,
            aliases=list(subject.aliases),
            previous_names=list(subject.previous_names),
            description=subject.description,
            attributes=cast(JSON, dict(subject.attributes)),
            valid_from=subject.valid_from,
            valid_to=subject.valid_to,
            stub=subject.stub,
        )


@strawberry.type
class SubjectEdge:
    cursor: str
    node: Subject
