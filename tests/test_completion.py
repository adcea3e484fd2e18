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
