"""The organisation-scoped graph, written once over any Cypher executor.

Adapters differ only in how a statement reaches the store (`Executor`) and in their dialect;
everything the port promises (batching, time admission, tenancy) is implemented here.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import TYPE_CHECKING, Any, Protocol

from engine.models import (
    Direction,
    ElementType,
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
from engine.ports import (
    Checkpoint,
    Edge,
    EdgeRequest,
    EpisodeRequest,
    EvidenceRequest,
    Fingerprint,
    GraphQueryError,
    RecordPageRequest,
    SeriesBucket,
    SeriesRequest,
    SortKey,
    SubjectOrder,
    SubjectPage,
    SubjectQuery,
    TimeSpan,
    WriteBatch,
)
from engine.ports.changes import Change, ChangeFeed, ChangeKind
from engine.text import normalise
from graph import activity, evidence, rows, series
from graph.changes import batch_change
from graph.cypher import activity as activity_cypher
from graph.cypher import checkpoints as checkpoints_cypher
from graph.cypher import deletion as deletion_cypher
from graph.cypher import organisations as organisations_cypher
from graph.cypher import records as records_cypher
from graph.cypher import relationships as relationships_cypher
from graph.cypher import search as search_cypher
from graph.cypher import subjects as subjects_cypher
from graph.dialect import Dialect
from graph.epochs import scope_of
from graph.fingerprint import fingerprint
from graph.results import ResultArchive
from graph.search import SearchArms

if TYPE_CHECKING:
    from engine.embedding import Embedder

Row = list[Any]
_TEXT = rows.SUBJECT_COLUMNS.index("search_text") + 1  # its position in a subject row
MAX_KEYS = 10_000
# Kept by the writes of source records (graph.cypher.activity); not content.
SUMMARY_LABELS = frozenset({"Activity", "RecordDay", "Format"})


class Executor(Protocol):
    async def run(
        self, statement: str, params: dict[str, Any], *, write: bool = False, control: bool = False
    ) -> list[Row]:
        """Send one statement; raise only the port's errors. control: a lifecycle read that
        is not part of any request's data (counted apart, see RoundTrips)."""
        ...

    def prepare(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> Callable[[], Awaitable[list[Row]]]:
        """The statement made ready to send (its parameters in the form sent), now; sent
        when the result is called. Raises now what `run` would raise before sending."""
        ...


def bound(executor: Executor, scope: str, write: bool) -> Callable[..., Awaitable[list[Row]]]:
    """`executor`'s statements with $org bound to `scope` (graph.activity's read and write,
    for graphs opened before any ScopedGraph is made for them)."""

    async def run(statement: str, **params: Any) -> list[Row]:
        return await executor.run(statement, {"org": scope, **params}, write=write)

    return run


async def apply_schema(
    executor: Executor, dialect: Dialect, embedder: Embedder | None, with_vectors: bool = True
) -> None:
    """Run the dialect's index DDL (and the vector index for the embedder's width); an index
    that already exists is not an error, so bootstrap can run on every start."""
    statements = list(dialect.bootstrap)
    if embedder is not None and with_vectors:
        statements += dialect.vector_index(embedder.identity.dimension)
    for statement in statements:
        try:
            await executor.run(statement, {}, write=True)
        except GraphQueryError as exc:
            if not dialect.is_already_exists(str(exc)):
                raise
    for statement in dialect.retired:
        try:
            await executor.run(statement, {}, write=True)
        except GraphQueryError as exc:
            if not any(marker in str(exc) for marker in dialect.no_such_index):
                raise
    for statement in (*dialect.after_schema, *dialect.migrations):
        await executor.run(statement, {}, write=True)


def _edge_groups(
    requests: Sequence[EdgeRequest],
) -> tuple[list[relationships_cypher.EdgeGroup], dict[str, list[list[Any]]]]:
    grouped: dict[relationships_cypher.EdgeGroup, list[list[Any]]] = {}
    # The types and direction become the statement's pattern: they pass through the closed
    # enums once per distinct shape, not once per request (hundreds per dashboard level).
    shapes: dict[tuple[Any, ...], relationships_cypher.EdgeGroup] = {}
    for i, q in enumerate(requests):
        shape = (q.types, q.direction, q.brief)
        group = shapes.get(shape)
        if group is None:
            types = tuple(RelationshipType(t) for t in q.types)
            group = shapes[shape] = (types, Direction(q.direction).value, q.brief)
        grouped.setdefault(group, []).append(_edge_row(i, q))
    groups = list(grouped)
    return groups, {f"g{n}": grouped[g] for n, g in enumerate(groups)}


def _edge_row(index: int, q: EdgeRequest) -> list[Any]:
    return [
        index,
        q.key,
        None,  # the types and direction are in the statement's pattern
        None,
        q.at.start_ns if q.at else None,
        q.at.end_ns if q.at else None,
        q.limit,
        *(q.after if q.after else (None, None, None)),
    ]


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


def _span(params: dict[str, Any], at: TimeSpan | None) -> bool:
    if at is None:
        return False
    params["t_start"], params["t_end"] = at.start_ns, at.end_ns
    return True


_Send = Callable[[], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class _Plan:
    """A batch's statements, ready to send in order, and the change event its write makes
    (engine.ports.WriteBatch.prepared). graph: the graph that made it, the only one to send it."""

    graph: ScopedGraph
    steps: list[_Send]
    change: Change | None


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
    ) -> None:
        self._org = org_id
        self._epoch = epoch
        self._scope = scope_of(org_id, epoch)
        self._x = executor
        self._changes = changes
        self._dialect = dialect
        self.search = SearchArms(self._scope, executor, dialect, embedder, exact_limit)
        # The organisation's own scope (results, the epoch lifecycle): outlives every epoch.
        self.results_executor = results_executor or executor
        self.results = ResultArchive(org_id, self.results_executor, changes)
        self.activity = activity.ActivityPages(self._read)

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
        if not keys:
            return {}
        params: dict[str, Any] = {"keys": list(dict.fromkeys(keys))[:MAX_KEYS]}
        found = await self._read(subjects_cypher.subjects_by_keys(_span(params, at)), **params)
        return {row[0][0]: rows.subject_from(row[0]) for row in found}

    async def subjects_by_ids(self, ids: Sequence[str]) -> dict[str, StoredSubject]:
        if not ids:
            return {}
        found = await self._read(subjects_cypher.SUBJECTS_BY_IDS, ids=list(dict.fromkeys(ids)))
        return {row[0][1]: rows.subject_from(row[0]) for row in found}

    def _filter_params(
        self, query: SubjectQuery
    ) -> tuple[dict[str, Any], subjects_cypher.FilterShape]:
        params: dict[str, Any] = {}
        if query.kinds:
            params["kinds"] = [k.value for k in query.kinds]
        if query.name_prefix is not None:
            params["prefix"] = query.name_prefix
        if query.search:
            params["search"] = normalise(query.search)  # as the search text was composed
        if query.attributes:
            params["pairs"] = [rows.attr_pair(k, v) for k, v in query.attributes]
        shape = subjects_cypher.FilterShape(
            kinds=bool(query.kinds),
            prefix=query.name_prefix is not None,
            search=bool(query.search),
            pairs=bool(query.attributes),
            stubs=query.include_stubs,
            timed=_span(params, query.at),
            brief=query.brief,
        )
        return params, shape

    async def find_subjects(
        self, query: SubjectQuery, first: int, after: SortKey | None = None
    ) -> SubjectPage:
        params, shape = self._filter_params(query)
        params["limit"] = first + 1
        if after is not None:
            params["after_sort"], params["after_key"] = after
        if query.order is SubjectOrder.RECENT:
            found = await self.activity.page(shape, params, after)
        else:
            statement = subjects_cypher.find_subjects(shape, query.order.value, after is not None)
            found = await self._read(statement, **params)
        page = found[:first]
        return SubjectPage(
            items=[rows.subject_from(row[0]) for row in page],
            has_next=len(found) > first,
            positions=[(row[1], row[2]) for row in page],
        )

    async def count_subjects(self, query: SubjectQuery) -> int:
        params, shape = self._filter_params(query)
        found = await self._read(subjects_cypher.count_subjects(shape), **params)
        return int(found[0][0]) if found else 0

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
        statement = search_cypher.SUBJECTS_BY_ID_PREFIX
        found = await self._read(statement, prefix=prefix.lower(), limit=limit)
        if not found:
            return [], 0
        total, sample = found[0]
        return [rows.subject_from(p) for p in sample], int(total)

    async def subjects_by_handle(
        self, text: str, kinds: Sequence[SubjectKind] = (), limit: int = 10
    ) -> tuple[list[StoredSubject], int]:
        return await self.search.by_handle(text, kinds, limit)

    # --- neighbourhood ----------------------------------------------------------------------

    async def edges(self, requests: Sequence[EdgeRequest]) -> list[list[Edge]]:
        out: list[list[Edge]] = [[] for _ in requests]
        if not requests:
            return out
        groups, params = _edge_groups(requests)
        for index, page in await self._read(relationships_cypher.edges(groups), **params):
            anchor = requests[index].key
            for rel_type, props, other, outgoing in page:
                ends = (anchor, other[0]) if outgoing else (other[0], anchor)
                rel = rows.relationship_from(rel_type, props, *ends)
                out[index].append(Edge(rel, rows.subject_from(other), bool(outgoing)))
        return out

    async def neighbors(self, requests: Sequence[EdgeRequest]) -> list[list[StoredSubject]]:
        out: list[list[StoredSubject]] = [[] for _ in requests]
        if requests:
            groups, params = _edge_groups(requests)
            for index, others in await self._read(relationships_cypher.neighbors(groups), **params):
                out[index] = [rows.subject_from(other) for other in others]
        return out

    async def edge_counts(self, requests: Sequence[EdgeRequest]) -> list[int]:
        counts = [0] * len(requests)
        if requests:
            groups, params = _edge_groups(requests)
            statement = relationships_cypher.edge_counts(groups)
            for index, count in await self._read(statement, **params):
                counts[index] = int(count)
        return counts

    async def edges_by_id(self, ids: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Edge]:
        if not ids:
            return {}
        unique = list(dict.fromkeys(ids))
        reqs = [[i, start, rel_id] for i, (start, rel_id) in enumerate(unique)]
        out: dict[tuple[str, str], Edge] = {}
        found = await self._read(relationships_cypher.EDGES_BY_ID, reqs=reqs)
        for index, rel_type, props, other in found:
            start = unique[index][0]
            rel = rows.relationship_from(rel_type, props, start, other[0])
            out[unique[index]] = Edge(rel, rows.subject_from(other), True)
        return out

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

    async def active_subjects(
        self,
        kinds: Sequence[SourceRecordKind],
        span: TimeSpan,
        limit: int,
        subject_kinds: Sequence[SubjectKind] = (),
    ) -> list[tuple[str, int]]:
        """Subject keys with the most source records of `kinds` starting within `span`, read
        from the records' start_us index (a stored time is on a whole microsecond, so the
        rounded bounds admit exactly the records the nanosecond ones do)."""
        if not kinds:
            return []
        found = await self._read(
            activity_cypher.active_subjects(bool(subject_kinds)),
            subject_kinds=[SubjectKind(k).value for k in subject_kinds],
            kinds=[SourceRecordKind(k).value for k in kinds],
            limit=limit,
            lo_us=rows.us_at_least(span.start_ns),
            hi_us=rows.us_at_most(span.end_ns),
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
        return {row[0]["key"]: rows.source_record_from(row[0]) for row in found}

    async def source_record_pages(
        self, requests: Sequence[RecordPageRequest]
    ) -> list[list[SourceRecord]]:
        out: list[list[SourceRecord]] = [[] for _ in requests]
        if requests:
            reqs = [_record_page_row(i, q) for i, q in enumerate(requests)]
            for index, page in await self._read(records_cypher.SOURCE_RECORD_PAGES, reqs=reqs):
                out[index] = [rows.source_record_from(p) for p in page]
        return out

    async def evidence_pages(self, requests: Sequence[EvidenceRequest]) -> list[list[SourceRecord]]:
        out: list[list[SourceRecord]] = [[] for _ in requests]
        if requests:
            rules, params = evidence.grouped(requests)
            for index, page in await self._read(evidence.pages(rules), **params):
                out[index] = [rows.source_record_from(p) for p in page]
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
        statement = records_cypher.source_records_of(_span(params, span))
        out: dict[str, list[SourceRecord]] = {k: [] for k in params["keys"]}
        for (props,) in await self._read(statement, **params):
            out[props["subject_key"]].append(rows.source_record_from(props))
        return out

    # --- writes -----------------------------------------------------------------------------

    async def write(self, batch: WriteBatch) -> None:
        """Write runs of same-typed elements in input order, so a tombstone after a record
        retracts it and a record after a tombstone restores it. Sends what `prepare_write`
        made of the batch, or (the plain path) prepares it now."""
        plan = batch.prepared
        if not isinstance(plan, _Plan) or plan.graph is not self:
            await self.prepare_write(batch)
            plan = batch.prepared
            assert isinstance(plan, _Plan)
        batch.prepared = None  # sent once
        for send in plan.steps:
            await send()
        # Only once the batch is in: a reader told of it (or of the new revision) sees it.
        if self._changes is not None and plan.change is not None:
            await self._changes.publish(replace(plan.change, at_ns=time.time_ns()))

    async def prepare_write(self, batch: WriteBatch) -> None:
        """The statements of `batch`, made ahead of sending them (engine.ports.PreparesWrites):
        ingest prepares one batch while the store writes the one before."""
        steps: list[_Send] = []
        for _, run in groupby(batch.elements, key=type):
            await self._prepare_run(list(run), batch, steps)
            await asyncio.sleep(0)  # a write in flight sends its next statement meanwhile
        change = batch_change(self._org, batch) if self._changes and batch.elements else None
        batch.prepared = _Plan(self, steps, change)

    def _step(self, statement: str, **params: Any) -> _Send:
        return self._x.prepare(statement, {"org": self._scope, **params}, write=True)

    async def _prepare_run(self, run: list[Any], batch: WriteBatch, steps: list[_Send]) -> None:
        first, source, run_id = run[0], batch.source, batch.run_id
        if isinstance(first, Subject):
            data = [rows.subject_row(self._org, s, source, run_id) for s in run]
            steps.append(self._step(subjects_cypher.merge_subjects(self._dialect), rows=data))
            batch.written.update(s.key for s in run)
            vectors = await self.search.prepare_vectors(
                [r[0] for r in data], [r[_TEXT] for r in data]
            )
            if vectors is not None:
                steps.append(vectors)
        elif isinstance(first, Relationship):
            ends = {k for r in run for k in (r.from_key, r.to_key)}
            self._ensure_subjects(ends - batch.written, steps)
            by_type: dict[RelationshipType, list[list[Any]]] = defaultdict(list)
            for rel in run:
                by_type[rel.type].append(rows.relationship_row(rel, source, run_id))
            for rel_type, data in by_type.items():
                statement = relationships_cypher.merge_relationships(rel_type)
                steps.append(self._step(statement, rows=data))
        elif isinstance(first, Episode):
            self._ensure_subjects({k for e in run for k in e.mentions} - batch.written, steps)
            data = [rows.episode_row(e, source, run_id) for e in run]
            steps.append(self._step(records_cypher.MERGE_EPISODES, rows=data))
        elif isinstance(first, SourceRecord):
            # One row per record, its last (the same record twice in a batch would be
            # counted twice: both rows find it new).
            data = list({r.key: rows.source_record_row(r, source, run_id) for r in run}.values())
            days, latest = rows.record_summary(data)
            statement = activity_cypher.MERGE_SOURCE_RECORDS
            steps.append(self._step(statement, rows=data, days=days, latest=latest))
        else:
            self._retract(run, steps)
            batch.written.difference_update(t.key for t in run if t.target is ElementType.SUBJECT)

    def _ensure_subjects(self, keys: set[str], steps: list[_Send]) -> None:
        if keys:
            stubs = [rows.stub_row(self._org, k) for k in sorted(keys)]
            steps.append(self._step(subjects_cypher.MERGE_STUBS, rows=stubs))

    def _retract(self, tombstones: list[Tombstone], steps: list[_Send]) -> None:
        statements = {
            ElementType.SUBJECT: deletion_cypher.DELETE_SUBJECTS,
            ElementType.RELATIONSHIP: relationships_cypher.delete_relationships(self._dialect),
            ElementType.EPISODE: deletion_cypher.DELETE_EPISODES,
            ElementType.SOURCE_RECORD: activity_cypher.DELETE_SOURCE_RECORDS,
        }
        for target, group in groupby(tombstones, key=lambda t: t.target):
            # Each key once: a record matched twice would be taken off its counts twice.
            keys = list(dict.fromkeys(t.key for t in group))
            steps.append(self._step(statements[target], keys=keys))

    async def delete_unseen(self, source: str, run_id: str) -> int:
        params = {"source": source, "run": run_id}
        deleted = 0
        dialect = self._dialect
        unseen = deletion_cypher.delete_unseen_nodes(dialect).values()
        for statement in (deletion_cypher.delete_unseen_relationships(dialect), *unseen):
            found = await self._write(statement, **params)
            deleted += int(found[0][0]) if found else 0
        # Source records one retraction at a time: it keeps the activity structures.
        unseen_keys = await self._read(deletion_cypher.UNSEEN_SOURCE_RECORDS, **params)
        keys = [str(k) for (k,) in unseen_keys]
        for at in range(0, len(keys), MAX_KEYS):
            await self._write(activity_cypher.DELETE_SOURCE_RECORDS, keys=keys[at : at + MAX_KEYS])
        deleted += len(keys)
        if deleted and self._changes is not None:  # no event names what went: readers resync
            await self._changes.publish(Change(org_id=self._org, kind=ChangeKind.RESET))
        return deleted

    async def activity_summary(self) -> tuple[dict[str, int], dict[tuple[str, int], int]]:
        """The activity structures as stored (diagnostics and tests): each subject's latest
        activity, and the records of each (kind, day) (days with none left out)."""
        latest = {str(k): int(t) for k, t in await self._read(activity_cypher.ACTIVITY_LATEST)}
        counted = await self._read(activity_cypher.ACTIVITY_DAYS)
        days = {(str(k), int(d)): int(n) for k, d, n in counted}
        return latest, {key: n for key, n in days.items() if n}

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

    async def counts(self) -> Mapping[str, int]:
        out: dict[str, int] = {}
        for label, count in await self._read(organisations_cypher.COUNTS):
            if count and label not in SUMMARY_LABELS:  # one row per label, absent ones too
                out[str(label)] = int(count)
        for rel_type, count in await self._read(organisations_cypher.COUNT_RELATIONSHIPS):
            out[f"rel:{rel_type}"] = int(count)
        return out
