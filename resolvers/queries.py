"""Root query fields."""

from __future__ import annotations

import enum
from datetime import UTC, datetime

import strawberry
from strawberry.types import Info

from engine.errors import BadUserInput
from engine.models import to_ns
from graph.port import SubjectOrder as PortOrder
from graph.port import SubjectPage, SubjectQuery, TimeSpan
from resolvers.context import RequestContext
from resolvers.relay import decode_cursor, encode_cursor, from_global_id
from resolvers.types import PageInfo, Subject, SubjectEdge, SubjectKind

DEFAULT_PAGE = 50


@strawberry.enum(description="Sort order of a subject list (keyset pagination follows it).")
class SubjectOrder(enum.Enum):
    KEY = "key"
    NAME = "name"


@strawberry.input(description="Filters on subjects; all given conditions must hold.")
class SubjectFilter:
    kind: SubjectKind | None = None  # type: ignore[valid-type]
    kinds: list[SubjectKind] | None = None  # type: ignore[valid-type]
    name_prefix: str | None = None
    include_stubs: bool = False


def time_span(as_of: datetime | None) -> TimeSpan:
    """The instant a read is about: `asOf`, or now (the current axis)."""
    moment = as_of or datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if not datetime(1970, 1, 1, tzinfo=UTC) <= moment < datetime(2200, 1, 1, tzinfo=UTC):
        raise BadUserInput("asOf must lie between 1970 and 2200")
    ns = to_ns(moment)
    assert ns is not None
    return TimeSpan.point(ns)


def page_size(info: Info[RequestContext, None], first: int | None) -> int:
    limit = info.context.limits.max_page_size
    size = DEFAULT_PAGE if first is None else first
    if not 0 <= size <= limit:
        raise BadUserInput(f"first must be between 0 and {limit}")
    return size


def _query(
    filter: SubjectFilter | None, order: SubjectOrder, as_of: datetime | None
) -> SubjectQuery:
    kinds = []
    prefix = None
    stubs = False
    if filter is not None:
        kinds = list(filter.kinds or [])
        if filter.kind is not None:
            kinds.append(filter.kind)
        prefix = filter.name_prefix
        stubs = filter.include_stubs
        if prefix is not None and ("\x00" in prefix or len(prefix) > 200):
            raise BadUserInput("namePrefix must be at most 200 characters, without NUL")
    return SubjectQuery(
        kinds=tuple(kinds),
        name_prefix=prefix,
        at=time_span(as_of),
        order=PortOrder(order.value),
        include_stubs=stubs,
    )


@strawberry.type(description="A page of subjects.")
class SubjectConnection:
    edges: list[SubjectEdge]
    page_info: PageInfo
    _query: strawberry.Private[SubjectQuery]

    @strawberry.field(description="How many subjects match the filter (all pages).")
    async def total_count(self, info: Info[RequestContext, None]) -> int:
        return await info.context.graph.count_subjects(self._query)


def _connection(page: SubjectPage, query: SubjectQuery, had_after: bool) -> SubjectConnection:
    by_name = query.order is PortOrder.NAME
    edges = [
        SubjectEdge(
            cursor=encode_cursor(s.name if by_name else "", s.key),
            node=Subject.from_model(s),
        )
        for s in page.items
    ]
    info = PageInfo(
        has_next_page=page.has_next,
        has_previous_page=had_after,
        start_cursor=edges[0].cursor if edges else None,
        end_cursor=edges[-1].cursor if edges else None,
    )
    return SubjectConnection(edges=edges, page_info=info, _query=query)


@strawberry.type
class Query:
    @strawberry.field(description="Subjects, filtered and keyset-paginated, as of a time.")
    async def subjects(
        self,
        info: Info[RequestContext, None],
        filter: SubjectFilter | None = None,
        order_by: SubjectOrder = SubjectOrder.KEY,
        first: int | None = None,
        after: str | None = None,
        as_of: datetime | None = None,
    ) -> SubjectConnection:
        size = page_size(info, first)
        query = _query(filter, order_by, as_of)
        cursor = decode_cursor(after, 2) if after else None
        page = await info.context.graph.find_subjects(
            query, size, (cursor[0], cursor[1]) if cursor else None
        )
        return _connection(page, query, after is not None)

    @strawberry.field(description="One subject by key or global id, as of a time.")
    async def subject(
        self,
        info: Info[RequestContext, None],
        key: str | None = None,
        id: strawberry.ID | None = None,
        as_of: datetime | None = None,
    ) -> Subject | None:
        if (key is None) == (id is None):
            raise BadUserInput("give exactly one of key and id")
        if id is not None:
            parsed = from_global_id(id)
            if parsed is None or parsed[0] != "Subject":
                return None
            key = parsed[1]
        assert key is not None
        if len(key) > 256 or "\x00" in key:
            return None
        found = await info.context.graph.subjects_by_keys([key], time_span(as_of))
        subject = found.get(key)
        return Subject.from_model(subject) if subject else None
