"""What the engine reports about investigations, to whoever watches (the gateway's metrics).

The engine stays free of any metrics or tracing library: it calls this protocol, and the
composition root passes an implementation. The default observer discards everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class InvestigationObserver(Protocol):
    def investigation(
        self, outcome: str, reused: bool, stages: Sequence[tuple[str, float]]
    ) -> None:
        """One finished investigation: its outcome (`answered`, `clarification_required`,
        `no_match`, `failed`), whether a saved answer was reused, and the (stage, milliseconds)
        pairs it ran through."""


class NullObserver:
    def investigation(
        self, outcome: str, reused: bool, stages: Sequence[tuple[str, float]]
    ) -> None:
        return None


NULL_OBSERVER: InvestigationObserver = NullObserver()
