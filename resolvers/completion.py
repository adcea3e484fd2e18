"""Completing subtrees whose data is already in hand, without graphql-core's per-field work.

Once the read-ahead (resolvers/prefetch.py) has run, everything under a list of subjects is
attributes of objects already built and `neighbors` answers hung on their parents. graphql-core
would still, for each of the thousand-odd fields of a dashboard page, build a path and a
resolve info, look at the arguments, call the resolver and walk the type wrappers: most of
the page's CPU. Here a field's selection is turned once per request into a plan (which
attribute each response key reads, how its value is coerced) and the plan is applied in a
tight loop.

A plan is only made of what can be answered without effects: attributes (resolvers/schema.py
marks those fields), read-ahead answers and `__typename`, and only when no extension watches
nested fields resolve. It completes the whole value or gives up (`NotReady`) on anything
unusual: a null where the type forbids one, an unexpected object, a value a scalar refuses,
an answer not read ahead. Then graphql-core completes that value as usual and reports
whatever is wrong in its place, so a plan never changes an answer; it only skips work.

A plan given up is not silent: the request's context is told why (`plan_abandoned(reason)`,
counted as `fabric_completion_plans_abandoned_total{reason}` by the gateway), and each
(shape, reason) is logged once per process. Reasons: `null` (a null where the type forbids
one), `not_a_list`, `type` (another object type), `refused` (a scalar refused the value),
`not_read_ahead` (a field's answer was not read ahead), and `error`: anything else, which
is a defect of the plan and logged as a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from graphql import (
    FieldNode,
    GraphQLLeafType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    Undefined,
)
from graphql.execution.collect_fields import FieldDetailsList
from graphql.pyutils import Path
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter

Complete = Callable[[Any], Any]
Reader = Callable[[Any], Any]
# What a field's resolver may carry to be read directly: given the field's node, a reader of
# the field's value from its parent (which raises NotReady when it has no value in hand).
DIRECT = "direct_reader"


# Directives collect_subfields has already applied (the field is there, so it is included).
_APPLIED = frozenset({"include", "skip"})


log = logging.getLogger("fabric.completion")

REASONS = ("null", "not_a_list", "type", "refused", "not_read_ahead", "error")
MAX_LOGGED = 1_000  # shapes logged per process (the set of shapes is bounded by documents)
_logged: set[tuple[str, str]] = set()


class NotReady(Exception):
    """This value cannot be completed directly; graphql-core completes it. `reason` is one
    of REASONS."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PlanObserver(Protocol):
    def plan_abandoned(self, reason: str) -> None:
        """A plan gave its value back to graphql-core, for `reason` (one of REASONS)."""


def _abandoned(context: Any, shape: str, reason: str, exc: Exception) -> None:
    report = getattr(context, "plan_abandoned", None)
    if report is not None:
        report(reason)
    if (shape, reason) in _logged or len(_logged) >= MAX_LOGGED:
        return
    _logged.add((shape, reason))
    if reason == "error":
        log.warning("completion plan for %s failed; graphql-core completes it", shape,
                    exc_info=exc)  # fmt: skip
    else:
        log.info("completion plan for %s gave up (%s); graphql-core completes it", shape, reason)


# An extension whose `resolve` hook looks at root fields only says so with this class
# attribute; plans complete nested values, so they do not hide any field from it.
ROOT_FIELDS_ONLY = "resolves_root_fields_only"


def _no_field_watchers(executor: Any) -> bool:
    manager = executor.middleware_manager
    return manager is None or all(
        getattr(m, ROOT_FIELDS_ONLY, False) for m in manager.middlewares or ()
    )


class DirectExecutor(StrawberryGraphQLCoreExecutionContext):
    """strawberry's execution context, completing values by plan where one can be made."""

    def complete_value(
        self,
        return_type: GraphQLOutputType,
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo[Any],
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        plan = self._plan_for(return_type, field_details_list)
        if plan is not None:
            exc: Exception
            try:
                return plan(result)
            except NotReady as given_up:
                reason, exc = given_up.reason, given_up
            except Exception as failed:  # a defect of the plan: graphql-core still answers
                reason, exc = "error", failed
            shape = f"{field_details_list[0].node.name.value}: {return_type}"
            _abandoned(self.context_value, shape, reason, exc)
        return super().complete_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def _plan_for(
        self, return_type: GraphQLOutputType, field_details_list: FieldDetailsList
    ) -> Complete | None:
        plans: dict[tuple[int, int], tuple[Any, Complete | None]] | None
        plans = self.__dict__.get("_direct_plans")
        if plans is None:
            if not _no_field_watchers(self):
                return None  # an extension asked to see every field resolve
            plans = self.__dict__["_direct_plans"] = {}
        key = (id(return_type), id(field_details_list))
        found = plans.get(key)
        if found is None:
            try:
                plan = self._compile(return_type, field_details_list)
            except (AttributeError, TypeError, ValueError):
                plan = None  # a shape of graphql-core's this code does not know: no plan
            # The list is kept with its plan, so that its id is not reused while we run.
            found = plans[key] = (field_details_list, plan)
        return found[1]

    def _compile(
        self, return_type: GraphQLOutputType, details: FieldDetailsList
    ) -> Complete | None:
        if any(d.name.value not in _APPLIED for f in details for d in f.node.directives or ()):
            return None  # @stream and friends: graphql-core's business
        if isinstance(return_type, GraphQLNonNull):
            inner = self._compile(return_type.of_type, details)
            return None if inner is None else _non_null(inner)
        if isinstance(return_type, GraphQLList):
            inner = self._compile(return_type.of_type, details)
            return None if inner is None else _list_of(inner)
        if isinstance(return_type, GraphQLLeafType):
            return _leaf(return_type)
        if isinstance(return_type, GraphQLObjectType):
            return self._compile_object(return_type, details)
        return None  # interfaces and unions need their runtime type resolved

    def _compile_object(
        self, object_type: GraphQLObjectType, details: FieldDetailsList
    ) -> Complete | None:
        definition = object_type.extensions.get(GraphQLCoreConverter.DEFINITION_BACKREF)
        origin = getattr(definition, "origin", None)
        if origin is None:
            return None
        grouped, deferred, _ = self.collect_subfields(object_type, details)
        if deferred:
            return None
        steps: list[tuple[str, Reader, Complete]] = []
        for response_name, field_details in grouped.items():
            step = self._compile_field(object_type, field_details)
            if step is None:
                return None
            steps.append((response_name, *step))
        return _object(origin, steps)

    def _compile_field(
        self, object_type: GraphQLObjectType, details: FieldDetailsList
    ) -> tuple[Reader, Complete] | None:
        node: FieldNode = details[0].node
        if len(details) != 1 or getattr(details[0], "fragment_variable_values", None):
            return None
        name = node.name.value
        if name == "__typename":
            type_name = object_type.name
            return (lambda _source: type_name), _same
        field = object_type.fields.get(name)
        direct = getattr(field.resolve, DIRECT, None) if field is not None else None
        if field is None or direct is None:
            return None
        complete = self._compile(field.type, details)
        if complete is None:
            return None
        reader: Reader = direct(node)
        return reader, complete


def _same(value: Any) -> Any:
    return value


def _non_null(inner: Complete) -> Complete:
    def complete(value: Any) -> Any:
        done = inner(value)
        if done is None:
            raise NotReady("null")
        return done

    return complete


def _list_of(inner: Complete) -> Complete:
    def complete(value: Any) -> Any:
        if value is None:
            return None
        if type(value) is not list and type(value) is not tuple:
            raise NotReady("not_a_list")
        return [inner(item) for item in value]

    return complete


def _leaf(leaf: GraphQLLeafType) -> Complete:
    coerce = leaf.coerce_output_value

    def complete(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, Exception):
            raise NotReady("refused")
        try:
            done = coerce(value)
        except Exception as refused:  # graphql-core words the error, in its place
            raise NotReady("refused") from refused
        if done is None or done is Undefined:
            raise NotReady("refused")
        return done

    return complete


def _object(origin: type, steps: list[tuple[str, Reader, Complete]]) -> Complete:
    def complete(source: Any) -> Any:
        if source is None:
            return None
        if type(source) is not origin:
            raise NotReady("type")  # graphql-core asks the type's own is_type_of
        return {key: finish(read(source)) for key, read, finish in steps}

    return complete
