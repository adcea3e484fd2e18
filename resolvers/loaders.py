"""Per-request dataloaders: every nested field that reads the graph goes through one.

Each loader gathers the keys a resolver level asks for in one event-loop tick and answers
them with one graph round trip, so the number of round trips follows the depth of the query,
not the size of its result. Keys include the time the read is about (the as-of time).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from aiodataloader import DataLoader

from engine.domain.models import Episode, SourceRecord, StoredSubject
from engine.ports import (
    Edge,
    EdgeRequest,
    EpisodeRequest,
    EvidenceRequest,
    OrgGraph,
    RecordPageRequest,
    SeriesBucket,
    SeriesRequest,
    TimeSpan,
)


@dataclass(frozen=True, slots=True)
class SubjectKey:
    key: str
    at: TimeSpan | None


class Loaders:
    """The loaders of one request, over that request's organisation graph."""

    def __init__(self, graph: OrgGraph) -> None:
        self.graph = graph
        self.subjects = DataLoader[SubjectKey, StoredSubject | None](self._subjects)
        self.subjects_by_id = DataLoader[str, StoredSubject | None](self._subjects_by_id)
        self.edges = DataLoader[EdgeRequest, list[Edge]](self._edges)
        self.neighbors = DataLoader[EdgeRequest, list[StoredSubject]](self._neighbors)
        self.edge_counts = DataLoader[EdgeRequest, int](self._edge_counts)
        self.edges_by_id = DataLoader[tuple[str, str], Edge | None](self._edges_by_id)
        self.episodes = DataLoader[EpisodeRequest, list[Episode]](self._episodes)
        self.episode_counts = DataLoader[EpisodeRequest, int](self._episode_counts)
        self.episodes_by_key = DataLoader[str, Episode | None](self._episodes_by_key)
        self.record_pages = DataLoader[RecordPageRequest, list[SourceRecord]](self._record_pages)
        self.evidence = DataLoader[EvidenceRequest, list[SourceRecord]](self._evidence)
        self.evidence_counts = DataLoader[EvidenceRequest, int](self._evidence_counts)
        self.series = DataLoader[SeriesRequest, list[SeriesBucket]](self._series)
        self.records_by_key = DataLoader[str, SourceRecord | None](self._records_by_key)

    def clear(self) -> None:
        """Forget everything loaded (the request is over)."""
        for loader in vars(self).values():
            if isinstance(loader, DataLoader):
                loader.clear_all()

    async def subject(self, key: str, at: TimeSpan | None) -> StoredSubject | None:
        return await self.subjects.load(SubjectKey(key, at))

    async def _subjects(self, keys: Sequence[SubjectKey]) -> list[StoredSubject | None]:
        by_time: dict[TimeSpan | None, list[str]] = defaultdict(list)
        for k in keys:
            by_time[k.at].append(k.key)
        found: dict[SubjectKey, StoredSubject] = {}
        for at, subject_keys in by_time.items():
            for key, subject in (await self.graph.subjects_by_keys(subject_keys, at)).items():
                found[SubjectKey(key, at)] = subject
        return [found.get(k) for k in keys]

    async def _subjects_by_id(self, ids: Sequence[str]) -> list[StoredSubject | None]:
        found = await self.graph.subjects_by_ids(ids)
        return [found.get(i) for i in ids]

    async def _edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        return await self.graph.edges(requests)

    async def _neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        return await self.graph.neighbors(requests)

    async def _edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]:
        return await self.graph.edge_counts(requests)

    async def _edges_by_id(self, ids: Sequence[tuple[str, str]]) -> list[Edge | None]:
        found = await self.graph.edges_by_id(ids)
        return [found.get(i) for i in ids]

    async def _episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]:
        return await self.graph.episodes(requests)

    async def _episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]:
        return await self.graph.episode_counts(requests)

    async def _episodes_by_key(self, keys: Sequence[str]) -> list[Episode | None]:
        found = await self.graph.episodes_by_keys(keys)
        return [found.get(k) for k in keys]

    async def _record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        return await self.graph.source_record_pages(requests)

    async def _evidence(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        return await self.graph.evidence_pages(requests)

    async def _evidence_counts(self, requests: Sequence[EvidenceRequest]) -> list[int]:
        return await self.graph.evidence_counts(requests)

    async def _series(self, requests: Sequence[SeriesRequest]) -> list[list[SeriesBucket]]:
        return await self.graph.series(requests)

    async def _records_by_key(self, keys: Sequence[str]) -> list[SourceRecord | None]:
        found = await self.graph.source_records_by_keys(keys)
        return [found.get(k) for k in keys]
