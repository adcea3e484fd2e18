"""`EpochControl` in plain Python: the projection-epoch lifecycle of one organisation, with
the Cypher adapters' rules (graph/epochs.py). Each transition checks and changes the state
with no await in between, which in one event loop is the compare-and-swap."""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.ports import Epoch, EpochConflict, EpochState, RetireReason, unflippable


@dataclass
class Lifecycle:
    """What the Cypher adapters keep on the `Lifecycle` and `Epoch` nodes."""

    active: int = 0
    status: str = "serving"  # serving | building | grace
    building: int | None = None
    previous: int | None = None
    grace_until_ns: int | None = None
    last_allocated: int = 0
    epochs: dict[int, Epoch] = field(default_factory=dict)
    deleters: dict[int, tuple[str, int]] = field(default_factory=dict)


def _replace(epoch: Epoch, **changes: object) -> Epoch:
    values = {
        "id": epoch.id, "state": epoch.state, "created_ns": epoch.created_ns,
        "changed_ns": epoch.changed_ns, "reason": epoch.reason, "retired_ns": epoch.retired_ns,
        "deleted_ns": epoch.deleted_ns, **changes,
    }  # fmt: skip
    return Epoch(**values)  # type: ignore[arg-type]


class MemoryEpochs:
    """grace_ns / drain_ns / lease_ns: as graph.epochs.EpochTimings, in nanoseconds.
    checkpoints: (source, finished) of each checkpoint in an epoch.
    purge: deletes an epoch's data. changed: awaited after the serving epoch changed."""

    def __init__(
        self,
        state: Lifecycle,
        *,
        checkpoints: Callable[[int], list[tuple[str, bool]]],
        purge: Callable[[int], None],
        changed: Callable[[], Awaitable[None]],
        grace_ns: int,
        drain_ns: int,
        lease_ns: int,
    ) -> None:
        self._s = state
        self._checkpoints = checkpoints
        self._purge = purge
        self._changed = changed
        self._grace, self._drain, self._lease = grace_ns, drain_ns, lease_ns
        self.clock: Callable[[], int] = time.time_ns

    def _ensure(self) -> None:
        if not self._s.epochs:
            now = self.clock()
            self._s.epochs[0] = Epoch(0, EpochState.SERVING, now, now)

    def _set(self, epoch: int, **changes: object) -> Epoch:
        changed = _replace(self._s.epochs[epoch], changed_ns=self.clock(), **changes)
        self._s.epochs[epoch] = changed
        return changed

    async def serving(self) -> int:
        return self._s.active

    async def all(self) -> list[Epoch]:
        if not self._s.epochs:
            return [Epoch(0, EpochState.SERVING)]
        return [self._s.epochs[k] for k in sorted(self._s.epochs)]

    async def building(self) -> Epoch | None:
        return next((e for e in await self.all() if e.state is EpochState.BUILDING), None)

    async def begin_build(self) -> Epoch:
        self._ensure()
        s = self._s
        if s.status == "building":
            raise EpochConflict(f"epoch {s.building} is already building")
        if s.status == "grace":
            raise EpochConflict(f"epoch {s.active} is serving within a grace period")
        s.last_allocated += 1
        s.building, s.status = s.last_allocated, "building"
        now = self.clock()
        s.epochs[s.last_allocated] = Epoch(s.last_allocated, EpochState.BUILDING, now, now)
        return s.epochs[s.last_allocated]

    async def flip(self, target: int) -> Epoch:
        s = self._s
        if s.status != "building" or s.building != target:
            raise EpochConflict(f"epoch {target} is not the open build; nothing was flipped")
        refusal = unflippable(target, self._checkpoints(target))
        if refusal:
            raise EpochConflict(refusal)
        old = s.active
        s.previous, s.active, s.building, s.status = old, target, None, "grace"
        s.grace_until_ns = self.clock() + self._grace
        self._set(old, state=EpochState.GRACE)
        flipped = self._set(target, state=EpochState.SERVING)
        await self._changed()
        return flipped

    async def rollback(self) -> Epoch:
        s = self._s
        now = self.clock()
        if s.status != "grace" or s.previous is None or (s.grace_until_ns or 0) <= now:
            raise EpochConflict("cannot roll back: no epoch is in its grace period")
        abandoned, restored = s.active, s.previous
        self._set(
            abandoned, state=EpochState.RETIRED, reason=RetireReason.ROLLBACK_ABANDONED,
            retired_ns=now,
        )  # fmt: skip
        s.active, s.previous, s.status, s.grace_until_ns = restored, None, "serving", None
        back = self._set(restored, state=EpochState.SERVING)
        await self._changed()
        return back

    async def abort_build(self) -> Epoch:
        s = self._s
        if s.status != "building" or s.building is None:
            raise EpochConflict("no build is open")
        epoch, s.building, s.status = s.building, None, "serving"
        return self._set(
            epoch, state=EpochState.RETIRED, reason=RetireReason.BUILD_ABORTED,
            retired_ns=self.clock(),
        )  # fmt: skip

    async def end_grace(self) -> Epoch | None:
        return self._end_grace(True, self.clock())

    def _end_grace(self, force: bool, now: int) -> Epoch | None:
        s = self._s
        if s.status != "grace" or s.previous is None:
            return None
        if not force and (s.grace_until_ns or 0) > now:
            return None
        reason = RetireReason.GRACE_ENDED if force else RetireReason.GRACE_EXPIRED
        epoch, s.previous, s.status, s.grace_until_ns = s.previous, None, "serving", None
        return self._set(epoch, state=EpochState.RETIRED, reason=reason, retired_ns=now)

    async def sweep(self, now_ns: int | None = None) -> list[int]:
        now = self.clock() if now_ns is None else now_ns
        self._end_grace(False, now)
        deleted = []
        for epoch in sorted(self._s.epochs):
            e = self._s.epochs[epoch]
            if (
                e.state is EpochState.RETIRED and e.deleted_ns is None
                and e.retired_ns is not None and e.retired_ns + self._drain <= now
                and epoch != self._s.active and self._claim(epoch, now)
            ):  # fmt: skip
                self._purge(epoch)
                self._s.epochs[epoch] = _replace(e, deleted_ns=self.clock())
                deleted.append(epoch)
        return deleted

    def _claim(self, epoch: int, now: int) -> bool:
        held = self._s.deleters.get(epoch)
        if held is not None and held[1] >= now:
            return False
        self._s.deleters[epoch] = (uuid.uuid4().hex, now + self._lease)
        return True
