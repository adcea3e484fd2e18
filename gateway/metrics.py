"""Prometheus metrics: requests by operation and outcome, latency, graph round trips.

Each gateway owns its registry (no process-global state), so tests and several apps in one
process do not mix their figures. Operation names come from clients: only well-formed names
are kept as labels, and at most MAX_OPERATIONS distinct ones, the rest count as "other".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from strawberry.extensions import SchemaExtension

MAX_OPERATIONS = 200
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


@dataclass
class RequestRecord:
    """What one request did, filled in as it runs and observed when it ends."""

    operation: str = "anonymous"
    outcome: str = "ok"
    round_trips: int = 0


current: ContextVar[RequestRecord | None] = ContextVar("fabric_request", default=None)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._operations: set[str] = set()
        self.requests = Counter(
            "fabric_graphql_requests_total",
            "GraphQL requests by operation and outcome.",
            ["operation", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "fabric_graphql_request_seconds",
            "GraphQL request latency.",
            ["operation"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.round_trips = Histogram(
            "fabric_graph_round_trips",
            "Graph statements sent per GraphQL request.",
            buckets=(0, 1, 2, 3, 4, 6, 8, 12, 16, 32, 64),
            registry=self.registry,
        )
        self.graph_statements = Counter(
            "fabric_graph_statements_total", "Graph statements sent.", registry=self.registry
        )

    def operation_label(self, name: str | None) -> str:
        if not name:
            return "anonymous"
        if not _NAME.match(name):
            return "other"
        if name not in self._operations:
            if len(self._operations) >= MAX_OPERATIONS:
                return "other"
            self._operations.add(name)
        return name

    def observe(self, record: RequestRecord, seconds: float) -> None:
        operation = self.operation_label(record.operation)
        self.requests.labels(operation, record.outcome).inc()
        self.latency.labels(operation).observe(seconds)
        self.round_trips.observe(record.round_trips)
        self.graph_statements.inc(record.round_trips)

    def render(self) -> bytes:
        return bytes(generate_latest(self.registry))


class RecordOperation(SchemaExtension):
    """Tells the request's record which operation ran and whether it produced errors."""

    def on_operation(self) -> Iterator[None]:
        yield
        record = current.get()
        if record is None:
            return
        context = self.execution_context
        record.operation = context.operation_name or "anonymous"
        result = context.result
        errors = getattr(result, "errors", None) or []
        if errors:
            codes = {str((e.extensions or {}).get("code", "")) for e in errors}
            record.outcome = sorted(codes)[0].lower() if len(codes) == 1 else "errors"


__all__ = ["CONTENT_TYPE", "Metrics", "RecordOperation", "RequestRecord", "current"]
