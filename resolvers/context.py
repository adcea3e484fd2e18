"""The typed per-request context every resolver receives as `info.context`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engine.answering.synthesis import DeterministicSynthesizer, Synthesizer
from engine.domain.contract import Versions
from engine.domain.models import StoredSubject, to_ns
from engine.domain.principal import Principal
from engine.ports import EdgeRequest, EpochControl, OrgGraph, TimeSpan
from engine.providers import Provider, default_providers
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.ring import ReferenceRing
from resolvers.batching import ServiceObserver, observe_batches
from resolvers.loaders import Loaders
from resolvers.selection import SelectionChecks


@dataclass
class Limits:
    max_page_size: int = 500


def _now() -> TimeSpan:
    ns = to_ns(datetime.now(UTC))
    assert ns is not None
    return TimeSpan.point(ns)


@dataclass
class EngineServices:
    """What investigations need beyond the request: shared by every request of a process.

    signer: issues and checks clarification receipts (its secret lives in the graph store).
    versions: contract, projection, embedder and model identities stamped on results.
    reuse_max_age: answer reuse window (None: reuse off, the default).
    round_trips: the process's graph statement counter, for traces.
    observer: told investigation outcomes and dataloader batch sizes (None: nobody).
    """

    signer: ReceiptSigner
    versions: Versions
    reuse_max_age: timedelta | None = None
    round_trips: Callable[[], int] = lambda: 0
    providers: list[Provider] = field(default_factory=default_providers)
    synthesizer: Synthesizer = field(default_factory=DeterministicSynthesizer)
    observer: ServiceObserver | None = None


@dataclass
class RequestContext:
    """principal: who asks; graph: their organisation's graph (the only one they can reach),
    at the epoch serving when the request began (every field reads that one epoch);
    ring: the process-wide recently-referenced ring; now: the current-axis instant, fixed
    once per request so every field agrees on it; read_ahead: list fields read their nested
    `neighbors` ahead (resolvers/prefetch.py; off only in tests of the plain path)."""

    principal: Principal
    graph: OrgGraph
    limits: Limits = field(default_factory=Limits)
    # The organisation's projection-epoch lifecycle and its epochs' graphs (admin fields).
    epochs: EpochControl | None = None
    epoch_graph: Callable[[int], OrgGraph] | None = None
    ring: ReferenceRing = field(default_factory=ReferenceRing)
    services: EngineServices | None = None
    now: TimeSpan = field(default_factory=_now)
    read_ahead: bool = True
    loaders: Loaders = field(init=False)
    selection: SelectionChecks = field(init=False, default_factory=SelectionChecks)
    # Edges read ahead for a whole selection (resolvers/prefetch.py), by request.
    prefetched: dict[EdgeRequest, list[StoredSubject]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.graph)
        if self.services is not None and self.services.observer is not None:
            observe_batches(self.loaders, self.services.observer)

    def release(self) -> None:
        """Drop what the request read, once its answer is written. graphql-core's executor
        keeps the context in reference cycles of its own, so without this everything read
        (thousands of objects for a dashboard page) would wait for the cyclic collector."""
        self.prefetched.clear()
        self.loaders.clear()
        self.selection = SelectionChecks()

    def plan_abandoned(self, reason: str) -> None:
        """A completion plan gave its value back to graphql-core (resolvers/completion.py)."""
        if self.services is not None and self.services.observer is not None:
            self.services.observer.plan_abandoned(reason)

    def batch(self, loader: str, size: int) -> None:
        """Reports a batched graph read made outside the loaders (the read-ahead)."""
        if self.services is not None and self.services.observer is not None:
            self.services.observer.batch(loader, size)
