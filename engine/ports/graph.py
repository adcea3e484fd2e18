"""The graph port: one organisation's graph, an async, batch-shaped, organisation-scoped
protocol, and the narrower roles the engine reads it through.

The engine and the GraphQL layer talk to these protocols only; graph/ implements them for
FalkorDB and Neo4j, and engine.memory implements them in plain Python for fast tests. Each
method takes many keys at once so that a dataloader level costs one round trip whatever the
size of the result. Adapters translate every driver exception into engine.ports.errors. The
writing half is engine/ports/writes.py; the store that hands these graphs out, with its
epochs and keys, is engine/ports/store.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from engine.domain.models import (
    Direction,
    Episode,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.ports.shapes import (
    Edge,
    EdgeRequest,
    EpisodeRequest,
    EvidenceRequest,
    Fingerprint,
    NeighborLevel,
    RecordPageRequest,
    SeriesBucket,
    SeriesRequest,
    SortKey,
    StoredResult,
    SubjectIdentity,
    SubjectPage,
    SubjectQuery,
    TimeSpan,
)
from engine.ports.writes import GraphWrites


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


class SubjectDirectory(Protocol):
    """What resolution reads: subjects by key, id, name and search."""

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]: ...

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]: ...

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]: ...

    async def subjects_by_handle(
        self, text: str, kinds: Sequence[SubjectKind] = (), limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        """Subjects with a handle (name, alias, previous name, identifying attribute) equal to
        `text` once folded by engine.domain.text.normalise, or equal to it followed by a word naming
        the subject's kind: the first `limit` by key, and how many there are in all."""
        ...

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


class FactSource(Protocol):
    """What fact providers read: source records and relationships of subjects, and the
    subjects those name (a change's author, by key)."""

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]: ...

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]: ...

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]: ...


class OrgGraph(SubjectDirectory, FactSource, GraphWrites, Protocol):
    """The graph of one organisation. Every statement is scoped by its `org_id`.

    The engine reads it through the narrower roles above (resolution a `SubjectDirectory`,
    providers a `FactSource`), so a test double need only provide what it is asked. Its
    writes, which ingest makes, are `GraphWrites` (engine/ports/writes.py)."""

    @property
    def org_id(self) -> str: ...

    @property
    def epoch(self) -> int:
        """The projection epoch every read and write of this graph goes to (fixed for the
        object's life: a request that started on an epoch finishes on it)."""
        ...

    @property
    def results(self) -> ResultStore:
        """Investigation results, stored whole and immutable."""
        ...

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage: ...

    async def count_subjects(self, query: SubjectQuery) -> int: ...

    async def reembed(self, progress: Callable[[int], None] | None = None) -> int:
        """Rebuild every subject's vector with the configured embedder; the vector arm is
        off until it finishes."""
        ...

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        """Each request's page of edges, in request order, in one round trip."""
        ...

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        """The subject at the other end of each edge `edges` would return (same order, same
        page; a subject reached by several edges appears once per edge)."""
        ...

    async def neighbor_levels(
        self, keys: Sequence[str], levels: Sequence[NeighborLevel]
    ) -> list[dict[str, list[StoredSubject | SubjectIdentity]]]:
        """Every level of a tree of neighbours under `keys`, in one round trip: for each
        level, in `preorder` numbering, its anchors' pages of other ends by anchor key (the
        page `neighbors` reads; an anchor with none may be left out), a brief level's as
        SubjectIdentity. A top level is anchored on `keys`, any other on the distinct other
        ends of its parent's pages."""
        ...

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]: ...

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        """Relationships by (start subject key, relationship id); `other` is the end."""
        ...

    async def episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]: ...

    async def active_subjects(
        self,
        kinds: Sequence[SourceRecordKind],
        span: TimeSpan,
        limit: int,
        subject_kinds: Sequence[SubjectKind] = (),
    ) -> list[tuple[str, int]]:
        """Subject keys with the most source records of `kinds` starting within `span`; with
        `subject_kinds`, only subjects of those kinds (chosen before the limit is applied)."""
        ...

    async def episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]: ...

    async def episodes_of(
        self, keys: Sequence[str], *, span: TimeSpan | None = None, limit_per_subject: int = 100
    ) -> dict[str, list[Episode]]: ...

    async def episodes_by_keys(self, keys: Sequence[str]) -> dict[str, Episode]: ...

    async def source_records_by_keys(self, keys: Sequence[str]) -> dict[str, SourceRecord]: ...

    async def source_record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        """One page per request, in one round trip: a page costs what it holds to answer,
        not every record of the window."""
        ...

    async def evidence_pages(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        """One page of a fact's records per request, by key, chosen in the store by the
        fact's own rule (engine/domain/evidence.py): only the page leaves it."""
        ...

    async def evidence_counts(self, requests: Sequence[EvidenceRequest]) -> list[int]:
        """How many records each request's rule chooses (every page together)."""
        ...

    async def series(self, requests: Sequence[SeriesRequest]) -> list[list[SeriesBucket]]:
        """Each request's non-empty buckets, oldest first, added up in the store: a chart
        reads one row per bucket, not every record of its window."""
        ...

    async def counts(self) -> Mapping[str, int]: ...

    async def record_kinds(self) -> frozenset[SourceRecordKind]:
        """The kinds of source records the organisation holds any of, at any time: what it
        can be asked about at all (a git import holds commits and rollups, no releases)."""
        ...

    async def fingerprint(self) -> Fingerprint:
        """Counts and a digest of the organisation's content, equal for two loads of the same
        input whatever organisation or run (graph.fingerprint). Reads everything."""
        ...
