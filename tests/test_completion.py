"""Direct completion (resolvers/completion.py) answers exactly what graphql-core would, errors
included, and is really what answers a plain dashboard query."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

import pytest
import strawberry
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from resolvers.completion import ROOT_FIELDS_ONLY, DirectExecutor
from resolvers.schema import read_attributes_directly


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@strawberry.type
class Item:
    name: str
    tags: list[str]
    colour: Colour
    seen: datetime | None
    children: list[Item]
    maybe: Item | None = None


@strawberry.type
class Other:
    name: str


def _item(
    name: Any,
    tags: list[Any] | None = None,
    children: list[Any] | None = None,
    colour: Any = Colour.RED,
) -> Item:
    return Item(
        name=name,
        tags=tags or [],
        colour=colour,
        seen=datetime(2026, 3, 1, tzinfo=UTC),
        children=children or [],
    )


GOOD = [_item("a", ["x", "y"], [_item("a1"), _item("a2", colour=Colour.BLUE)]), _item("b")]
BAD_LEAF = [_item("a"), _item(None, ["t"])]  # a null where the schema forbids one
BAD_ITEM = [_item("a", [None]), _item("b")]  # a null inside a list of non-null strings
WRONG_TYPE = [_item("a", children=[Other(name="o")])]  # type: ignore[list-item]
BAD_ENUM = [_item("a", colour="purple")]

SOURCES = {
    "good": GOOD,
    "bad_leaf": BAD_LEAF,
    "bad_item": BAD_ITEM,
    "wrong_type": WRONG_TYPE,
    "bad_enum": BAD_ENUM,
}


@strawberry.type
class Query:
    @strawberry.field
    def items(self, source: str) -> list[Item]:
        return SOURCES[source]

    @strawberry.field
    def first(self, source: str) -> Item | None:
        return SOURCES[source][0]


def _schema(executor: type) -> strawberry.Schema:
    schema = strawberry.Schema(query=Query, execution_context_class=executor)
    read_attributes_directly(schema)
    return schema


class CountingExecutor(DirectExecutor):
    done: list[str] = []

    def _plan_for(self, return_type: Any, details: Any) -> Any:
        plan = super()._plan_for(return_type, details)
        if plan is None:
            return None

        def counted(value: Any) -> Any:
            result = plan(value)
            CountingExecutor.done.append(str(return_type))
            return result

        return counted


QUERIES = [
    "{ items(source: $s) { name tags colour seen children { name colour } } }",
    "{ items(source: $s) { n: name name __typename c: children { t: __typename name } } }",
    "{ items(source: $s) { ...F children { ...F } } } fragment F on Item { name colour }",
    "{ items(source: $s) { name ... on Item { tags } children @include(if: $yes) { name } } }",
    "{ items(source: $s) { name children @skip(if: $yes) { name } maybe { name } } }",
    "{ first(source: $s) { name children { name tags } } }",
]


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("query", QUERIES)
async def test_direct_completion_answers_what_graphql_core_answers(query: str, source: str) -> None:
    document = "query($s: String!, $yes: Boolean!) " + query
    variables = {"s": source, "yes": True}
    direct = await _schema(DirectExecutor).execute(document, variable_values=variables)
    plain = await _schema(StrawberryGraphQLCoreExecutionContext).execute(
        document, variable_values=variables
    )
    assert direct.data == plain.data
    assert [e.formatted for e in direct.errors or []] == [e.formatted for e in plain.errors or []]
    if query == QUERIES[0] and source != "good":
        assert direct.errors  # each bad source really is an error, in graphql-core's words


async def test_plans_complete_whole_values_and_give_up_on_bad_ones() -> None:
    schema = _schema(CountingExecutor)
    CountingExecutor.done = []
    query = "{ items(source: $s) { name children { name } } }"
    document = "query($s: String!) " + query
    result = await schema.execute(document, variable_values={"s": "good"})
    assert result.data == {
        "items": [
            {"name": "a", "children": [{"name": "a1"}, {"name": "a2"}]},
            {"name": "b", "children": []},
        ]
    }
    assert CountingExecutor.done == ["[Item!]!"]  # the root list, in one piece

    CountingExecutor.done = []
    result = await schema.execute(document, variable_values={"s": "bad_leaf"})
    assert result.data is None and result.errors
    # The list gave up; graphql-core completed it, and the good item went by plan again.
    assert "[Item!]!" not in CountingExecutor.done and CountingExecutor.done[0] == "Item!"

    # @include and @skip were applied when the fields were collected: still one plan.
    CountingExecutor.done = []
    document = "query($yes: Boolean!) { items(source: \"good\") { name " \
               "children @include(if: $yes) { name } tags @skip(if: $yes) } }"
    result = await schema.execute(document, variable_values={"yes": True})
    assert result.data is not None and "tags" not in result.data["items"][0]
    assert CountingExecutor.done == ["[Item!]!"]


class Watcher(SchemaExtension):
    seen: list[str] = []

    def resolve(self, _next: Any, root: Any, info: Any, *args: Any, **kwargs: Any) -> Any:
        Watcher.seen.append(info.field_name)
        return _next(root, info, *args, **kwargs)


class RootWatcher(Watcher):
    resolves_root_fields_only = True


@pytest.mark.parametrize(("extension", "planned"), [(Watcher, False), (RootWatcher, True)])
async def test_an_extension_watching_every_field_sees_every_field(
    extension: type[Watcher], planned: bool
) -> None:
    assert ROOT_FIELDS_ONLY == "resolves_root_fields_only"
    schema = strawberry.Schema(query=Query, execution_context_class=CountingExecutor,
                               extensions=[extension])
    read_attributes_directly(schema)
    Watcher.seen, CountingExecutor.done = [], []
    document = 'query { items(source: "good") { name } }'
    result = await schema.execute(document)
    assert result.data == {"items": [{"name": "a"}, {"name": "b"}]}
    if planned:  # the root field through the extension, the rest by plan
        assert Watcher.seen == ["items"] and CountingExecutor.done == ["[Item!]!"]
    else:
        assert Watcher.seen == ["items", "name", "name"] and CountingExecutor.done == []


def test_tracing_watches_root_fields_only() -> None:
    from gateway import tracing

    assert getattr(tracing.OpenTelemetryExtension, ROOT_FIELDS_ONLY) is True


# The real schema over a real graph: each query answered with plans and without.
REAL_QUERIES = [
    """{ subjects(first: 10, orderBy: KEY) { totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id key kind name aliases previousNames description attributes
          validFrom validTo stub __typename } } } }""",
    """query($t: [RelationshipType!], $deep: Boolean!) {
      subjects(filter: {kind: REPOSITORY}, orderBy: RECENTLY_ACTIVE, first: 5) { edges { node {
        k: key owner: neighbors(types: $t, direction: INCOMING, first: 1) { key name }
        all: neighbors { key kind ... on Subject { name } }
        old: neighbors(asOf: "2025-07-01T00:00:00Z", types: $t, direction: INCOMING) { key }
        deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING) @include(if: $deep) {
          key deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING) { key } } } } } }""",
    """{ subjects(asOf: "2025-07-01T00:00:00Z", first: 10) { edges { node { key
        neighbors(types: [OWNS]) { key validFrom } } } } }""",
    """{ subject(key: "repository:web") { key
        relationships(first: 3) { totalCount edges { cursor node { id type validFrom validTo
          evidence from { key name } to { key } } } pageInfo { hasNextPage } }
        episodes(first: 5) { edges { node { key occurredAt text mentions { key } } } }
        sourceRecords { key recordKind start end status title value } } }""",
    """{ subjects(first: 2, orderBy: NAME) { edges { node { ...S } } } }
       fragment S on Subject { key name neighbors(first: 2) { ...T } }
       fragment T on Subject { key __typename }""",
]


@pytest.mark.parametrize("query", REAL_QUERIES)
async def test_plans_answer_the_real_schema_as_graphql_core_does(
    falkor: Any, story_org: str, query: str
) -> None:
    from engine.principal import Principal
    from resolvers.context import RequestContext
    from resolvers.schema import build_schema

    answers = []
    CountingExecutor.done = []
    for executor in (CountingExecutor, StrawberryGraphQLCoreExecutionContext):
        schema = build_schema()
        schema.execution_context_class = executor
        context = RequestContext(principal=Principal(story_org, "reader", frozenset({"read"})),
                                 graph=falkor.org(story_org))
        result = await schema.execute(query, variable_values={"t": ["OWNS"], "deep": True},
                                      context_value=context)
        answers.append((result.data, [e.formatted for e in result.errors or []]))
    assert answers[0] == answers[1]
    assert answers[0][0] and not answers[0][1]
    assert CountingExecutor.done  # plans did answer part of it


@pytest.fixture(scope="module")
async def story_org(falkor: Any) -> str:
    from tests.conftest import new_org
    from tests.helpers import load
    from tests.test_reads import STORY

    org = new_org()
    await falkor.bootstrap(org)
    assert (await load(falkor.org(org), STORY)).ok
    return org
