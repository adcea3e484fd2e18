"""Query limits: every limit just under and just over, rejected before any resolver runs.

Queries against the real schema run with a None context: a rejected query never needs one,
and an accepted one fails later, in a resolver (INTERNAL_SERVER_ERROR), never in validation.
A tiny schema with trivial resolvers checks the cost estimator generically.
"""

from __future__ import annotations

import asyncio
from typing import Any

import graphql
import pytest
import strawberry
from strawberry.extensions import SchemaExtension

from gateway.errors import ShapeErrors, error_codes
from gateway.limits import (
    INTROSPECTION_DISABLED,
    TOO_COMPLEX,
    counts,
    estimate_cost,
    limit_extensions,
)
from gateway.settings import Settings
from resolvers.args import DEFAULT_PAGE
from resolvers.schema import build_schema

REJECTED_BEFORE_EXECUTION = {TOO_COMPLEX, INTROSPECTION_DISABLED, "GRAPHQL_VALIDATION_FAILED"}


@strawberry.type
class Item:
    name: str = "item"
    tags: list[str] = strawberry.field(default_factory=lambda: ["a", "b"])

    @strawberry.field
    def children(self, first: int | None = None) -> list[Item]:
        return [Item() for _ in range(min(first or 0, 2))]

    @strawberry.field
    def parts(self) -> list[Item]:
        return []

    @strawberry.field
    def page(self, first: int | None = None) -> ItemConnection:
        return ItemConnection(edges=[ItemEdge(node=Item())], total=1)


@strawberry.type
class ItemEdge:
    node: Item


@strawberry.type
class ItemConnection:
    edges: list[ItemEdge]
    total: int


@strawberry.type
class TinyQuery:
    @strawberry.field
    def items(self, first: int | None = None) -> list[Item]:
        return [Item()]


def real(**settings: Any) -> strawberry.Schema:
    return build_schema(extensions=[ShapeErrors, *limit_extensions(Settings(**settings))])


def tiny(**settings: Any) -> strawberry.Schema:
    extensions = [ShapeErrors, *limit_extensions(Settings(**settings))]
    return strawberry.Schema(query=TinyQuery, extensions=extensions)


async def run(
    schema: strawberry.Schema, query: str, variables: dict[str, Any] | None = None
) -> Any:
    execution = schema.execute(query, variable_values=variables, context_value=None)
    return await asyncio.wait_for(execution, timeout=20)


def messages(result: Any) -> list[str]:
    return [e.message for e in result.errors or ()]


def assert_rejected(result: Any, code: str = TOO_COMPLEX, message: str | None = None) -> None:
    assert result.data is None
    assert code in error_codes(result.errors), messages(result)
    if message is not None:
        assert message in messages(result)


def assert_accepted(result: Any) -> None:
    assert not error_codes(result.errors) & REJECTED_BEFORE_EXECUTION, messages(result)


def cost(schema: strawberry.Schema, query: str, variables: Any = None) -> int:
    return estimate_cost(schema._schema, graphql.parse(query), variables, None)


# -- the extensions themselves ---------------------------------------------------------------


def test_extensions_are_classes_or_factories_never_instances() -> None:
    for introspection in (True, False):
        for extension in limit_extensions(Settings(introspection=introspection)):
            assert not isinstance(extension, SchemaExtension)
            first, second = extension(), extension()
            assert isinstance(first, SchemaExtension)
            assert first is not second


# -- depth -----------------------------------------------------------------------------------

DEPTH_4 = "{ items(first: 1) { children(first: 1) { children(first: 1) { name } } } }"


async def test_depth_at_the_limit_is_accepted() -> None:
    result = await run(tiny(max_depth=4), DEPTH_4)
    assert result.errors is None
    assert result.data == {"items": [{"children": [{"children": [{"name": "item"}]}]}]}


async def test_depth_over_the_limit_is_rejected() -> None:
    result = await run(tiny(max_depth=3), DEPTH_4)
    assert_rejected(result, message="query depth 4 exceeds the limit of 3")


async def test_depth_follows_named_and_inline_fragments() -> None:
    query = """
        { items(first: 1) { ...A } }
        fragment A on Item { children(first: 1) { ... on Item { ...B } } }
        fragment B on Item { children(first: 1) { name } }
    """
    assert_accepted(await run(tiny(max_depth=4), query))
    assert_rejected(await run(tiny(max_depth=3), query))


async def test_depth_default_on_the_real_schema() -> None:
    query = "{ subjects { edges { node { key } } } }"
    assert_accepted(await run(real(max_depth=4), query))
    assert_rejected(await run(real(max_depth=3), query))


async def test_same_document_under_two_settings_uses_each_ones_limit() -> None:
    assert_accepted(await run(tiny(max_depth=4), DEPTH_4))  # now cached as valid
    assert_rejected(await run(tiny(max_depth=3), DEPTH_4))
    assert_accepted(await run(tiny(max_depth=4), DEPTH_4))


# -- aliases ---------------------------------------------------------------------------------


def aliased(count: int) -> str:
    return "{ " + " ".join(f"a{i}: __typename" for i in range(count)) + " }"


async def test_aliases_at_the_limit_are_accepted() -> None:
    result = await run(real(), aliased(30))
    assert result.errors is None
    assert len(result.data) == 30


async def test_aliases_over_the_limit_are_rejected() -> None:
    result = await run(real(), aliased(31))
    assert_rejected(result, message="alias count 31 exceeds the limit of 30")


async def test_an_alias_flood_is_rejected() -> None:
    assert_rejected(await run(real(), aliased(101)))


# -- tokens ----------------------------------------------------------------------------------


def typenames(count: int) -> str:
    return "{ " + "__typename " * count + "}"  # count + 2 tokens


async def test_tokens_at_the_limit_are_accepted() -> None:
    result = await run(real(max_tokens=20), typenames(18))
    assert result.errors is None


async def test_tokens_over_the_limit_are_a_clean_error() -> None:
    result = await run(real(max_tokens=20), typenames(19))
    assert_rejected(result, message="query exceeds the limit of 20 tokens")
    assert len(result.errors) == 1


async def test_comments_count_as_tokens() -> None:
    query = "# padding\n" * 30 + "{ __typename }"
    assert_rejected(await run(real(max_tokens=20), query))


async def test_a_long_document_over_the_default_limit_is_rejected() -> None:
    assert_rejected(await run(real(), typenames(6_000)))


async def test_other_syntax_errors_keep_their_code() -> None:
    result = await run(real(), "{ subjects { ")
    assert error_codes(result.errors) == {"GRAPHQL_PARSE_FAILED"}


# -- directives ------------------------------------------------------------------------------


def directed(count: int) -> str:
    return "{ " + "__typename @include(if: true) " * count + "}"


async def test_directives_at_the_limit_are_accepted() -> None:
    result = await run(real(max_directives=5), directed(5))
    assert result.errors is None
    assert result.data == {"__typename": "Query"}


async def test_directives_over_the_limit_are_rejected() -> None:
    result = await run(real(max_directives=5), directed(6))
    assert_rejected(result, message="directive count 6 exceeds the limit of 5")


async def test_a_directive_flood_is_rejected() -> None:
    assert_rejected(await run(real(), directed(60)))


# -- cost ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "variables", "expected"),
    [
        ("{ items(first: 3) { name } }", None, 3 * 2),
        ("{ items { name } }", None, DEFAULT_PAGE * 2),
        ("query($n: Int) { items(first: $n) { name } }", {"n": 7}, 7 * 2),
        ("query($n: Int) { items(first: $n) { name } }", {}, DEFAULT_PAGE * 2),
        ("query($n: Int = 4) { items(first: $n) { name } }", {}, 4 * 2),
        ("query($n: Int = 4) { items(first: $n) { name } }", {"n": 9}, 9 * 2),
        ("{ items(first: 3) { children(first: 4) { name } } }", None, 3 * (1 + 4 * 2)),
        ("{ items(first: 2) { parts { name } } }", None, 2 * (1 + DEFAULT_PAGE * 2)),
        ("{ items(first: 2) { tags name } }", None, 2 * 3),
        (
            "{ items(first: 2) { page(first: 5) { total edges { node { name } } } } }",
            None,
            # A connection reads one row more than its page (the one telling hasNextPage);
            # its edges repeat per edge, its other fields (`total`) once.
            2 * (1 + (5 + 1) + 1 + 5 * (1 + 1 * 2)),
        ),
        (
            """{ items(first: 3) { ...F } }
            fragment F on Item { children(first: 4) { ... on Item { name } } }""",
            None,
            3 * (1 + 4 * 2),
        ),
        ("{ __typename items(first: -5) { name } }", None, 1),
    ],
)
def test_cost_estimate(query: str, variables: Any, expected: int) -> None:
    assert cost(tiny(), query, variables) == expected


def test_cost_of_nested_connections_on_the_real_schema() -> None:
    one_level = "query($n: Int) { subjects(first: $n) { edges { node { key } } } }"
    assert cost(real(), one_level, {"n": 500}) == (500 + 1) + 500 * (1 + 1 * (1 + 1))
    two_levels = """{ subjects(first: 500) { totalCount edges { node {
        relationships(first: 500) { edges { node { type } } } } } } }"""
    inner = (500 + 1) + 500 * (1 + 1 * (1 + 1))
    assert cost(real(), two_levels) == (500 + 1) + 1 + 500 * (1 + 1 * (1 + inner))


async def test_cost_at_the_limit_is_accepted_and_over_it_rejected() -> None:
    query = "query($n: Int, $m: Int) { items(first: $n) { children(first: $m) { name } } }"
    limit = 10 * (1 + 20 * 2)
    result = await run(tiny(max_cost=limit), query, {"n": 10, "m": 20})
    assert result.errors is None
    result = await run(tiny(max_cost=limit), query, {"n": 10, "m": 21})
    assert_rejected(result, message=f"query cost {10 * (1 + 21 * 2)} exceeds the limit of {limit}")


async def test_cost_uses_each_requests_variables_despite_the_validation_cache() -> None:
    schema = tiny(max_cost=1_000)
    query = "query($n: Int) { items(first: $n) { children(first: $n) { name } } }"
    assert (await run(schema, query, {"n": 10})).errors is None
    assert_rejected(await run(schema, query, {"n": 100}))
    assert (await run(schema, query, {"n": 10})).errors is None


async def test_nested_pages_of_500_are_rejected_on_the_real_schema() -> None:
    query = """query($n: Int) { subjects(first: 500) { edges { node {
        relationships(first: $n) { edges { node { type } } } } } } }"""
    assert_rejected(await run(real(), query, {"n": 500}))
    assert_accepted(await run(real(), query, {"n": 10}))


async def test_fragment_amplification_is_costed_without_blowing_up() -> None:
    spreads = "\n".join(f"fragment F{i} on Query {{ ...F{i + 1} ...F{i + 1} }}" for i in range(30))
    query = "{ ...F0 }\n" + spreads + "\nfragment F30 on Query { __typename }"
    assert_rejected(await run(real(max_tokens=1_000), query))


async def test_circular_fragments_are_rejected_without_hanging() -> None:
    query = """
        { subjects { ...A } }
        fragment A on SubjectConnection { edges { node { key } } ...B }
        fragment B on SubjectConnection { totalCount ...A }
    """
    result = await run(real(), query)
    assert result.data is None
    assert "GRAPHQL_VALIDATION_FAILED" in error_codes(result.errors)


# -- introspection ---------------------------------------------------------------------------

FULL_INTROSPECTION = graphql.get_introspection_query(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
    one_of=True,
)


async def test_the_standard_introspection_query_is_accepted() -> None:
    result = await run(real(), FULL_INTROSPECTION)
    assert result.errors is None
    assert result.data["__schema"]["queryType"]["name"] == "Query"


async def test_a_deep_of_type_chain_is_rejected() -> None:
    chain = "ofType { " * 30 + "name" + " }" * 30
    query = f'{{ __type(name: "Subject") {{ {chain} }} }}'
    assert_rejected(await run(real(), query))


async def test_of_type_chain_at_ten_is_accepted() -> None:
    chain = "ofType { " * 10 + "name" + " }" * 10
    query = f'{{ __type(name: "Subject") {{ {chain} }} }}'
    assert (await run(real(), query)).errors is None


async def test_introspection_type_nesting_is_capped() -> None:
    ok = '{ __type(name: "Subject") { fields { type { name fields { name } } } } }'
    assert (await run(real(), ok)).errors is None
    bomb = "{ __schema { types { " + "fields { type { " * 3 + "name" + " } }" * 3 + " } } }"
    assert_rejected(await run(real(), bomb))


async def test_introspection_off_rejects_schema_and_type() -> None:
    schema = real(introspection=False)
    for query in ("{ __schema { queryType { name } } }", '{ __type(name: "Query") { name } }'):
        result = await run(schema, query)
        assert_rejected(result, INTROSPECTION_DISABLED, "introspection is disabled")
    assert (await run(schema, "{ __typename }")).data == {"__typename": "Query"}


@pytest.mark.parametrize(
    "query",
    [
        "{ subjects { edgez } }",
        "{ subjects(frist: 1) { totalCount } }",
        "{ subjects(orderBy: KEYS) { totalCount } }",
        "query($f: SubjectFiltr) { subjects(filter: $f) { totalCount } }",
    ],
)
async def test_introspection_off_hides_suggestions(query: str) -> None:
    shown = await run(real(), query)
    assert any("Did you mean" in m for m in messages(shown))
    hidden = await run(real(introspection=False), query)
    assert hidden.errors
    assert not any("Did you mean" in m for m in messages(hidden)), messages(hidden)
    assert error_codes(hidden.errors) == {"GRAPHQL_VALIDATION_FAILED"}


async def test_introspection_off_hides_suggestions_in_variable_errors() -> None:
    # Unshaped: error shaping masks variable coercion errors (they carry an original_error).
    query = "query($f: SubjectFilter) { subjects(filter: $f) { totalCount } }"
    variables = {"f": {"namePrefx": "pay"}}
    shown = build_schema(extensions=limit_extensions(Settings()))
    assert any("Did you mean" in m for m in messages(await run(shown, query, variables)))
    schema = build_schema(extensions=limit_extensions(Settings(introspection=False)))
    hidden = await run(schema, query, variables)
    assert hidden.errors
    assert not any("Did you mean" in m for m in messages(hidden)), messages(hidden)


class _VisitCount(graphql.Visitor):
    """The count as graphql-core's own walk makes it: what `counts` must equal."""

    def __init__(self) -> None:
        super().__init__()
        self.aliases = self.directives = 0

    def enter_field(self, node: graphql.FieldNode, *_: Any) -> None:
        self.aliases += node.alias is not None

    def enter_directive(self, *_: Any) -> None:
        self.directives += 1


@pytest.mark.parametrize("text", [
    # A directive at every place one may stand, aliases at every depth.
    "query Q($a: Int = 1 @v1) @op { x: a @f(b: 1) { y: b ...F @s ... on T @i { z: c @g } } }"
    " fragment F on T @fd { w: d @h }",
    "subscription { a @x @y @z }",
    "{ " + "__typename @nosuch " * 1_000 + "}",
    "{ " + "a: x { " * 40 + "b" + " }" * 41,
    "{ a }",
])  # fmt: skip
def test_aliases_and_directives_are_counted_everywhere_graphql_walks(text: str) -> None:
    document = graphql.parse(text)
    walked = _VisitCount()
    graphql.visit(document, walked)
    assert counts(document) == (walked.aliases, walked.directives)
