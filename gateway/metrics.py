"""Prometheus metrics: requests by operation and outcome, latency, graph round trips and
statement latency, dataloader batch sizes, investigation outcomes and stage durations, and the
fast paths' fallbacks (completion plans given up, recent-activity pages that ranked every
subject, ingest batches written without being prepared ahead).

`Metrics` is also the observer the lower layers report to (through their own protocols:
`graph.observation.StatementObserver`, `resolvers.batching.ServiceObserver`), so neither the
engine nor the graph layer imports prometheus. A graph statement is also a tracing span.

Each gateway owns its registry (no process-global state), so tests and several apps in one
process do not mix their figures. Operation names come from clients: only well-formed names
are kept as labels, and at most MAX_OPERATIONS distinct ones, the rest count as "other".
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from strawberry.extensions import SchemaExtension

from gateway import scrape
from gateway import tracing as tracing_module
from gateway.overdue import KINDS, Look

MAX_OPERATIONS = 200
MAX_EPOCH_ORGS = 1_000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
_SIZES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000)


@dataclass
class RequestRecord:
    """What one request did, filled in as it runs and observed when it ends."""

    operation: str = "anonymous"
    outcome: str = "ok"
    round_trips: int = 0


current: ContextVar[RequestRecord | None] = ContextVar("fabric_request", default=None)


class Metrics:
    """The gateway's registry, and the observer of lower layers. `tracing`: also open spans
    (FABRIC_TRACING; without it no span is made even when a host installed a provider)."""

    def __init__(self, tracing: bool = False) -> None:
        self.tracing = tracing and tracing_module.available()
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
        self._add_observer_metrics()

    def watch_subscriptions(self, hub: Any) -> None:
        """Open WebSocket connections and subscriptions, set as the hub's change (with
        workers: summed over the live ones)."""
        connections = Gauge(
            "fabric_subscription_connections",
            "Open WebSocket connections (graphql-transport-ws).",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        active = Gauge(
            "fabric_subscriptions_active",
            "Running subscriptions.",
            registry=self.registry,
            multiprocess_mode="livesum",
        )

        def changed() -> None:
            connections.set(hub.connections)
            active.set(hub.subscriptions)

        changed()
        hub.watchers.append(changed)

    def _add_observer_metrics(self) -> None:
        self.statement_latency = Histogram(
            "fabric_graph_statement_seconds",
            "Latency of one graph statement, by backend, kind (read/write) and outcome.",
            ["backend", "kind", "outcome"],
            buckets=_FAST_BUCKETS,
            registry=self.registry,
        )
        self.batch_sizes = Histogram(
            "fabric_dataloader_batch_size",
            "Keys per dataloader batch (one graph round trip each), by loader.",
            ["loader"],
            buckets=_SIZES,
            registry=self.registry,
        )
        self.investigations = Counter(
            "fabric_investigations_total",
            "Investigations by outcome and whether a saved answer was reused.",
            ["outcome", "reused"],
            registry=self.registry,
        )
        self.plans_abandoned = Counter(
            "fabric_completion_plans_abandoned_total",
            "Completion plans that gave their value back to graphql-core, by reason "
            "(resolvers/completion.py; `error` is a defect).",
            ["reason"],
            registry=self.registry,
        )
        self.compiled_fallbacks = Counter(
            "fabric_compiled_fallbacks_total",
            "Query documents run on the plain path instead of a compiled plan, by reason "
            "(gateway/compiled.py; `unseen`: the first time a document is seen).",
            ["reason"],
            registry=self.registry,
        )
        self.compiled_answers = Counter(
            "fabric_compiled_requests_total",
            "Query documents answered from a compiled plan (gateway/compiled.py).",
            registry=self.registry,
        )
        self._add_fast_path_metrics()
        self._add_epoch_metrics()
        self.stage_latency = Histogram(
            "fabric_investigation_stage_seconds",
            "Duration of each investigation stage.",
            ["stage"],
            buckets=_BUCKETS,
            registry=self.registry,
        )

    def _add_epoch_metrics(self) -> None:
        self.epoch_transitions = Counter(
            "fabric_epoch_transitions_total",
            "Projection epoch lifecycle transitions by kind (begin, flip, rollback, discard, "
            "retire) and outcome (ok, conflict, error).",
            ["kind", "outcome"],
            registry=self.registry,
        )
        # Labelled by organisation, as operators ask which epoch each serves; at most
        # MAX_EPOCH_ORGS of them (organisations are a bounded set of tenants here).
        self.epoch_serving = Gauge(
            "fabric_epoch_serving",
            "The projection epoch an organisation serves, as of its last transition here.",
            ["org"],
            registry=self.registry,
            multiprocess_mode="livemostrecent",
        )
        self._epoch_orgs: set[str] = set()
        self._add_overdue_metrics()

    def _add_overdue_metrics(self) -> None:
        self.epoch_over_bound = Gauge(
            "fabric_epoch_over_bound_seconds",
            "How far past its bound an organisation's open build or grace period is, as of "
            "the last look (gateway/overdue.py); absent when it is within it.",
            ["org", "state"],
            registry=self.registry,
            multiprocess_mode="livemostrecent",
        )
        # Every organisation looked at counts, labelled or not (at most MAX_EPOCH_ORGS are).
        self._over: dict[str, dict[str, float]] = {}
        counted = Gauge(
            "fabric_epochs_over_bound",
            "Organisations whose open build (state=building) or grace period (state=grace) is "
            "past its bound, as of the last look.",
            ["state"],
            registry=self.registry,
            multiprocess_mode="livemax",  # each worker counts the organisations it looked at
        )
        self._counted = [(counted.labels(s), self._over_count(s)) for s in ("building", "grace")]
        self._recorded: dict[str, dict[str, int]] = {}
        transitions = Gauge(
            "fabric_epoch_recorded_transitions",
            "Transitions the lifecycles of the organisations looked at record, by kind, whoever "
            "made them (this instance, another, `fabric epochs` on the command line): begin, "
            "flip, rollback, discard, retire (a grace ended by hand), expire (by a sweep).",
            ["kind"],
            registry=self.registry,
            multiprocess_mode="livemax",
        )
        self._counted += [(transitions.labels(k), self._recorded_count(k)) for k in KINDS]
        self._set_counts()

    def _set_counts(self) -> None:
        # Set at each look, not read when scraped: with workers a scrape reads values only.
        for gauge, count in self._counted:
            gauge.set(count())

    def _recorded_count(self, kind: str) -> Callable[[], float]:
        return lambda: float(sum(counts.get(kind, 0) for counts in self._recorded.values()))

    def _over_count(self, state: str) -> Callable[[], float]:
        return lambda: float(sum(state in past for past in self._over.values()))

    def looked(self, org_id: str, look: Look) -> None:
        """One organisation's look (gateway.overdue.Report)."""
        self._recorded[org_id] = look.recorded
        self._epochs_over_bound(org_id, look.past)
        self._set_counts()

    def _epochs_over_bound(self, org_id: str, past: dict[str, float]) -> None:
        before = self._over.pop(org_id, {})
        if past:
            self._over[org_id] = past
        if org_id in self._epoch_orgs:
            for state in before.keys() - past.keys():
                if scrape.shared():  # workers' values cannot be removed: 0, not over
                    self.epoch_over_bound.labels(org_id, state).set(0)
                    continue
                with suppress(KeyError):  # looked at before it had a label
                    self.epoch_over_bound.remove(org_id, state)
        elif not past or len(self._epoch_orgs) >= MAX_EPOCH_ORGS:
            return
        self._epoch_orgs.add(org_id)
        for state, seconds in past.items():
            self.epoch_over_bound.labels(org_id, state).set(seconds)

    def epoch_transition(self, kind: str, outcome: str) -> None:
        self.epoch_transitions.labels(kind, outcome).inc()

    def serving_epoch(self, org_id: str, epoch: int) -> None:
        if org_id not in self._epoch_orgs and len(self._epoch_orgs) >= MAX_EPOCH_ORGS:
            return
        self._epoch_orgs.add(org_id)
        self.epoch_serving.labels(org_id).set(epoch)

    def _add_fast_path_metrics(self) -> None:
        # Per process, without organisation labels: an organisation id is not a bounded label.
        windows = Counter(
            "fabric_activity_windows_read_total",
            "Recent-activity windows read (graph/activity.py): the fast path of pages ordered "
            "by RECENTLY_ACTIVE; a page reads one, or more when a window held too few.",
            registry=self.registry,
        )
        ranked_all = Counter(
            "fabric_activity_pages_ranked_all_total",
            "Recent-activity pages that fell back to ranking every subject (the plain path): "
            "pages past every active subject, or windows switched off.",
            registry=self.registry,
        )
        prepared = Counter(
            "fabric_ingest_prepared_batches_total",
            "Ingest batches prepared while the batch before was written (graph/projection.py): "
            "the fast path of loading records (the `project` mutation).",
            registry=self.registry,
        )
        unprepared = Counter(
            "fabric_ingest_unprepared_batches_total",
            "Ingest batches written without being prepared ahead (the plain path): a graph "
            "that cannot prepare writes, or preparing switched off.",
            registry=self.registry,
        )
        self._fast_paths = {
            "windows_read": windows,
            "ranked_all": ranked_all,
            "ingest_prepared": prepared,
            "ingest_unprepared": unprepared,
        }

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

    def span(
        self,
        name: str,
        attributes: tracing_module.Attributes,
        *,
        server: bool = False,
        carrier: Mapping[str, str] | None = None,
    ) -> AbstractContextManager[Any]:
        if not self.tracing:
            return nullcontext(None)
        return tracing_module.span(name, attributes, server=server, carrier=carrier)

    # --- observer protocols of the lower layers ---------------------------------------------

    @contextmanager
    def statement(self, backend: str, write: bool) -> Iterator[None]:
        kind = "write" if write else "read"
        outcome = "error"
        started = time.perf_counter()
        attributes = {"db.system": backend, "db.operation": kind}
        try:
            with self.span("graph.statement", attributes):
                yield
            outcome = "ok"
        finally:
            elapsed = time.perf_counter() - started
            self.statement_latency.labels(backend, kind, outcome).observe(elapsed)

    def fast_path(self, event: str) -> None:
        counter = self._fast_paths.get(event)
        if counter is not None:  # an event this gateway does not export is not a label
            counter.inc()

    def batch(self, loader: str, size: int) -> None:
        self.batch_sizes.labels(loader).observe(size)

    def compiled_answer(self) -> None:
        self.compiled_answers.inc()

    def compiled_fallback(self, reason: str) -> None:
        self.compiled_fallbacks.labels(reason).inc()

    def plan_abandoned(self, reason: str) -> None:
        self.plans_abandoned.labels(reason).inc()

    def investigation(
        self, outcome: str, reused: bool, stages: Sequence[tuple[str, float]]
    ) -> None:
        self.investigations.labels(outcome, str(reused).lower()).inc()
        for stage, milliseconds in stages:
            self.stage_latency.labels(stage).observe(milliseconds / 1000)

    def render(self) -> bytes:
        """This process's metrics, or with workers the whole server's (gateway/scrape.py)."""
        return scrape.render(self.registry)


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
