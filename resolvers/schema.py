"""The strawberry schema, built with the extensions the gateway chooses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.name_converter import NameConverter

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


def build_schema(extensions: Sequence[type[SchemaExtension] | Any] = ()) -> strawberry.Schema:
    # Types reached only through the Node interface must be named explicitly.
    return Schema(
        query=Query,
        mutation=Mutation,
        types=[Subject, Relationship, Episode, SourceRecord, InvestigationResult],
        extensions=list(extensions),
        config=StrawberryConfig(name_converter=MemoNames()),
    )


def sdl() -> str:
    """The schema as SDL, exactly as `schema.graphql` stores it."""
    return build_schema().as_str() + "\n"
