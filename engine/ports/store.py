"""The store port: a connection to one graph store, which hands out organisation-scoped
graphs (engine/ports/graph.py) and holds what is not one organisation's graph: the
projection-epoch lifecycle of each organisation, API keys, the change feed and persisted
documents. The gateway and the CLI hold one; the engine itself only ever reads the graphs
it hands out.
"""

from __future__ import annotations

from typing import Protocol

from engine.ports.changes import ChangeFeed, DocumentStore
from engine.ports.graph import OrgGraph
from engine.ports.shapes import ApiKeyRecord, Epoch
from engine.ports.trips import RoundTrips


def unflippable(target: int, checkpoints: list[tuple[str, bool]]) -> str | None:
    """Why a build holding these (source, finished) checkpoints may not be served, or None.

    A build is whole only when a finished checkpoint says so: a load killed before its first
    batch (or a build nothing was loaded into) holds none and would be served empty. A load
    of an empty file still leaves a finished checkpoint (cursor 0), so an organisation can
    be emptied on purpose."""
    unfinished = sorted(source for source, finished in checkpoints if not finished)
    if unfinished:
        return (
            f"the load of '{unfinished[0]}' into epoch {target} has not finished: "
            "resume it or discard the build"
        )
    if not checkpoints:
        return (
            f"no load into epoch {target} has finished: load it (an empty file is a load) "
            "or discard the build"
        )
    return None


class EpochControl(Protocol):
    """The projection-epoch lifecycle of one organisation (engine rules: build aside, flip,
    roll back, retire). Every transition is one compare-and-swap on the organisation's
    lifecycle record: of two concurrent transitions from the same state exactly one wins,
    the other gets EpochConflict and changes nothing. Epoch ids are allocated monotonically
    and never reused, so an abandoned epoch's data and checkpoints are never adopted."""

    async def serving(self) -> int:
        """The serving epoch's id, read from the store (not a cache)."""
        ...

    async def all(self) -> list[Epoch]:
        """Every epoch this organisation has had, oldest first (epoch 0 serves until a flip)."""
        ...

    async def begin_build(self) -> Epoch:
        """Allocate a new epoch in state building; the serving epoch is untouched.
        EpochConflict while another build is open or a flip's grace period runs."""
        ...

    async def building(self) -> Epoch | None: ...

    async def flip(self, target: int) -> Epoch:
        """Serve `target` (the open build, fully loaded); the old serving epoch enters its
        grace period. EpochConflict if `target` is not the open build, a load into it is
        unfinished, no load into it has finished (see `unflippable`), or another transition won."""
        ...

    async def rollback(self) -> Epoch:
        """During the grace period: serve the previous epoch again; the rolled-back one
        retires (rollback_abandoned). EpochConflict outside the grace period."""
        ...

    async def abort_build(self) -> Epoch:
        """Discard the open build (it retires, build_aborted); the serving epoch is untouched."""
        ...

    async def end_grace(self) -> Epoch | None:
        """Retire the epoch in grace now (no rollback after this); None if none is."""
        ...

    async def sweep(self, now_ns: int | None = None) -> list[int]:
        """Expire a grace period that ran out, then delete the data of retired epochs whose
        drain bound has passed, one deleter per epoch. Returns the epochs deleted."""
        ...


class KeyStore(Protocol):
    """API keys live in the graph store so that every gateway instance sees one set."""

    async def put_key(self, record: ApiKeyRecord) -> None: ...

    async def get_key(self, key_id: str) -> ApiKeyRecord | None: ...

    async def revoke_key(self, key_id: str) -> bool: ...

    async def list_keys(self, org_id: str | None = None) -> list[ApiKeyRecord]: ...

    async def secret(self, name: str) -> str:
        """A random secret under `name`, created once and shared by every instance."""
        ...


class GraphStore(Protocol):
    """A connection to one graph store, handing out organisation-scoped graphs."""

    round_trips: RoundTrips

    @property
    def changes(self) -> ChangeFeed:
        """Revisions and change events (engine/ports/changes.py)."""
        ...

    @property
    def documents(self) -> DocumentStore:
        """Persisted GraphQL documents."""
        ...

    @property
    def backend(self) -> str: ...

    @property
    def keys(self) -> KeyStore: ...

    def org(self, org_id: str, epoch: int = 0) -> OrgGraph:
        """One epoch's graph (default epoch 0, where an organisation that never rebuilt
        lives). Requests read `await serving(org_id)` instead."""
        ...

    async def serving(self, org_id: str) -> OrgGraph:
        """The graph of the organisation's serving epoch. The pointer is cached per process
        for a short time and dropped on a flip or rollback made here, so a request costs no
        extra round trip; an epoch stays readable for its drain bound after it stops
        serving, which covers what another instance's cache still points at."""
        ...

    def epochs(self, org_id: str) -> EpochControl: ...

    async def indexes_building(self, org_id: str) -> bool:
        """Whether the graph server is still building indexes of the organisation's serving
        graph (after a start, FalkorDB builds them in the background): its statements read
        without them meanwhile, correct but slower, and a request is given longer
        (gateway.endpoint). False where a store has no such time."""
        ...

    async def await_read_indexes(self, org_id: str) -> None:
        """Wait until the indexes the organisation's pages seek by are built (while
        `indexes_building`): FalkorDB builds them first and in seconds, where a lookup
        by key without them scans its label once per key. At once where nothing is
        built after a start."""
        ...

    async def bootstrap(self, org_id: str) -> None: ...

    async def ping(self) -> None: ...

    async def drop_org(self, org_id: str) -> None:
        """Delete everything an organisation has (administration and tests)."""
        ...

    async def close(self) -> None: ...
