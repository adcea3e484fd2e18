"""Compiled subject selections with everything a subject reads beyond itself (resolvers/
compiled.py): `neighbors` (resolvers/subject_plan.py), `activity` (resolvers/series_plan.py),
and the pages of `relationships`, `episodes` and `sourceRecords`, each read for every subject
of the selection at once through the request's loaders, with the requests Subject's resolvers
make (the same arguments, limits, cursors and counts), and written as they write them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from graphql import FieldNode, GraphQLField
from graphql.execution.values import VariableValues

from engine.domain import models
from engine.domain.errors import PublicError
from engine.ports import EdgeRequest, EpisodeRequest, RecordPageRequest, TimeSpan
from resolvers.args import TimeWindowInput, instant, page_size, time_position, window
from resolvers.context import RequestContext
from resolvers.object_plan import ObjectPlan, object_plan
from resolvers.plan_fields import Fallback, Scope, Uncovered, arguments, together
from resolvers.prefetch import edge_request
from resolvers.relay import decode_cursor, encode_cursor
from resolvers.series_plan import SeriesPlan, series_plan, write_series
from resolvers.subject_plan import Read, SubjectPlan, read_levels, subject_plan

ACTIVITY = "activity"
PAGES = {"relationships": "Relationship", "episodes": "Episode"}
RECORDS = "sourceRecords"
NESTED = frozenset({ACTIVITY, RECORDS, *PAGES})
_INFO = {"hasNextPage", "hasPreviousPage", "startCursor", "endCursor", "__typename"}
# (subject read, its written place): what a subject's nested pages are read for and fill
Subjects = Sequence[tuple[Read, dict[str, Any]]]
Written = list[tuple[Any, dict[str, Any], TimeSpan]]  # (item, its place, its parent's time)


@dataclass(frozen=True)
class PagePlan:
    """A subject's `relationships` or `episodes` connection: its parts and its items' plan."""

    key: str
    name: str
    node: FieldNode
    field: GraphQLField
    parts: tuple[tuple[str, str], ...]  # (response key, field name) of the connection
    edge_parts: tuple[tuple[str, str], ...]
    info_parts: tuple[tuple[str, str], ...]
    item: ObjectPlan

    def _requests(self, context: RequestContext, key: str, at: TimeSpan,
                  args: dict[str, Any]) -> tuple[Any, Any, int]:  # fmt: skip
        page: Any
        """The page's request, its count's and the page size, as the resolver makes them."""
        after = args.get("after")
        if self.name == "relationships":
            position = decode_cursor(after, 3) if after else None
            after_ = (position[0], position[1], position[2]) if position else None
            page = edge_request(context, key, at, args.get("types"), args["direction"],
                                args.get("asOf"), args.get("first"), after_)  # fmt: skip
            return page, EdgeRequest(key, page.types, page.direction, page.at, 0), page.limit - 1
        limit = page_size(args.get("first"), context.limits.max_page_size)
        since, until = args.get("since"), args.get("until")
        span = None
        if since is not None or until is not None:
            start = instant(since, "since") if since else 0
            end = instant(until, "until") if until else models.INT64_MAX
            span = TimeSpan(start, end)
        page = EpisodeRequest(key, span, limit + 1, time_position(after))
        return page, EpisodeRequest(key, span, 0), limit

    async def fill(self, context: RequestContext, subjects: Subjects, at: TimeSpan,
                   variables: VariableValues) -> Written:  # fmt: skip
        args = arguments(self.field, self.node, variables)
        try:
            asked = [self._requests(context, s.key, at, args) for s, _ in subjects]
        except PublicError as exc:  # an argument the resolver refuses: reported in its place
            raise Fallback("arguments") from exc
        relationships = self.name == "relationships"
        loaders = context.loaders
        pages, counts = loaders.edges if relationships else loaders.episodes, (
            loaders.edge_counts if relationships else loaders.episode_counts)  # fmt: skip
        counted = any(name == "totalCount" for _, name in self.parts)
        found: list[list[Any]]
        totals: list[int]
        found, totals = await together(
            pages.load_many([a[0] for a in asked]),
            counts.load_many([a[1] for a in asked] if counted else []),
        )
        written: Written = []
        for n, ((subject, out), (_, _, size)) in enumerate(zip(subjects, asked, strict=True)):
            page = found[n][:size]
            items = [(e, subject) for e in page] if relationships else page
            edges, cursors = [], []
            for item in items:
                cursor = _cursor(item, relationships)
                cursors.append(cursor)
                node = self.item.write(item)
                written.append((item, node, at))
                edge = {"cursor": cursor, "node": node, "__typename": _EDGE[self.name]}
                edges.append({k: edge[name] for k, name in self.edge_parts})
            info = {"hasNextPage": len(found[n]) > len(page),
                    "hasPreviousPage": args.get("after") is not None,
                    "startCursor": cursors[0] if cursors else None,
                    "endCursor": cursors[-1] if cursors else None,
                    "__typename": "PageInfo"}  # fmt: skip
            values = {"edges": edges, "pageInfo": {k: info[i] for k, i in self.info_parts},
                      "totalCount": totals[n] if counted else None,
                      "__typename": _CONNECTION[self.name]}  # fmt: skip
            out[self.key] = {k: values[name] for k, name in self.parts}
        return written


_EDGE = {"relationships": "RelationshipEdge", "episodes": "EpisodeEdge"}
_CONNECTION = {"relationships": "RelationshipConnection", "episodes": "EpisodeConnection"}


def _cursor(item: Any, relationships: bool) -> str:
    if relationships:
        return encode_cursor(*item[0].position)
    return encode_cursor(str(models.to_ns(item.occurred_at)), item.key)


@dataclass(frozen=True)
class RecordsPlan:
    """A subject's `sourceRecords(kinds, window, first)`: its items' plan."""

    key: str
    node: FieldNode
    field: GraphQLField
    item: ObjectPlan

    def _request(self, context: RequestContext, key: str, at: TimeSpan,
                 args: dict[str, Any]) -> RecordPageRequest:  # fmt: skip
        limit = page_size(args.get("first"), context.limits.max_page_size)
        given = args.get("window")
        asked = None if given is None else TimeWindowInput(from_=given["from"], to=given["to"])
        span = window(asked, at.end_ns)
        wanted = tuple(sorted(set(args.get("kinds") or ()), key=lambda k: k.value))
        return RecordPageRequest(key, wanted, span, limit)

    async def fill(self, context: RequestContext, subjects: Subjects, at: TimeSpan,
                   variables: VariableValues) -> Written:  # fmt: skip
        args = arguments(self.field, self.node, variables)
        try:
            asked = [self._request(context, s.key, at, args) for s, _ in subjects]
        except PublicError as exc:
            raise Fallback("arguments") from exc
        found = await context.loaders.record_pages.load_many(asked)
        written: Written = []
        for (_, out), records in zip(subjects, found, strict=True):
            out[self.key] = nodes = [self.item.write(r) for r in records]
            written.extend((r, node, at) for r, node in zip(records, nodes, strict=True))
        return written


@dataclass(frozen=True)
class TopPlan:
    """A subject selection at a list's or a root field's level: its own fields, neighbours,
    series and nested pages."""

    subject: SubjectPlan
    series: tuple[SeriesPlan, ...]
    pages: tuple[PagePlan | RecordsPlan, ...]

    def write(self, subject: Read) -> dict[str, Any]:
        return self.subject.write(subject)

    async def complete(self, context: RequestContext, subjects: Subjects, at: TimeSpan,
                       variables: VariableValues) -> None:  # fmt: skip
        """Everything beyond the subjects' own fields, read at once (a round trip each, and
        one more for the subjects the pages' items name)."""
        if not subjects:
            return
        keys = [(s.key, out) for s, out in subjects]
        _, _, *filled = await together(
            read_levels(context, self.subject, at, keys, variables),
            write_series(context, self.series, keys, at, variables),
            *(page.fill(context, subjects, at, variables) for page in self.pages),
        )
        named = zip(self.pages, cast(list[Written], filled), strict=True)
        await together(*(page.item.complete(context, items, variables)
                               for page, items in named))  # fmt: skip


def _parts(scope: Scope, node: FieldNode | None, type_name: str,
           allowed: set[str]) -> tuple[tuple[str, str], ...]:  # fmt: skip
    fields = scope.fields(node.selection_set, type_name) if node is not None else []
    parts = tuple(((f.alias or f.name).value, f.name.value) for f in fields)
    if any(name not in allowed for _, name in parts):
        raise Uncovered("field")
    return parts


def _only(fields: Sequence[FieldNode], name: str) -> FieldNode | None:
    found = [f for f in fields if f.name.value == name]
    if len(found) > 1:
        raise Uncovered("selection")
    return found[0] if found else None


def page_plan(scope: Scope, node: FieldNode, field: GraphQLField) -> PagePlan:
    name = node.name.value
    connection, item_type = f"{PAGES[name]}Connection", PAGES[name]
    fields = scope.fields(node.selection_set, connection)
    parts = _parts(scope, node, connection, {"edges", "pageInfo", "totalCount", "__typename"})
    edge = _only(fields, "edges")
    edge_parts = _parts(scope, edge, f"{item_type}Edge", {"cursor", "node", "__typename"})
    info = _only(fields, "pageInfo")
    info_parts = _parts(scope, info, "PageInfo", _INFO)
    inner = _only(scope.fields(edge.selection_set, f"{item_type}Edge") if edge else [], "node")
    item = object_plan(scope, scope.fields(inner.selection_set if inner else None, item_type),
                       item_type)  # fmt: skip
    key = (node.alias or node.name).value
    return PagePlan(key, name, node, field, parts, edge_parts, info_parts, item)


def top_plan(scope: Scope, fields: Sequence[FieldNode]) -> TopPlan:
    """The plan of a subject selection read at a list's or a root field's level."""
    subject = scope.object("Subject")
    plain = subject_plan(scope, fields, NESTED)
    series: list[SeriesPlan] = []
    pages: list[PagePlan | RecordsPlan] = []
    for node in fields:
        name = node.name.value
        if name == ACTIVITY:
            series.append(series_plan(scope, node, subject.fields[name]))
        elif name in PAGES:
            pages.append(page_plan(scope, node, subject.fields[name]))
        elif name == RECORDS:
            item = object_plan(scope, scope.fields(node.selection_set, "SourceRecord"),
                               "SourceRecord")  # fmt: skip
            pages.append(RecordsPlan((node.alias or node.name).value, node,
                                     subject.fields[name], item))  # fmt: skip
    return TopPlan(plain, tuple(series), tuple(pages))
