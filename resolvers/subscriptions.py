"""Subscriptions: what changed in the caller's organisation, as it is written.

Events come from the change feed (engine/ports/changes.py) through the process's hub, which
hands each subscription only its own organisation's changes and, when a subscriber falls
behind its buffer, drops what was queued and says `Resync` instead (refetch what you show).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any, Protocol

import strawberry
from strawberry.types import Info

from engine.domain import contract, models
from engine.domain.errors import BadUserInput
from engine.domain.principal import Principal
from engine.ports.changes import Change, ChangeKind
from resolvers.relay import from_global_id, to_global_id
from resolvers.result import Outcome
from resolvers.types import SourceRecordKind, SubjectKind

MAX_FILTER = 1_000  # keys or ids one subscription may name


RESYNC: Any = object()  # what a stream yields in place of the changes it dropped


class EventSource(Protocol):
    def subscribe(self, org_id: str) -> AbstractAsyncContextManager[AsyncIterator[Change | Any]]:
        """The organisation's changes (or RESYNC) from now on, while the context is open."""
        ...


@dataclass
class SocketContext:
    """The context of one WebSocket connection: the hub, the connection's request, and who
    authenticated at connection_init with which credentials (checked again while it lasts).
    `connection_params` is set by strawberry from the connection_init payload."""

    events: EventSource
    transport: Any = None
    principal: Principal | None = None
    credentials: str | None = None
    connection_params: dict[str, Any] = field(default_factory=dict)


SubInfo = Info[SocketContext, None]


@strawberry.type(description="Events were dropped (the subscriber fell behind, or the feed lost "
                 "its connection): refetch what the page shows.")
class Resync:
    reason: str
    revision: int | None = strawberry.field(
        description="The organisation's revision when known (compare with later events)."
    )


@strawberry.type(description="A subject's own data or relationships were written or retracted.")
class SubjectChanged:
    key: str
    kind: SubjectKind  # type: ignore[valid-type]
    revision: int
    source: str


@strawberry.type(description="One ingest batch was written (one event per batch, not per record).")
class RecordsIngested:
    revision: int
    source: str
    count: int = strawberry.field(description="Elements in the batch.")
    record_kinds: list[SourceRecordKind]  # type: ignore[valid-type]
    subject_keys: list[str] = strawberry.field(
        description="Subjects the batch touched (only those asked for, when filtered)."
    )
    at: datetime


@strawberry.type(description="An investigation result was saved.")
class InvestigationCompleted:
    id: strawberry.ID
    outcome: Outcome  # type: ignore[valid-type]
    subject_keys: list[str]
    revision: int


SubjectChangedEvent = Annotated[
    SubjectChanged | Resync, strawberry.union("SubjectChangedEvent")
]
RecordsIngestedEvent = Annotated[
    RecordsIngested | Resync, strawberry.union("RecordsIngestedEvent")
]
InvestigationCompletedEvent = Annotated[
    InvestigationCompleted | Resync, strawberry.union("InvestigationCompletedEvent")
]


def _principal(info: SubInfo) -> Principal:
    principal = info.context.principal
    assert principal is not None  # connection_init authenticated it, or nothing runs
    return principal


def _bounded(values: list[str] | None, what: str) -> set[str] | None:
    if values is None:
        return None
    if len(values) > MAX_FILTER:
        raise BadUserInput(f"at most {MAX_FILTER} {what}")
    return set(values)


def _resync(item: Change | Any) -> Resync | None:
    if item is RESYNC:
        return Resync(reason="events dropped: the subscriber fell behind", revision=None)
    if item.kind is ChangeKind.RESET:
        reason = "the feed lost events" if item.revision == 0 else "data was deleted"
        return Resync(reason=reason, revision=item.revision or None)
    return None


def _local_id(value: str) -> str:
    parsed = from_global_id(value)
    return parsed[1] if parsed and parsed[0] == "InvestigationResult" else value


@strawberry.type
class Subscription:
    @strawberry.subscription(description="Subjects written or retracted, as each batch lands.")
    async def subject_changed(
        self,
        info: SubInfo,
        keys: list[str] | None = None,
        kinds: list[SubjectKind] | None = None,  # type: ignore[valid-type]
    ) -> AsyncGenerator[SubjectChangedEvent, None]:
        wanted_keys = _bounded(keys, "keys")
        wanted_kinds = {models.SubjectKind(k).value for k in kinds} if kinds else None
        async with info.context.events.subscribe(_principal(info).org_id) as stream:
            async for item in stream:
                resync = _resync(item)
                if resync is not None:
                    yield resync
                    continue
                if item.kind is not ChangeKind.BATCH:
                    continue
                for key, kind in item.subjects:
                    if (wanted_keys is None or key in wanted_keys) and (
                        wanted_kinds is None or kind in wanted_kinds
                    ):
                        yield SubjectChanged(
                            key=key,
                            kind=models.SubjectKind(kind),
                            revision=item.revision,
                            source=item.source,
                        )

    @strawberry.subscription(description="Ingest batches, one event each.")
    async def records_ingested(
        self,
        info: SubInfo,
        kinds: list[SourceRecordKind] | None = None,  # type: ignore[valid-type]
        subject_keys: list[str] | None = None,
    ) -> AsyncGenerator[RecordsIngestedEvent, None]:
        wanted_keys = _bounded(subject_keys, "subject keys")
        wanted_kinds = {models.SourceRecordKind(k).value for k in kinds} if kinds else None
        async with info.context.events.subscribe(_principal(info).org_id) as stream:
            async for item in stream:
                resync = _resync(item)
                if resync is not None:
                    yield resync
                    continue
                if item.kind is not ChangeKind.BATCH:
                    continue
                if wanted_kinds is not None and not wanted_kinds & set(item.record_kinds):
                    continue
                touched = list(item.subject_keys)
                if wanted_keys is not None:
                    touched = [k for k in touched if k in wanted_keys]
                    if not touched:
                        continue
                yield RecordsIngested(
                    revision=item.revision,
                    source=item.source,
                    count=item.count,
                    record_kinds=[models.SourceRecordKind(k) for k in item.record_kinds],
                    subject_keys=touched,
                    at=datetime.fromtimestamp(item.at_ns / 1e9, UTC),
                )

    @strawberry.subscription(description="Investigation results as they are saved.")
    async def investigation_completed(
        self, info: SubInfo, id: strawberry.ID | None = None
    ) -> AsyncGenerator[InvestigationCompletedEvent, None]:
        wanted = _local_id(id) if id is not None else None
        async with info.context.events.subscribe(_principal(info).org_id) as stream:
            async for item in stream:
                resync = _resync(item)
                if resync is not None:
                    yield resync
                    continue
                if item.kind is not ChangeKind.INVESTIGATION:
                    continue
                if wanted is not None and item.investigation_id != wanted:
                    continue
                yield InvestigationCompleted(
                    id=strawberry.ID(to_global_id("InvestigationResult", item.investigation_id)),
                    outcome=contract.Outcome(item.outcome),
                    subject_keys=list(item.subject_keys),
                    revision=item.revision,
                )
