"""What every compiled plan (resolvers/compiled.py) is built from: the fields a selection asks
of an object of one type, fragments included, and the two ways out of a plan.

A selection is collected as graphql-core collects it for a runtime type (a fragment applies
when its type condition is that type or an interface or union holding it), except that any
directive, or a response key selected twice (which graphql-core would merge), is not covered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    ListValueNode,
    NamedTypeNode,
    ObjectValueNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
    is_abstract_type,
)
from graphql.execution.values import VariableValues, get_argument_values


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


# (subject key, its written place): what a subject's nested reads write into
Parents = list[tuple[str, dict[str, Any]]]


def arguments(
    field: GraphQLField, node: FieldNode, variables: VariableValues | None
) -> dict[str, Any]:
    """A field's arguments as its resolver gets them; one it refuses is the plain path's."""
    try:
        values: dict[str, Any] = get_argument_values(field, node, variables)
    except GraphQLError as exc:
        raise Fallback("arguments") from exc
    return values


def constant_arguments(field: GraphQLField, node: FieldNode) -> dict[str, Any] | None:
    """The field's arguments as `arguments` gives them on every run, when none of them names
    a variable: coerced once, with the plan (graphql-core's coercion of a neighbour level's
    literals was a fiftieth of a dashboard page's CPU). None when one does, or when they are
    refused: each run then coerces them and reports the refusal in its place."""
    if any(_names_variable(argument.value) for argument in node.arguments or ()):
        return None
    try:
        return arguments(field, node, None)
    except Fallback:
        return None


def _names_variable(value: ValueNode) -> bool:
    if isinstance(value, VariableNode):
        return True
    if isinstance(value, ListValueNode):
        return any(_names_variable(item) for item in value.values)
    if isinstance(value, ObjectValueNode):
        return any(_names_variable(item.value) for item in value.fields)
    return False


async def together(*steps: Awaitable[Any]) -> list[Any]:
    """Every step's result; when one fails, the others are cancelled before its error goes on
    (a plan given up leaves nothing running: the plain path then answers alone)."""
    tasks = [asyncio.ensure_future(step) for step in steps]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


@dataclass(frozen=True)
class Scope:
    """The schema and the document's fragments a plan is compiled against."""

    schema: GraphQLSchema
    fragments: Mapping[str, FragmentDefinitionNode]

    def object(self, name: str) -> GraphQLObjectType:
        found = self.schema.type_map[name]
        assert isinstance(found, GraphQLObjectType)
        return found

    def fields(self, selection_set: SelectionSetNode | None, type_name: str) -> list[FieldNode]:
        """The fields an object of `type_name` answers for `selection_set`, in order."""
        found: list[FieldNode] = []
        self._collect(selection_set, self.object(type_name), found, set())
        return found

    def _collect(
        self,
        selection_set: SelectionSetNode | None,
        type_: GraphQLObjectType,
        found: list[FieldNode],
        keys: set[str],
    ) -> None:
        for selection in selection_set.selections if selection_set is not None else ():
            if selection.directives:
                raise Uncovered("selection")
            if isinstance(selection, FieldNode):
                key = (selection.alias or selection.name).value
                if key in keys:
                    raise Uncovered("selection")
                keys.add(key)
                found.append(selection)
            elif isinstance(selection, InlineFragmentNode):
                if self._applies(selection.type_condition, type_):
                    self._collect(selection.selection_set, type_, found, keys)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = self.fragments.get(selection.name.value)
                if fragment is None or fragment.directives:
                    raise Uncovered("selection")
                if self._applies(fragment.type_condition, type_):
                    self._collect(fragment.selection_set, type_, found, keys)

    def _applies(self, condition: NamedTypeNode | None, type_: GraphQLObjectType) -> bool:
        if condition is None:
            return True
        named = self.schema.get_type(condition.name.value)
        if named is type_:
            return True
        return is_abstract_type(named) and self.schema.is_sub_type(named, type_)
