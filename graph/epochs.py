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
grace and the last id allocated. Every transition is one statement that first writes the
record (`lock`: on Neo4j that takes the node's write lock before anything is read, so two
concurrent transitions cannot both pass the compare; FalkorDB runs a graph's writes one at a
time anyway) and then changes it only if it still holds what the caller read.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from engine.ports import Epoch, EpochConflict, EpochState, EpochTimings, RetireReason
from engine.ports.changes import Change, ChangeFeed, ChangeKind

if TYPE_CHECKING:
    from graph.executor import Executor
    from graph.scoped import ScopedGraph

SCOPE_SEPARATOR = "@"
LIFECYCLE_KEY = "lifecycle"
# Labels holding an epoch's projected data (what retirement deletes); results, API keys and
# the lifecycle itself are not an epoch's.
DATA_LABELS = ("Subject", "Episode", "SourceRecord", "Checkpoint", "EmbeddingMeta")
PURGE_BATCH = 5_000


def scope_of(org_id: str, epoch: int) -> str:
    return org_id if epoch == 0 else f"{org_id}{SCOPE_SEPARATOR}{epoch}"


# --- statements (parameters only; $org is the organisation id, never an epoch scope) ---------

ENSURE = """
MERGE (l:Lifecycle {org_id: $org, key: 'lifecycle'})
ON CREATE SET l.active = 0, l.status = 'serving', l.last_allocated = 0, l.changed_ns = $now
MERGE (e:Epoch {org_id: $org, key: 0})
ON CREATE SET e.state = 'serving', e.created_ns = $now, e.changed_ns = $now
RETURN l.active
"""

# The serving pointer alone: what a request's graph is chosen by (cached, see EpochPointers).
SERVING = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
RETURN l.active
"""

STATUS = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
RETURN l.active, l.status, l.building, l.previous, l.grace_until_ns, l.last_allocated
"""

LIST = """
MATCH (e:Epoch {org_id: $org})
RETURN e.key, e.state, e.created_ns, e.changed_ns, e.reason, e.retired_ns, e.deleted_ns
ORDER BY e.key
"""

BEGIN_BUILD = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'serving'
WITH l, l.last_allocated + 1 AS next
SET l.last_allocated = next, l.building = next, l.status = 'building', l.changed_ns = $now
CREATE (e:Epoch {org_id: $org, key: next})
SET e.state = 'building', e.created_ns = $now, e.changed_ns = $now
RETURN next
"""

FLIP = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'building' AND l.building = $target AND l.active = $expected
MATCH (new:Epoch {org_id: $org, key: $target}), (old:Epoch {org_id: $org, key: $expected})
SET l.previous = $expected, l.active = $target, l.building = null, l.status = 'grace',
    l.grace_until_ns = $now + $grace_ns, l.changed_ns = $now,
    new.state = 'serving', new.changed_ns = $now,
    old.state = 'grace', old.changed_ns = $now
RETURN l.active
"""

ROLLBACK = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'grace' AND l.active = $expected AND l.grace_until_ns > $now
MATCH (cur:Epoch {org_id: $org, key: l.active}), (prev:Epoch {org_id: $org, key: l.previous})
SET cur.state = 'retired', cur.reason = 'rollback_abandoned', cur.retired_ns = $now,
    cur.changed_ns = $now,
    prev.state = 'serving', prev.changed_ns = $now,
    l.active = prev.key, l.previous = null, l.status = 'serving', l.grace_until_ns = null,
    l.changed_ns = $now
RETURN l.active
"""

# Manual (`$force`) or once the grace period is over.
END_GRACE = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'grace' AND ($force OR l.grace_until_ns <= $now)
MATCH (prev:Epoch {org_id: $org, key: l.previous})
SET prev.state = 'retired', prev.reason = $reason, prev.retired_ns = $now,
    prev.changed_ns = $now,
    l.previous = null, l.status = 'serving', l.grace_until_ns = null, l.changed_ns = $now
RETURN prev.key
"""

ABORT_BUILD = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'building'
MATCH (e:Epoch {org_id: $org, key: l.building})
SET e.state = 'retired', e.reason = 'build_aborted', e.retired_ns = $now, e.changed_ns = $now,
    l.building = null, l.status = 'serving', l.changed_ns = $now
RETURN e.key
"""

# The single deleter: a retired, undeleted epoch past its drain bound, never the serving one,
# claimed for a lease (a deleter that died frees it when the lease runs out).
CLAIM_DELETE = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
SET e.lock = $now
WITH e
WHERE e.state = 'retired' AND e.deleted_ns IS NULL AND e.retired_ns + $drain_ns <= $now
  AND (e.deleter IS NULL OR e.deleter_until_ns < $now)
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
WHERE l.active <> e.key
SET e.deleter = $token, e.deleter_until_ns = $now + $lease_ns
RETURN e.key
"""

MARK_DELETED = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
WHERE e.deleter = $token
SET e.deleted_ns = $now, e.deleter = null, e.changed_ns = $now
RETURN e.key
"""

RETIRED_UNDELETED = """
MATCH (e:Epoch {org_id: $org})
WHERE e.state = 'retired' AND e.deleted_ns IS NULL
RETURN e.key ORDER BY e.key
"""

CHECKPOINTS = """
MATCH (c:Checkpoint {org_id: $org})
RETURN c.source, c.finished
"""

# One per label of DATA_LABELS (each served by its org_id index), bounded in size.
PURGE = (
    """
MATCH (n:Subject {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    """
MATCH (n:Episode {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    """
MATCH (n:SourceRecord {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    """
MATCH (n:Checkpoint {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    """
MATCH (n:EmbeddingMeta {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
)

STATEMENTS = (
    ENSURE, SERVING, STATUS, LIST, BEGIN_BUILD, FLIP, ROLLBACK, END_GRACE, ABORT_BUILD,
    CLAIM_DELETE, MARK_DELETED, RETIRED_UNDELETED, CHECKPOINTS, *PURGE,
)  # fmt: skip


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
    purge: deletes every datum of an epoch (the adapter's fastest way).
    changed: awaited after every change of the serving epoch made here (drops the cached
        serving pointer, tells change-feed readers to resync).
    """

    def __init__(
        self,
        org_id: str,
        executor: Executor,
        *,
        graph_of: Callable[[int], ScopedGraph],
        purge: Callable[[int], Awaitable[None]],
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
        unfinished = [
            source
            for source, finished in await self._graph_of(target)._read(CHECKPOINTS)
            if not finished
        ]
        if unfinished:
            raise EpochConflict(
                f"the load of '{sorted(unfinished)[0]}' into epoch {target} has not finished: "
                "resume it or discard the build"
            )
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
        await self._purge(epoch)
        marked = await self._run(
            MARK_DELETED, write=True, epoch=epoch, now=self.clock(), token=token
        )
        return bool(marked)


async def purge_scope(graph: ScopedGraph) -> int:
    """Delete every datum of one epoch's scope, in bounded batches (the generic way; FalkorDB
    drops a whole epoch graph instead)."""
    deleted = 0
    for statement in PURGE:
        while True:
            found = await graph._write(statement, batch=PURGE_BATCH)
            count = int(found[0][0]) if found else 0
            deleted += count
            if count < PURGE_BATCH:
                break
    return deleted


class EpochedStore:
    """What both adapters share: a ScopedGraph per (organisation, epoch), the serving
    pointer cached per process for `pointer_ttl_s`, and each organisation's lifecycle.

    The cache is why a request costs no extra round trip: the pointer is read at most once
    per organisation per TTL (counted apart, RoundTrips.control), and dropped at once when
    this process flips or rolls back. Another instance notices within the TTL; until then it
    serves the epoch it had, which stays readable because deletion waits for the drain bound
    (EpochTimings.drain_s, which must exceed the TTL plus the longest request).
    """

    timings: EpochTimings
    pointer_ttl_s: float
    changes: ChangeFeed
    _orgs: dict[tuple[str, int], ScopedGraph]
    _pointers: dict[str, tuple[int, float]]

    def _init_epochs(self, timings: EpochTimings | None, pointer_ttl_s: float) -> None:
        self.timings = timings or EpochTimings()
        self.pointer_ttl_s = pointer_ttl_s
        self._orgs = {}
        self._pointers = {}

    def _make_graph(self, org_id: str, epoch: int) -> ScopedGraph:
        raise NotImplementedError

    async def _purge_epoch(self, org_id: str, epoch: int) -> None:
        raise NotImplementedError

    def org(self, org_id: str, epoch: int = 0) -> ScopedGraph:
        scoped = self._orgs.get((org_id, epoch))
        if scoped is None:
            scoped = self._orgs[(org_id, epoch)] = self._make_graph(org_id, epoch)
        return scoped

    async def serving(self, org_id: str) -> ScopedGraph:
        cached = self._pointers.get(org_id)
        now = time.monotonic()
        if cached is not None and cached[1] > now:
            return self.org(org_id, cached[0])
        home = self.org(org_id)
        found = await home.results_executor.run(SERVING, {"org": org_id}, control=True)
        epoch = int(found[0][0]) if found and found[0][0] is not None else 0
        self._pointers[org_id] = (epoch, now + self.pointer_ttl_s)
        return self.org(org_id, epoch)

    def epochs(self, org_id: str) -> CypherEpochs:
        home = self.org(org_id)

        async def purge(epoch: int) -> None:
            await self._purge_epoch(org_id, epoch)

        async def changed() -> None:
            self._pointers.pop(org_id, None)
            # Everything a reader saw may differ now: revisions move, subscribers resync.
            await self.changes.publish(Change(org_id=org_id, kind=ChangeKind.RESET))

        return CypherEpochs(
            org_id,
            home.results_executor,
            graph_of=lambda epoch: self.org(org_id, epoch),
            purge=purge,
            changed=changed,
            timings=self.timings,
        )
