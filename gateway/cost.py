"""The cost of a query, estimated before it runs from its document and this request's
variables: what each field may read from the graph plus what it may return, multiplied
through nesting (docs/graphql.md, "Query cost"). The fields' own rules are declared beside
their resolvers (resolvers/costs.py); gateway.limits refuses a query over the budget.
"""

from __future__ import annotations

from contextlib import suppress
from functools import partial
from typing import Any

from graphql import (
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    get_named_type,
    get_nullable_type,
    is_composite_type,
    is_list_type,
    value_from_ast_untyped,
)
from graphql.language import ast
from graphql.pyutils import Undefined

from resolvers.args import DEFAULT_PAGE
from resolvers.costs import Charge, charge_of, count

__all__ = ["CostEstimator", "estimate_cost"]


def _is_connection(type_: GraphQLNamedType | None) -> bool:
    return isinstance(type_, GraphQLObjectType | GraphQLInterfaceType) and "edges" in type_.fields


def _absent(value: object) -> bool:
    return value is None or value is Undefined


def _is_object_list(type_: GraphQLOutputType) -> bool:
    nullable = get_nullable_type(type_)
    return is_list_type(nullable) and is_composite_type(get_named_type(nullable))


class CostEstimator:
    """Sum over fields of what each may read and return, multiplied by the list sizes above.

    A field's cost is `reads + returned x (1 + its selection's cost)`, less the double count:
    resolvers/costs.py says what each field reads (`Charge`). The generic rule: a field
    taking `first` or returning a connection (a type with `edges`) returns `first` objects
    (the argument's schema default, else DEFAULT_PAGE, when absent or unknown), a connection
    reading one row more (the one that tells `hasNextPage`); a list of objects outside a
    connection returns DEFAULT_PAGE; anything else 1. Introspection subtrees cost 1 (their
    nesting is capped instead). Costs are linear in the multiplier, so each fragment is
    estimated once.
    """

    def __init__(self, schema: GraphQLSchema, document: ast.DocumentNode, variables: Any) -> None:
        self.schema = schema
        self.variables: dict[str, Any] = variables if isinstance(variables, dict) else {}
        self.defaults: dict[str, object] = {}
        self.fragments = {
            d.name.value: d
            for d in document.definitions
            if isinstance(d, ast.FragmentDefinitionNode)
        }
        self.done: dict[tuple[str, int | None], int] = {}
        self.active: set[tuple[str, int | None]] = set()

    def operation(self, node: ast.OperationDefinitionNode) -> int:
        self.done.clear()
        self.defaults = {
            v.variable.name.value: v.default_value for v in node.variable_definitions or ()
        }
        return self.selections(node.selection_set, self.schema.get_root_type(node.operation))

    def selections(
        self,
        node: ast.SelectionSetNode | None,
        parent: GraphQLNamedType | None,
        page: int | None = None,
    ) -> int:
        """`page`: how many items the lists directly in this selection hold, when the field
        above says (a connection's edges, a series' points)."""
        total = 0
        for selection in node.selections if node else ():
            if isinstance(selection, ast.FieldNode):
                total += self.field(selection, parent, page)
            elif isinstance(selection, ast.InlineFragmentNode):
                condition = selection.type_condition
                inner = self.schema.get_type(condition.name.value) if condition else parent
                total += self.selections(selection.selection_set, inner, page)
            elif isinstance(selection, ast.FragmentSpreadNode):
                total += self.spread(selection.name.value, page)
        return total

    def field(
        self, node: ast.FieldNode, parent: GraphQLNamedType | None, page: int | None = None
    ) -> int:
        fields = getattr(parent, "fields", None) if is_composite_type(parent) else None
        definition: GraphQLField | None = fields.get(node.name.value) if fields else None
        if definition is None:  # __typename, __schema, __type (or invalid)
            return 1
        child = get_named_type(definition.type)
        returned, reads, inner_page = self.charge(node, definition, parent, page)
        return reads + returned * self.selections(node.selection_set, child, inner_page)

    def charge(
        self, node: ast.FieldNode, definition: GraphQLField, parent: Any, page: int | None = None
    ) -> Charge:
        """`page`: the size of the lists the parent's selection holds, when the parent says."""
        rule = charge_of(f"{getattr(parent, 'name', '')}.{node.name.value}")
        if rule is not None:
            return rule(partial(self.argument, node, definition))
        if page is not None and _is_object_list(definition.type):
            return Charge(page, page)  # a connection's edges, a series' points
        if "first" in definition.args or _is_connection(get_named_type(definition.type)):
            size = count(self.argument(node, definition, "first"), DEFAULT_PAGE)
            if _is_connection(get_named_type(definition.type)):
                return Charge(1, size + 1, page=size)  # pageInfo, totalCount: once
            return Charge(size, size)
        if _is_object_list(definition.type) and not _is_connection(parent):
            return Charge(DEFAULT_PAGE, DEFAULT_PAGE)
        return Charge(1, 1)

    def argument(self, node: ast.FieldNode, definition: GraphQLField, name: str) -> object:
        """An argument as this request gives it: variables, then the operation's and the
        schema's defaults, as plain values (None when absent)."""
        argument = next((a for a in node.arguments or () if a.name.value == name), None)
        value: object = None
        if argument is not None:
            with suppress(GraphQLError, TypeError, ValueError):
                value = value_from_ast_untyped(argument.value, self.variables)
            if isinstance(argument.value, ast.VariableNode) and _absent(value):
                default = self.defaults.get(argument.value.name.value)
                if isinstance(default, ast.ValueNode):
                    value = value_from_ast_untyped(default)
        if _absent(value) and name in definition.args:
            value = definition.args[name].default_value
        return None if value is Undefined else value

    def spread(self, name: str, page: int | None = None) -> int:
        key = (name, page)
        fragment = self.fragments.get(name)
        if key in self.done or key in self.active or fragment is None:
            return self.done.get(key, 0)
        self.active.add(key)
        parent = self.schema.get_type(fragment.type_condition.name.value)
        self.done[key] = self.selections(fragment.selection_set, parent, page)
        self.active.discard(key)
        return self.done[key]


def estimate_cost(
    schema: GraphQLSchema, document: ast.DocumentNode, variables: Any, operation: str | None
) -> int:
    """Cost of the operation named `operation` (of the costliest one if None)."""
    operations = [
        d
        for d in document.definitions
        if isinstance(d, ast.OperationDefinitionNode)
        and (operation is None or (d.name is not None and d.name.value == operation))
    ]
    return max(map(CostEstimator(schema, document, variables).operation, operations), default=0)
