"""What happened to subjects of one organisation, as read: episodes, source records (pages,
by key, by subject), the evidence of facts, time series, and the cohort of the most active
subjects in a window. ScopedGraph serves the port's reads of these from here.

Source records are written (and their activity structures kept) by graph.writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.domain.models import Episode, SourceRecord, SourceRecordKind, SubjectKind
from engine.ports import (
    EpisodeRequest,
    EvidenceRequest,
    RecordPageRequest,
    SeriesBucket,
    SeriesRequest,
    TimeSpan,
)
from graph import evidence, recordrows, rows, series
from graph.cypher import activity_reads
from graph.cypher import records as records_cypher
from graph.executor import Run


def _episode_row(index: int, q: EpisodeRequest) -> list[Any]:
    return [
        index,
        q.key,
        q.span.start_ns if q.span else None,
        q.span.end_ns if q.span else None,
        q.limit,
        *(q.after if q.after else (None, None)),
    ]


def _record_page_row(index: int, q: RecordPageRequest) -> list[Any]:
    return [
        index,
        q.key,
        [SourceRecordKind(k).value for k in q.kinds],
        q.span.start_ns if q.span else None,
        q.span.end_ns if q.span else None,
        q.limit,
        *(q.after if q.after else (None, None)),
    ]


class Timeline:
    """Episodes and source records of one organisation, read through `read` (its statements'
    $org bound)."""

    def __init__(self, read: Run) -> None:
        self._read = read

    async def active_subjects(
        self,
        kinds: Sequence[SourceRecordKind],
        span: TimeSpan,
        limit: int,
        subject_kinds: Sequence[SubjectKind] = (),
    ) -> list[tuple[str, int]]:
        """Subject keys with the most source records of `kinds` starting within `span`, read
        through the time slots of the span (a stored time is on a whole microsecond, so the
        rounded bounds admit exactly the records the nanosecond ones do)."""
        if not kinds:
            return []
        lo_us, hi_us = recordrows.us_at_least(span.start_ns), recordrows.us_at_most(span.end_ns)
        found = await self._read(
            activity_reads.active_subjects(bool(subject_kinds)),
            subject_kinds=[SubjectKind(k).value for k in subject_kinds],
            kinds=[SourceRecordKind(k).value for k in kinds],
            limit=limit,
            lo_us=lo_us,
            hi_us=hi_us,
            lo_slot=lo_us // recordrows.SLOT_US,
            hi_slot=hi_us // recordrows.SLOT_US,
        )
        return [(str(k), int(n)) for k, n in found]

    async def episodes(self, requests: Sequence[EpisodeRequest]) -> list[list[Episode]]:
        out: list[list[Episode]] = [[] for _ in requests]
        if requests:
            reqs = [_episode_row(i, q) for i, q in enumerate(requests)]
            for index, page in await self._read(records_cypher.EPISODES, reqs=reqs):
                out[index] = [rows.episode_from(p) for p in page]
        return out

    async def episode_counts(self, requests: Sequence[EpisodeRequest]) -> list[int]:
        counts = [0] * len(requests)
        if requests:
            reqs = [_episode_row(i, q) for i, q in enumerate(requests)]
            for index, count in await self._read(records_cypher.EPISODE_COUNTS, reqs=reqs):
                counts[index] = int(count)
        return counts

    async def episodes_of(
        self, keys: Sequence[str], *, span: TimeSpan | None = None, limit_per_subject: int = 100
    ) -> dict[str, list[Episode]]:
        unique = list(dict.fromkeys(keys))
        requests = [EpisodeRequest(k, span, limit_per_subject) for k in unique]
        return dict(zip(unique, await self.episodes(requests), strict=True))

    async def episodes_by_keys(self, keys: Sequence[str]) -> dict[str, Episode]:
        if not keys:
            return {}
        found = await self._read(records_cypher.EPISODES_BY_KEYS, keys=list(dict.fromkeys(keys)))
        return {row[0]["key"]: rows.episode_from(row[0]) for row in found}

    async def source_records_by_keys(self, keys: Sequence[str]) -> dict[str, SourceRecord]:
        if not keys:
            return {}
        statement = records_cypher.SOURCE_RECORDS_BY_KEYS
        found = await self._read(statement, keys=list(dict.fromkeys(keys)))
        return {row[0]["key"]: recordrows.source_record_from(row[0]) for row in found}

    async def source_record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        out: list[list[SourceRecord]] = [[] for _ in requests]
        if requests:
            reqs = [_record_page_row(i, q) for i, q in enumerate(requests)]
            for index, page in await self._read(records_cypher.SOURCE_RECORD_PAGES, reqs=reqs):
                out[index] = [recordrows.source_record_from(p) for p in page]
        return out

    async def evidence_pages(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        out: list[list[SourceRecord]] = [[] for _ in requests]
        if requests:
            rules, params = evidence.grouped(requests)
            for index, page in await self._read(evidence.pages(rules), **params):
                out[index] = [recordrows.source_record_from(p) for p in page]
        return out

    async def evidence_counts(self, requests: Sequence[EvidenceRequest]) -> list[int]:
        out = [0] * len(requests)
        if requests:
            rules, params = evidence.grouped(requests)
            for index, n in await self._read(evidence.counts(rules), **params):
                out[index] = int(n)
        return out

    async def series(self, requests: Sequence[SeriesRequest]) -> list[list[SeriesBucket]]:
        out: list[list[SeriesBucket]] = [[] for _ in requests]
        if requests:
            found = await self._read(series.SERIES, reqs=series.rows(requests))
            for index, slot, total, n in found:
                out[index].append((int(slot), float(total), int(n)))
        return out

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]:
        if not keys:
            return {}
        params: dict[str, Any] = {
            "keys": list(dict.fromkeys(keys)),
            "kinds": [SourceRecordKind(k).value for k in kinds],
        }
        statement = records_cypher.source_records_of(rows.bind_span(params, span))
        out: dict[str, list[SourceRecord]] = {k: [] for k in params["keys"]}
        for (props,) in await self._read(statement, **params):
            out[props["subject_key"]].append(recordrows.source_record_from(props))
        return out
