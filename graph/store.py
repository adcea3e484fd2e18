"""What both Cypher stores (graph.falkor, graph.neo4j_adapter) share: a ScopedGraph per
organisation and projection epoch, and the serving epoch each request reads, cached.

The epochs themselves (scopes, the lifecycle and its transitions) are graph.epochs'.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from engine.ports import EpochTimings
from engine.ports.changes import Change, ChangeFeed, ChangeKind
from graph.cypher.epochs import SERVING
from graph.epochs import CypherEpochs, Renew

if TYPE_CHECKING:
    from graph.scoped import ScopedGraph


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

    async def _purge_epoch(self, org_id: str, epoch: int, renew: Renew) -> None:
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

    async def indexes_building(self, org_id: str) -> bool:
        return False  # Neo4j: a read waits for no index, and none is rebuilt on a start

    async def await_read_indexes(self, org_id: str) -> None:
        return None  # Neo4j: none is rebuilt on a start

    def epochs(self, org_id: str) -> CypherEpochs:
        home = self.org(org_id)

        async def purge(epoch: int, renew: Renew) -> None:
            await self._purge_epoch(org_id, epoch, renew)

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
