"""What one investigation records as it runs its stages (engine/investigation/pipeline.py): each
stage's timing, the stage running now (the one a failure names: engine/investigation/investigate.py
tags it), the providers the plan chose and pruned, and what was found out before synthesis that the
answer must say. Its trace is what a result reports of the run.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from engine.answering.planning import Decision, Plan
from engine.domain.contract import CoverageReason, FailureStage, Trace
from engine.domain.facts import Fact
from engine.resolving.disclosures import Disclosures
from engine.resolving.questiontime import Narrower


@dataclass
class Stages:
    """What one investigation records as it goes: stage timings, the stage running now (the
    one a failure names), the providers chosen and pruned, and what was found out before
    synthesis that the answer must say."""

    timings: list[tuple[str, float]] = field(default_factory=list)
    current: FailureStage = FailureStage.INTERPRET
    chosen: tuple[str, ...] = ()
    pruned: tuple[tuple[str, CoverageReason], ...] = ()
    told: Disclosures = field(default_factory=Disclosures)  # found before synthesis
    too_wide: Narrower | None = None  # the time phrase spans too much, or is two days
    # The facts and what the run read that its answer was validated against (a question's
    # parts are validated again together: engine/investigation/parts.py).
    checked: tuple[Mapping[str, Fact], frozenset[str]] = field(
        default_factory=lambda: ({}, frozenset())
    )

    @asynccontextmanager
    async def stage(
        self, stage: FailureStage, timed: Callable[[], bool] = lambda: True
    ) -> AsyncIterator[None]:
        """`timed`: whether the stage did anything worth a timing (the question types' own
        reads, most of which read nothing, are one only when one of them read)."""
        self.current = stage
        started = time.perf_counter()
        try:
            yield
        finally:
            if timed():
                elapsed = round((time.perf_counter() - started) * 1000, 3)
                self.timings.append((stage.value, elapsed))

    def planned(self, chosen: Plan) -> None:
        """The providers the plan reads, and those it left unread with the closed reason."""
        self.chosen = tuple(r.provider.name for r in chosen.reads)
        self.pruned = tuple(
            (e.provider, CoverageReason(e.decision.value))
            for e in chosen.entries
            if e.decision in (Decision.PRUNED, Decision.NOT_ASKED)
        )

    def trace(self, round_trips: int) -> Trace:
        """The trace, given the graph statements sent during the investigation."""
        return Trace(
            stages=tuple(self.timings),
            graph_round_trips=max(round_trips, 0),
            providers_chosen=self.chosen,
            providers_pruned=self.pruned,
        )
