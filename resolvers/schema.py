"""The strawberry schema, built with the extensions the gateway chooses.

The schema is also an Apollo Federation v2 subgraph: `Subject` is an entity keyed by `id` and
by `key`, `_service { sdl }` answers the federated SDL (schema.federated.graphql) and
`_entities` resolves representations, in the caller's organisation like every other field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from operator import attrgetter
from typing import Any, Final

import strawberry
from graphql import (
    DirectiveDefinitionNode,
    GraphQLError,
    GraphQLObjectType,
    GraphQLResolveInfo,
    TypeDefinitionNode,
    is_specified_scalar_type,
    parse,
    print_directive,
    print_type,
    specified_directives,
)
from strawberry.extensions import SchemaExtension
from strawberry.federation.schema import FederationAny
from strawberry.schema.config import BatchingConfig, StrawberryConfig
from strawberry.schema.name_converter import NameConverter
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext, StreamResult
from strawberry.types import ExecutionResult, Info
from strawberry.types.graphql import OperationType

from engine.domain.errors import BadUserInput
from resolvers.completion import DIRECT, DirectExecutor, NotReady
from resolvers.episode import Episode
from resolvers.epochs import EpochMutation
from resolvers.investigation import Mutation as InvestigationMutation
from resolvers.prefetch import answered_ahead
from resolvers.queries import Query
from resolvers.records import SourceRecord
from resolvers.relationship import Relationship
from resolvers.result import InvestigationResult
from resolvers.scalars import SCALAR_OVERRIDES
from resolvers.subject import Subject
from resolvers.subscriptions import Subscription


@strawberry.type
class Mutation(InvestigationMutation, EpochMutation):
    pass


FEDERATION_VERSION: Final = "2.9"  # the newest both Apollo's and The Guild's composition accept
MAX_REPRESENTATIONS = 1_000  # entities one `_entities` call may ask for
ENTITIES = frozenset({"Subject"})


# The operation name the request gave, or None. strawberry's execution context tells only
# `operation_name`, which falls back to the first operation's name: a document of several
# operations sent without one would run its first, where GraphQL says it names none to run
# (gateway.limits refuses it). Set by Schema.execute and Schema.stream, which are given it.
_REQUESTED_OPERATION: ContextVar[str | None] = ContextVar("requested_operation", default=None)


_OPERATION_TYPES = frozenset(OperationType)


def requested_operation_name() -> str | None:
    """The `operationName` of the operation running in this task, as its request gave it."""
    return _REQUESTED_OPERATION.get()


class Schema(strawberry.federation.Schema):
    async def execute(
        self,
        query: str | None,
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        allowed_operation_types: Iterable[OperationType] | None = None,
        operation_extensions: dict[str, Any] | None = None,
    ) -> ExecutionResult:
        # A subscription streams (Schema.stream, over WebSocket): executed once, its resolver's
        # event stream failed as an internal error. Refused, strawberry says which type is not
        # allowed (over HTTP: a 400).
        allowed = set(allowed_operation_types or _OPERATION_TYPES) - {OperationType.SUBSCRIPTION}
        token = _REQUESTED_OPERATION.set(operation_name)
        try:
            return await super().execute(
                query,
                variable_values=variable_values,
                context_value=context_value,
                root_value=root_value,
                operation_name=operation_name,
                allowed_operation_types=allowed,
                operation_extensions=operation_extensions,
            )
        finally:
            _REQUESTED_OPERATION.reset(token)

    async def stream(
        self,
        query: str | None,
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        operation_extensions: dict[str, Any] | None = None,
        allowed_operation_types: Iterable[OperationType] | None = None,
    ) -> StreamResult:
        # The stream runs after this returns, in the caller's task (one per WebSocket
        # operation or HTTP request): the name stays set there.
        _REQUESTED_OPERATION.set(operation_name)
        return await super().stream(
            query,
            variable_values=variable_values,
            context_value=context_value,
            root_value=root_value,
            operation_name=operation_name,
            operation_extensions=operation_extensions,
            allowed_operation_types=allowed_operation_types,
        )

    def entities_resolver(
        self, info: Info, representations: list[FederationAny]
    ) -> list[FederationAny]:
        """strawberry's, after refusing what it would fail on with an internal error: too
        many representations, or one that is not an object naming one of our entities."""
        if len(representations) > MAX_REPRESENTATIONS:
            raise BadUserInput(f"at most {MAX_REPRESENTATIONS} representations")
        for item in representations:
            if not isinstance(item, dict) or item.get("__typename") not in ENTITIES:
                raise BadUserInput("a representation is an object with `__typename: Subject`")
        copies = [FederationAny(dict(item)) for item in representations]  # type: ignore[call-overload]
        return super().entities_resolver(info, copies)

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
    """Fast path of `Subject.neighbors` (see its docstring for the plain path): the answer the
    read-ahead (resolvers/prefetch.py) built and hung on the parent is returned without going
    through strawberry, whose conversion of the same arguments for each of hundreds of
    parents cost more than everything else the field does. Anything not read ahead goes to
    the strawberry resolver, which computes the same answer. Completion plans read the same
    answer through `read_ahead_or_not_ready`."""
    subject = schema._schema.type_map["Subject"]
    assert isinstance(subject, GraphQLObjectType)
    field = subject.fields["neighbors"]
    resolve = field.resolve
    assert resolve is not None

    def neighbors_answered_ahead(
        source: Any, info: GraphQLResolveInfo[Any], **arguments: Any
    ) -> Any:
        if len(info.field_nodes) == 1:
            answer = answered_ahead(source, id(info.field_nodes[0]))
            if answer is not None:
                return answer
        return resolve(source, info, **arguments)

    setattr(neighbors_answered_ahead, DIRECT, lambda node: partial(read_ahead_or_not_ready,
                                                                  id(node)))  # fmt: skip
    field.resolve = neighbors_answered_ahead


def read_ahead_or_not_ready(node_id: int, source: Any) -> Any:
    """The completion plans' reader of `Subject.neighbors`: the answer read ahead, or give the
    value back to graphql-core (which calls the resolver: the plain path)."""
    answer = answered_ahead(source, node_id)
    if answer is None:
        raise NotReady("not_read_ahead")
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


@dataclass(frozen=True)
class FastPaths:
    """What the schema answers without strawberry's and graphql-core's per-field work. All on
    in production; each gives the answer the plain path gives, and tests/test_completion.py
    turns them off one by one to hold each to that.

    attributes: plain attribute fields read the attribute (read_attributes_directly).
    read_ahead_answers: `Subject.neighbors` returns the answer read ahead (answer_read_ahead).
    plans: values in hand are completed by plan (resolvers/completion.py)."""

    attributes: bool = True
    read_ahead_answers: bool = True
    plans: bool = True


PLAIN = FastPaths(attributes=False, read_ahead_answers=False, plans=False)


def build_schema(
    extensions: Sequence[type[SchemaExtension] | Any] = (),
    max_batch: int | None = None,
    fast_paths: FastPaths = FastPaths(),
) -> strawberry.Schema:
    """max_batch: most operations in one batched request (None: batching refused)."""
    batching = BatchingConfig(max_operations=max_batch) if max_batch else None
    # Types reached only through the Node interface must be named explicitly.
    schema = Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        types=[Subject, Relationship, Episode, SourceRecord, InvestigationResult],
        extensions=list(extensions),
        config=StrawberryConfig(name_converter=MemoNames(), batching_config=batching),
        execution_context_class=(
            DirectExecutor if fast_paths.plans else StrawberryGraphQLCoreExecutionContext
        ),
        federation_version=FEDERATION_VERSION,
        scalar_overrides=SCALAR_OVERRIDES,  # type: ignore[arg-type]
    )
    if fast_paths.attributes:
        read_attributes_directly(schema)
    if fast_paths.read_ahead_answers:
        answer_read_ahead(schema)
    return schema


def federated_sdl() -> str:
    """What `_service { sdl }` answers, as `schema.federated.graphql` stores it: the input of
    supergraph composition, with `@link` and `@key`."""
    return build_schema().as_str() + "\n"


def sdl() -> str:
    """The schema as SDL, exactly as `schema.graphql` stores it: what introspection shows.
    Federation's applied `@link`/`@key` are composition metadata introspection does not show;
    the definitions of those directives and their scalars it does show, so they are added
    (strawberry's printer leaves them to the `@link` import)."""
    schema = build_schema()
    text = re.sub(r"\Aschema @link\(.*?\n}\n\n", "", schema.as_str(), flags=re.S)
    text = re.sub(r' @key\(fields: "[^"]*"\)', "", text)
    named = (TypeDefinitionNode, DirectiveDefinitionNode)
    printed = {d.name.value for d in parse(text).definitions if isinstance(d, named)}
    core = schema._schema
    extra = [
        print_directive(d)
        for d in core.directives
        if d not in specified_directives and d.name not in printed
    ]
    extra += [
        print_type(t)
        for name, t in core.type_map.items()
        if not name.startswith("__") and name not in printed and not is_specified_scalar_type(t)
    ]
    return "\n\n".join([text, *extra]) + "\n"
