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


class Seen:
    """The request's observer: dataloader batches and abandoned plans, by name."""

    def __init__(self) -> None:
        self.batches: list[str] = []
        self.abandoned: list[str] = []

    def batch(self, loader: str, size: int) -> None:
        self.batches.append(loader)

    def plan_abandoned(self, reason: str) -> None:
        self.abandoned.append(reason)

    def investigation(self, outcome: str, reused: bool, stages: Any) -> None:
        pass


async def _answer(store: Any, org: str, query: str, fast_paths: Any, read_ahead: bool,
                  executor: type | None = None) -> tuple[Any, list[Any], Seen]:  # fmt: skip
    from engine.domain.contract import Versions
    from engine.domain.principal import Principal
    from engine.resolving.receipts import ReceiptSigner
    from resolvers.context import EngineServices, RequestContext
    from resolvers.schema import build_schema

    seen = Seen()
    schema = build_schema(fast_paths=fast_paths)
    if executor is not None:
        schema.execution_context_class = executor
    services = EngineServices(ReceiptSigner(b"k" * 32), Versions(projection="v1", embedder="e"),
                              observer=seen)  # fmt: skip
    context = RequestContext(principal=Principal(org, "reader", frozenset({"read"})),
                             graph=store.org(org), services=services, read_ahead=read_ahead)
    result = await schema.execute(query, variable_values={"t": ["OWNS"], "deep": True},
                                  context_value=context)
    return result.data, [e.formatted for e in result.errors or []], seen


def _fast_path_cases() -> list[Any]:
    from resolvers.schema import FastPaths

    return [
        pytest.param(FastPaths(True, False, False), False, id="attributes read directly"),
        pytest.param(FastPaths(False, False, False), True, id="prefetched requests"),
        pytest.param(FastPaths(False, True, False), True, id="answers read ahead"),
        pytest.param(FastPaths(True, False, True), True, id="completion plans"),
        pytest.param(FastPaths(), True, id="all, as served"),
    ]


@pytest.mark.parametrize(("fast_paths", "read_ahead"), _fast_path_cases())
@pytest.mark.parametrize("query", REAL_QUERIES)
async def test_each_fast_path_answers_the_real_schema_as_the_plain_path_does(
    memory: Any, story_org: str, query: str, fast_paths: Any, read_ahead: bool
) -> None:
    """The plain path: stock strawberry resolvers, graphql-core's completion, every
    `neighbors` through its loader. Each fast path alone, then all, must answer the same."""
    from resolvers.schema import PLAIN

    plain = await _answer(memory, story_org, query, PLAIN, read_ahead=False)
    assert plain[0] and not plain[1]
    assert "neighbors_read_ahead" not in plain[2].batches
    CountingExecutor.done = []
    executor = CountingExecutor if fast_paths.plans else None
    fast = await _answer(memory, story_org, query, fast_paths, read_ahead, executor)
    assert fast[:2] == plain[:2]
    if fast_paths.plans:
        assert CountingExecutor.done  # plans did answer part of it
    if read_ahead and "neighbors" in query and "..." not in query:
        # A plain selection: every level of neighbors was read ahead, none by its loader.
        assert "neighbors_read_ahead" in fast[2].batches and "neighbors" not in fast[2].batches
        assert "neighbors" in plain[2].batches


async def test_an_abandoned_plan_is_counted_and_logged_once_per_shape(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from resolvers import completion

    completion._logged.clear()
    schema = _schema(DirectExecutor)
    seen = Seen()
    document = 'query { items(source: "bad_leaf") { name } }'
    with caplog.at_level("INFO", logger="fabric.completion"):
        result = await schema.execute(document, context_value=seen)
        once = list(seen.abandoned)
        logged = [r.getMessage() for r in caplog.records if r.name == "fabric.completion"]
        for _ in range(2):
            again = await schema.execute(document, context_value=seen)
            assert again.errors
    assert result.errors  # graphql-core still reports the null, in its words
    # The root list gave up on the null, and so did each level graphql-core then went down.
    assert once and set(once) == {"null"} and seen.abandoned == once * 3
    assert any("items: [Item!]!" in m and "(null)" in m for m in logged)
    assert len(logged) == len(set(logged))  # one line per shape...
    assert [r.getMessage() for r in caplog.records if r.name == "fabric.completion"] == logged
    # ...and not again for the same shapes.
    enum_doc = 'query { items(source: "bad_enum") { colour } }'
    result = await schema.execute(enum_doc, context_value=seen)
    assert result.errors and seen.abandoned[-1] == "refused"


async def test_a_defect_in_a_plan_is_an_error_logged_as_a_warning_and_still_answered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from graphql import GraphQLObjectType

    from resolvers import completion

    completion._logged.clear()
    schema = _schema(DirectExecutor)
    item = schema._schema.type_map["Item"]
    assert isinstance(item, GraphQLObjectType)
    resolve = item.fields["name"].resolve

    def broken_reader(_node: Any) -> Any:
        return lambda _source: 1 / 0

    setattr(resolve, completion.DIRECT, broken_reader)
    seen = Seen()
    with caplog.at_level("INFO", logger="fabric.completion"):
        result = await schema.execute('{ items(source: "good") { name } }', context_value=seen)
    # graphql-core answered in the plan's place, through the field's resolver.
    assert not result.errors and result.data == {"items": [{"name": "a"}, {"name": "b"}]}
    assert seen.abandoned and set(seen.abandoned) == {"error"}
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert warnings and "items: [Item!]!" in warnings[0].getMessage()
    assert warnings[0].exc_info is not None


@pytest.fixture(scope="module")
def memory() -> Any:
    from engine.memory import MemoryStore

    return MemoryStore()


@pytest.fixture(scope="module")
async def story_org(memory: Any) -> str:
    from tests.conftest import new_org
    from tests.helpers import load
    from tests.test_reads import STORY

    org = new_org()
    await memory.bootstrap(org)
    assert (await load(memory.org(org), STORY)).ok
    return org


def test_the_gateway_counts_abandoned_plans_by_reason() -> None:
    from gateway.metrics import Metrics

    metrics = Metrics()
    metrics.plan_abandoned("null")
    metrics.plan_abandoned("null")
    metrics.plan_abandoned("error")
    text = metrics.render().decode()
    assert 'fabric_completion_plans_abandoned_total{reason="null"} 2.0' in text
    assert 'fabric_completion_plans_abandoned_total{reason="error"} 1.0' in text
