"""The organisation-scoped graph, written once over any Cypher executor.

Adapters differ only in how a statement reaches the store (`Executor`, graph.executor) and in
their dialect; everything the port promises (batching, time admission, tenancy) is
implemented by `ScopedGraph` and the parts it is made of, one per concept, each reading or
writing through the same scope-bound executor: subject reads (graph.subjects), the
neighbourhood of subjects (graph.neighbourhood), episodes and source records as read
(graph.timeline), writes (graph.writer), search (graph.search), results (graph.results),
most-recently-active pages (graph.activity) and counts of what is stored (graph.inventory).
ScopedGraph itself is the port's one surface: each method says which part serves it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.domain.models import (
    Direction,
    Episode,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.ports import (
    Checkpoint,
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
    SubjectIdentity,
    SubjectPage,
    SubjectQuery,
    TimeSpan,
    WriteBatch,
)
from engine.ports.changes import ChangeFeed
from graph import activity
from graph.cypher import checkpoints as checkpoints_cypher
from graph.dialect import Dialect
from graph.epochs import scope_of
from graph.executor import Executor, Row
from graph.fingerprint import fingerprint
from graph.inventory import Inventory
from graph.neighbourhood import Neighbourhood
from graph.results import ResultArchive
from graph.search import IndexReady, SearchArms
from graph.subjects import SubjectReads
from graph.timeline import Timeline
from graph.writer import Writer

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder


class ScopedGraph:
    """`OrgGraph` over an executor bound to one organisation.

    org_id: the organisation (subject ids derive from it; results are kept under it).
    executor: sends statements to the backend (and translates its errors).
    dialect: the backend's search procedures and vector handling.
    embedder: makes the vectors of the vector arm (None: lexical search only).
    changes: told of every write once it is in (None: nobody listens, as in some tests).
    exact_limit: overrides the dialect's organisation size for exact vector search.
    epoch: the projection epoch this graph reads and writes; its data is scoped by
        `graph.epochs.scope_of(org_id, epoch)` (the organisation id itself for epoch 0).
    results_executor: where the organisation's investigation results live (they outlive
        every epoch); default `executor`.
    index_gate: awaited with a label before a search of its index (graph.falkor_ready: an
        index still being built answers a search with nothing); None: always built.
    """

    def __init__(
        self,
        org_id: str,
        executor: Executor,
        dialect: Dialect,
        embedder: Embedder | None = None,
        changes: ChangeFeed | None = None,
        exact_limit: int | None = None,
        *,
        epoch: int = 0,
        results_executor: Executor | None = None,
        index_gate: IndexReady | None = None,
    ) -> None:
        self._org = org_id
        self._epoch = epoch
        self._scope = scope_of(org_id, epoch)
        self._x = executor
        self.search = SearchArms(
            self._scope, executor, dialect, embedder, exact_limit, index_gate
        )
        # The organisation's own scope (results, the epoch lifecycle): outlives every epoch.
        self.results_executor = results_executor or executor
        self.results = ResultArchive(org_id, self.results_executor, changes)
        self.activity = activity.ActivityPages(self._read)
        self._subjects = SubjectReads(self._read, self.activity)
        self._neighbourhood = Neighbourhood(self._read)
        self._timeline = Timeline(self._read)
        self._inventory = Inventory(self._read)
        self._writer = Writer(
            org_id, self._scope, executor, dialect, changes, self.search, self._read, self._write
        )

    @property
    def org_id(self) -> str:
        return self._org

    @property
    def epoch(self) -> int:
        return self._epoch

    async def _read(self, statement: str, **params: Any) -> list[Row]:
        return await self._x.run(statement, {"org": self._scope, **params})

    async def _write(self, statement: str, **params: Any) -> list[Row]:
        return await self._x.run(statement, {"org": self._scope, **params}, write=True)

    # --- subjects ---------------------------------------------------------------------------

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]:
        return await self._subjects.subjects_by_keys(keys, at)

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]:
        return await self._subjects.subjects_by_ids(ids)

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage:
        return await self._subjects.find_subjects(query, first, after)

    async def count_subjects(self, query: SubjectQuery) -> int:
        return await self._subjects.count_subjects(query)

    async def reembed(self, progress: Callable[[int], None] | None = None) -> int:
        """Rebuild every subject's vector (and the vector index) with the store's embedder."""
        return await self.search.reembed(progress)

    async def search_lexical(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> list[tuple[StoredSubject, float]]:
        return await self.search.lexical(text, kinds, limit)

    async def search_all_tokens(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> tuple[list[tuple[StoredSubject, float]], bool]:
        return await self.search.all_tokens(text, kinds, limit)

    async def search_similar(
        self, text: str, kinds: Sequence[SubjectKind], limit: int, floor: float
    ) -> list[tuple[StoredSubject, float]] | None:
        return await self.search.similar(text, kinds, limit, floor)

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return await self._subjects.subjects_by_id_prefix(prefix, limit)

    async def subjects_by_handle(
        self, text: str, kinds: Sequence[SubjectKind] = (), limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return await self.search.by_handle(text, kinds, limit)

    # --- neighbourhood ----------------------------------------------------------------------

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        return await self._neighbourhood.edges(requests)

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        return await self._neighbourhood.neighbors(requests)

    async def neighbor_levels(
        self, keys: Sequence[str], levels: Sequence[NeighborLevel]
    ) -> list[dict[str, list[StoredSubject | SubjectIdentity]]]:
        return await self._neighbourhood.neighbor_levels(keys, levels)

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]:
        return await self._neighbourhood.edge_counts(requests)

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        return await self._neighbourhood.edges_by_id(ids)

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]:
        return await self._neighbourhood.relationships_of(
            keys, types=types, direction=direction, at=at, limit_per_subject=limit_per_subject
        )

    async def active_subjects(
        self,
        kinds: Sequence[SourceRecordKind],
        span: TimeSpan,
        limit: int,
        subject_kinds: Sequence[SubjectKind] = (),
    ) -> list[tuple[str, int]]:
        return await self._timeline.active_subjects(kinds, span, limit, subject_kinds)

    async def episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]:
        return await self._timeline.episodes(requests)

    async def episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]:
        return await self._timeline.episode_counts(requests)

    async def episodes_of(
        self, keys: Sequence[str], *, span: TimeSpan | None = None, limit_per_subject: int = 100
    ) -> dict[str, list[Episode]]:
        return await self._timeline.episodes_of(
            keys, span=span, limit_per_subject=limit_per_subject
        )

    async def episodes_by_keys(self, keys: Sequence[str]) -> dict[str, Episode]:
        return await self._timeline.episodes_by_keys(keys)

    async def source_records_by_keys(self, keys: Sequence[str]) -> dict[str, SourceRecord]:
        return await self._timeline.source_records_by_keys(keys)

    async def source_record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        return await self._timeline.source_record_pages(requests)

    async def evidence_pages(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        return await self._timeline.evidence_pages(requests)

    async def evidence_counts(self, requests: Sequence[EvidenceRequest]) -> list[int]:
        return await self._timeline.evidence_counts(requests)

    async def series(self, requests: Sequence[SeriesRequest]) -> list[list[SeriesBucket]]:
        return await self._timeline.series(requests)

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]:
        return await self._timeline.source_records_of(keys, kinds=kinds, span=span)

    # --- writes -----------------------------------------------------------------------------

    async def write(self, batch: WriteBatch) -> None:
        await self._writer.write(batch)

    async def prepare_write(self, batch: WriteBatch) -> None:
        await self._writer.prepare_write(batch)

    def rows_ahead(self, batch: WriteBatch) -> None:
        self._writer.rows_ahead(batch)  # graph.projection.RowsAhead

    async def delete_unseen(self, source: str, run_id: str) -> int:
        return await self._writer.delete_unseen(source, run_id)

    async def activity_summary(self) -> tuple[dict[str, int], dict[tuple[str, int], int]]:
        """The activity structures as stored (graph.inventory)."""
        return await self._inventory.activity_summary()

    # --- checkpoints and counts -------------------------------------------------------------

    async def checkpoint(self, source: str) -> Checkpoint | None:
        found = await self._read(checkpoints_cypher.GET_CHECKPOINT, source=source)
        if not found:
            return None
        cursor, digest, run_id, finished = found[0]
        return Checkpoint(source, int(cursor), digest, run_id, bool(finished))

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None:
        await self._write(
            checkpoints_cypher.SAVE_CHECKPOINT,
            source=checkpoint.source,
            cursor=checkpoint.cursor,
            digest=checkpoint.digest,
            run=checkpoint.run_id,
            finished=checkpoint.finished,
        )

    async def fingerprint(self) -> Fingerprint:
        """Counts and a content digest of this organisation's graph (graph.fingerprint)."""
        return await fingerprint(self._read, self._org)

    async def record_kinds(self) -> frozenset[SourceRecordKind]:
        """The kinds of source records stored (graph.inventory)."""
        return await self._inventory.record_kinds()

    async def counts(self) -> Mapping[str, int]:
        """Elements per label and relationship type (graph.inventory)."""
        return await self._inventory.counts()
