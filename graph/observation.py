"""Observing graph statements (latency, spans) without the graph layer knowing who watches.

An adapter marks its one statement-sending method with `@observed`; whoever wants to watch
(the gateway: Prometheus histograms and OpenTelemetry spans) sets a `StatementObserver` for
the current context (one request) with `observe_statements`. Without one, `observed` costs a
context-variable lookup.
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
