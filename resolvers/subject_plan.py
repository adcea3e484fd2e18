"""A compiled Subject selection (resolvers/compiled.py): a writer of each response key from the
stored subject (or, read brief, its identity), as Subject.from_model and the schema's scalars
write it, and the levels of `neighbors` under it, all read in one round trip
(OrgGraph.neighbor_levels) with the pages Subject.neighbors asks for (prefetch.
neighbor_request) and written into their parents' places. The `activity` of a level's
subjects is read after the levels (resolvers/series_plan.py: one round trip per level that
selects it, all at once), as of the level's time, as the plain path's neighbours read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, cast

from graphql import (
    FieldNode,
    GraphQLField,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLOutputType,
)
from graphql.execution.values import VariableValues

from engine.domain.errors import PublicError
from engine.domain.models import StoredSubject
from engine.ports import EdgeRequest, NeighborLevel, SubjectIdentity, TimeSpan
from resolvers.context import RequestContext
from resolvers.plan_fields import (
    Fallback,
    Parents,
    Scope,
    Uncovered,
    arguments,
    constant_arguments,
    together,
)
from resolvers.prefetch import neighbor_request
from resolvers.relay import to_global_id
from resolvers.series_plan import SeriesPlan, series_plan, write_series

__all__ = ["Fallback", "Parents", "Read", "SubjectPlan", "Uncovered", "arguments",
           "field_writer", "read_levels", "subject_plan"]  # fmt: skip

# What a plan writes a subject from: a stored subject, or its identity alone (a brief read).
Read = StoredSubject | SubjectIdentity
Write = Callable[[Read], Any]
NEIGHBORS = "neighbors"
ACTIVITY = "activity"


def _stored(read: Callable[[StoredSubject], Any]) -> Write:
    """A reader of a field beyond identity: a selection holding one is never read brief
    (resolvers/selection.py), so it is only ever given a stored subject."""
    return cast(Write, read)


# A subject's fields answered from the stored subject itself, as Subject.from_model sets them.
_READERS: dict[str, Write] = {
    "id": lambda s: to_global_id("Subject", s.key),
    "key": attrgetter("key"),
    "kind": attrgetter("kind"),
    "name": attrgetter("name"),
    "aliases": _stored(lambda s: list(s.aliases)),
    "previousNames": _stored(lambda s: list(s.previous_names)),
    "description": _stored(attrgetter("description")),
    "attributes": _stored(lambda s: dict(s.attributes)),
    "validFrom": _stored(attrgetter("valid_from")),
    "validTo": _stored(attrgetter("valid_to")),
    "stub": _stored(attrgetter("stub")),
}
_AS_IS: dict[str, type] = {"String": str, "ID": str, "Boolean": bool}  # Int: range-checked


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
    fixed: dict[str, Any] | None = None  # its arguments, when no variable: plan_fields


@dataclass(frozen=True)
class SubjectPlan:
    """A Subject selection: each response key's writer (neighbors written later, by level,
    and the activity series of a level's subjects after them)."""

    writers: tuple[tuple[str, Write], ...]
    neighbors: tuple[Neighbors, ...]
    series: tuple[SeriesPlan, ...] = ()
    # Made once from `writers`: every response key in order, the places written later (the
    # last writer of a key `_nothing`) holding None, and the writers of the others. A write
    # copies the places and fills the rest: the same dict as one writer call per key, without
    # a call for each place kept (a dashboard page writes hundreds of subjects).
    _places: dict[str, None] = dataclasses.field(init=False, repr=False, compare=False)
    _own: tuple[tuple[str, Write], ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        last = dict(self.writers)  # a key given twice is written by its last writer
        object.__setattr__(self, "_places", dict.fromkeys(last))
        own = tuple((key, write) for key, write in last.items() if write is not _nothing)
        object.__setattr__(self, "_own", own)

    def write(self, subject: Read) -> dict[str, Any]:
        out: dict[str, Any] = self._places.copy()
        for key, write in self._own:
            out[key] = write(subject)
        return out


def field_writer(read: Write, type_: GraphQLOutputType) -> Write:
    """One call per field and subject: the value read, written as its type writes it (a value
    of the very type its scalar writes unchanged, as read)."""
    required = isinstance(type_, GraphQLNonNull)
    named = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    if not isinstance(named, GraphQLLeafType):
        coerce = _leaf(type_)  # a list
        return lambda subject: coerce(read(subject))
    same, serialize = _AS_IS.get(named.name), named.serialize

    def write(subject: Read) -> Any:
        value = read(subject)
        if type(value) is same:
            return value
        if value is None:
            if required:
                raise Fallback("null")
            return None
        return serialize(value)

    return write


def _nothing(_: Read) -> None:
    return None


def subject_plan(
    scope: Scope,
    fields: Sequence[FieldNode],
    later: frozenset[str] = frozenset(),
    neighbors: bool = True,
) -> SubjectPlan:
    """The plan of a Subject selection; fields named in `later` are written by the caller
    (their places kept), any other beyond a subject's own fields, `neighbors` and, on a level
    of neighbours, `activity` (unless `neighbors` is false: a subject whose neighbours and
    series no plan reads) is not covered."""
    subject = scope.object("Subject")
    writers: list[tuple[str, Write]] = []
    levels: list[Neighbors] = []
    series: list[SeriesPlan] = []
    for node in fields:
        key, name = (node.alias or node.name).value, node.name.value
        if name == "__typename":
            writers.append((key, lambda _s: "Subject"))
        elif name == NEIGHBORS and neighbors:
            inner = subject_plan(scope, scope.fields(node.selection_set, "Subject"))
            field = subject.fields[name]
            levels.append(Neighbors(key, node, field, inner, constant_arguments(field, node)))
            writers.append((key, _nothing))  # keeps the key's place in the response
        elif name in _READERS:
            writers.append((key, field_writer(_READERS[name], subject.fields[name].type)))
        elif name in later:
            writers.append((key, _nothing))
        elif name == ACTIVITY and neighbors:
            series.append(series_plan(scope, node, subject.fields[name]))
            writers.append((key, _nothing))
        else:
            raise Uncovered("field")
    return SubjectPlan(tuple(writers), tuple(levels), tuple(series))


def _template(
    context: RequestContext, plan: Neighbors, variables: VariableValues, at: TimeSpan
) -> EdgeRequest:
    """The field's request but for its parent's key: its time is its own `asOf` or its
    parent's."""
    args = plan.fixed if plan.fixed is not None else arguments(plan.field, plan.node, variables)
    try:
        return neighbor_request(
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


def _levels(
    context: RequestContext,
    plan: SubjectPlan,
    variables: VariableValues,
    at: TimeSpan,
    numbered: list[tuple[Neighbors, TimeSpan]],
) -> tuple[NeighborLevel, ...]:
    """The tree of `plan`'s neighbors fields as the port reads it, each field (and the time
    its subjects are read at) appended to `numbered` in the port's (preorder) numbering."""
    levels = []
    for field in plan.neighbors:
        request = _template(context, field, variables, at)
        span = request.at or at
        numbered.append((field, span))
        under = _levels(context, field.inner, variables, span, numbered)
        levels.append(NeighborLevel(request.types, request.direction, span, request.limit,
                                    request.brief, under))  # fmt: skip
    return tuple(levels)


async def read_levels(
    context: RequestContext,
    plan: SubjectPlan,
    at: TimeSpan,
    parents: Parents,
    variables: VariableValues,
) -> None:
    """Every level of `neighbors` under `parents` (subjects `plan` wrote, as of `at`) in one
    round trip (OrgGraph.neighbor_levels), written into the parents' places as the plain
    path's resolvers write them."""
    if not plan.neighbors or not parents:
        return
    numbered: list[tuple[Neighbors, TimeSpan]] = []
    levels = _levels(context, plan, variables, at, numbered)
    context.batch("neighbors_read_ahead", len(parents))
    found = await context.graph.neighbor_levels([key for key, _ in parents], levels)
    index = {id(field): n for n, (field, _) in enumerate(numbered)}
    written: dict[int, Parents] = {id(f): [] for f, _ in numbered if f.inner.series}
    _fill(plan, parents, found, index, written)
    await together(*(write_series(context, field.inner.series, written[id(field)], span,
                                  variables)
                     for field, span in numbered if field.inner.series))  # fmt: skip


def _fill(
    plan: SubjectPlan,
    parents: Parents,
    found: list[dict[str, list[Read]]],
    index: dict[int, int],
    written: dict[int, Parents],
) -> None:
    """Each parent's answer to each neighbors field (as neighbors_of makes it: the page's
    distinct other ends), then the levels under those answers; the subjects of a field whose
    items select `activity` kept in `written` (by the field's id), each written place once."""
    for field in plan.neighbors:
        pages = found[index[id(field)]]
        write = field.inner.write
        deeper = bool(field.inner.neighbors) or id(field) in written
        children: Parents = []
        answers: dict[str, list[dict[str, Any]]] = {}  # a subject under several parents
        for key, out in parents:
            answer = answers.get(key)
            if answer is None:
                page = pages.get(key, ())
                if len(page) == 1:  # most of a page: an owner, a single dependency
                    answer = [write(page[0])]
                    if deeper:
                        children.append((page[0].key, answer[0]))
                else:
                    answer = _distinct(page, write, children if deeper else None)
                answers[key] = answer
            out[field.key] = answer
        if id(field) in written:
            written[id(field)].extend(children)
        if children and field.inner.neighbors:
            _fill(field.inner, children, found, index, written)


def _distinct(
    page: Sequence[Read], write: Callable[[Read], dict[str, Any]], children: Parents | None
) -> list[dict[str, Any]]:
    """A page's distinct other ends, written (and kept in `children` to fill further)."""
    answer: list[dict[str, Any]] = []
    seen: set[str] = set()
    for other in page:
        if other.key in seen:
            continue
        seen.add(other.key)
        written = write(other)
        answer.append(written)
        if children is not None:
            children.append((other.key, written))
    return answer
