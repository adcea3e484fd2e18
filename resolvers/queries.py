"""Root query fields: Relay nodes and subjects."""

from __future__ import annotations

import asyncio
import enum
from dataclasses import replace
from datetime import datetime
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from engine.domain.errors import BadUserInput
from engine.domain.models import MAX_ATTRIBUTES
from engine.domain.models import SubjectKind as SubjectKindValue
from engine.ports import SortKey, SubjectPage, SubjectQuery
from engine.ports import SubjectOrder as PortOrder
from resolvers.args import clean_text, page_size, point, time_position
from resolvers.episode import Episode
from resolvers.epochs import EpochQuery
from resolvers.investigation import InvestigationQuery, stored_result
from resolvers.prefetch import read_ahead
from resolvers.records import SourceRecord
from resolvers.relationship import Relationship
from resolvers.relay import (
    decode_cursor,
    encode_cursor,
    from_global_id,
    relationship_ends,
    storable,
)
from resolvers.resolution import ResolutionQuery
from resolvers.result import InvestigationResult
from resolvers.selection import connection_nodes, plain_fields
from resolvers.subject import Subject, SubjectEdge, neighbors_of
from resolvers.types import Ctx, Node, PageInfo, SubjectKind

MAX_NODES = 100


@strawberry.enum(description="Sort order of a subject list; keyset pagination follows it.")
class SubjectOrder(enum.Enum):
    KEY = "key"
    NAME = "name"
    RECENTLY_ACTIVE = "recent"


@strawberry.input(description="Filters on subjects; all given conditions must hold.")
class SubjectFilter:
    kind: SubjectKind | None = None  # type: ignore[valid-type]
    kinds: list[SubjectKind] | None = None  # type: ignore[valid-type]
    name_prefix: str | None = None
    attributes: JSON | None = strawberry.field(
        default=None, description='Equality on flat attributes, e.g. {tier: 1, language: "go"}.'
    )
    include_stubs: bool = False


def _attribute_filter(value: object) -> tuple[tuple[str, str | int | float | bool], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or len(value) > MAX_ATTRIBUTES:
        raise BadUserInput("attributes must be an object of at most 64 flat values")
    pairs: list[tuple[str, str | int | float | bool]] = []
    for name, item in sorted(value.items()):
        if not isinstance(item, str | int | float | bool) or (
            isinstance(item, float) and (item != item or abs(item) == float("inf"))
        ):
            raise BadUserInput("attribute filters compare flat values only")
        if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 2**63:
            raise BadUserInput("attribute filter integer out of the 64-bit range")
        clean_text(name, "attribute name", 64)
        if isinstance(item, str):
            clean_text(item, "attribute value", 20_000)
        pairs.append((name, item))
    return tuple(pairs)


def subject_query(
    filter: SubjectFilter | None, search: str | None, order: SubjectOrder, at: object
) -> SubjectQuery:
    kinds: list[SubjectKindValue] = []
    if filter is not None:
        kinds = list(filter.kinds or [])
        if filter.kind is not None:
            kinds.append(filter.kind)
    return SubjectQuery(
        kinds=tuple(sorted(set(kinds), key=lambda k: k.value)),
        name_prefix=clean_text(filter.name_prefix, "namePrefix") if filter else None,
        search=clean_text(search, "search") or None,
        attributes=_attribute_filter(filter.attributes) if filter else (),
        at=at,  # type: ignore[arg-type]
        order=PortOrder(order.value),
        include_stubs=bool(filter and filter.include_stubs),
    )


def sort_position(after: str | None, order: SubjectOrder) -> SortKey | None:
    if after is None:
        return None
    if order is SubjectOrder.RECENTLY_ACTIVE:
        return time_position(after)
    sort, key = decode_cursor(after, 2)
    return (sort, key)


@strawberry.type(description="A page of subjects.")
class SubjectConnection:
    edges: list[SubjectEdge]
    page_info: PageInfo
    query: strawberry.Private[SubjectQuery]

    @strawberry.field(description="How many subjects match the filter (all pages).")
    async def total_count(self, info: Ctx) -> int:
        return await info.context.graph.count_subjects(self.query)

    @classmethod
    def of(cls, page: SubjectPage, query: SubjectQuery, had_after: bool) -> SubjectConnection:
        assert query.at is not None
        edges = [
            SubjectEdge(
                cursor=encode_cursor(str(pos[0]), pos[1]), node=Subject.from_model(s, query.at)
            )
            for s, pos in zip(page.items, page.positions, strict=True)
        ]
        info = PageInfo.of([e.cursor for e in edges], page.has_next, had_after)
        return cls(edges=edges, page_info=info, query=query)


async def _node(info: Ctx, global_id: str) -> Node | None:
    parsed = from_global_id(global_id)
    if parsed is None:
        return None
    type_name, local = parsed
    loaders, now = info.context.loaders, info.context.now
    if type_name == "Subject":
        subject = await loaders.subject(local, None)
        return Subject.from_model(subject, now) if subject else None
    if type_name == "Episode":
        episode = await loaders.episodes_by_key.load(local)
        return Episode.from_model(episode, now) if episode else None
    if type_name == "SourceRecord":
        record = await loaders.records_by_key.load(local)
        return SourceRecord.from_model(record, now) if record else None
    if type_name == "Relationship":
        return await _relationship(info, local)
    if type_name == "InvestigationResult":
        found = await stored_result(info, global_id)
        return InvestigationResult.of(found) if found else None
    return None


async def _relationship(info: Ctx, local: str) -> Relationship | None:
    ends = relationship_ends(local)
    if ends is None:
        return None
    start, rel_id = ends
    edge = await info.context.loaders.edges_by_id.load((start, rel_id))
    anchor = await info.context.loaders.subject(start, None)
    if edge is None or anchor is None:
        return None
    return Relationship.from_edge(edge, Subject.from_model(anchor, info.context.now))


@strawberry.type
class Query(ResolutionQuery, InvestigationQuery, EpochQuery):
    @strawberry.field(description="Any object by its global id; null when unknown or not yours.")
    async def node(self, info: Ctx, id: strawberry.ID) -> Node | None:
        return await _node(info, id)

    @strawberry.field(description="Objects by global id, in order; null where unknown.")
    async def nodes(self, info: Ctx, ids: list[strawberry.ID]) -> list[Node | None]:
        if len(ids) > MAX_NODES:
            raise BadUserInput(f"at most {MAX_NODES} ids")
        return list(await asyncio.gather(*(_node(info, i) for i in ids)))

    @strawberry.field(description="Subjects, filtered and keyset-paginated, as of a time.")
    async def subjects(
        self,
        info: Ctx,
        filter: SubjectFilter | None = None,
        search: Annotated[
            str | None,
            strawberry.argument(description="Text in the name, an alias or a previous name."),
        ] = None,
        order_by: SubjectOrder = SubjectOrder.KEY,
        first: int | None = None,
        after: str | None = None,
        as_of: datetime | None = None,
    ) -> SubjectConnection:
        size = page_size(first, info.context.limits.max_page_size)
        query = subject_query(filter, search, order_by, point(as_of, info.context.now))
        if info.context.selection.nodes_identity_only(info._raw_info.field_nodes):
            query = replace(query, brief=True)
        page = await info.context.graph.find_subjects(query, size, sort_position(after, order_by))
        connection = SubjectConnection.of(page, query, after is not None)
        fields = connection_nodes(info._raw_info.field_nodes) if info.context.read_ahead else None
        if fields:
            parents = [(e.node, fields) for e in connection.edges]
            await read_ahead(info._raw_info, parents, neighbors_of)
        return connection

    @strawberry.field(description="One subject by key or global id, as of a time.")
    async def subject(
        self,
        info: Ctx,
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
        if len(key) > 256 or not storable(key):  # like an unknown key
            return None
        at = point(as_of, info.context.now)
        found = await info.context.loaders.subject(key, at)
        if found is None:
            return None
        # Reading is not referencing: only resolving or investigating a subject puts it in
        # the caller's recent references (a dashboard reads hundreds it was never asked about).
        field_nodes = info._raw_info.field_nodes
        plain = len(field_nodes) == 1 and info.context.read_ahead
        fields = plain_fields(field_nodes[0].selection_set) if plain else None
        answer = Subject.from_model(found, at)
        if fields:
            await read_ahead(info._raw_info, [(answer, fields)], neighbors_of)
        return answer
