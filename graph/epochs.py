"""Projection epochs: build an organisation's graph aside, flip to it, roll back, retire.

Where an epoch's data lives is the adapter's business, but both do it through one name: the
epoch's *scope*, the `org_id` every statement of that epoch matches on. Epoch 0's scope is the
organisation id itself (an organisation that never rebuilt is byte-identical to one from
before epochs existed); epoch N's is `<org>@<N>`, which no organisation id can spell
(engine.ports.ORG_PATTERN has no `@`). On FalkorDB each scope is also its own graph key, so an
epoch has its own indexes and dropping it is one GRAPH.DELETE; on Neo4j it is the `org_id`
property every index leads with.

The lifecycle record (one `Lifecycle` node per organisation, in the organisation's own scope,
next to its investigation results) holds the serving epoch, the open build, the epoch in
grace and the last id allocated. Every transition is one statement (graph.cypher.epochs)
that changes the record only if it still holds what the caller read. Which epoch a request
reads is chosen in graph.store.
"""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine.ports import (
    Epoch,
    EpochConflict,
    EpochState,
    EpochTimings,
    RetireReason,
    unflippable,
)
from graph.cypher.epochs import (
    ABORT_BUILD,
    BEGIN_BUILD,
    CHECKPOINTS,
    CLAIM_DELETE,
    END_GRACE,
    ENSURE,
    FLIP,
    LIST,
    MARK_DELETED,
    PURGE,
    RENEW_DELETE,
    RETIRED_UNDELETED,
    ROLLBACK,
    SERVING,
    STATUS,
)

if TYPE_CHECKING:
    from graph.executor import Executor
    from graph.scoped import ScopedGraph

log = logging.getLogger("fabric.epochs")

SCOPE_SEPARATOR = "@"
# Holds the deleter's claim on for another lease; raises LeaseLost once it ran out.
Renew = Callable[[], Awaitable[None]]


class LeaseLost(Exception):
    """The deleter's claim ran out before it could be renewed: another may be deleting."""
LIFECYCLE_KEY = "lifecycle"
PURGE_BATCH = 5_000


def scope_of(org_id: str, epoch: int) -> str:
    return org_id if epoch == 0 else f"{org_id}{SCOPE_SEPARATOR}{epoch}"


# --- the lifecycle --------------------------------------------------------------------------


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


def _epoch(row: list[Any]) -> Epoch:
    key, state, created, changed, reason, retired, deleted = row
    return Epoch(
        id=int(key),
        state=EpochState(state),
        created_ns=None if created is None else int(created),
        changed_ns=None if changed is None else int(changed),
        reason=None if reason is None else RetireReason(reason),
        retired_ns=None if retired is None else int(retired),
        deleted_ns=None if deleted is None else int(deleted),
    )


class CypherEpochs:
    """`EpochControl` of one organisation over the executor of its own scope.

    graph_of: the ScopedGraph of an epoch (to check a build's checkpoints).
    purge: deletes every datum of an epoch (the adapter's fastest way), calling its renew
        between batches: a purge longer than the deleter's lease keeps its claim.
    changed: awaited after every change of the serving epoch made here (drops the cached
        serving pointer, tells change-feed readers to resync).
    """

    def __init__(
        self,
        org_id: str,
        executor: Executor,
        *,
        graph_of: Callable[[int], ScopedGraph],
        purge: Callable[[int, Renew], Awaitable[None]],
        changed: Callable[[], Awaitable[None]],
        timings: EpochTimings,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self._org = org_id
        self._x = executor
        self._graph_of = graph_of
        self._purge = purge
        self._changed = changed
        self._timings = timings
        self.clock = clock

    async def _run(self, statement: str, write: bool = False, **params: Any) -> list[list[Any]]:
        return await self._x.run(statement, {"org": self._org, **params}, write=write)

    async def _ensure(self) -> None:
        await self._run(ENSURE, write=True, now=self.clock())

    async def _status(self) -> list[Any]:
        found = await self._run(STATUS)
        if not found:
            await self._ensure()
            found = await self._run(STATUS)
        return list(found[0])

    async def _one(self, epoch: int) -> Epoch:
        return next(e for e in await self.all() if e.id == epoch)

    async def serving(self) -> int:
        found = await self._run(SERVING)
        return int(found[0][0]) if found and found[0][0] is not None else 0

    async def all(self) -> list[Epoch]:
        found = await self._run(LIST)
        if not found:
            return [Epoch(0, EpochState.SERVING)]  # an organisation that never rebuilt
        return [_epoch(row) for row in found]

    async def building(self) -> Epoch | None:
        return next((e for e in await self.all() if e.state is EpochState.BUILDING), None)

    async def begin_build(self) -> Epoch:
        await self._ensure()
        found = await self._run(BEGIN_BUILD, write=True, now=self.clock())
        if not found:
            active, status, building, *_ = await self._status()
            if status == "building":
                raise EpochConflict(
                    f"epoch {building} is already building: load into it, flip it or "
                    "discard it first"
                )
            raise EpochConflict(
                f"epoch {active} is serving within the grace period of the epoch it replaced: "
                "end the grace period (retire) or roll back first"
            )
        return await self._one(int(found[0][0]))

    async def flip(self, target: int) -> Epoch:
        active, status, building, *_ = await self._status()
        if status != "building" or building != target:
            raise EpochConflict(f"epoch {target} is not the open build; nothing was flipped")
        checkpoints = await self._graph_of(target)._read(CHECKPOINTS)
        refusal = unflippable(target, [(str(s), bool(f)) for s, f in checkpoints])
        if refusal:
            raise EpochConflict(refusal)
        found = await self._run(
            FLIP, write=True, now=self.clock(), target=target, expected=int(active),
            grace_ns=_ns(self._timings.grace_s),
        )  # fmt: skip
        await self._changed()
        if not found:
            raise EpochConflict(f"another transition changed the lifecycle first; epoch "
                                f"{target} was not flipped")  # fmt: skip
        return await self._one(target)

    async def rollback(self) -> Epoch:
        active, status, *_ = await self._status()
        found = await self._run(ROLLBACK, write=True, now=self.clock(), expected=int(active))
        await self._changed()
        if not found:
            reason = (
                "no epoch is in its grace period"
                if status != "grace"
                else ("the grace period is over or another transition came first")
            )
            raise EpochConflict(f"cannot roll back: {reason}")
        return await self._one(int(found[0][0]))

    async def abort_build(self) -> Epoch:
        await self._ensure()
        found = await self._run(ABORT_BUILD, write=True, now=self.clock())
        if not found:
            raise EpochConflict("no build is open")
        return await self._one(int(found[0][0]))

    async def end_grace(self) -> Epoch | None:
        return await self._end_grace(True, self.clock())

    async def _end_grace(self, force: bool, now: int) -> Epoch | None:
        reason = RetireReason.GRACE_ENDED if force else RetireReason.GRACE_EXPIRED
        found = await self._run(END_GRACE, write=True, now=now, force=force, reason=reason.value)
        return await self._one(int(found[0][0])) if found else None

    async def sweep(self, now_ns: int | None = None) -> list[int]:
        now = self.clock() if now_ns is None else now_ns
        if not await self._run(SERVING):
            return []  # never rebuilt: nothing can be retired
        await self._end_grace(False, now)
        deleted = []
        for (epoch,) in await self._run(RETIRED_UNDELETED):
            if await self._delete(int(epoch), now):
                deleted.append(int(epoch))
        return deleted

    async def _delete(self, epoch: int, now: int) -> bool:
        token = uuid.uuid4().hex
        claimed = await self._run(
            CLAIM_DELETE, write=True, epoch=epoch, now=now, token=token,
            drain_ns=_ns(self._timings.drain_s), lease_ns=_ns(self._timings.lease_s),
        )  # fmt: skip
        if not claimed:
            return False  # still draining, serving again, or another deleter has it
        try:
            await self._purge(epoch, functools.partial(self._renew, epoch, token))
        except LeaseLost:
            log.warning("epoch %s of %s: the deleter's claim ran out mid-purge", epoch, self._org)
            return False
        marked = await self._run(
            MARK_DELETED, write=True, epoch=epoch, now=self.clock(), token=token
        )
        return bool(marked)


    async def _renew(self, epoch: int, token: str) -> None:
        renewed = await self._run(
            RENEW_DELETE, write=True, epoch=epoch, token=token, now=self.clock(),
            lease_ns=_ns(self._timings.lease_s),
        )  # fmt: skip
        if not renewed:
            raise LeaseLost(f"epoch {epoch}")


async def purge_scope(graph: ScopedGraph, renew: Renew | None = None) -> int:
    """Delete every datum of one epoch's scope, in bounded batches (the generic way; FalkorDB
    drops a whole epoch graph instead), renewing the deleter's claim after each batch."""
    deleted = 0
    for statement in PURGE.values():
        while True:
            found = await graph._write(statement, batch=PURGE_BATCH)
            count = int(found[0][0]) if found else 0
            deleted += count
            if renew is not None:
                await renew()
            if count < PURGE_BATCH:
                break
    return deleted
