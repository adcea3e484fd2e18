"""Error shaping: a stable `extensions.code` on every error, and nothing internal leaks.

Public errors (bad input, forbidden) keep their message; graph-store failures get a fixed
message per code; validation and parse errors are the client's own and stay readable;
everything else becomes "Internal server error" and is logged here, server-side only.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

from graphql import GraphQLError, GraphQLSyntaxError
from strawberry.extensions import SchemaExtension
from strawberry.types.execution import ExecutionResult, StreamExecutionResult
from strawberry.types.graphql import OperationType

from engine.domain.errors import PublicError
from engine.ports import GraphError, GraphTimeout, GraphUnavailable, UnrepresentableValue

log = logging.getLogger("fabric.errors")

GRAPH_MESSAGES = {
    GraphUnavailable.code: "The graph store is unavailable; try again shortly.",
    GraphTimeout.code: "The request took longer than its time limit.",
}
INTERNAL = "INTERNAL_SERVER_ERROR"
UNREPRESENTABLE = (
    "The input holds a value the graph store cannot keep: a NUL character or an unpaired "
    "surrogate in a string, or an integer outside the signed 64-bit range."
)
# graphql-core coerces a field's arguments while executing it (execution/values.py,
# coerce_argument) and reports a value it refuses as a bare GraphQLError with one of these
# messages. Validation cannot see it coming: a nullable variable may feed an argument with a
# default (`limit: Int! = 5`), and only its value, an explicit null, is wrong. The client's own
# input, then, not a fault of ours (tests/test_fuzz.py sends every such null).
_ARGUMENT_COERCION = re.compile(
    r"^(Argument '[^']*'|Variable '\$[^']*' defined by fragment '[^']*') "
    r"(has invalid value|of required type '[^']*' was not provided\.)"
)


def _argument_coercion(error: Exception) -> bool:
    return (
        isinstance(error, GraphQLError)
        and error.original_error is None
        and _ARGUMENT_COERCION.match(error.message) is not None
    )


def shape(error: GraphQLError, stage: str = "read") -> GraphQLError:
    """stage: what the operation was doing, told with graph-store failures (`read` for
    queries, `write` for mutations; investigations report their own engine stage)."""
    original = error.original_error
    code: str
    message = error.message
    extra: dict[str, str] = {}
    if original is None:
        # A document that does not parse is told apart from one that does not validate, as
        # Apollo Server does (GRAPHQL_PARSE_FAILED): a client fixes each differently.
        unparsed = isinstance(error, GraphQLSyntaxError)
        code = (error.extensions or {}).get("code") or (
            "GRAPHQL_PARSE_FAILED" if unparsed else "GRAPHQL_VALIDATION_FAILED"
        )
    elif error.path is None and not isinstance(original, PublicError | GraphError):
        # Raised before execution (variable coercion): the client's own input, told back.
        code = (error.extensions or {}).get("code") or "BAD_USER_INPUT"
    elif _argument_coercion(original):
        code = "BAD_USER_INPUT"
        message = message.replace(" not to be None.", " not to be null.")  # Python's word
    elif isinstance(original, PublicError):
        code = original.code
        extra = original.extensions
    elif isinstance(original, UnrepresentableValue):
        code, message = original.code, UNREPRESENTABLE
    elif isinstance(original, GraphError):
        code = original.code if original.code in GRAPH_MESSAGES else INTERNAL
        message = GRAPH_MESSAGES.get(code, "Internal server error")
        extra = {"failureStage": stage}
        log.warning("graph error %s at %s: %s", type(original).__name__, error.path, original)
    else:
        code = INTERNAL
        message = "Internal server error"
        log.error("unexpected error at %s", error.path, exc_info=original)
    shaped = GraphQLError(
        message,
        path=error.path,
        original_error=None,
        extensions={**(error.extensions or {}), **extra, "code": code},
    )
    # The location as it was already computed: given the source and positions again,
    # GraphQLError scans the whole document for line and column once more, on the event loop
    # (about 10 ms per error of a 900 KB padded body).
    shaped.nodes, shaped.source, shaped.positions = error.nodes, error.source, error.positions
    shaped.locations = error.locations
    return shaped


class ShapeErrors(SchemaExtension):
    def __init__(self) -> None:
        super().__init__()
        self._streamed = False

    def on_operation(self) -> Iterator[None]:
        yield
        if self._streamed:
            return  # each result was shaped as it left (on_stream_result)
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if result is not None and errors:
            result.errors = [shape(e, self._stage()) for e in errors]

    def on_stream_result(self, result: StreamExecutionResult) -> Iterator[None]:
        """A streamed result (a subscription's, over WebSocket) is sent before the operation
        ends: its errors are shaped here, or they would leave without a code."""
        self._streamed = True
        if isinstance(result, ExecutionResult) and result.errors:
            result.errors = [shape(e, self._stage()) for e in result.errors]
        yield

    def _stage(self) -> str:
        try:
            mutation = self.execution_context.operation_type is OperationType.MUTATION
        except RuntimeError:  # no parsed document or no such operation: nothing ran
            return "read"
        return "write" if mutation else "read"


def error_codes(errors: list[GraphQLError] | None) -> set[str]:
    return {str((e.extensions or {}).get("code")) for e in errors or ()}
