"""The strawberry schema, built with the extensions the gateway chooses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

import strawberry
from graphql import GraphQLError, GraphQLObjectType, GraphQLResolveInfo
from strawberry.extensions import SchemaExtension
from strawberry.schema.config import BatchingConfig, StrawberryConfig
from strawberry.schema.name_converter import NameConverter

from resolvers.completion import DIRECT, DirectExecutor, NotReady
from resolvers.investigation import Mutation
from resolvers.investigation_types import InvestigationResult
from resolvers.queries import Query
from resolvers.types import Episode, Relationship, SourceRecord, Subject


class Schema(strawberry.Schema):
    def process_errors(self, errors: list[GraphQLError], execution_context: Any = None) -> None:
        """Not here: the gateway's error shaping logs what is unexpected, once, without the
        client's query text (strawberry would log every client mistake at ERROR level)."""


class MemoNames(NameConverter):
    """strawberry converts every argument's Python name to camelCase again on each resolver
    call; the mapping never changes, so remember it (a dashboard page makes hundreds of
    such calls)."""

    def __init__(self) -> None:
        super().__init__(auto_camel_case=True)
        self._names: dict[str, str] = {}

    def apply_naming_config(self, name: str) -> str:
        found = self._names.get(name)
        if found is None:
            found = self._names[name] = super().apply_naming_config(name)
        return found


def answer_read_ahead(schema: strawberry.Schema) -> None:
    """`Subject.neighbors` answers what the read-ahead (resolvers/prefetch.py) put on its
    parent without going through strawberry: converting the same arguments again for each of
    hundreds of parents cost more than everything else the field does. Anything not read
    ahead goes to the strawberry resolver as before, which computes the same answer."""
    subject = schema._schema.type_map["Subject"]
    assert isinstance(subject, GraphQLObjectType)
    field = subject.fields["neighbors"]
    resolve = field.resolve
    assert resolve is not None

    def neighbors(source: Any, info: GraphQLResolveInfo[Any], **arguments: Any) -> Any:
        ahead = source.ahead
        if ahead is not None and len(info.field_nodes) == 1:
            answer = ahead.get(id(info.field_nodes[0]))
            if answer is not None:
                return answer
        return resolve(source, info, **arguments)

    setattr(neighbors, DIRECT, lambda node: partial(_read_ahead, id(node)))
    field.resolve = neighbors


def _read_ahead(node_id: int, source: Any) -> Any:
    ahead = source.ahead
    answer = ahead.get(node_id) if ahead is not None else None
    if answer is None:
        raise NotReady
    return answer


def _attribute(name: str) -> Callable[..., Any]:
    def resolve(source: Any, info: GraphQLResolveInfo[Any]) -> Any:
        return getattr(source, name)

    setattr(resolve, DIRECT, lambda _node: attrgetter(name))
    return resolve


def read_attributes_directly(schema: strawberry.Schema) -> None:
    """Fields that are plain attributes (no resolver, field extension or permission) read the
    attribute straight away. strawberry otherwise wraps each one in a resolver that converts
    the resolve info and runs field hooks; over the thousand-odd attribute reads of a
    dashboard page that cost a tenth of its CPU. It reads the same attribute (strawberry's
    default resolver is `getattr`), and schema extensions still see every field: graphql-core
    applies their middleware to whatever resolver a field has."""
    for name, graphql_type in schema._schema.type_map.items():
        definition = schema.get_type_by_name(name)
        if not isinstance(graphql_type, GraphQLObjectType) or definition is None:
            continue
        for field in getattr(definition, "fields", ()):
            if field.base_resolver or field.extensions or field.permission_classes:
                continue
            target = graphql_type.fields.get(schema.config.name_converter.get_graphql_name(field))
            if target is not None:
                target.resolve = _attribute(field.python_name)


def build_schema(
    extensions: Sequence[type[SchemaExtension] | Any] = (), max_batch: int | None = None
) -> strawberry.Schema:
    """max_batch: most operations in one batched request (None: batching refused)."""
    batching = BatchingConfig(max_operations=max_batch) if max_batch else None
    # Types reached only through the Node interface must be named explicitly.
    schema = Schema(
        query=Query,
        mutation=Mutation,
        types=[Subject, Relationship, Episode, SourceRecord, InvestigationResult],
        extensions=list(extensions),
        config=StrawberryConfig(name_converter=MemoNames(), batching_config=batching),
        execution_context_class=DirectExecutor,
    )
    read_attributes_directly(schema)
    answer_read_ahead(schema)
    return schema


def sdl() -> str:
    """The schema as SDL, exactly as `schema.graphql` stores it."""
    return build_schema().as_str() + "\n"
