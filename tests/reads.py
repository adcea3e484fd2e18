"""Counting what a real store returns to the resolvers, and what the cost limiter charges.

`Counted` wraps a real organisation graph (no stand-in: every read runs on the store) and
adds up the rows each port method returned, as the statements returned them: a page read one
row past its size says so (`has_next`, a search that was not exhaustive), a count is one row.
`charge` is the limiter's own charge of one field of a query (gateway.cost.CostEstimator),
so a test compares the two for the same request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import graphql
from graphql.language import ast

from engine.domain.principal import Principal
from engine.ports import SubjectPage
from gateway.cost import CostEstimator
from resolvers.context import RequestContext
from resolvers.costs import Charge
from resolvers.schema import build_schema


def _pages(found: Any) -> int:
    return sum(len(page) for page in found)


def _values(found: Any) -> int:
    return sum(len(v) for v in found.values())


def _sample(found: Any) -> int:
    return len(found[0]) + 1  # the sample and the count row


def _subject_page(found: SubjectPage) -> int:
    return len(found.items) + int(found.has_next)


ROWS: dict[str, Callable[[Any], int]] = {
    "edges": _pages,
    "neighbors": _pages,
    "episodes": _pages,
    "source_record_pages": _pages,
    "evidence_pages": _pages,
    "series": _pages,
    "edge_counts": len,
    "episode_counts": len,
    "evidence_counts": len,
    "count_subjects": lambda _: 1,
    "find_subjects": _subject_page,
    "subjects_by_keys": len,
    "subjects_by_ids": len,
    "episodes_by_keys": len,
    "source_records_by_keys": len,
    "edges_by_id": len,
    "source_records_of": _values,
    "subjects_by_handle": _sample,
    "subjects_by_id_prefix": _sample,
    "search_all_tokens": lambda found: len(found[0]) + int(not found[1]),
    "search_lexical": len,
    "search_similar": lambda found: 0 if found is None else len(found),
    "page": len,  # results.page
    "by_ids": len,  # results.by_ids
}


class Counted:
    """A real graph (or its result store), counting rows per port method."""

    def __init__(self, inner: Any, rows: Counter[str] | None = None) -> None:
        self.inner = inner
        self.rows: Counter[str] = Counter() if rows is None else rows

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name == "results":
            return Counted(value, self.rows)
        if name not in ROWS or not callable(value):
            return value

        async def counted(*args: Any, **kwargs: Any) -> Any:
            found = await value(*args, **kwargs)
            self.rows[name] += ROWS[name](found)
            return found

        return counted

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def context(graph: Counted, org: str, **options: Any) -> RequestContext:
    principal = Principal(org, "reader", frozenset({"read"}))
    return RequestContext(principal=principal, graph=graph, **options)  # type: ignore[arg-type]


SCHEMA = build_schema()


def charge(query: str, coordinate: str, variables: dict[str, Any] | None = None) -> Charge:
    """The limiter's charge of the first field `Type.field` in `query` (its parents must
    return one object each, so the charge is the field's own)."""
    schema = SCHEMA._schema
    document = graphql.parse(query)
    type_name, field_name = coordinate.split(".")
    parent = schema.get_type(type_name)
    assert isinstance(parent, graphql.GraphQLObjectType)
    node = next(
        n
        for n in _fields(document)
        if n.name.value == field_name
    )
    estimator = CostEstimator(schema, document, variables)
    for definition in document.definitions:
        if isinstance(definition, ast.OperationDefinitionNode):
            estimator.operation(definition)  # binds the operation's variable defaults
    return estimator.charge(node, parent.fields[field_name], parent)


def cost(query: str, variables: dict[str, Any] | None = None) -> int:
    from gateway.cost import estimate_cost

    return estimate_cost(SCHEMA._schema, graphql.parse(query), variables, None)


def _fields(node: Any) -> list[ast.FieldNode]:
    found: list[ast.FieldNode] = []

    class Visitor(graphql.Visitor):
        def enter_field(self, field: ast.FieldNode, *_: Any) -> None:
            found.append(field)

    graphql.visit(node, Visitor())
    return found


async def run(
    graph: Counted, org: str, query: str, variables: dict[str, Any] | None = None
) -> dict[str, Any]:
    result = await SCHEMA.execute(query, variable_values=variables, context_value=context(graph, org))
    assert not result.errors, result.errors
    assert result.data is not None
    return result.data
