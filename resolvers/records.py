"""The `SourceRecord` type: a canonical record (pull request, incident, deploy...) as a
source reported it.

It is about a subject and may name the person who acted, and a subject's `sourceRecords`
field builds it: `Subject` is named lazily here (resolvers.subject imports this module).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import strawberry

from engine.domain import models
from engine.ports import TimeSpan
from resolvers.relay import to_global_id
from resolvers.types import Ctx, Node, SourceRecordKind, subject_type

if TYPE_CHECKING:
    from resolvers.subject import Subject

LazySubject = Annotated["Subject", strawberry.lazy("resolvers.subject")]


@strawberry.type(description="A canonical source record: pull request, incident, deploy...")
class SourceRecord(Node):
    key: str
    record_kind: SourceRecordKind  # type: ignore[valid-type]
    start: datetime
    end: datetime | None
    due: datetime | None
    status: str | None
    severity: str | None
    environment: str | None
    metric: str | None
    value: float | None
    title: str = strawberry.field(description="Untrusted text, as recorded.")
    source: str | None
    subject_key: strawberry.Private[str]
    actor_key: strawberry.Private[str | None]
    at: strawberry.Private[TimeSpan]

    @classmethod
    def from_model(cls, record: models.SourceRecord, at: TimeSpan) -> SourceRecord:
        return cls(
            id=strawberry.ID(to_global_id("SourceRecord", record.key)),
            key=record.key,
            record_kind=record.record_kind,
            start=record.start,
            end=record.end,
            due=record.due,
            status=record.status,
            severity=record.severity,
            environment=record.environment,
            metric=record.metric,
            value=record.value,
            title=record.title,
            source=record.source,
            subject_key=record.subject,
            actor_key=record.actor,
            at=at,
        )

    @strawberry.field(description="The subject the record is about.")
    async def subject(self, info: Ctx) -> LazySubject | None:
        found = await info.context.loaders.subject(self.subject_key, None)
        return subject_type().from_model(found, self.at) if found else None

    @strawberry.field(description="The person who acted (author, assignee), if known.")
    async def actor(self, info: Ctx) -> LazySubject | None:
        if self.actor_key is None:
            return None
        found = await info.context.loaders.subject(self.actor_key, None)
        return subject_type().from_model(found, self.at) if found else None


