"""Projection epochs in GraphQL: `epoch { id state }` for any reader (the epoch this request
reads), and the lifecycle for admin keys: list, begin a build, flip, roll back, discard,
retire. The CLI's `fabric epochs ...` does the same through the same port."""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TypeVar

import strawberry
from strawberry.scalars import JSON

from engine.domain.errors import Forbidden, PublicError
from engine.ports import Epoch as EpochValue
from engine.ports import EpochConflict, EpochControl, EpochState
from resolvers.types import Ctx

T = TypeVar("T")

# What `counts` reports of an epoch: its projected data, not bookkeeping.
COUNTED = ("Subject", "Episode", "SourceRecord")


@strawberry.enum(description="Where a projection epoch is in its life.")
class EpochStateValue(enum.Enum):
    SERVING = "serving"
    BUILDING = "building"
    GRACE = "grace"
    RETIRED = "retired"


def _instant(ns: int | None) -> datetime | None:
    return None if ns is None else datetime.fromtimestamp(ns / 1e9, UTC)


@strawberry.type(
    name="Epoch",
    description="A projection epoch of the organisation: its data, loaded as one generation.",
)
class EpochType:
    id: int
    state: EpochStateValue
    created: datetime | None
    retire_reason: str | None = None
    deleted: bool = False
    counts: JSON | None = strawberry.field(
        default=None, description="Subjects, episodes, source records (admin listing only)."
    )

    @classmethod
    def of(cls, epoch: EpochValue, counts: dict[str, int] | None = None) -> EpochType:
        return cls(
            id=epoch.id,
            state=EpochStateValue(epoch.state.value),
            created=_instant(epoch.created_ns),
            retire_reason=epoch.reason.value if epoch.reason else None,
            deleted=epoch.deleted_ns is not None,
            counts=counts,  # type: ignore[arg-type]
        )


@strawberry.type
class EpochRetirement:
    retired: EpochType | None
    deleted: list[int]


def _control(info: Ctx) -> EpochControl:
    control = info.context.epochs
    if control is None:
        raise PublicError("Projection epochs are not available here.", code="UNAVAILABLE")
    return control


def _admin(info: Ctx) -> EpochControl:
    if not info.context.principal.can("admin"):
        raise Forbidden("Only an admin key may manage projection epochs.")
    return _control(info)


async def epoch_counts(info: Ctx, epoch: int) -> dict[str, int]:
    graph_of = info.context.epoch_graph
    if graph_of is None:
        return {}
    counts = await graph_of(epoch).counts()
    return {label: int(counts.get(label, 0)) for label in COUNTED}


@strawberry.type
class EpochQuery:
    @strawberry.field(description="The projection epoch this request reads (any reader).")
    async def epoch(self, info: Ctx) -> EpochType:
        current = info.context.graph.epoch
        control = info.context.epochs
        found = [e for e in await control.all() if e.id == current] if control else []
        return EpochType.of(found[0] if found else EpochValue(current, EpochState.SERVING))

    @strawberry.field(description="Every projection epoch of the organisation (admin).")
    async def epochs(self, info: Ctx) -> list[EpochType]:
        control = _admin(info)
        out = []
        for e in await control.all():
            counts = None if e.deleted_ns is not None else await epoch_counts(info, e.id)
            out.append(EpochType.of(e, counts))
        return out


async def _transition(info: Ctx, kind: str, run: Callable[[], Awaitable[T]]) -> T:
    """Run one lifecycle transition, telling the observer its outcome and, when it happened,
    the epoch the organisation now serves (the lifecycle's telemetry)."""
    control = _admin(info)
    services = info.context.services
    observer = services.observer if services is not None else None
    try:
        done = await run()
    except EpochConflict:
        if observer is not None:
            observer.epoch_transition(kind, "conflict")
        raise
    except Exception:
        if observer is not None:
            observer.epoch_transition(kind, "error")
        raise
    if observer is not None:
        observer.epoch_transition(kind, "ok")
        observer.serving_epoch(info.context.principal.org_id, await control.serving())
    return done


@strawberry.type
class EpochMutation:
    @strawberry.mutation(description="Open a new epoch to build into (admin).")
    async def begin_epoch(self, info: Ctx) -> EpochType:
        control = _admin(info)
        return EpochType.of(await _transition(info, "begin", control.begin_build))

    @strawberry.mutation(description="Serve the open build; the old epoch enters grace (admin).")
    async def flip_epoch(self, info: Ctx, epoch: int) -> EpochType:
        control = _admin(info)
        return EpochType.of(await _transition(info, "flip", lambda: control.flip(epoch)))

    @strawberry.mutation(description="Within grace: serve the previous epoch again (admin).")
    async def rollback_epoch(self, info: Ctx) -> EpochType:
        control = _admin(info)
        return EpochType.of(await _transition(info, "rollback", control.rollback))

    @strawberry.mutation(description="Discard the open build; nothing served changes (admin).")
    async def discard_epoch(self, info: Ctx) -> EpochType:
        control = _admin(info)
        return EpochType.of(await _transition(info, "discard", control.abort_build))

    @strawberry.mutation(
        description="End the grace period now (no rollback after it) and delete the data of "
        "retired epochs whose drain has passed (admin)."
    )
    async def retire_epochs(self, info: Ctx) -> EpochRetirement:
        control = _admin(info)
        retired = await _transition(info, "retire", control.end_grace)
        deleted = await control.sweep()
        return EpochRetirement(retired=EpochType.of(retired) if retired else None, deleted=deleted)


__all__ = ["EpochMutation", "EpochQuery", "EpochType"]
