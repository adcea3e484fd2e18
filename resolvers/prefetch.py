"""Reading ahead: the neighbors a selection will ask for, one round trip per level, before
graphql-core walks the result.

The loaders already make round trips follow the depth of a query, not its size, but each of
hundreds of parent objects still pays for a coroutine, a future and a task per nested field.
When a selection is plain (fields and aliases with literal or variable arguments; no
fragments or directives), the list's resolver reads every level of `neighbors` ahead and the
nested fields then answer synchronously from what was read. Anything the read-ahead does not
understand, or a request it did not make, falls back to the loaders, which give the same
answer: both read through `OrgGraph.edges` with the same `EdgeRequest`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from graphql import FieldNode, GraphQLError, GraphQLObjectType, GraphQLResolveInfo
from graphql.execution.values import VariableValues, get_argument_values

from engine.domain import models
from engine.domain.errors import PublicError
from engine.domain.models import StoredSubject
from engine.ports import EdgeRequest, GraphError, TimeSpan
from resolvers.args import page_size, point
from resolvers.context import RequestContext
from resolvers.selection import plain_fields

NEIGHBORS = "neighbors"
# A bound on how many edge requests one read-ahead makes in all; past it, loaders take over.
MAX_REQUESTS = 20_000

Raw = GraphQLResolveInfo[RequestContext]


def relationship_types(
    values: Sequence[models.RelationshipType] | None,
) -> tuple[models.RelationshipType, ...]:
    return tuple(sorted(set(values or ()), key=lambda t: t.value))


def edge_request(
    context: RequestContext,
    key: str,
    inherited: TimeSpan,
    types: Sequence[models.RelationshipType] | None,
    direction: models.Direction,
    as_of: datetime | None,
    first: int | None,
    after: tuple[str, str, str] | None = None,
    brief: bool = False,
    lookahead: int = 1,
) -> EdgeRequest:
    """A subject's edges as a field's arguments ask for them: the page and `lookahead` more
    (a connection reads one more, to tell whether there is a next page)."""
    return EdgeRequest(
        key=key,
        types=relationship_types(types),
        direction=direction,
        at=point(as_of, inherited),
        limit=page_size(first, context.limits.max_page_size) + lookahead,
        after=after,
        brief=brief,
    )


def neighbor_request(
    context: RequestContext,
    field_nodes: Sequence[FieldNode],
    key: str,
    inherited: TimeSpan,
    types: Sequence[models.RelationshipType] | None,
    direction: models.Direction,
    as_of: datetime | None,
    first: int | None,
) -> EdgeRequest:
    """The one request `Subject.neighbors` makes for its arguments (resolver and read-ahead
    must agree on it exactly: it is the key of what was read). A list with no next page to
    tell reads its page and no more: what the cost limiter charges."""
    brief = context.selection.identity_only(field_nodes)
    return edge_request(
        context, key, inherited, types, direction, as_of, first, brief=brief, lookahead=0
    )


def _arguments(raw: Raw, field: FieldNode) -> dict[str, Any] | None:
    subject = raw.schema.get_type("Subject")
    assert isinstance(subject, GraphQLObjectType)
    try:
        values: dict[str, Any] = get_argument_values(
            subject.fields[NEIGHBORS], field, _variables(raw)
        )
    except GraphQLError:
        return None  # the resolver reports it, in its place
    return values


def _template(raw: Raw, field: FieldNode, at: TimeSpan) -> tuple[EdgeRequest, bool] | None:
    """The field's request but for its parent's key (and time), and whether the field names
    its own time; None when its arguments are the resolver's to refuse, in its place."""
    args = _arguments(raw, field)
    if args is None:
        return None
    try:
        request = neighbor_request(
            raw.context,
            [field],
            "",
            at,
            args.get("types"),
            args.get("direction", models.Direction.BOTH),
            args.get("asOf"),
            args.get("first"),
        )
    except PublicError:
        return None
    return request, args.get("asOf") is not None


def _for(template: EdgeRequest, key: str, at: TimeSpan | None) -> EdgeRequest:
    # dataclasses.replace looks the fields up again on every call: hundreds per level.
    t = template
    return EdgeRequest(key, t.types, t.direction, at, t.limit, t.after, t.brief)


def _variables(raw: Raw) -> VariableValues:
    # strawberry's resolve info carries the coerced values only; literals need nothing else.
    values: Any = raw.variable_values
    return values if isinstance(values, VariableValues) else VariableValues({}, dict(values))


class Ahead(Protocol):
    """What the read-ahead needs of a parent object: its key, its read time, and a place for
    what its `neighbors` fields will answer (by field node)."""

    key: str
    at: TimeSpan
    ahead: dict[int, list[Any]] | None


Build = Callable[[list[StoredSubject], EdgeRequest], list[Any]]


def answered_ahead(parent: Any, field_node_id: int) -> list[Any] | None:
    """The answer the read-ahead hung on `parent` for one `neighbors` field node, if any (the
    fast path of resolvers/schema.py and of completion plans)."""
    ahead: dict[int, list[Any]] | None = getattr(parent, "ahead", None)
    return ahead.get(field_node_id) if ahead is not None else None


async def read_ahead(
    raw: Raw, parents: Sequence[tuple[Ahead, Sequence[FieldNode]]], build: Build
) -> None:
    """Read every level of `neighbors` under `parents` (objects and their selected fields),
    one round trip per level; `build` makes a field's answer from its edges."""
    context: RequestContext = raw.context
    made = 0
    level = list(parents)
    # A request depends on the field and the variables, but for the parent's key and, when
    # the field names no time of its own, the parent's time: work it out once per field.
    templates: dict[int, tuple[EdgeRequest, bool] | None] = {}
    while level and made < MAX_REQUESTS:
        asked: list[tuple[Ahead, FieldNode, EdgeRequest]] = []
        for parent, fields in level:
            for field in fields:
                if field.name.value != NEIGHBORS:
                    continue
                if id(field) not in templates:
                    templates[id(field)] = _template(raw, field, parent.at)
                shape = templates[id(field)]
                if shape is None:
                    continue
                template, own_time = shape
                at = template.at if own_time else parent.at
                asked.append((parent, field, _for(template, parent.key, at)))
        new = list(dict.fromkeys(r for _, _, r in asked if r not in context.prefetched))
        new = new[: MAX_REQUESTS - made]
        made += len(new)
        if new:
            context.batch("neighbors_read_ahead", len(new))
            try:
                found = await context.graph.neighbors(new)
            except GraphError:
                return  # the loaders will try again and report it where it belongs
            context.prefetched.update(zip(new, found, strict=True))
        level = _answer(asked, context.prefetched, build)


def _answer(
    asked: list[tuple[Ahead, FieldNode, EdgeRequest]],
    read: dict[EdgeRequest, list[StoredSubject]],
    build: Build,
) -> list[tuple[Ahead, Sequence[FieldNode]]]:
    """Hand each parent its answers; the next level is the answers that select neighbors."""
    built: dict[EdgeRequest, list[Any]] = {}
    following: dict[int, tuple[Ahead, Sequence[FieldNode]]] = {}
    for parent, field, request in asked:
        if request not in read:
            continue
        answer = built.get(request)
        if answer is None:
            # One answer per request: equal requests share their (immutable) objects.
            answer = built[request] = build(read[request], request)
        if parent.ahead is None:
            parent.ahead = {}
        parent.ahead[id(field)] = answer
        sub = plain_fields(field.selection_set)
        if sub and any(f.name.value == NEIGHBORS for f in sub):
            for child in answer:
                following[id(child)] = (child, sub)
    return list(following.values())
