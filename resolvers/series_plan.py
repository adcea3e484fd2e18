"""Compiled `activity` fields of a list's or a root field's subjects (resolvers/compiled.py):
every series of the selection read in one round trip (OrgGraph.series, as the plain path's
series loader batches them) and written as the plain path's TimeSeries and TimePoint write
them (resolvers/series.py: the same requests, the same zero-filled buckets, the same range
check on Int).

Covered: `activity(metric, bucket, window)` selecting `metric`, `bucket`, `total`,
`__typename` and `points { start value count __typename }` (fragments collected as
resolvers/plan_fields.py does). A window
or a sum the plain path refuses is its to report (Fallback).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    GraphQLField,
    GraphQLLeafType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
)
from graphql.execution.values import VariableValues

from engine.domain.errors import PublicError
from engine.ports import SeriesRequest, TimeSpan
from resolvers.args import TimeWindowInput, window
from resolvers.context import RequestContext
from resolvers.plan_fields import Fallback, Parents, Scope, Uncovered, arguments
from resolvers.series import RULES, TimePoint, as_int, points, request

_SERIES = {"metric", "bucket", "points", "total", "__typename"}
_POINT = {"start", "value", "count", "__typename"}

# (response key, field name, the point parts of a `points` field)
Part = tuple[str, str, tuple[tuple[str, str], ...]]


def _output(schema: GraphQLSchema, type_name: str, field: str) -> Callable[[Any], Any]:
    """The serializer of a leaf field (through its non-null wrapper)."""
    owner = schema.type_map[type_name]
    assert isinstance(owner, GraphQLObjectType)
    found = owner.fields[field].type
    named = found.of_type if isinstance(found, GraphQLNonNull) else found
    assert isinstance(named, GraphQLLeafType)
    return named.serialize


@dataclass(frozen=True)
class SeriesPlan:
    """One `activity` field: its response key, node, definition and the parts it selects."""

    key: str
    node: FieldNode
    field: GraphQLField
    parts: tuple[Part, ...]
    metric: Callable[[Any], Any]  # the enums' and DateTime's own serializers
    bucket: Callable[[Any], Any]
    start: Callable[[Any], Any]

    def write(self, metric: Any, bucket: Any, series: list[TimePoint]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, name, point_parts in self.parts:
            if name == "metric":
                out[key] = self.metric(metric)
            elif name == "bucket":
                out[key] = self.bucket(bucket)
            elif name == "total":
                out[key] = _checked(lambda: as_int(sum(p.value for p in series)))
            elif name == "points":
                out[key] = [self._point(p, point_parts) for p in series]
            else:
                out[key] = "TimeSeries"
        return out

    def _point(self, point: TimePoint, parts: tuple[tuple[str, str], ...]) -> dict[str, Any]:
        values = {"start": self.start(point.start), "value": point.value,
                  "count": point.count, "__typename": "TimePoint"}  # fmt: skip
        return {key: values[name] for key, name in parts}


def _checked(make: Callable[[], int]) -> int:
    try:
        return make()
    except PublicError as exc:  # beyond GraphQL's Int: the plain path reports it in place
        raise Fallback("range") from exc


def series_plan(scope: Scope, node: FieldNode, field: GraphQLField) -> SeriesPlan:
    fields = scope.fields(node.selection_set, "TimeSeries")
    parts: list[Part] = []
    for f in fields:
        name = f.name.value
        if name not in _SERIES:
            raise Uncovered("field")
        inner: tuple[tuple[str, str], ...] = ()
        if name == "points":
            point_fields = scope.fields(f.selection_set, "TimePoint")
            inner = tuple(((p.alias or p.name).value, p.name.value) for p in point_fields)
            if any(n not in _POINT for _, n in inner):
                raise Uncovered("field")
        parts.append(((f.alias or f.name).value, name, inner))
    return SeriesPlan(
        (node.alias or node.name).value,
        node,
        field,
        tuple(parts),
        _output(scope.schema, "TimeSeries", "metric"),
        _output(scope.schema, "TimeSeries", "bucket"),
        _output(scope.schema, "TimePoint", "start"),
    )


async def write_series(
    context: RequestContext,
    plans: tuple[SeriesPlan, ...],
    subjects: Parents,
    at: TimeSpan,
    variables: VariableValues,
) -> None:
    """Every plan's series for every subject (as of `at`), read in one round trip and written
    into the subjects' places."""
    asked = []
    for plan in plans:
        args = arguments(plan.field, plan.node, variables)
        given = args.get("window")
        try:
            span = window(
                None if given is None else TimeWindowInput(from_=given["from"], to=given["to"]),
                at.end_ns,
            )
        except PublicError as exc:
            raise Fallback("arguments") from exc
        asked.append((plan, args["metric"], args["bucket"], span))
    wanted: dict[SeriesRequest, int] = {}
    places = []
    for key, out in subjects:
        for plan, metric, bucket, span in asked:
            series = request(key, RULES[metric], span, bucket)
            places.append((out, plan, metric, bucket, span, wanted.setdefault(series, len(wanted))))
    if not wanted:
        return
    context.batch("series", len(wanted))
    found = await context.graph.series(list(wanted))
    for out, plan, metric, bucket, span, n in places:
        series_points = _checked_points(found[n], span, bucket)
        out[plan.key] = plan.write(metric, bucket, series_points)


def _checked_points(found: Any, span: TimeSpan, bucket: Any) -> list[TimePoint]:
    try:
        return points(found, span, bucket)
    except PublicError as exc:
        raise Fallback("range") from exc
