"""`OrgGraph` in plain Python: one organisation's graph, held in dictionaries.

Each method does what its Cypher counterpart (graph/scoped.py and its parts, graph/cypher/)
does, read straight off the port's contract, and counts one round trip for each statement-
shaped call so tests of batching can run on it too. It is the port's one surface, each
method delegating to the part that holds its concept: subjects (engine.memory.subjects),
search, the neighbourhood and what is read of records, episodes and evidence (relations),
writes, and what is held, counted and digested (content).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from engine.domain.models import (
    Direction,
    Episode,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.memory import content, relations, search, subjects, writes
from engine.memory.results import MemoryResults
from engine.ports import (
    Checkpoint,
    Edge,
    EdgeRequest,
    EpisodeRequest,
    EvidenceRequest,
    Fingerprint,
    NeighborLevel,
    RecordPageRequest,
    RoundTrips,
    SeriesBucket,
    SeriesRequest,
    SortKey,
    SubjectIdentity,
    SubjectPage,
    SubjectQuery,
    TimeSpan,
    WriteBatch,
)
from engine.ports.changes import Change, ChangeFeed, ChangeKind, batch_change

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder
    from engine.memory.data import OrgData

Hit = tuple[StoredSubject, float]


class MemoryGraph:
    def __init__(
        self,
        org_id: str,
        data: Callable[[], OrgData],
        round_trips: RoundTrips,
        embedder: Embedder | None,
        changes: ChangeFeed | None = None,
        *,
        epoch: int = 0,
        home: Callable[[], OrgData] | None = None,
    ) -> None:
        self._org = org_id
        self._epoch = epoch
        self._data = data  # the store's current data for this epoch (drop_org resets it)
        self._home = home or data  # epoch 0's, where results live across epochs
        self._trips = round_trips
        self.embedder = embedder
        self._changes = changes  # told of every write once it is in

    @property
    def org_id(self) -> str:
        return self._org

    @property
    def epoch(self) -> int:
        return self._epoch

    @property
    def results(self) -> MemoryResults:
        return MemoryResults(self._org, self._home().results, self._trips, self._changes)

    def _read(self) -> OrgData:
        self._trips.add()
        return self._data()

    # --- subjects ---------------------------------------------------------------------------

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]:
        return subjects.by_keys(self._read(), keys, at) if keys else {}

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]:
        return subjects.by_ids(self._read(), ids) if ids else {}

    async def subjects_by_id_prefix(
        self, prefix: str, limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return subjects.by_id_prefix(self._read(), prefix, limit)

    async def subjects_by_handle(
        self, text: str, kinds: Sequence[SubjectKind] = (), limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return subjects.by_handle(self._read(), text, kinds, limit)

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage:
        return subjects.find(self._read(), query, first, after)

    async def count_subjects(self, query: SubjectQuery) -> int:
        return subjects.count(self._read(), query)

    async def search_lexical(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> list[Hit]:
        return search.lexical(self._read(), text, kinds, limit)

    async def search_all_tokens(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> tuple[list[Hit], bool]:
        return search.all_tokens(self._read(), text, kinds, limit)

    async def search_similar(
        self, text: str, kinds: Sequence[SubjectKind], limit: int, floor: float
    ) -> list[Hit] | None:
        return await search.similar(self._read(), self.embedder, text, kinds, limit, floor)

    async def reembed(self, progress: Callable[[int], None] | None = None) -> int:
        return await search.reembed(self._read(), self.embedder, progress)

    # --- neighbourhood ----------------------------------------------------------------------

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        if not requests:
            return []
        data = self._read()
        return [relations.edges(data, r) for r in requests]

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        return [[e.other for e in page] for page in await self.edges(requests)]

    async def neighbor_levels(
        self, keys: Sequence[str], levels: Sequence[NeighborLevel]
    ) -> list[dict[str, list[StoredSubject | SubjectIdentity]]]:
        return relations.neighbor_levels(self._read(), keys, levels)

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]:
        if not requests:
            return []
        data = self._read()
        return [len(relations.edges(data, r, paged=False)) for r in requests]

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        return relations.edges_by_id(self._read(), ids) if ids else {}

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]:
        unique = list(dict.fromkeys(keys))
        requests = [
            EdgeRequest(k, tuple(types), Direction(direction), at, limit_per_subject)
            for k in unique
        ]
        return dict(zip(unique, await self.edges(requests), strict=True))

    async def episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]:
        if not requests:
            return []
        data = self._read()
        return [relations.episodes(data, r) for r in requests]

    async def episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]:
        if not requests:
            return []
        data = self._read()
        return [len(relations.episodes(data, r, paged=False)) for r in requests]

    async def episodes_of(
        self, keys: Sequence[str], *, span: TimeSpan | None = None, limit_per_subject: int = 100
    ) -> dict[str, list[Episode]]:
        unique = list(dict.fromkeys(keys))
        requests = [EpisodeRequest(k, span, limit_per_subject) for k in unique]
        return dict(zip(unique, await self.episodes(requests), strict=True))

    async def episodes_by_keys(self, keys: Sequence[str]) -> dict[str, Episode]:
        if not keys:
            return {}
        data = self._read()
        return {k: data.episodes[k][0] for k in dict.fromkeys(keys) if k in data.episodes}

    async def source_records_by_keys(self, keys: Sequence[str]) -> dict[str, SourceRecord]:
        if not keys:
            return {}
        data = self._read()
        return {k: data.records[k][0] for k in dict.fromkeys(keys) if k in data.records}

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]:
        return relations.source_records_of(self._read(), keys, kinds, span) if keys else {}

    async def source_record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        if not requests:
            return []
        data = self._read()
        return [relations.source_record_page(data, r) for r in requests]

    async def evidence_pages(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        if not requests:
            return []
        data = self._read()
        return [relations.evidence_page(data, r) for r in requests]

    async def evidence_counts(self, requests: Sequence[EvidenceRequest]) -> list[int]:
        if not requests:
            return []
        data = self._read()
        return [len(relations.evidence(data, r)) for r in requests]

    async def series(self, requests: Sequence[SeriesRequest]) -> list[list[SeriesBucket]]:
        if not requests:
            return []
        data = self._read()
        return [relations.series(data, r) for r in requests]

    async def active_subjects(
        self,
        kinds: Sequence[SourceRecordKind],
        span: TimeSpan,
        limit: int,
        subject_kinds: Sequence[SubjectKind] = (),
    ) -> list[tuple[str, int]]:
        if not kinds:
            return []
        return relations.active_subjects(self._read(), kinds, span, limit, subject_kinds)

    # --- writes -----------------------------------------------------------------------------

    async def write(self, batch: WriteBatch) -> None:
        await writes.write_batch(self._data(), self._org, batch, self.embedder, self._trips)
        if self._changes is not None and batch.elements:
            await self._changes.publish(batch_change(self._org, batch))

    async def delete_unseen(self, source: str, run_id: str) -> int:
        self._trips.add()
        deleted = writes.delete_unseen(self._data(), source, run_id)
        if deleted and self._changes is not None:  # no event names what went: readers resync
            await self._changes.publish(Change(org_id=self._org, kind=ChangeKind.RESET))
        return deleted

    async def checkpoint(self, source: str) -> Checkpoint | None:
        return self._read().checkpoints.get(source)

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None:
        self._read().checkpoints[checkpoint.source] = checkpoint

    async def counts(self) -> Mapping[str, int]:
        return content.counts(self._read())

    async def record_kinds(self) -> frozenset[SourceRecordKind]:
        return frozenset(record.record_kind for record, _ in self._read().records.values())

    async def fingerprint(self) -> Fingerprint:
        return content.fingerprint(self._read(), self._org)
