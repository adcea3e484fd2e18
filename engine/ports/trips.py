"""Round trips to the graph store, counted per process and per request (for traces and tests)."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass

_request_trips: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "graph_round_trips", default=None
)


@dataclass
class RoundTrips:
    """Counts statements sent. `total` is process-wide; `track()` scopes a count to a task."""

    total: int = 0
    # Lifecycle reads (the serving-epoch pointer, refreshed at most once per organisation per
    # cache period): not data a request asked for, so neither in `total` nor a request's box.
    control: int = 0

    def add(self, control: bool = False) -> None:
        if control:
            self.control += 1
            return
        self.total += 1
        box = _request_trips.get()
        if box is not None:
            box[0] += 1

    @staticmethod
    def track() -> list[int]:
        """Start counting the round trips of the current context (request); returns the box."""
        box = [0]
        _request_trips.set(box)
        return box
