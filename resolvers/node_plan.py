"""Compiled root `node(id)` and `nodes(ids)` fields (resolvers/compiled.py): each id read as
Query.node reads it (a subject, episode, source record or relationship through the request's
loaders, as of now; anything unknown, malformed or of another organisation answers null) and
written by the plan of its type's selection (its fragments collected for that type).

An investigation result is read as Query.node reads it (resolvers/investigation.py's
result_by_id) and written when its selection asks no more than `id` and `__typename`, as a
page that selects another type's fields (the dashboard's RecordDetail) asks it. Any other
field of it is the investigation engine's type, which no plan writes: such a selection runs
the plain path (Fallback "node") whenever an investigation result's id is asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import FieldNode, GraphQLField
from graphql.execution.values import VariableValues

from resolvers.context import RequestContext
from resolvers.investigation import result_by_id
from resolvers.object_plan import ObjectPlan, object_plan
from resolvers.page_plan import TopPlan, top_plan
from resolvers.plan_fields import Fallback, Scope, arguments, together
from resolvers.queries import MAX_NODES
from resolvers.relay import from_global_id, relationship_ends, to_global_id

_READ = ("Subject", "Episode", "SourceRecord", "Relationship", "InvestigationResult")
_RESULT = "InvestigationResult"
_RESULT_FIELDS = ("id", "__typename")  # the fields of an investigation result a plan writes


@dataclass(frozen=True)
class NodePlan:
    """`node(id)` (many: false) or `nodes(ids)`, and the plan of each type's selection."""

    node: FieldNode
    field: GraphQLField
    many: bool
    subject: TopPlan
    episode: ObjectPlan
    record: ObjectPlan
    relationship: ObjectPlan
    result: tuple[tuple[str, str], ...] | None  # (key, field) of a result's; None: not covered

    async def run(self, context: RequestContext, variables: VariableValues) -> Any:
        args = arguments(self.field, self.node, variables)
        ids: list[str] = args["ids"] if self.many else [args["id"]]
        if len(ids) > MAX_NODES:
            raise Fallback("arguments")  # the resolver's error to report
        parsed = [from_global_id(i) for i in ids]
        if self.result is None and any(p is not None and p[0] == _RESULT for p in parsed):
            raise Fallback("node")
        wanted = [p if p is not None and p[0] in _READ else None for p in parsed]
        found = await together(*(_read(context, w) for w in wanted))
        now = context.now
        answers: list[dict[str, Any] | None] = []
        subjects: list[tuple[Any, dict[str, Any]]] = []
        episodes: list[tuple[Any, dict[str, Any], Any]] = []
        records: list[tuple[Any, dict[str, Any], Any]] = []
        for asked, item in zip(wanted, found, strict=True):
            if asked is None or item is None:
                answers.append(None)
                continue
            kind = asked[0]
            if kind == "Relationship":  # (edge, anchor): nothing to read after it
                answers.append(self.relationship.write(item))
                continue
            if kind == _RESULT:
                answers.append(_write_result(self.result or (), item))
                continue
            plan = self.subject if kind == "Subject" else (
                self.episode if kind == "Episode" else self.record)  # fmt: skip
            answers.append(written := plan.write(item))
            if kind == "Subject":
                subjects.append((item, written))
            else:
                (episodes if kind == "Episode" else records).append((item, written, now))
        await together(
            self.subject.complete(context, subjects, now, variables),
            self.episode.complete(context, episodes, variables),
            self.record.complete(context, records, variables),
        )
        return answers if self.many else answers[0]


def _write_result(fields: tuple[tuple[str, str], ...], result: Any) -> dict[str, Any]:
    """An investigation result's id and type name, as InvestigationResult.of writes them."""
    return {key: to_global_id(_RESULT, result.id) if name == "id" else _RESULT
            for key, name in fields}  # fmt: skip


async def _read(context: RequestContext, wanted: tuple[str, str] | None) -> Any:
    if wanted is None:
        return None
    kind, local = wanted
    loaders = context.loaders
    if kind == _RESULT:
        return await result_by_id(context.graph, local)
    if kind == "Subject":
        return await loaders.subject(local, None)
    if kind == "Episode":
        return await loaders.episodes_by_key.load(local)
    if kind == "Relationship":
        return await _relationship(loaders, local)
    return await loaders.records_by_key.load(local)


async def _relationship(loaders: Any, local: str) -> Any:
    """A relationship's id, [start key, relationship id], read as Query.node reads it: the
    edge from its start, and the start itself as of now (edge, anchor); null when either is
    missing or the id is not two strings."""
    ends = relationship_ends(local)
    if ends is None:
        return None
    start, rel_id = ends
    edge, anchor = await together(loaders.edges_by_id.load((start, rel_id)),
                                  loaders.subject(start, None))  # fmt: skip
    return None if edge is None or anchor is None else (edge, anchor)


def node_plan(scope: Scope, node: FieldNode, field: GraphQLField) -> NodePlan:
    selection = node.selection_set
    result = tuple(((f.alias or f.name).value, f.name.value)
                   for f in scope.fields(selection, _RESULT))  # fmt: skip
    return NodePlan(
        node,
        field,
        node.name.value == "nodes",
        top_plan(scope, scope.fields(selection, "Subject")),
        object_plan(scope, scope.fields(selection, "Episode"), "Episode"),
        object_plan(scope, scope.fields(selection, "SourceRecord"), "SourceRecord"),
        object_plan(scope, scope.fields(selection, "Relationship"), "Relationship"),
        result if all(name in _RESULT_FIELDS for _, name in result) else None,
    )
