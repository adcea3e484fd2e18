"""Compiled selections of a source record, an episode and a relationship (resolvers/
compiled.py): a writer of each response key from the stored model, as SourceRecord, Episode
and Relationship.from_edge and the schema's scalars write it, and the subjects they name
(a record's `subject` and `actor`, an episode's `mentions`) read after them through the
request's loaders, as the plain path's resolvers read them (one round trip for all).

A subject named here is written from its own fields only (resolvers/subject_plan.py, no
`neighbors`); anything else is not covered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from graphql import FieldNode, GraphQLField
from graphql.execution.values import VariableValues

from engine.domain.errors import PublicError
from engine.domain.models import StoredSubject
from engine.ports import TimeSpan
from resolvers.args import point
from resolvers.context import RequestContext
from resolvers.plan_fields import Fallback, Scope, Uncovered, arguments, together
from resolvers.relay import to_global_id
from resolvers.subject_plan import SubjectPlan, field_writer, subject_plan

Read = Callable[[Any], Any]


def _id(type_name: str) -> Read:
    return lambda item: to_global_id(type_name, item.key)


def _relationship_id(item: Any) -> str:
    rel = item[0].relationship
    return to_global_id("Relationship", json.dumps([rel.from_key, rel.rel_id]))


def _rel(name: str) -> Read:
    get = attrgetter(name)
    return lambda item: get(item[0].relationship)


_RECORD_FIELDS = ("key", "start", "end", "due", "status", "severity", "environment", "metric",
                  "value", "title", "source")  # fmt: skip
# Each type's fields answered from its model alone (a relationship's item: (edge, anchor)).
_READERS: dict[str, dict[str, Read]] = {
    "SourceRecord": {
        "id": _id("SourceRecord"),
        "recordKind": attrgetter("record_kind"),
        **{f: attrgetter(f) for f in _RECORD_FIELDS},
    },
    "Episode": {
        "id": _id("Episode"),
        "occurredAt": attrgetter("occurred_at"),
        **{f: attrgetter(f) for f in ("key", "text", "source")},
    },
    "Relationship": {
        "id": _relationship_id,
        "type": _rel("type"),
        "validFrom": _rel("valid_from"),
        "validTo": _rel("valid_to"),
        "evidence": _rel("evidence"),
        "source": _rel("source"),
    },
}
# The fields naming subjects read after the object: what the plain path's resolver reads.
_NAMED = {"SourceRecord": {"subject", "actor"}, "Episode": {"mentions"}}


@dataclass(frozen=True)
class Named:
    """A field naming subjects (a record's subject or actor, an episode's mentions)."""

    key: str
    name: str
    node: FieldNode
    field: GraphQLField
    plan: SubjectPlan


@dataclass(frozen=True)
class ObjectPlan:
    """An object selection: each response key's writer, and its fields naming subjects."""

    writers: tuple[tuple[str, Read], ...]
    named: tuple[Named, ...]

    def write(self, item: Any) -> dict[str, Any]:
        return {key: write(item) for key, write in self.writers}

    async def complete(
        self,
        context: RequestContext,
        items: Sequence[tuple[Any, dict[str, Any], TimeSpan]],
        variables: VariableValues,
    ) -> None:
        """The subjects each written item (model, place, the time its parent read at) names,
        read through the request's subject loader (one round trip per distinct time)."""
        if not self.named or not items:
            return
        wanted: list[tuple[dict[str, Any], Named, list[str], TimeSpan | None, bool]] = []
        for named in self.named:
            for item, out, at in items:
                if named.name == "mentions":
                    as_of = arguments(named.field, named.node, variables).get("asOf")
                    try:
                        when: TimeSpan | None = point(as_of, at)
                    except PublicError as exc:
                        raise Fallback("arguments") from exc
                    wanted.append((out, named, list(item.mentions), when, True))
                else:
                    key = item.subject if named.name == "subject" else item.actor
                    wanted.append((out, named, [] if key is None else [key], None, False))
        loader = context.loaders
        found = await together(
            *(together(*(loader.subject(k, when) for k in keys))
              for _, _, keys, when, _ in wanted)
        )  # fmt: skip
        for (out, named, _, _, many), subjects in zip(wanted, found, strict=True):
            written = [named.plan.write(s) for s in subjects if s is not None]
            out[named.key] = written if many else (written[0] if written else None)


def _typename(name: str) -> Read:
    return lambda _item: name


def _nothing(_: Any) -> None:
    return None


def _end(plan: SubjectPlan, start: bool) -> Read:
    """A relationship's `from` (start) or `to`: the anchor or the other end, as
    Relationship.from_edge places them."""

    def write(item: tuple[Any, StoredSubject]) -> dict[str, Any]:
        edge, anchor = item
        first, second = (anchor, edge.other) if edge.outgoing else (edge.other, anchor)
        return plan.write(first if start else second)

    return write


def object_plan(scope: Scope, fields: Sequence[FieldNode], type_name: str) -> ObjectPlan:
    """The plan of a SourceRecord, Episode or Relationship selection."""
    owner = scope.object(type_name)
    readers = _READERS[type_name]
    writers: list[tuple[str, Read]] = []
    named: list[Named] = []
    for node in fields:
        key, name = (node.alias or node.name).value, node.name.value
        if name == "__typename":
            writers.append((key, _typename(type_name)))
        elif name in readers:
            writers.append((key, field_writer(readers[name], owner.fields[name].type)))
        elif type_name == "Relationship" and name in ("from", "to"):
            plan = subject_plan(scope, scope.fields(node.selection_set, "Subject"),
                                neighbors=False)  # fmt: skip
            writers.append((key, _end(plan, name == "from")))
        elif name in _NAMED.get(type_name, ()):
            plan = subject_plan(scope, scope.fields(node.selection_set, "Subject"),
                                neighbors=False)  # fmt: skip
            named.append(Named(key, name, node, owner.fields[name], plan))
            writers.append((key, _nothing))  # keeps the key's place in the response
        else:
            raise Uncovered("field")
    return ObjectPlan(tuple(writers), tuple(named))
