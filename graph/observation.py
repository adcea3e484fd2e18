"""Observing graph statements (latency, spans) without the graph layer knowing who watches.

An adapter marks its one statement-sending method with `@observed`; whoever wants to watch
(the gateway: Prometheus histograms and OpenTelemetry spans) sets a `StatementObserver` for
the current context (one request) with `observe_statements`. Without one, `observed` costs a
context-variable lookup. The same observer is told of the graph layer's fast paths and their
fallbacks (`fast_path`): a fast path that quietly stops working only shows as latency, so each
one is counted where it is taken and where it falls back to the plain path.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Coroutine
from contextlib import AbstractContextManager
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar


class StatementObserver(Protocol):
    def statement(self, backend: str, write: bool) -> AbstractContextManager[None]:
        """Entered around one statement; an exception leaving it means the statement failed."""

    def fast_path(self, event: str) -> None:
        """One `event` of a named fast path (graph.activity: "windows_read", "ranked_all";
        graph.projection: "ingest_prepared", "ingest_unprepared"; graph.creates:
        "ingest_records_merged_after_read", "ingest_subjects_merged_after_read",
        "ingest_episodes_merged_after_read")."""


_observer: contextvars.ContextVar[StatementObserver | None] = contextvars.ContextVar(
    "graph_statement_observer", default=None
)

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


def observe_statements(observer: StatementObserver | None) -> contextvars.Token[Any]:
    """Watch the statements of the current context (and the tasks it starts) from now on."""
    return _observer.set(observer)


def stop_observing(token: contextvars.Token[Any]) -> None:
    _observer.reset(token)


def fast_path(event: str) -> None:
    """Tell the current observer, if any, of one fast-path event (see StatementObserver)."""
    observer = _observer.get()
    if observer is not None:
        observer.fast_path(event)


def observed(
    run: Callable[Concatenate[S, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """Wraps an executor's `run(statement, params, *, write=...)` for the current observer."""

    @functools.wraps(run)
    async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        observer = _observer.get()
        # A lifecycle pointer read (`control`) belongs to no request: RoundTrips.control.
        if observer is None or kwargs.get("control"):
            return await run(self, *args, **kwargs)
        store = getattr(self, "_store", None)
        backend = str(getattr(store, "backend", "graph"))
        with observer.statement(backend, bool(kwargs.get("write", False))):
            return await run(self, *args, **kwargs)

    return wrapper
