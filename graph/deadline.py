"""The current request's deadline, inherited by every graph statement it issues.

Cancelling the asyncio task of a timed-out request only stops the client side: a statement
already sent keeps running inside the graph server (FalkorDB keeps executing a query whose
connection was closed; so does Neo4j until its transaction timeout), holding one of its few
worker threads. So each read statement carries a server-side time limit no longer than what
is left of the request's time, and a statement is not sent at all once the deadline passed:
the server aborts the work itself when the request's time is up.

The deadline is a context variable: the HTTP layer sets it around a request, and the tasks
the request spawns inherit it. Outside a request (CLI, ingest) there is none. A deadline set
`uncapped` lifts the configured per-statement limit too, leaving only the request's own: a
request answered while the graph server still builds its indexes (gateway.endpoint), whose
statements read without them, correct but slower.
"""

from __future__ import annotations

import time
from contextvars import ContextVar, Token

from engine.ports import GraphTimeout

# (when, uncapped): the monotonic time the request's time is up, and whether the configured
# per-statement limit is lifted until then.
_deadline: ContextVar[tuple[float, bool] | None] = ContextVar("fabric_deadline", default=None)


def start(seconds: float, *, uncapped: bool = False) -> Token[tuple[float, bool] | None]:
    """Set a deadline `seconds` from now for the current context; reset it with `end`.
    `uncapped`: no statement is cut short before it by the configured statement limit."""
    return _deadline.set((time.monotonic() + seconds, uncapped))


def end(token: Token[tuple[float, bool] | None]) -> None:
    _deadline.reset(token)


def statement_limit_ms(configured_ms: int | None) -> int | None:
    """The server-side limit for the next statement: the configured limit, shortened to the
    time left before the deadline. Raises GraphTimeout when the deadline has passed."""
    current = _deadline.get()
    if current is None:
        return configured_ms
    deadline, uncapped = current
    left_ms = int((deadline - time.monotonic()) * 1000)
    if left_ms <= 0:
        raise GraphTimeout("the request's time limit passed before the statement was sent")
    return left_ms if configured_ms is None or uncapped else min(configured_ms, left_ms)


def left_s() -> float | None:
    """Seconds left before the current deadline (None: there is none); a retry that would
    pause past it is not worth making."""
    current = _deadline.get()
    return None if current is None else current[0] - time.monotonic()
