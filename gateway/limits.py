"""Query limits, enforced before execution: nothing over a limit reaches a resolver.

`limit_extensions(settings)` gives the schema extensions (classes or zero-argument factories,
never shared instances) that bound a request's tokens, depth, aliases, directives and cost,
and turn introspection and "Did you mean" suggestions off when `settings.introspection` is.
Each rejection is a GraphQL error with `extensions.code` QUERY_TOO_COMPLEX or
INTROSPECTION_DISABLED. Parsing and validation are cached; cost is not, as it depends on
the request's variables.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import suppress
from functools import lru_cache, partial
from typing import Any, ClassVar, NamedTuple

from graphql import (
    ASTValidationRule,
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    ValidationContext,
    ValidationRule,
    get_named_type,
    get_nullable_type,
    is_composite_type,
    is_list_type,
    parse,
    value_from_ast_untyped,
)
from graphql.language import ast
from graphql.pyutils import Undefined
from strawberry.extensions import AddValidationRules, SchemaExtension, ValidationCache
from strawberry.schema.schema import validate_document

from gateway.settings import Settings
from resolvers.args import DEFAULT_PAGE
from resolvers.costs import Charge, charge_of, count

__all__ = ["INTROSPECTION_DISABLED", "TOO_COMPLEX", "limit_extensions"]

TOO_COMPLEX = "QUERY_TOO_COMPLEX"
INTROSPECTION_DISABLED = "INTROSPECTION_DISABLED"
CACHE_SIZE = 256  # documents kept by each cache (parse, validation)
CACHEABLE_CHARS = 2_500  # longer queries are parsed and validated afresh: bounds cache memory
MAX_OF_TYPE = 10  # `ofType` levels on one path; the standard introspection query has 9
MAX_TYPE_NESTING = 3  # other `__Type` levels on one path (standard query: 2)
INTROSPECTION_ROOTS = frozenset({"__schema", "__type"})
TYPE_FIELDS = frozenset(
    {"__type", "types", "type", "interfaces", "possibleTypes"}
    | {"queryType", "mutationType", "subscriptionType"}
)
TOKEN_ERROR = re.compile(r"Document contains more than \d+ tokens")
SUGGESTION = re.compile(r" ?Did you mean [^?]*\?")

Extension = Callable[[], SchemaExtension] | type[SchemaExtension]


def limit_extensions(settings: Settings) -> list[Extension]:
    """The extensions enforcing `settings`' limits; add them after error shaping."""
    rules: list[type[ASTValidationRule]] = [_bound_limit_rule(settings)]
    if not settings.introspection:
        rules.append(NoIntrospection)
    extensions: list[Extension] = [
        partial(AddValidationRules, rules),
        partial(TokenLimit, settings.max_tokens),
        partial(CostLimit, settings.max_cost),
    ]
    if not settings.introspection:
        extensions.append(HideSuggestions)
    return extensions


def too_complex(message: str, node: Any = None) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": TOO_COMPLEX})


def exceeds(what: str, value: int, limit: int) -> str:
    return f"{what} {value} exceeds the limit of {limit}"


# -- parsing: token limit and cache ---------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
def _parse(query: str, max_tokens: int) -> ast.DocumentNode:
    return parse(query, max_tokens=max_tokens)


class TokenLimit(SchemaExtension):
    """Parses with a token limit (comments count), caching short queries' documents.

    Strawberry's ParserCache would raise the limit's error outside strawberry's own parse
    error handling, bypassing error shaping; here a failed parse is left to strawberry,
    which reports it, and its error is then labelled QUERY_TOO_COMPLEX.
    """

    def __init__(self, max_tokens: int) -> None:
        super().__init__()
        self.max_tokens = max_tokens

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        context.parse_options["max_tokens"] = self.max_tokens
        query = context.query
        if context.graphql_document is None and query and len(query) <= CACHEABLE_CHARS:
            with suppress(GraphQLError):
                context.graphql_document = _parse(query, self.max_tokens)
        yield
        for error in context.pre_execution_errors or ():
            if TOKEN_ERROR.search(error.message):
                error.message = f"query exceeds the limit of {self.max_tokens} tokens"
                error.extensions = {"code": TOO_COMPLEX}


# -- validation rules: depth, aliases, directives, introspection ----------------------------


class Nesting(NamedTuple):
    depth: int = 0
    of_type: int = 0  # `ofType` fields on a path in introspection (they add no depth)
    type_nesting: int = 0  # other `__Type`-returning fields on a path in introspection

    def widest(self, other: Nesting) -> Nesting:
        return Nesting(*(max(a, b) for a, b in zip(self, other, strict=True)))


class NestingWalker:
    """Nesting of selections through fragments; each fragment is walked once (cycles: 0)."""

    def __init__(self, fragment: Callable[[str], ast.FragmentDefinitionNode | None]) -> None:
        self.fragment = fragment
        self.done: dict[tuple[str, bool], Nesting] = {}
        self.active: set[tuple[str, bool]] = set()

    def selections(self, node: ast.SelectionSetNode | None, introspecting: bool) -> Nesting:
        best = Nesting()
        for selection in node.selections if node else ():
            best = best.widest(self.selection(selection, introspecting))
        return best

    def selection(self, node: ast.SelectionNode, introspecting: bool) -> Nesting:
        if isinstance(node, ast.FieldNode):
            return self.field(node, introspecting)
        if isinstance(node, ast.InlineFragmentNode):
            return self.selections(node.selection_set, introspecting)
        assert isinstance(node, ast.FragmentSpreadNode)
        return self.spread(node.name.value, introspecting)

    def field(self, node: ast.FieldNode, introspecting: bool) -> Nesting:
        name = node.name.value
        inside = introspecting or name in INTROSPECTION_ROOTS
        child = self.selections(node.selection_set, inside)
        of_type = int(inside and name == "ofType")
        return Nesting(
            child.depth + 1 - of_type,
            child.of_type + of_type,
            child.type_nesting + int(inside and name in TYPE_FIELDS),
        )

    def spread(self, name: str, introspecting: bool) -> Nesting:
        key = (name, introspecting)
        fragment = self.fragment(name)
        if key in self.done or key in self.active or fragment is None:
            return self.done.get(key, Nesting())
        self.active.add(key)
        self.done[key] = self.selections(fragment.selection_set, introspecting)
        self.active.discard(key)
        return self.done[key]


class LimitRule(ValidationRule):
    """Depth (per operation, through fragments), aliases and directives (per document)."""

    settings: ClassVar[Settings]

    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        self.aliases = 0
        self.directives = 0
        self.walker = NestingWalker(context.get_fragment)

    def enter_field(self, node: ast.FieldNode, *_: Any) -> None:
        self.aliases += node.alias is not None

    def enter_directive(self, node: ast.DirectiveNode, *_: Any) -> None:
        self.directives += 1

    def enter_operation_definition(self, node: ast.OperationDefinitionNode, *_: Any) -> None:
        nesting = self.walker.selections(node.selection_set, False)
        checks = (
            ("query depth", nesting.depth, self.settings.max_depth),
            ("introspection ofType nesting", nesting.of_type, MAX_OF_TYPE),
            ("introspection type nesting", nesting.type_nesting, MAX_TYPE_NESTING),
        )
        for what, value, limit in checks:
            if value > limit:
                self.report_error(too_complex(exceeds(what, value, limit), node))

    def leave_document(self, *_: Any) -> None:
        if self.aliases > self.settings.max_aliases:
            message = exceeds("alias count", self.aliases, self.settings.max_aliases)
            self.report_error(too_complex(message))
        if self.directives > self.settings.max_directives:
            message = exceeds("directive count", self.directives, self.settings.max_directives)
            self.report_error(too_complex(message))


def _bound_limit_rule(limits: Settings) -> type[ValidationRule]:
    """A rule class per settings object: the validation cache keys on the rule classes."""

    class BoundLimitRule(LimitRule):
        settings = limits

    return BoundLimitRule


class NoIntrospection(ValidationRule):
    def enter_field(self, node: ast.FieldNode, *_: Any) -> None:
        if node.name.value in INTROSPECTION_ROOTS:
            code = {"code": INTROSPECTION_DISABLED}
            self.report_error(GraphQLError("introspection is disabled", node, extensions=code))


# -- cost: estimated after (cached) validation, with this request's variables --------------


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


class CostLimit(ValidationCache):
    """Strawberry's ValidationCache (for short queries), then the request's cost."""

    def __init__(self, max_cost: int) -> None:
        super().__init__(maxsize=CACHE_SIZE)
        self.max_cost = max_cost

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            schema = context.schema._schema
            cached = len(context.query or "") <= CACHEABLE_CHARS
            validate = self.cached_validate_document if cached else validate_document
            errors = list(validate(schema, document, context.validation_rules))
            if not errors:
                cost = estimate_cost(schema, document, context.variables, context.operation_name)
                if cost > self.max_cost:
                    errors = [too_complex(exceeds("query cost", cost, self.max_cost))]
            context.pre_execution_errors = errors
        yield


# -- suggestions ----------------------------------------------------------------------------


def without_suggestion(error: GraphQLError) -> GraphQLError:
    message = SUGGESTION.sub("", error.message)
    if message == error.message:
        return error
    return GraphQLError(
        message,
        error.nodes,
        error.source,
        error.positions,
        error.path,
        error.original_error,
        error.extensions,
    )


class HideSuggestions(SchemaExtension):
    """Strips "Did you mean ...?" from every error (validation and variable coercion)."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if result is not None and errors:
            result.errors = [without_suggestion(e) for e in errors]
