"""`GraphStore` and `KeyStore` in plain Python: organisations' graphs and the API keys."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from engine.memory.changes import MemoryChangeFeed, MemoryDocuments
from engine.memory.data import OrgData, Results
from engine.memory.epochs import Lifecycle, MemoryEpochs
from engine.memory.graph import MemoryGraph
from engine.ports import (
    SYSTEM_SCOPE,
    ApiKeyRecord,
    EpochTimings,
    GraphStore,
    RoundTrips,
    check_org,
)
from engine.ports.changes import Change, ChangeKind

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder


class MemoryKeyStore:
    def __init__(self) -> None:
        self._keys: dict[str, ApiKeyRecord] = {}
        self._secrets: dict[str, str] = {}

    async def put_key(self, record: ApiKeyRecord) -> None:
        self._keys[record.key_id] = record

    async def get_key(self, key_id: str) -> ApiKeyRecord | None:
        return self._keys.get(key_id)

    async def revoke_key(self, key_id: str) -> bool:
        record = self._keys.get(key_id)
        if record is None:
            return False
        self._keys[key_id] = ApiKeyRecord(
            record.key_id, record.secret_hash, record.org_id, record.actor, record.scopes, True
        )
        return True

    async def list_keys(self, org_id: str | None = None) -> list[ApiKeyRecord]:
        return [
            self._keys[k] for k in sorted(self._keys) if org_id in (None, self._keys[k].org_id)
        ]

    async def secret(self, name: str) -> str:
        """Created on first use (the first value wins), then the same for every caller."""
        return self._secrets.setdefault(name, secrets.token_urlsafe(48))


class MemoryStore:
    """A graph store that lives and dies with the process: for tests of the engine and the
    GraphQL layer that are not about a backend, and as the reference the contract suite
    (tests/test_graph_contract.py) holds FalkorDB and Neo4j to.

    embedder: makes the vectors of the vector arm (None: lexical search only)."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.round_trips = RoundTrips()
        self.embedder = embedder
        # Data per (organisation, epoch); results live with epoch 0's, across epochs.
        self._orgs: dict[tuple[str, int], OrgData] = {}
        self._graphs: dict[tuple[str, int], MemoryGraph] = {}
        self._lifecycles: dict[str, Lifecycle] = {}
        self.timings = EpochTimings()
        self._keys = MemoryKeyStore()
        self.changes = MemoryChangeFeed()
        self.documents = MemoryDocuments()

    @property
    def backend(self) -> str:
        return "memory"

    @property
    def keys(self) -> MemoryKeyStore:
        return self._keys

    def _data(self, org_id: str, epoch: int = 0) -> OrgData:
        data = self._orgs.get((org_id, epoch))
        if data is None:
            data = self._orgs[(org_id, epoch)] = OrgData()
        return data

    def org(self, org_id: str, epoch: int = 0) -> MemoryGraph:
        graph = self._graphs.get((org_id, epoch))
        if graph is None:
            check_org(org_id)
            graph = self._graphs[(org_id, epoch)] = MemoryGraph(
                org_id, lambda: self._data(org_id, epoch), self.round_trips, self.embedder,
                self.changes, epoch=epoch, home=lambda: self._data(org_id),
            )  # fmt: skip
        return graph

    async def serving(self, org_id: str) -> MemoryGraph:
        self.round_trips.add(control=True)
        return self.org(org_id, await self.epochs(org_id).serving())

    def epochs(self, org_id: str) -> MemoryEpochs:
        state = self._lifecycles.setdefault(check_org(org_id), Lifecycle())

        def checkpoints(epoch: int) -> list[tuple[str, bool]]:
            found = self._data(org_id, epoch).checkpoints.values()
            return [(c.source, c.finished) for c in found]

        def purge(epoch: int) -> None:
            results = self._data(org_id).results
            self._orgs[(org_id, epoch)] = OrgData(results=results if epoch == 0 else Results())

        async def changed() -> None:
            await self.changes.publish(Change(org_id=org_id, kind=ChangeKind.RESET))

        grace, drain, lease = (
            int(x * 1e9) for x in (self.timings.grace_s, self.timings.drain_s, self.timings.lease_s)
        )
        return MemoryEpochs(
            state, checkpoints=checkpoints, purge=purge, changed=changed,
            grace_ns=grace, drain_ns=drain, lease_ns=lease,
        )  # fmt: skip

    async def bootstrap(self, org_id: str) -> None:
        if org_id != SYSTEM_SCOPE:
            check_org(org_id)

    async def indexes_building(self, org_id: str) -> bool:
        return False  # nothing to build

    async def await_read_indexes(self, org_id: str) -> None:
        return None  # nothing to build

    async def ping(self) -> None:
        self.round_trips.add()

    async def drop_org(self, org_id: str) -> None:
        for key in [k for k in self._orgs if k[0] == org_id]:
            del self._orgs[key]
        self._lifecycles.pop(org_id, None)

    async def close(self) -> None:
        return None


def _conforms(store: MemoryStore) -> GraphStore:
    """Never called: mypy holds MemoryStore (and MemoryGraph, through org()) to the port."""
    return store
