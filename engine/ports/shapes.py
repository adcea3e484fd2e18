"""The shapes of the graph port's questions and answers: spans, queries, pages, edges, batches.

Plain frozen values, so that the engine, the GraphQL layer and every adapter agree on them
without importing one another.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.domain.evidence import EvidenceRequest as EvidenceRequest
from engine.domain.models import (
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
from engine.domain.windows import TimeSpan as TimeSpan


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


class SubjectIdentity(NamedTuple):
    """A subject's identity alone: what a brief neighbour read answers where the reader
    selects nothing else (a GraphQL `id` is made from the key). A tuple, not a StoredSubject:
    a dashboard page reads hundreds of neighbours, and building a model for each cost more
    than reading it."""

    key: str
    kind: SubjectKind
    name: str


@dataclass(frozen=True, slots=True)
class NeighborLevel:
    """A level of neighbours in a tree read at once (OrgGraph.neighbor_levels): each anchor's
    page of other ends, as `neighbors` reads it for EdgeRequest(anchor, types, direction, at,
    limit, brief=brief), and the levels under them, anchored on the distinct other ends of
    this level's pages."""

    types: tuple[RelationshipType, ...] = ()
    direction: Direction = Direction.BOTH
    at: TimeSpan | None = None
    limit: int = 100
    brief: bool = False
    under: tuple[NeighborLevel, ...] = ()


def preorder(levels: Sequence[NeighborLevel]) -> list[tuple[NeighborLevel, int]]:
    """The levels of a tree, each before the levels under it, with its parent's position in
    this list (-1: anchored on the keys asked): the numbering neighbor_levels answers in."""
    found: list[tuple[NeighborLevel, int]] = []

    def walk(items: Sequence[NeighborLevel], parent: int) -> None:
        for level in items:
            found.append((level, parent))
            walk(level.under, len(found) - 1)

    walk(levels, -1)
    return found


@dataclass(frozen=True, slots=True)
class EpisodeRequest:
    """One subject's episodes, newest first, within an optional closed time span."""

    key: str
    span: TimeSpan | None = None
    limit: int = 100
    after: tuple[int, str] | None = None


@dataclass(frozen=True, slots=True)
class SeriesRequest:
    """A subject's records of `kind` counted (or, with `metric`, their values summed) per
    bucket: each record counts at its start (its end when `at_end`; none without one), when
    that instant lies in the closed `span`, in the bucket [offset_ns + k * width_ns, +width_ns)
    holding it. Only records with one of `statuses` (any when empty) and, with `metric`, only
    rollups of that metric count."""

    key: str
    kind: SourceRecordKind
    span: TimeSpan
    width_ns: int
    offset_ns: int = 0
    at_end: bool = False
    statuses: tuple[str, ...] = ()
    metric: str | None = None


# A bucket of a series: (its start in ns, what it adds up, how many records fell in it).
SeriesBucket = tuple[int, float, int]


@dataclass(frozen=True, slots=True)
class RecordPageRequest:
    """One page of a subject's source records, oldest first (then by key): those of `kinds`
    (all when empty) whose closed interval [start, end] meets `span` (an open record lasts),
    after the position `after` = (start_ns, key) of the previous page's last record."""

    key: str
    kinds: tuple[SourceRecordKind, ...] = ()
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
    """One batch of validated elements, written in their order, a run of same-typed elements
    at a time (engine/ports/writes.py)."""

    source: str
    run_id: str
    elements: list[Subject | Relationship | Episode | SourceRecord | Tombstone] = field(
        default_factory=list
    )
    # Subject keys this load already wrote (shared across its batches and kept up to date by
    # the writer): references to them need no stub, which saves a statement per batch.
    written: set[str] = field(default_factory=set)
    # Part of a complete snapshot's run (its cleanup deletes what has another run id): an
    # element a graph leaves unwritten because it holds it unchanged still gets the run id.
    complete: bool = False
    # Elements the graph held as they are and so did not write (a re-ingest's), set by the
    # graph's write (or `prepare_write`); a graph that writes everything leaves it 0.
    unchanged: int = 0
    # What a graph's `prepare_write` made of the batch ahead of its write (its statements,
    # ready to send); opaque to everyone else, and ignored by a graph that did not make it.
    prepared: object | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class StoredResult:
    id: str
    payload: str
    created_ns: int = 0


@dataclass(frozen=True, slots=True)
class ApiKeyRecord:
    key_id: str
    secret_hash: str
    org_id: str
    actor: str
    scopes: tuple[str, ...]
    revoked: bool


@dataclass(frozen=True)
class Fingerprint:
    """nodes: count per label; relationships: count per type; duplicates: elements that
    share their identity with another (always 0 after a correct load); digest: sha256.
    How it is computed is the adapters' business (graph.fingerprint)."""

    nodes: Mapping[str, int]
    relationships: Mapping[str, int]
    duplicates: int
    digest: str


class EpochState(enum.StrEnum):
    """Where a projection epoch is in its life. Exactly one epoch of an organisation serves;
    at most one builds; the one a flip replaced waits in grace (a rollback target) until it
    retires. A retired epoch's data is deleted once its drain bound has passed."""

    SERVING = "serving"
    BUILDING = "building"
    GRACE = "grace"
    RETIRED = "retired"


class RetireReason(enum.StrEnum):
    """Why an epoch retired: each epoch has exactly one path to deletion."""

    GRACE_EXPIRED = "grace_expired"  # its grace period ran out
    GRACE_ENDED = "grace_ended"  # an operator ended the grace period early
    ROLLBACK_ABANDONED = "rollback_abandoned"  # it was serving and was rolled back
    BUILD_ABORTED = "build_aborted"  # its build was discarded before any flip


@dataclass(frozen=True, slots=True)
class Epoch:
    """One projection epoch of an organisation. Times are epoch nanoseconds.

    deleted_ns: when its data was deleted (retired epochs only; None while it drains)."""

    id: int
    state: EpochState
    created_ns: int | None = None
    changed_ns: int | None = None
    reason: RetireReason | None = None
    retired_ns: int | None = None
    deleted_ns: int | None = None


@dataclass(frozen=True)
class EpochTimings:
    """grace_s: how long a replaced epoch stays a rollback target.
    drain_s: how long a retired epoch stays readable before its data may be deleted: at
        least the serving-pointer cache TTL plus the longest request, so that nothing still
        pinned to it (a request in flight, another instance's cache) reads a deleted graph.
    lease_s: how long a deleter's claim on an epoch holds before another may take over."""

    grace_s: float = 86_400.0
    drain_s: float = 120.0
    lease_s: float = 600.0
