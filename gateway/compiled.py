"""Compiled documents: a document seen before runs from its plan, without strawberry's
per-request parsing, validation and extensions or graphql-core's per-field work.

The stages of the one path (docs/graphql.md, "Compiled documents"):

1. Seen: a document that passed parsing, validation and every limit on the plain path (it
   started executing: `CompileSeen`) is kept, parsed, keyed by the schema's version and the
   SHA-256 of its text. A text sent as is, by APQ hash or as a trusted document all arrive
   here as that text.
2. Compiled: its operation becomes a plan once (resolvers/compiled.py), or is known not to
   be covered.
3. Each request: the operation is chosen as the plain path chooses it, its variables are
   coerced and its cost estimated and checked (once per distinct variables) as the plain
   path does, and the plan runs; the view writes the body with orjson. Auth, time limits,
   persisted documents and ETags are the view's and endpoint's, the same for both paths.

Anything else runs the plain path, counted by reason (`fabric_compiled_fallbacks_total`):
`unseen` (not yet seen), `uncovered:<what>` (a plan does not cover it), `operation` (no
single operation to run), `node` (an investigation result's fields beyond its id),
`variables`, `cost`, `arguments`, `null`, `range` (the plain path reports those itself),
`graph` (a read failed), `persist` (the request registers its text: PersistValidated marks
it on the plain path), `error` (a defect of a plan, logged) and `subscription` (a
subscription started over WebSocket: no plan covers one, gateway/subscriptions.py).
With tracing on, a plan makes the plain path's operation and root-field spans itself.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from graphql import DocumentNode, GraphQLSchema, OperationDefinitionNode
from graphql.execution.values import VariableValues, get_variable_values
from strawberry import Schema
from strawberry.extensions import SchemaExtension
from strawberry.http import GraphQLRequestData
from strawberry.types import ExecutionResult

from engine.ports import GraphError
from gateway import tracing
from gateway.cost import estimate_cost
from gateway.documents import registering, sha256_hex
from gateway.metrics import current
from resolvers.compiled import (
    Fallback,
    OperationPlan,
    Uncovered,
    compile_operation,
    fragments,
)
from resolvers.context import RequestContext

log = logging.getLogger("fabric.compiled")

MAX_DOCUMENTS = 256  # plans kept (least recently used go first)
MAX_CHARS = 10_000  # longer texts always run the plain path: bounds the cache's memory
MAX_COSTS = 64  # costs kept per document, by variables


class Observer(Protocol):
    def compiled_answer(self) -> None:
        """A request was answered from its plan."""

    def compiled_fallback(self, reason: str) -> None:
        """A request ran the plain path, for `reason`."""


@dataclass
class _Entry:
    document: DocumentNode
    plans: dict[str | None, OperationPlan | str] = field(default_factory=dict)
    costs: OrderedDict[bytes, int] = field(default_factory=OrderedDict)


def schema_version(schema: Schema) -> str:
    """The schema's identity: a plan is valid for the schema it was compiled against only."""
    return hashlib.sha256(schema.as_str().encode()).hexdigest()[:16]


class CompiledDocuments:
    """The plans of one schema's documents. enabled: run plans at all (off: every request
    runs the plain path, uncounted); tracing: spans are on, so plans make them too."""

    def __init__(
        self, max_cost: int, observer: Observer, *, enabled: bool = True, tracing: bool = False
    ) -> None:
        self.schema: GraphQLSchema | None = None
        self.version = ""
        self.max_cost = max_cost
        self.observer = observer
        self.enabled = enabled
        self.tracing = tracing
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()

    def bind(self, schema: Schema) -> None:
        """Compile against `schema` from now on (built after its extensions, this one's
        CompileSeen among them); plans of any other schema are dropped."""
        self.schema, self.version = schema._schema, schema_version(schema)
        self._entries.clear()

    def _key(self, text: str) -> tuple[str, str]:
        return self.version, sha256_hex(text)

    def remember(self, text: str | None, document: DocumentNode | None) -> None:
        """A document that passed every check of the plain path (CompileSeen)."""
        if self.schema is None or not self.enabled or text is None or document is None:
            return
        if len(text) > MAX_CHARS:
            return
        key = self._key(text)
        if key not in self._entries:
            self._entries[key] = _Entry(document)
            while len(self._entries) > MAX_DOCUMENTS:
                self._entries.popitem(last=False)

    def known(self, text: str) -> bool:
        """Whether `text` was seen (for this schema): its next request runs from a plan."""
        return self._key(text) in self._entries

    async def execute(
        self, data: GraphQLRequestData, context: RequestContext
    ) -> ExecutionResult | None:
        """The compiled answer, or None (counted) for the plain path to answer."""
        if self.schema is None or not self.enabled or data.query is None:
            return None
        reason = self._refusal(data)
        entry = None if reason else self._entries.get(self._key(data.query or ""))
        if entry is None:
            self.observer.compiled_fallback(reason or "unseen")
            return None
        self._entries.move_to_end(self._key(data.query))
        try:
            result = await self._run(entry, data, context)
            self.observer.compiled_answer()
            return result
        except Uncovered as exc:
            self.observer.compiled_fallback(f"uncovered:{exc.reason}")
        except Fallback as exc:
            self.observer.compiled_fallback(exc.reason)
        except GraphError:
            self.observer.compiled_fallback("graph")
        except Exception:  # a defect of the plan: the plain path still answers
            log.warning("a compiled plan failed; the plain path answers", exc_info=True)
            self.observer.compiled_fallback("error")
        # The plain path starts from nothing read: what a plan's loaders kept would change
        # the order its resolvers finish in, and so which of several errors it reports.
        context.release()
        return None

    def _refusal(self, data: GraphQLRequestData) -> str | None:
        if registering(data.query or ""):
            return "persist"
        return None

    async def _run(
        self, entry: _Entry, data: GraphQLRequestData, context: RequestContext
    ) -> ExecutionResult:
        assert self.schema is not None
        operation = _operation(entry.document, data.operation_name)
        plan = entry.plans.get(data.operation_name)
        if plan is None:
            try:
                plan = compile_operation(self.schema, operation, fragments(entry.document))
            except Uncovered as exc:
                plan = exc.reason
            entry.plans[data.operation_name] = plan
        if isinstance(plan, str):
            raise Uncovered(plan)
        variables = self._variables(operation, data.variables)
        if self._cost(entry, data) > self.max_cost:
            raise Fallback("cost")
        name = _name(entry.document, data.operation_name)
        record = current.get()
        if record is not None:  # as RecordOperation tells it on the plain path
            record.operation = name or "anonymous"
        if not self.tracing:
            return ExecutionResult(data=await plan.run(context, variables), errors=None)
        # The plain path's spans (strawberry's OpenTelemetry extension): the operation, and
        # each root field resolving; nothing is parsed or validated, so no span says so.
        title = f"GraphQL Query: {name}" if name else "GraphQL Query"
        attributes = {"component": "graphql", "query": data.query or ""}
        with tracing.span(title, attributes, server=True) as operation:
            try:
                found = await plan.run(context, variables, _resolving)
            except Exception:  # the plain path answers: this span was not its operation
                if operation is not None:
                    operation.update_name("GraphQL compiled plan given up")
                raise
        return ExecutionResult(data=found, errors=None)

    def _variables(
        self, operation: OperationDefinitionNode, inputs: dict[str, Any] | None
    ) -> VariableValues:
        assert self.schema is not None
        coerced = get_variable_values(
            self.schema, operation.variable_definitions or (), inputs or {}, max_errors=1
        )
        if not isinstance(coerced, VariableValues):
            raise Fallback("variables")
        return coerced

    def _cost(self, entry: _Entry, data: GraphQLRequestData) -> int:
        assert self.schema is not None
        try:
            key = orjson.dumps(data.variables, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # beyond orjson (an integer over 64 bits): estimated, not kept
            return estimate_cost(self.schema, entry.document, data.variables, data.operation_name)
        cost = entry.costs.get(key)
        if cost is None:
            cost = estimate_cost(self.schema, entry.document, data.variables, data.operation_name)
            entry.costs[key] = cost
            if len(entry.costs) > MAX_COSTS:
                entry.costs.popitem(last=False)
        return cost


def _resolving(field: str, key: str) -> AbstractContextManager[Any]:
    """A root field's span, as strawberry's extension names it (arguments never recorded)."""
    attributes = {"component": "graphql", "graphql.parentType": "Query", "graphql.path": key}
    return tracing.span(f"GraphQL Resolving: {field}", attributes)


def _operations(document: DocumentNode) -> Iterator[OperationDefinitionNode]:
    return (d for d in document.definitions if isinstance(d, OperationDefinitionNode))


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode:
    """The operation the request names, or its only one; else the plain path says why."""
    operations = list(_operations(document))
    if name is None:
        if len(operations) != 1:
            raise Fallback("operation")
        return operations[0]
    for operation in operations:
        if operation.name is not None and operation.name.value == name:
            return operation
    raise Fallback("operation")


def _name(document: DocumentNode, requested: str | None) -> str | None:
    """The operation's name as strawberry tells it: the requested one, else the first's."""
    if requested is not None:
        return requested
    first = next(_operations(document), None)
    return first.name.value if first is not None and first.name is not None else None


class CompileSeen(SchemaExtension):
    """Tells the compiled documents of a document that passed every check: strawberry runs
    `on_execute` only after parsing, validation and every limit passed."""

    def __init__(self, compiled: CompiledDocuments) -> None:
        super().__init__()
        self.compiled = compiled

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        self.compiled.remember(context.query, context.graphql_document)
        yield
