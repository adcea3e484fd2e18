"""The `Subject` type: a thing in the organisation, and the fields that walk from it to its
relationships, neighbours, episodes, source records and activity (nested and batched).

Every object carries the time its parent read at (`at`): a root field's `asOf` applies to
the whole subtree unless a nested field passes its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import datetime
from typing import Any, cast

import strawberry
from strawberry.scalars import JSON

from engine.domain import models
from engine.ports import Edge, EdgeRequest, EpisodeRequest, RecordPageRequest, TimeSpan
from resolvers.args import instant, page_size, time_position, window
from resolvers.episode import Episode, EpisodeConnection, EpisodeEdge
from resolvers.prefetch import edge_request, neighbor_request
from resolvers.records import SourceRecord
from resolvers.relationship import Relationship, RelationshipConnection, RelationshipEdge
from resolvers.relay import decode_cursor, encode_cursor, from_global_id, storable, to_global_id
from resolvers.series import ActivityMetric, TimeBucket, TimeSeries, activity
from resolvers.types import (
    Ctx,
    Direction,
    Node,
    PageInfo,
    RelationshipType,
    SourceRecordKind,
    SubjectKind,
    WindowArg,
)


@strawberry.federation.type(
    keys=["id", "key"],
    description="A thing in the organisation: repository, service, team, person...",
)
class Subject(Node):
    key: str = strawberry.field(description="Stable key, e.g. `repository:payments-api`.")
    kind: SubjectKind  # type: ignore[valid-type]
    name: str
    aliases: list[str]
    previous_names: list[str] = strawberry.field(
        description="Names this subject had before; it stays resolvable by them."
    )
    description: str
    attributes: JSON
    valid_from: datetime | None = strawberry.field(
        description="Start of the validity window (inclusive); null: valid since always."
    )
    valid_to: datetime | None = strawberry.field(
        description="End of the validity window (exclusive); null: still valid."
    )
    stub: bool = strawberry.field(
        description="Only referenced so far: identity without authoritative data."
    )
    at: strawberry.Private[TimeSpan]
    # What this subject's `neighbors` fields answer, read ahead (by field node; see prefetch).
    ahead: strawberry.Private[dict[int, list[Any]] | None] = None

    @classmethod
    async def resolve_reference(
        cls, info: Ctx, id: strawberry.ID | None = None, key: str | None = None, **_: Any
    ) -> Subject | None:
        """A federation router's representation (`{__typename: "Subject", id}` or `key`),
        read now, in the caller's organisation; null when unknown, as `subject` answers."""
        if id is not None:
            parsed = from_global_id(id)
            key = parsed[1] if parsed and parsed[0] == "Subject" else None
        if not isinstance(key, str) or len(key) > 256 or not storable(key):
            return None
        found = await info.context.loaders.subject(key, info.context.now)
        return cls.from_model(found, info.context.now) if found is not None else None

    @classmethod
    def from_model(cls, subject: models.StoredSubject, at: TimeSpan) -> Subject:
        return cls(
            id=strawberry.ID(to_global_id("Subject", subject.key)),
            key=subject.key,
            kind=subject.kind,
            name=subject.name,
            aliases=list(subject.aliases),
            previous_names=list(subject.previous_names),
            description=subject.description,
            attributes=cast(JSON, dict(subject.attributes)),
            valid_from=subject.valid_from,
            valid_to=subject.valid_to,
            stub=subject.stub,
            at=at,
        )

    def _edge_request(
        self,
        info: Ctx,
        types: list[models.RelationshipType] | None,
        direction: models.Direction,
        as_of: datetime | None,
        first: int | None,
        after: str | None,
    ) -> EdgeRequest:
        position = decode_cursor(after, 3) if after else None
        after_ = (position[0], position[1], position[2]) if position else None
        return edge_request(info.context, self.key, self.at, types, direction, as_of, first, after_)

    @strawberry.field(description="Relationships of this subject valid at the read time.")
    async def relationships(
        self,
        info: Ctx,
        types: list[RelationshipType] | None = None,  # type: ignore[valid-type]
        direction: Direction = models.Direction.BOTH,  # type: ignore[valid-type]
        as_of: datetime | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> RelationshipConnection:
        request = self._edge_request(info, types, direction, as_of, first, after)
        found: list[Edge] = await info.context.loaders.edges.load(request)
        page = found[: request.limit - 1]
        edges = [
            RelationshipEdge(
                cursor=encode_cursor(*e.position), node=Relationship.from_edge(e, self)
            )
            for e in page
        ]
        info_ = PageInfo.of([e.cursor for e in edges], len(found) > len(page), after is not None)
        count_request = EdgeRequest(self.key, request.types, request.direction, request.at, 0)
        return RelationshipConnection(edges=edges, page_info=info_, count_request=count_request)

    @strawberry.field(
        description="The subjects at the other end of this subject's relationships.",
        graphql_type=list["Subject"],
    )
    def neighbors(
        self,
        info: Ctx,
        types: list[RelationshipType] | None = None,  # type: ignore[valid-type]
        direction: Direction = models.Direction.BOTH,  # type: ignore[valid-type]
        as_of: datetime | None = None,
        first: int | None = None,
    ) -> list[Subject] | Awaitable[list[Subject]]:
        """The one path: the arguments make one EdgeRequest (prefetch.neighbor_request), the
        request's loader reads it (OrgGraph.neighbors, one batch per level) and neighbors_of
        builds the answer. Fast paths, each answering what this path answers (tested so in
        tests/test_completion.py), skip parts of it:

        * prefetched: the list above read this very request ahead (resolvers/prefetch.py);
          the answer is built from it without awaiting the loader.
        * neighbors_answered_ahead (resolvers/schema.py): the read-ahead also built the answer
          and hung it on the parent; graphql-core gets it without calling this resolver.
        * read_ahead_or_not_ready: the same answer, read by a completion plan."""
        raw = info._raw_info
        request = neighbor_request(
            info.context, raw.field_nodes, self.key, self.at, types, direction, as_of, first
        )
        found = info.context.prefetched.get(request)
        if found is not None:  # fast path "prefetched"
            return neighbors_of(found, request)
        return self._load_neighbors(info, request)

    async def _load_neighbors(self, info: Ctx, request: EdgeRequest) -> list[Subject]:
        found: list[models.StoredSubject] = await info.context.loaders.neighbors.load(request)
        return neighbors_of(found, request)

    @strawberry.field(description="Episodes mentioning this subject, newest first.")
    async def episodes(
        self,
        info: Ctx,
        since: datetime | None = None,
        until: datetime | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> EpisodeConnection:
        limit = page_size(first, info.context.limits.max_page_size)
        span = None
        if since is not None or until is not None:
            start = instant(since, "since") if since else 0
            end = instant(until, "until") if until else models.INT64_MAX
            span = TimeSpan(start, end)
        request = EpisodeRequest(self.key, span, limit + 1, time_position(after))
        found = await info.context.loaders.episodes.load(request)
        page = found[:limit]
        edges = [
            EpisodeEdge(cursor=_episode_cursor(e), node=Episode.from_model(e, self.at))
            for e in page
        ]
        page_info = PageInfo.of([e.cursor for e in edges], len(found) > limit, after is not None)
        count_request = EpisodeRequest(self.key, span, 0)
        return EpisodeConnection(edges=edges, page_info=page_info, count_request=count_request)

    @strawberry.field(description="Canonical source records about this subject in a window.")
    async def source_records(
        self,
        info: Ctx,
        kinds: list[SourceRecordKind] | None = None,  # type: ignore[valid-type]
        window_: WindowArg = None,
        first: int | None = None,
    ) -> list[SourceRecord]:
        # Only the page is read (the cost limiter charges `first`, or the default page).
        limit = page_size(first, info.context.limits.max_page_size)
        span = window(window_, self.at.end_ns)
        wanted: tuple[models.SourceRecordKind, ...] = tuple(
            sorted(set(kinds or ()), key=lambda k: k.value)
        )
        request = RecordPageRequest(self.key, wanted, span, limit)
        records = await info.context.loaders.record_pages.load(request)
        return [SourceRecord.from_model(r, self.at) for r in records]

    @strawberry.field(description="A time series for charts: counts or sums per day or week.")
    async def activity(
        self,
        info: Ctx,
        metric: ActivityMetric,
        bucket: TimeBucket = TimeBucket.DAY,
        window_: WindowArg = None,
    ) -> TimeSeries:
        return await activity(info, self, metric, bucket, window(window_, self.at.end_ns))


def neighbors_of(found: list[models.StoredSubject], request: EdgeRequest) -> list[Subject]:
    """A `neighbors` answer from the other ends of its edges (distinct, the page's size)."""
    assert request.at is not None
    seen: dict[str, Subject] = {}
    for other in found[: request.limit]:
        if other.key not in seen:
            seen[other.key] = Subject.from_model(other, request.at)
    return list(seen.values())


async def current_subjects(info: Ctx, keys: tuple[str, ...] | list[str]) -> list[Subject]:
    """The subjects with these keys as they are now; unknown (or deleted) keys are left out."""
    at = info.context.now
    found = await asyncio.gather(*(info.context.loaders.subject(k, None) for k in keys))
    return [Subject.from_model(s, at) for s in found if s is not None]


def _episode_cursor(episode: models.Episode) -> str:
    return encode_cursor(str(models.to_ns(episode.occurred_at)), episode.key)


@strawberry.type
class SubjectEdge:
    cursor: str
    node: Subject
