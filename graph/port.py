"""The graph port: an async, batch-shaped, organisation-scoped protocol and its errors.

Everything above `graph/` talks to this module only. Each method takes many keys at once so
that a dataloader level costs one round trip whatever the size of the result. Adapters
translate every driver exception into the errors below (`raise ... from exc`).
"""

from __future__ import annotations

import contextvars
import enum
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.models import (
    Direction,
    Episode,
    Relationship,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    Subject,
    SubjectKind,
    Tombstone,
)
from graph.fingerprint import Fingerprint

ORG_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class GraphError(Exception):
    """Base of the port's errors. Messages are for logs, never for clients."""

    code = "GRAPH_ERROR"


class GraphUnavailable(GraphError):
    """The store cannot be reached (down, restarting, connection lost)."""

    code = "GRAPH_UNAVAILABLE"


class GraphQueryError(GraphError):
    """The store refused a statement."""

    code = "GRAPH_QUERY_ERROR"


class GraphTimeout(GraphError):
    code = "TIMEOUT"


class InvalidOrganisation(GraphError, ValueError):
    code = "BAD_USER_INPUT"


class UnrepresentableValue(GraphError, ValueError):
    """A parameter the store would misread: a string with a NUL (FalkorDB fails to parse the
    whole statement) or an integer beyond 64 bits (FalkorDB silently clamps it). Inputs are
    validated before they get here; this is the last line, so nothing is stored altered."""

    code = "BAD_USER_INPUT"


def check_org(org_id: str) -> str:
    if not ORG_PATTERN.match(org_id):
        raise InvalidOrganisation("organisation ids are 1-64 of [A-Za-z0-9_.-]")
    return org_id


# --- round trips ---------------------------------------------------------------------------

_request_trips: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "graph_round_trips", default=None
)


@dataclass
class RoundTrips:
    """Counts statements sent. `total` is process-wide; `track()` scopes a count to a task."""

    total: int = 0

    def add(self) -> None:
        self.total += 1
        box = _request_trips.get()
        if box is not None:
            box[0] += 1

    @staticmethod
    def track() -> list[int]:
        """Start counting the round trips of the current context (request); returns the box."""
        box = [0]
        _request_trips.set(box)
        return box


# --- query shapes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A closed query interval in epoch nanoseconds; a point in time is (T, T)."""

    start_ns: int
    end_ns: int

    @classmethod
    def point(cls, at_ns: int) -> TimeSpan:
        return cls(at_ns, at_ns)


class SubjectOrder(enum.StrEnum):
    KEY = "key"
    NAME = "name"
    # Latest source-record activity at or before the query time, newest first.
    RECENT = "recent"


@dataclass(frozen=True, slots=True)
class SubjectQuery:
    kinds: tuple[SubjectKind, ...] = ()
    name_prefix: str | None = None
    # Text found in the search text (name, aliases, previous names), case and punctuation aside.
    search: str | None = None
    # Flat attribute equality filters, compared on their JSON encoding.
    attributes: tuple[tuple[str, str | int | float | bool], ...] = ()
    at: TimeSpan | None = None
    order: SubjectOrder = SubjectOrder.KEY
    include_stubs: bool = False
    # Identity only (key, id, kind, name): for readers that need nothing else, it spares the
    # store and the parser most of each row.
    brief: bool = False


SortKey = tuple[str | int, str]


@dataclass(frozen=True, slots=True)
class SubjectPage:
    items: list[StoredSubject]
    has_next: bool
    # The keyset position of each item, to continue after it.
    positions: list[SortKey] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Edge:
    """A relationship seen from one subject: the subject at its other end, and which way."""

    relationship: Relationship
    other: StoredSubject
    outgoing: bool

    @property
    def other_key(self) -> str:
        return self.other.key

    @property
    def position(self) -> tuple[str, str, str]:
        return (self.relationship.type.value, self.other.key, self.relationship.rel_id)


@dataclass(frozen=True, slots=True)
class EdgeRequest:
    """One subject's relationships: types (empty: all), direction, time, page."""

    key: str
    types: tuple[RelationshipType, ...] = ()
    direction: Direction = Direction.BOTH
    at: TimeSpan | None = None
    limit: int = 100
    after: tuple[str, str, str] | None = None
    # The other end's identity only (key, id, kind, name); see SubjectQuery.brief.
    brief: bool = False


@dataclass(frozen=True, slots=True)
class EpisodeRequest:
    """One subject's episodes, newest first, within an optional closed time span."""

    key: str
    span: TimeSpan | None = None
    limit: int = 100
    after: tuple[int, str] | None = None


@dataclass(frozen=True, slots=True)
class Checkpoint:
    source: str
    cursor: int
    digest: str
    run_id: str
    # A finished load is not resumed: running the same input again re-reads (and re-reports)
    # all of it, which the MERGE writes make harmless.
    finished: bool = False


@dataclass
class WriteBatch:
    """One batch of validated elements, written in the order given by `runs()`."""

    source: str
    run_id: str
    elements: list[Subject | Relationship | Episode | SourceRecord | Tombstone] = field(
        default_factory=list
    )
    # Subject keys this load already wrote (shared across its batches and kept up to date by
    # the writer): references to them need no stub, which saves a statement per batch.
    written: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class StoredResult:
    id: str
    payload: str
    created_ns: int = 0


class ResultStore(Protocol):
    """An organisation's investigation results (see graph.results)."""

    async def save(
        self,
        result_id: str,
        payload: str,
        *,
        created_ns: int,
        subject_keys: Sequence[str],
        reuse_key: str | None,
        outcome: str,
    ) -> bool: ...

    async def by_ids(self, ids: Sequence[str]) -> dict[str, str]: ...

    async def page(
        self, first: int, after: tuple[int, str] | None = None, subject_key: str | None = None
    ) -> list[StoredResult]: ...

    async def reusable(self, reuse_key: str, since_ns: int) -> StoredResult | None: ...

    async def projection_epoch(self) -> int | None: ...

    async def touch_projection_epoch(self, changed_ns: int) -> None: ...


class OrgGraph(Protocol):
    """The graph of one organisation. Every statement is scoped by its `org_id`."""

    @property
    def org_id(self) -> str: ...

    @property
    def results(self) -> ResultStore:
        """Investigation results, stored whole and immutable."""
        ...

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]: ...

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]: ...

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage: ...

    async def count_subjects(self, query: SubjectQuery) -> int: ...

    async def subjects_by_exact_name(
        self, name: str, kind: SubjectKind | None = None, limit: int = 10
    ) -> tuple[list[StoredSubject], int]: ...

    async def reembed(self, progress: Callable[[int], None] | None = None) -> int:
        """Rebuild every subject's vector with the configured embedder; the vector arm is
        off until it finishes."""
        ...

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]: ...

    async def search_lexical(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> list[tuple[StoredSubject, float]]:
        """The best `limit` full-text matches of any token (typos forgiven), best first."""
        ...

    async def search_all_tokens(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> tuple[list[tuple[StoredSubject, float]], bool]:
        """Subjects containing every token as written (up to `limit`), and True when that is
        all of them: an identical handle can only be among these."""
        ...

    async def search_similar(
        self, text: str, kinds: Sequence[SubjectKind], limit: int, floor: float
    ) -> list[tuple[StoredSubject, float]] | None:
        """k-NN hits with cosine similarity >= floor, best first; None when the vector arm is
        off for this organisation (no embedder, no vectors yet, or another embedder's)."""
        ...

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        """Each request's page of edges, in request order, in one round trip."""
        ...

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        """The subject at the other end of each edge `edges` would return (same order, same
        page; a subject reached by several edges appears once per edge)."""
        ...

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]: ...

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        """Relationships by (start subject key, relationship id); `other` is the end."""
        ...

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]: ...

    async def episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]: ...

    async def active_subjects(
        self, kinds: Sequence[SourceRecordKind], span: TimeSpan, limit: int
    ) -> list[tuple[str, int]]:
        """Subject keys with the most source records of `kinds` starting within `span`."""
        ...

    async def episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]: ...

    async def episodes_of(
        self, keys: Sequence[str], *, span: TimeSpan | None = None, limit_per_subject: int = 100
    ) -> dict[str, list[Episode]]: ...

    async def episodes_by_keys(self, keys: Sequence[str]) -> dict[str, Episode]: ...

    async def source_records_by_keys(self, keys: Sequence[str]) -> dict[str, SourceRecord]: ...

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]: ...

    async def write(self, batch: WriteBatch) -> None: ...

    async def checkpoint(self, source: str) -> Checkpoint | None: ...

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None: ...

    async def delete_unseen(self, source: str, run_id: str) -> int: ...

    async def counts(self) -> Mapping[str, int]: ...

    async def fingerprint(self) -> Fingerprint:
        """Counts and a digest of the organisation's content, equal for two loads of the same
        input whatever organisation or run (graph.fingerprint). Reads everything."""
        ...


@dataclass(frozen=True, slots=True)
class ApiKeyRecord:
    key_id: str
    secret_hash: str
    org_id: str
    actor: str
    scopes: tuple[str, ...]
    revoked: bool


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
    def backend(self) -> str: ...

    @property
    def keys(self) -> KeyStore: ...

    def org(self, org_id: str) -> OrgGraph: ...

    async def bootstrap(self, org_id: str) -> None: ...

    async def ping(self) -> None: ...

    async def drop_org(self, org_id: str) -> None:
        """Delete everything an organisation has (administration and tests)."""
        ...

    async def close(self) -> None: ...
