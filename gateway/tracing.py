"""Optional OpenTelemetry tracing: spans for requests, resolvers and graph statements.

The `otel` extra (`pip install '.[otel]'`) brings the OpenTelemetry API, SDK and OTLP/HTTP
exporter. Without it every function here is a no-op, so the gateway never needs it.
Spans go through the global tracer provider, as OpenTelemetry libraries do: `fabric serve`
installs one that exports over OTLP (`configure_exporter`), a host process or a test may
install its own instead.

Spans carry operation names, statement kinds and request ids; never variables, resolver
arguments, Cypher parameters or credentials.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from strawberry.extensions import SchemaExtension

from gateway.settings import Settings

log = logging.getLogger("fabric.tracing")

ROOT_TYPES = frozenset({"Query", "Mutation"})

try:  # the optional extra
    from opentelemetry import propagate as _propagate
    from opentelemetry import trace as _trace
    from strawberry.extensions import LifecycleStep
    from strawberry.extensions.tracing import OpenTelemetryExtension as _Strawberry

    class OpenTelemetryExtension(_Strawberry):
        """strawberry's spans (operation, parsing, validation, resolvers), with resolver spans
        for root fields only, and nested fields left synchronous: strawberry's own `async`
        hook turned every field of a 100-row page into a coroutine and a span (about 340
        spans, twice the request time). A nested field's graph reads, batched per level,
        still have their `graph.statement` spans."""

        # Nested values may then be completed by plan (resolvers/completion.py).
        resolves_root_fields_only = True

        def resolve(
            self, _next: Callable[..., Any], root: Any, info: Any, *args: str, **kwargs: Any
        ) -> Any:
            if info.parent_type.name not in ROOT_TYPES:
                return _next(root, info, *args, **kwargs)
            return self._traced(_next, root, info, *args, **kwargs)

        async def _traced(
            self, _next: Callable[..., Any], root: Any, info: Any, *args: str, **kwargs: Any
        ) -> Any:
            operation = self._span_holder[LifecycleStep.OPERATION]
            with self._tracer.start_as_current_span(
                f"GraphQL Resolving: {info.field_name}",
                context=_trace.set_span_in_context(operation),
            ) as span:
                self.add_tags(span, info, kwargs)
                result = _next(root, info, *args, **kwargs)
                return await result if inspect.isawaitable(result) else result

except ImportError:  # pragma: no cover - exercised by monkeypatching _trace in tests
    _trace = None  # type: ignore[assignment]
    _propagate = None  # type: ignore[assignment]
    OpenTelemetryExtension = None  # type: ignore[assignment,misc]

TRACER_NAME = "context-fabric-gateway"
Attributes = Mapping[str, str | int | float | bool]


def available() -> bool:
    return _trace is not None


@contextlib.contextmanager
def span(
    name: str,
    attributes: Attributes | None = None,
    *,
    server: bool = False,
    carrier: Mapping[str, str] | None = None,
) -> Iterator[Any]:
    """A span that is current inside the block (None without the extra). `carrier`: the
    request headers of a server span, so a caller's `traceparent` (W3C trace context)
    continues its trace. An exception leaving the block is recorded on the span as its
    status, without the exception's message."""
    if _trace is None:
        yield None
        return
    kind = _trace.SpanKind.SERVER if server else _trace.SpanKind.INTERNAL
    tracer = _trace.get_tracer(TRACER_NAME)
    parent = _propagate.extract(carrier) if carrier is not None else None
    with tracer.start_as_current_span(
        name,
        context=parent,
        kind=kind,
        attributes=dict(attributes or {}),
        record_exception=False,
    ) as current:
        try:
            yield current
        except BaseException as exc:
            # Only the type: driver messages may quote statements or addresses.
            current.set_status(_trace.Status(_trace.StatusCode.ERROR, type(exc).__name__))
            raise


def _no_arguments(args: dict[str, Any], info: Any) -> dict[str, Any]:
    return {}  # resolver arguments may hold user data: keep them out of spans


def schema_extensions(settings: Settings) -> list[Callable[[], SchemaExtension]]:
    """strawberry's OpenTelemetry extension (operation, parse, validate and resolver spans)
    when tracing is on and the extra is installed."""
    if not settings.tracing:
        return []
    if OpenTelemetryExtension is None:
        log.warning("FABRIC_TRACING is on but the `otel` extra is not installed: no spans")
        return []
    # A factory, not an instance: strawberry then builds one per request, so concurrent
    # requests never share the extension's open spans.
    return [functools.partial(OpenTelemetryExtension, arg_filter=_no_arguments)]


def configure_exporter(settings: Settings) -> bool:
    """Install an SDK tracer provider exporting over OTLP/HTTP (`fabric serve`); the standard
    OTEL_EXPORTER_OTLP_* variables choose the endpoint. False when tracing is off, the extra
    is missing, or a provider was installed already (by a host process)."""
    if not settings.tracing or _trace is None:
        return False
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("FABRIC_TRACING is on but the `otel` extra is not installed: no spans")
        return False
    if isinstance(_trace.get_tracer_provider(), TracerProvider):
        return False
    service = os.environ.get("OTEL_SERVICE_NAME", TRACER_NAME)
    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    _trace.set_tracer_provider(provider)
    return True
