"""A compiled Subject selection (resolvers/compiled.py): a writer of each response key from the
stored subject, as Subject.from_model and the schema's scalars write it, and the levels of
`neighbors` under it, read one level per round trip with the requests Subject.neighbors
makes (prefetch.neighbor_request) and written into their parents' places.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from graphql import (
    FieldNode,
    GraphQLError,
    GraphQLField,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
)
from graphql.execution.values import VariableValues, get_argument_values

from engine.domain.errors import PublicError
from engine.domain.models import StoredSubject
from engine.ports import EdgeRequest, TimeSpan
from resolvers.context import RequestContext
from resolvers.prefetch import MAX_REQUESTS, neighbor_request
from resolvers.relay import to_global_id
from resolvers.selection import plain_fields

Write = Callable[[StoredSubject], Any]
NEIGHBORS = "neighbors"
# A subject's fields answered from the stored subject itself, as Subject.from_model sets them.
_READERS: dict[str, Callable[[StoredSubject], Any]] = {
    "id": lambda s: to_global_id("Subject", s.key),
    "key": attrgetter("key"),
    "kind": attrgetter("kind"),
    "name": attrgetter("name"),
    "aliases": lambda s: list(s.aliases),
    "previousNames": lambda s: list(s.previous_names),
    "description": attrgetter("description"),
    "attributes": lambda s: dict(s.attributes),
    "validFrom": attrgetter("valid_from"),
    "validTo": attrgetter("valid_to"),
    "stub": attrgetter("stub"),
}
_AS_IS: dict[str, type] = {"String": str, "ID": str, "Boolean": bool}  # Int: range-checked


class Uncovered(Exception):
    """The compiler does not cover this operation; `reason` says what (a metric label)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Fallback(Exception):
    """This run is the plain path's to answer: it reports what is wrong in its place."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _leaf(type_: GraphQLOutputType) -> Callable[[Any], Any]:
    """The scalar's or enum's own output coercion, through its list and non-null wrappers; a
    value it refuses (or a null where none may be) is the plain path's to report."""
    if isinstance(type_, GraphQLNonNull):
        inner = _leaf(type_.of_type)

        def non_null(value: Any) -> Any:
            if value is None:
                raise Fallback("null")
            return inner(value)

        return non_null
    if isinstance(type_, GraphQLList):
        item = _leaf(type_.of_type)
        return lambda value: None if value is None else [item(v) for v in value]
    if not isinstance(type_, GraphQLLeafType):
        raise Uncovered("field")
    coerce = type_.serialize
    same = _AS_IS.get(type_.name)  # a value these scalars write unchanged

    def leaf(value: Any) -> Any:
        if value is None or type(value) is same:
            return value
        return coerce(value)

    return leaf


@dataclass(frozen=True)
class Neighbors:
    """One `neighbors` field: its response key, node, definition and the plan of its items."""

    key: str
    node: FieldNode
    field: GraphQLField
    inner: SubjectPlan


@dataclass(frozen=True)
class SubjectPlan:
    """A Subject selection: each response key's writer (neighbors written later, by level)."""

    writers: tuple[tuple[str, Write], ...]
    neighbors: tuple[Neighbors, ...]

    def write(self, subject: StoredSubject) -> dict[str, Any]:
        return {key: write(subject) for key, write in self.writers}


def _writer(read: Write, type_: GraphQLOutputType) -> Write:
    """One call per field and subject: the value read, written as its type writes it (a value
    of the very type its scalar writes unchanged, as read)."""
    required = isinstance(type_, GraphQLNonNull)
    named = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    if not isinstance(named, GraphQLLeafType):
        coerce = _leaf(type_)  # a list
        return lambda subject: coerce(read(subject))
    same, serialize = _AS_IS.get(named.name), named.serialize

    def write(subject: StoredSubject) -> Any:
        value = read(subject)
        if type(value) is same:
            return value
        if value is None:
            if required:
                raise Fallback("null")
            return None
        return serialize(value)

    return write


def _nothing(_: StoredSubject) -> None:
    return None


def subject_plan(schema: GraphQLSchema, fields: Sequence[FieldNode] | None) -> SubjectPlan:
    subject = schema.type_map["Subject"]
    assert isinstance(subject, GraphQLObjectType)
    if fields is None:
        raise Uncovered("selection")
    writers: list[tuple[str, Write]] = []
    neighbors: list[Neighbors] = []
    for node in fields:
        key, name = (node.alias or node.name).value, node.name.value
        if name == "__typename":
            writers.append((key, lambda _s: "Subject"))
        elif name == NEIGHBORS:
            inner = subject_plan(schema, plain_fields(node.selection_set))
            neighbors.append(Neighbors(key, node, subject.fields[name], inner))
            writers.append((key, _nothing))  # keeps the key's place in the response
        elif name in _READERS:
            writers.append((key, _writer(_READERS[name], subject.fields[name].type)))
        else:
            raise Uncovered("field")
    return SubjectPlan(tuple(writers), tuple(neighbors))


def arguments(field: GraphQLField, node: FieldNode, variables: VariableValues) -> dict[str, Any]:
    try:
        values: dict[str, Any] = get_argument_values(field, node, variables)
    except GraphQLError as exc:
        raise Fallback("arguments") from exc
    return values


Level = list[tuple[TimeSpan, str, dict[str, Any], SubjectPlan]]
Ident = tuple[int, str, int, int]
Asked = list[tuple[dict[str, Any], Neighbors, Ident, TimeSpan, int]]


def _template(
    context: RequestContext, plan: Neighbors, variables: VariableValues, at: TimeSpan
) -> tuple[EdgeRequest, bool]:
    """The field's request but for its parent's key (and time, unless it names its own)."""
    args = arguments(plan.field, plan.node, variables)
    try:
        request = neighbor_request(
            context,
            [plan.node],
            "",
            at,
            args.get("types"),
            args["direction"],
            args.get("asOf"),
            args.get("first"),
        )
    except PublicError as exc:
        raise Fallback("arguments") from exc
    return request, args.get("asOf") is not None


async def read_levels(context: RequestContext, level: Level, variables: VariableValues) -> None:
    """Every level of `neighbors` under `level`, one read per level (as the read-ahead reads
    them: resolvers/prefetch.py), written into the parents' places. Requests are told apart
    by (template, key, time) in plain values: hashing an EdgeRequest hashes its enums in
    Python, thousands of times a page."""
    templates: dict[int, tuple[EdgeRequest, bool]] = {}
    canonical: dict[EdgeRequest, EdgeRequest] = {}  # fields asking alike share one template
    read: dict[Ident, list[StoredSubject]] = {}
    made = 0
    while level:
        asked: Asked = []
        fresh: dict[Ident, EdgeRequest] = {}
        for at, key, out, plan in level:
            for field in plan.neighbors:
                shape = templates.get(id(field))
                if shape is None:
                    template, own_time = _template(context, field, variables, at)
                    shape = (canonical.setdefault(template, template), own_time)
                    templates[id(field)] = shape
                t, own_time = shape
                span = t.at if own_time and t.at is not None else at
                ident = (id(t), key, span.start_ns, span.end_ns)
                if ident not in read and ident not in fresh:
                    fresh[ident] = EdgeRequest(
                        key, t.types, t.direction, span, t.limit, None, t.brief
                    )
                asked.append((out, field, ident, span, t.limit))
        made += len(fresh)
        if made > MAX_REQUESTS:
            raise Fallback("size")  # the plain path's loaders read the rest
        if fresh:
            context.batch("neighbors_read_ahead", len(fresh))
            found = await context.graph.neighbors(list(fresh.values()))
            read.update(zip(fresh, found, strict=True))
        level = _answer(asked, read)


def _answer(asked: Asked, read: dict[Ident, list[StoredSubject]]) -> Level:
    """Each parent's answer (as neighbors_of makes it: the page's distinct other ends); the
    next level is the answers whose selection has neighbors of its own."""
    built: dict[tuple[Ident, int], list[dict[str, Any]]] = {}
    following: Level = []
    for out, field, ident, at, limit in asked:
        answer = built.get((ident, id(field)))
        if answer is None:
            answer = built[(ident, id(field))] = []
            seen: set[str] = set()
            for other in read[ident][:limit]:
                if other.key in seen:
                    continue
                seen.add(other.key)
                written = field.inner.write(other)
                answer.append(written)
                if field.inner.neighbors:
                    following.append((at, other.key, written, field.inner))
        out[field.key] = answer
    return following
