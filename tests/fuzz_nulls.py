"""Explicit nulls, generated from the schema: one request for every argument (and input
field) that has a default, and for every nullable variable of the fuzz operations.

GraphQL lets a nullable variable feed an argument that is non-null with a default
(`limit: Int! = 5`); only the value sent, an explicit null, is wrong, so validation passes and
graphql-core refuses it while executing the field. That refusal is the client's mistake
(BAD_USER_INPUT), never an internal error. Where the argument itself is nullable, null is a
legal value and must be answered like any other.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass

from graphql import (
    GraphQLArgument,
    GraphQLField,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    Undefined,
    get_named_type,
    is_leaf_type,
)

# Literals for the required arguments on the way to a field (by type), so that the one
# argument under test is the only thing that can be wrong.
REQUIRED = {
    "String!": '"repository:payments-api"',
    "ID!": '"x"',
    "[ID!]!": "[]",
    "[JSON!]!": "[]",
    "ActivityMetric!": "PULL_REQUESTS_MERGED",
    "DateTime!": '"2026-01-01T00:00:00Z"',
    "InvestigateInput!": '{question: "why is payments-api behind?"}',
    "TimeWindowInput!": '{from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z"}',
}
# A field reached through `subject(key:)` needs a subject that exists in the target org.
SUBJECT_ARGS = {"key": '"repository:payments-api"'}


@dataclass(frozen=True)
class NullCase:
    """One operation with `$v` sent as an explicit null, and whether the place it feeds is
    non-null (so the answer must be BAD_USER_INPUT) or nullable (so null is a legal value)."""

    where: str  # e.g. "Query.resolveReference(limit)" or "InvestigateInput.allowClarification"
    query: str
    non_null: bool

    def body(self) -> bytes:
        return json.dumps({"query": self.query, "variables": {"v": None}}).encode()


def _nullable(t: GraphQLInputType) -> str:
    return str(t.of_type if isinstance(t, GraphQLNonNull) else t)


def _selection(field: GraphQLField) -> str:
    return "" if is_leaf_type(get_named_type(field.type)) else " { __typename }"


def _literal(name: str, t: GraphQLInputType, where: str) -> str:
    literal = REQUIRED.get(str(t))
    if literal is None:
        raise KeyError(f"{where}: no literal for required argument {name}: {t}; add to REQUIRED")
    return literal


def _arguments(field: GraphQLField, where: str, given: dict[str, str]) -> dict[str, str]:
    """The literals of the field's required arguments (and of any named in `given`)."""
    out = dict(given)
    for name, arg in field.args.items():
        if name not in out and isinstance(arg.type, GraphQLNonNull) and arg.default_value is Undefined:
            out[name] = _literal(name, arg.type, where)
    return out


def _call(name: str, args: dict[str, str]) -> str:
    inside = ", ".join(f"{k}: {v}" for k, v in args.items())
    return f"{name}({inside})" if inside else name


def _paths(schema: GraphQLSchema) -> dict[str, tuple[str, str, str]]:
    """For each object type reachable from a root: (operation, opening, closing) text that
    selects into it, shortest first (breadth-first from Query, then Mutation)."""
    found: dict[str, tuple[str, str, str]] = {}
    queue: deque[tuple[GraphQLObjectType, str, str, str]] = deque()
    for operation, root in (("query", schema.query_type), ("mutation", schema.mutation_type)):
        if root is not None and root.name not in found:
            found[root.name] = (operation, "", "")
            queue.append((root, operation, "", ""))
    while queue:
        parent, operation, opening, closing = queue.popleft()
        for name, field in parent.fields.items():
            target = get_named_type(field.type)
            if not isinstance(target, GraphQLObjectType) or target.name in found:
                continue
            if parent.name == "Mutation":
                continue  # fields under a mutation's payload are reached by queries
            where = f"{parent.name}.{name}"
            given = SUBJECT_ARGS if name == "subject" else {}
            try:
                call = _call(name, _arguments(field, where, given))
            except KeyError:
                continue  # another route may reach the type
            found[target.name] = (operation, f"{opening}{call} {{ ", f" }}{closing}")
            queue.append((target, operation, *found[target.name][1:]))
    return found


@dataclass(frozen=True)
class _Site:
    """A field reached from a root: where null is sent into one of its arguments."""

    operation: str
    opening: str
    closing: str
    name: str
    field: GraphQLField
    where: str

    def case(self, label: str, skip: str, argument: str, var_type: str,
             place: GraphQLArgument | GraphQLInputField) -> NullCase:
        args = _arguments(self.field, self.where, {})
        args.pop(skip, None)
        inside = ", ".join([*(f"{k}: {v}" for k, v in args.items()), argument])
        query = (f"{self.operation}($v: {var_type}) {{ {self.opening}{self.name}({inside})"
                 f"{_selection(self.field)}{self.closing} }}")
        return NullCase(label, query, isinstance(place.type, GraphQLNonNull))


def _input_field_cases(site: _Site, arg_name: str, t: GraphQLInputObjectType) -> list[NullCase]:
    cases = []
    for name, field in t.fields.items():
        if field.default_value is Undefined:
            continue
        others = [
            f"{other}: {_literal(other, f.type, site.where)}"
            for other, f in t.fields.items()
            if other != name and isinstance(f.type, GraphQLNonNull) and f.default_value is Undefined
        ]
        inside = ", ".join([*others, f"{name}: $v"])
        cases.append(site.case(f"{t.name}.{name}", arg_name, f"{arg_name}: {{{inside}}}",
                               _nullable(field.type), field))
    return cases


def null_cases(schema: GraphQLSchema) -> list[NullCase]:
    """Every argument and input field with a default, fed an explicit null through a
    nullable variable, in the first place the schema reaches it."""
    cases: list[NullCase] = []
    seen_inputs: set[str] = set()
    for type_name, (operation, opening, closing) in _paths(schema).items():
        parent = schema.type_map[type_name]
        assert isinstance(parent, GraphQLObjectType)
        for name, field in parent.fields.items():
            site = _Site(operation, opening, closing, name, field, f"{type_name}.{name}")
            for arg_name, arg in field.args.items():
                if arg.default_value is not Undefined:
                    cases.append(site.case(f"{site.where}({arg_name})", arg_name,
                                           f"{arg_name}: $v", _nullable(arg.type), arg))
                named = get_named_type(arg.type)
                if isinstance(named, GraphQLInputObjectType) and named.name not in seen_inputs:
                    seen_inputs.add(named.name)
                    cases += _input_field_cases(site, arg_name, named)
    return cases


def defaults(schema: GraphQLSchema) -> set[str]:
    """Every place the schema declares a default: `Type.field(arg)` or `Input.field`, on the
    types a client can reach over HTTP. (Subscriptions run over WebSocket only, where their
    filters' null means "no filter": tests/test_subscriptions.py.)"""
    out: set[str] = set()
    subscription = schema.subscription_type
    for t in schema.type_map.values():
        if t.name.startswith("__") or t is subscription:
            continue
        if isinstance(t, GraphQLObjectType):
            out |= {f"{t.name}.{f}({a})" for f, field in t.fields.items()
                    for a, arg in field.args.items() if arg.default_value is not Undefined}
        elif isinstance(t, GraphQLInputObjectType):
            out |= {f"{t.name}.{f}" for f, field in t.fields.items()
                    if field.default_value is not Undefined}
    return out


_NULLABLE_VARIABLE = re.compile(r"\(\$v: ([^)!]+)\)")


def nullable_variable_operations(operations: list[tuple[str, str]]) -> list[str]:
    """The fuzz operations whose `$v` is nullable (its type has no trailing `!`)."""
    return [q for _, q in operations if _NULLABLE_VARIABLE.search(q)]
