"""Compiled subject lists: a query's selection turned once into the batched reads it needs and
a direct writer of its JSON values, with no resolver, Subject object or completion per field.

What a plan covers: root `subjects` fields (and `__typename`), their connection's `edges {
cursor node }`, `pageInfo` and `totalCount`, root `subject(key | id, asOf)` fields, root
`node(id)` and `nodes(ids)` fields (resolvers/node_plan.py), and under a subject (a `node`,
that one, one by id) the fields a subject answers from itself (resolvers/subject.py's
attributes, `id`, `__typename`), `neighbors` to any depth, `activity` series (resolvers/
series_plan.py) and the pages of `relationships`, `episodes` and `sourceRecords` (resolvers/
page_plan.py, resolvers/object_plan.py); fragments are collected per type and any directive
or key selected twice is not covered (resolvers/plan_fields.py). Every read is the plain
path's: `find_subjects` and `count_subjects` with the query `Query.subjects` builds, then
every level of `neighbors` in one `OrgGraph.neighbor_levels` with the pages
`Subject.neighbors` asks for (resolvers/subject_plan.py), the series, and the pages through
the request's loaders; every value is written as the plain path's resolvers and the schema's
scalars write it (tests/test_compiled.py and tests/test_compiled_pages.py compare bodies).

`compile_operation` answers `Uncovered(reason)` for anything else; a run raises `Fallback`
when the plain path would report something (an argument a resolver refuses, a null where
none may be). Either way gateway/compiled.py runs the plain path, which answers the
request and reports any error in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    GraphQLField,
    GraphQLObjectType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
)
from graphql.execution.values import VariableValues

from engine.domain.errors import PublicError
from resolvers.args import page_size, point
from resolvers.context import RequestContext
from resolvers.node_plan import NodePlan, node_plan
from resolvers.page_plan import TopPlan, top_plan
from resolvers.plan_fields import Fallback, Scope, Uncovered, arguments
from resolvers.queries import SubjectFilter, sort_position, subject_query
from resolvers.relay import encode_cursor, from_global_id, storable

__all__ = ["Fallback", "OperationPlan", "Uncovered", "compile_operation"]

_PAGE_INFO = {"hasNextPage", "hasPreviousPage", "startCursor", "endCursor"}
# A root field's span, from its field name and response key (gateway/compiled.py makes them).
Traced = Callable[[str, str], AbstractContextManager[Any]]


@dataclass(frozen=True)
class ListPlan:
    """A root `subjects` field: its connection's parts (edge parts, page info parts) and the
    plan of its nodes."""

    node: FieldNode
    field: GraphQLField
    parts: tuple[tuple[str, str], ...]  # (response key, field name) of the connection
    edge_parts: tuple[tuple[str, str], ...]
    info_parts: tuple[tuple[str, str], ...]
    nodes: TopPlan | None
    cursors: bool  # whether any part selected shows a cursor

    async def run(self, context: RequestContext, variables: VariableValues) -> dict[str, Any]:
        args = arguments(self.field, self.node, variables)
        order = args["orderBy"]
        try:
            size = page_size(args.get("first"), context.limits.max_page_size)
            query = subject_query(
                _filter(args.get("filter")),
                args.get("search"),
                order,
                point(args.get("asOf"), context.now),
            )
            position = sort_position(args.get("after"), order)
        except PublicError as exc:
            raise Fallback("arguments") from exc
        if context.selection.nodes_identity_only([self.node]):
            query = replace(query, brief=True)
        page = await context.graph.find_subjects(query, size, position)
        at = query.at
        assert at is not None
        # Cursors cost an encoding each: made only when the selection shows one.
        cursors = [encode_cursor(str(p[0]), p[1]) for p in page.positions] if self.cursors \
            else [None] * len(page.items)  # fmt: skip
        parents: list[tuple[Any, dict[str, Any]]] = []
        edges = []
        for subject, cursor in zip(page.items, cursors, strict=True):
            edge: dict[str, Any] = {}
            for key, name in self.edge_parts:
                if name == "node" and self.nodes is not None:
                    edge[key] = written = self.nodes.write(subject)
                    parents.append((subject, written))
                else:
                    edge[key] = cursor if name == "cursor" else "SubjectEdge"
            edges.append(edge)
        info = {
            "hasNextPage": page.has_next,
            "hasPreviousPage": args.get("after") is not None,
            "startCursor": cursors[0] if cursors else None,
            "endCursor": cursors[-1] if cursors else None,
            "__typename": "PageInfo",
        }
        out: dict[str, Any] = {}
        for key, name in self.parts:
            if name == "edges":
                out[key] = edges
            elif name == "pageInfo":
                out[key] = {k: info[n] for k, n in self.info_parts}
            elif name == "totalCount":
                out[key] = await context.graph.count_subjects(query)
            else:
                out[key] = "SubjectConnection"
        if self.nodes is not None:
            await self.nodes.complete(context, parents, at, variables)
        return out


def _filter(value: dict[str, Any] | None) -> SubjectFilter | None:
    """The filter argument as strawberry hands it to `Query.subjects`."""
    if value is None:
        return None
    return SubjectFilter(
        kind=value.get("kind"),
        kinds=value.get("kinds"),
        name_prefix=value.get("namePrefix"),
        attributes=value.get("attributes"),
        include_stubs=value.get("includeStubs", False),
    )


@dataclass(frozen=True)
class KeyPlan:
    """A root `subject(key | id, asOf)` field: the subject read as `Query.subject` reads it,
    and the plan of its selection (its neighbours in one more round trip)."""

    node: FieldNode
    field: GraphQLField
    subject: TopPlan

    async def run(self, context: RequestContext, variables: VariableValues) -> Any:
        args = arguments(self.field, self.node, variables)
        key, id_ = args.get("key"), args.get("id")
        if (key is None) == (id_ is None):
            raise Fallback("arguments")  # the resolver's error to report
        if id_ is not None:
            parsed = from_global_id(id_)
            if parsed is None or parsed[0] != "Subject":
                return None
            key = parsed[1]
        assert isinstance(key, str)
        if len(key) > 256 or not storable(key):  # like an unknown key
            return None
        try:
            at = point(args.get("asOf"), context.now)
        except PublicError as exc:
            raise Fallback("arguments") from exc
        found = (await context.graph.subjects_by_keys([key], at)).get(key)
        if found is None:
            return None
        written = self.subject.write(found)
        await self.subject.complete(context, [(found, written)], at, variables)
        return written


@dataclass(frozen=True)
class OperationPlan:
    """A whole query: each root response key's plan (None: `__typename`)."""

    roots: tuple[tuple[str, ListPlan | KeyPlan | NodePlan | None], ...]

    async def run(
        self, context: RequestContext, variables: VariableValues, traced: Traced | None = None
    ) -> dict[str, Any]:
        """The data; `traced`, when tracing is on, makes each root field's span (its name and
        response key), as the plain path's resolver spans (gateway/tracing.py)."""
        data: dict[str, Any] = {}
        for key, root in self.roots:
            if root is None:
                data[key] = "Query"
            elif traced is None:
                data[key] = await root.run(context, variables)
            else:
                with traced(root.node.name.value, key):
                    data[key] = await root.run(context, variables)
        return data


def fragments(document: DocumentNode) -> dict[str, FragmentDefinitionNode]:
    return {d.name.value: d for d in document.definitions
            if isinstance(d, FragmentDefinitionNode)}  # fmt: skip


def compile_operation(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode] | None = None,
) -> OperationPlan:
    """The plan of `operation` (validated already, with its document's `fragments`), or
    Uncovered."""
    if operation.operation is not OperationType.QUERY:
        raise Uncovered("operation")
    query = schema.query_type
    assert query is not None
    scope = Scope(schema, fragments or {})
    roots: list[tuple[str, ListPlan | KeyPlan | NodePlan | None]] = []
    for node in scope.fields(operation.selection_set, query.name):
        name, key = node.name.value, (node.alias or node.name).value
        if name == "__typename":
            roots.append((key, None))
        elif name == "subjects":
            roots.append((key, _list_plan(scope, node, query)))
        elif name == "subject":
            plan = top_plan(scope, scope.fields(node.selection_set, "Subject"))
            roots.append((key, KeyPlan(node, query.fields[name], plan)))
        elif name in ("node", "nodes"):
            roots.append((key, node_plan(scope, node, query.fields[name])))
        else:
            raise Uncovered("field")
    return OperationPlan(tuple(roots))


def _parts(
    scope: Scope, node: FieldNode | None, type_name: str, allowed: set[str]
) -> tuple[tuple[str, str], ...]:
    fields = scope.fields(node.selection_set, type_name) if node is not None else []
    parts = tuple(((f.alias or f.name).value, f.name.value) for f in fields)
    if any(name not in allowed for _, name in parts):
        raise Uncovered("field")
    return parts


def _list_plan(scope: Scope, node: FieldNode, query: GraphQLObjectType) -> ListPlan:
    connection = "SubjectConnection"
    parts = _parts(scope, node, connection, {"edges", "pageInfo", "totalCount", "__typename"})
    fields = scope.fields(node.selection_set, connection)
    edges = [f for f in fields if f.name.value == "edges"]
    infos = [f for f in fields if f.name.value == "pageInfo"]
    if len(edges) > 1 or len(infos) > 1:
        raise Uncovered("selection")
    edge = edges[0] if edges else None
    edge_parts = _parts(scope, edge, "SubjectEdge", {"cursor", "node", "__typename"})
    info_parts = _parts(scope, infos[0] if infos else None, "PageInfo",
                        _PAGE_INFO | {"__typename"})  # fmt: skip
    node_fields = [f for f in (scope.fields(edge.selection_set, "SubjectEdge") if edge else [])
                   if f.name.value == "node"]  # fmt: skip
    if len(node_fields) > 1:
        raise Uncovered("selection")
    nodes = top_plan(scope, scope.fields(node_fields[0].selection_set, "Subject")) \
        if node_fields else None  # fmt: skip
    cursors = any(name == "cursor" for _, name in edge_parts) or any(
        name in ("startCursor", "endCursor") for _, name in info_parts
    )
    return ListPlan(node, query.fields["subjects"], parts, edge_parts, info_parts, nodes, cursors)
