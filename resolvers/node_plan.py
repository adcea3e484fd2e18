"""Compiled root `node(id)` and `nodes(ids)` fields (resolvers/compiled.py): each id read as
Query.node reads it (a subject, episode, source record or relationship through the request's
loaders, as of now; anything unknown, malformed or of another organisation answers null) and
written by the plan of its type's selection (its fragments collected for that type).

An investigation result's id is the plain path's to answer (Fallback): its type is the
investigation engine's, which no plan writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import FieldNode, GraphQLField
from graphql.execution.values import VariableValues

from resolvers.context import RequestContext
from resolvers.object_plan import ObjectPlan, object_plan
from resolvers.page_plan import TopPlan, top_plan
from resolvers.plan_fields import Fallback, Scope, arguments, together
from resolvers.queries import MAX_NODES
from resolvers.relay import from_global_id, relationship_ends

_READ = ("Subject", "Episode", "SourceRecord", "Relationship")  # the types a plan reads
_PLAIN = ("InvestigationResult",)  # the plain path's


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

    async def run(self, context: RequestContext, variables: VariableValues) -> Any:
        args = arguments(self.field, self.node, variables)
        ids: list[str] = args["ids"] if self.many else [args["id"]]
        if len(ids) > MAX_NODES:
            raise Fallback("arguments")  # the resolver's error to report
        parsed = [from_global_id(i) for i in ids]
        if any(p is not None and p[0] in _PLAIN for p in parsed):
            raise Fallback("node")
        wanted = [p if p is not None and p[0] in _READ else None for p in parsed]
        loaders = context.loaders
        found = await together(*(_read(loaders, w) for w in wanted))
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


async def _read(loaders: Any, wanted: tuple[str, str] | None) -> Any:
    if wanted is None:
        return None
    kind, local = wanted
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
    return NodePlan(
        node,
        field,
        node.name.value == "nodes",
        top_plan(scope, scope.fields(selection, "Subject")),
        object_plan(scope, scope.fields(selection, "Episode"), "Episode"),
        object_plan(scope, scope.fields(selection, "SourceRecord"), "SourceRecord"),
        object_plan(scope, scope.fields(selection, "Relationship"), "Relationship"),
    )
