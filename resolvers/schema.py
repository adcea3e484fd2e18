"""The strawberry schema, built with the extensions the gateway chooses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import strawberry
from strawberry.extensions import SchemaExtension

from resolvers.queries import Query
from resolvers.types import Episode, Relationship, SourceRecord, Subject


def build_schema(extensions: Sequence[type[SchemaExtension] | Any] = ()) -> strawberry.Schema:
    # Types reached only through the Node interface must be named explicitly.
    return strawberry.Schema(
        query=Query,
        types=[Subject, Relationship, Episode, SourceRecord],
        extensions=list(extensions),
    )


def sdl() -> str:
    """The schema as SDL, exactly as `schema.graphql` stores it."""
    return build_schema().as_str() + "\n"
