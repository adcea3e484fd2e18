"""`GraphStore` and `KeyStore` in plain Python: organisations' graphs and the API keys."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from engine.memory.changes import MemoryChangeFeed, MemoryDocuments
from engine.memory.data import OrgData
from engine.memory.graph import MemoryGraph
from engine.ports import SYSTEM_SCOPE, ApiKeyRecord, GraphStore, RoundTrips, check_org

if TYPE_CHECKING:
    from engine.embedding import Embedder


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
        self._orgs: dict[str, OrgData] = {}
        self._graphs: dict[str, MemoryGraph] = {}
        self._keys = MemoryKeyStore()
        self.changes = MemoryChangeFeed()
        self.documents = MemoryDocuments()

    @property
    def backend(self) -> str:
        return "memory"

    @property
    def keys(self) -> MemoryKeyStore:
        return self._keys

    def _data(self, org_id: str) -> OrgData:
        data = self._orgs.get(org_id)
        if data is None:
            data = self._orgs[org_id] = OrgData()
        return data

    def org(self, org_id: str) -> MemoryGraph:
        graph = self._graphs.get(org_id)
        if graph is None:
            check_org(org_id)
            graph = self._graphs[org_id] = MemoryGraph(
                org_id, lambda: self._data(org_id), self.round_trips, self.embedder, self.changes
            )
        return graph

    async def bootstrap(self, org_id: str) -> None:
        if org_id != SYSTEM_SCOPE:
            check_org(org_id)

    async def ping(self) -> None:
        self.round_trips.add()

    async def drop_org(self, org_id: str) -> None:
        self._orgs.pop(org_id, None)

    async def close(self) -> None:
        return None


def _conforms(store: MemoryStore) -> GraphStore:
    """Never called: mypy holds MemoryStore (and MemoryGraph, through org()) to the port."""
    return store
