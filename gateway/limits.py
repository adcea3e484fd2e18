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
from collections.abc import AsyncIterator, Callable, Iterator
from functools import lru_cache, partial
from typing import Any, NamedTuple

from graphql import (
    GraphQLError,
    GraphQLSyntaxError,
    ValidationRule,
    parse,
)
from graphql.language import ast
from graphql.language.ast import QUERY_DOCUMENT_KEYS
from strawberry.extensions import AddValidationRules, SchemaExtension, ValidationCache
from strawberry.schema.schema import validate_document
from strawberry.types.execution import ExecutionResult, StreamExecutionResult

from gateway.cost import estimate_cost
from gateway.settings import Settings
from gateway.tokens import off_loop
from resolvers.schema import requested_operation_name

__all__ = ["INTROSPECTION_DISABLED", "TOO_COMPLEX", "limit_extensions", "parse_document"]

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
    extensions: list[Extension] = [
        partial(TokenLimit, settings.max_tokens),
        partial(CostLimit, settings),
    ]
    if not settings.introspection:
        extensions += [partial(AddValidationRules, [NoIntrospection]), HideSuggestions]
    return extensions


def too_complex(message: str, node: Any = None) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": TOO_COMPLEX})


def exceeds(what: str, value: int, limit: int) -> str:
    return f"{what} {value} exceeds the limit of {limit}"


# -- parsing: token limit and cache ---------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
def _parse(query: str, max_tokens: int) -> ast.DocumentNode:
    return parse(query, max_tokens=max_tokens)


def _parse_long(query: str, max_tokens: int) -> ast.DocumentNode:
    return parse(query, max_tokens=max_tokens)


def _too_many_tokens(max_tokens: int) -> str:
    return f"query exceeds the limit of {max_tokens} tokens"


def parse_document(query: str, max_tokens: int) -> ast.DocumentNode:
    """`query`'s document, parsed as a request's is (the token limit; short ones cached), for
    a transport that must read it before strawberry does (gateway.subscriptions). Over the
    limit: the QUERY_TOO_COMPLEX error TokenLimit gives; not parsing: its GraphQLSyntaxError."""
    try:
        if len(query) <= CACHEABLE_CHARS:
            return _parse(query, max_tokens)
        return parse(query, max_tokens=max_tokens)
    except GraphQLSyntaxError as error:
        if not TOKEN_ERROR.search(error.message):
            raise
        raise GraphQLError(
            _too_many_tokens(max_tokens),
            source=error.source,
            positions=error.positions,
            extensions={"code": TOO_COMPLEX},
        ) from None


class TokenLimit(SchemaExtension):
    """Parses with a token limit (comments count), caching short queries' documents, and
    parsing long ones in a thread: graphql-core's lexer reads about 5 MB a second, so a text
    near the body limit held the event loop for a fifth of a second.

    Strawberry's ParserCache would raise the limit's error outside strawberry's own parse
    error handling, bypassing error shaping; here a failed parse is left to strawberry,
    which reports it, and its error is then labelled QUERY_TOO_COMPLEX. A long text that
    failed in the thread is not read again: strawberry's parse is told to refuse it unread
    (`max_source_length`), and its error then takes the thread's message and location.
    """

    def __init__(self, max_tokens: int) -> None:
        super().__init__()
        self.max_tokens = max_tokens

    async def on_parse(self) -> AsyncIterator[None]:
        context = self.execution_context
        context.parse_options["max_tokens"] = self.max_tokens
        query = context.query
        failed: GraphQLError | None = None
        if context.graphql_document is None and query:
            try:
                if len(query) <= CACHEABLE_CHARS:
                    context.graphql_document = _parse(query, self.max_tokens)
                else:
                    context.graphql_document = await off_loop(_parse_long, query, self.max_tokens)
            except GraphQLError as refused:
                if len(query) > CACHEABLE_CHARS:
                    failed = refused
                    # graphql-core's own option; strawberry's TypedDict names only max_tokens.
                    context.parse_options["max_source_length"] = 0  # type: ignore[typeddict-unknown-key]
        yield
        for error in context.pre_execution_errors or ():
            if failed is not None:
                _take_over(error, failed)
            if TOKEN_ERROR.search(error.message):
                error.message = _too_many_tokens(self.max_tokens)
                error.extensions = {"code": TOO_COMPLEX}


def _take_over(error: GraphQLError, original: GraphQLError) -> None:
    """`error` (strawberry's, reported) says what `original` (the thread's) said."""
    error.message = original.message
    error.source, error.positions = original.source, original.positions
    error.locations = original.locations
    error.nodes = original.nodes


# -- validation rules: depth, aliases, directives, introspection ----------------------------


class Nesting(NamedTuple):
    depth: int = 0
    of_type: int = 0  # `ofType` fields on a path in introspection (they add no depth)
    type_nesting: int = 0  # other `__Type`-returning fields on a path in introspection

    def widest(self, other: Nesting) -> Nesting:
        if self == other:
            return self
        return Nesting(
            max(self.depth, other.depth),
            max(self.of_type, other.of_type),
            max(self.type_nesting, other.type_nesting),
        )


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


def counts(document: ast.DocumentNode) -> tuple[int, int]:
    """Aliases and directive uses in a whole document: the children graphql-core's `visit`
    walks (QUERY_DOCUMENT_KEYS), without its visitor machinery (a third of the time)."""
    aliases = directives = 0
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        kind = node.kind
        if kind == "directive":
            directives += 1
        elif kind == "field" and node.alias is not None:
            aliases += 1
        for key in QUERY_DOCUMENT_KEYS.get(kind, ()):
            value = getattr(node, key)
            if value is None:
                continue
            if isinstance(value, tuple | list):
                stack.extend(value)
            else:
                stack.append(value)
    return aliases, directives


def limit_errors(document: ast.DocumentNode, settings: Settings) -> list[GraphQLError]:
    """Depth (per operation, through fragments), aliases and directives (per document),
    checked before validation: graphql-core stops validating at 100 errors, so a count
    made by a validation rule was never reached by 1,000 unknown directives."""
    errors: list[GraphQLError] = []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, ast.FragmentDefinitionNode)
    }
    walker = NestingWalker(fragments.get)
    for node in document.definitions:
        if not isinstance(node, ast.OperationDefinitionNode):
            continue
        nesting = walker.selections(node.selection_set, False)
        checks = (
            ("query depth", nesting.depth, settings.max_depth),
            ("introspection ofType nesting", nesting.of_type, MAX_OF_TYPE),
            ("introspection type nesting", nesting.type_nesting, MAX_TYPE_NESTING),
        )
        errors += [too_complex(exceeds(w, v, lim), node) for w, v, lim in checks if v > lim]
    aliases, directives = counts(document)
    for what, value, limit in (
        ("alias count", aliases, settings.max_aliases),
        ("directive count", directives, settings.max_directives),
    ):
        if value > limit:
            errors.append(too_complex(exceeds(what, value, limit)))
    return errors


class NoIntrospection(ValidationRule):
    def enter_field(self, node: ast.FieldNode, *_: Any) -> None:
        if node.name.value in INTROSPECTION_ROOTS:
            code = {"code": INTROSPECTION_DISABLED}
            self.report_error(GraphQLError("introspection is disabled", node, extensions=code))


# -- cost: estimated after (cached) validation, with this request's variables --------------


class CostLimit(ValidationCache):
    """Strawberry's ValidationCache (for short queries), then the request's cost."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(maxsize=CACHE_SIZE)
        self.settings = settings
        self.max_cost = settings.max_cost

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            schema = context.schema._schema
            cached = len(context.query or "") <= CACHEABLE_CHARS
            validate = self.cached_validate_document if cached else validate_document
            errors = limit_errors(document, self.settings)
            if not errors:
                errors = list(validate(schema, document, context.validation_rules))
            # The name the request gave (strawberry's `operation_name` falls back to the
            # first operation's, and ran that one).
            named = requested_operation_name()
            if not errors and named is None and _operations(document) > 1:
                errors = [GraphQLError(UNNAMED)]
            if not errors:
                cost = estimate_cost(schema, document, context.variables, context.operation_name)
                if cost > self.max_cost:
                    errors = [too_complex(exceeds("query cost", cost, self.max_cost))]
            context.pre_execution_errors = errors
        yield


UNNAMED = "Must provide operation name if query contains multiple operations."


def _operations(document: ast.DocumentNode) -> int:
    """The operations a document defines: with several, a request must name one (GraphQL's
    spec); strawberry ran the first."""
    return sum(isinstance(d, ast.OperationDefinitionNode) for d in document.definitions)


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

    def on_stream_result(self, result: StreamExecutionResult) -> Iterator[None]:
        # A streamed result leaves before on_operation's end (and a second pass is harmless).
        if isinstance(result, ExecutionResult) and result.errors:
            result.errors = [without_suggestion(e) for e in result.errors]
        yield
