"""An investigation's results framed, saved, and tagged on failure: a failure carries a closed
stage and classification, never an exception's text; an unexpected exception is logged here
with its traceback (operators need it); a result that cannot be saved fails at `persist`.
engine/investigation/investigate.py runs the investigation over these (`Recording`)."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from datetime import datetime

from engine.answering.framing import temporal_label
from engine.domain.contract import (
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    Trace,
    Versions,
)
from engine.domain.timecontext import EffectiveTime
from engine.investigation.observer import InvestigationObserver
from engine.investigation.stages import Stages
from engine.ports import GraphError, GraphTimeout, OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving import outcomes
from engine.resolving.resolution import Resolver

log = logging.getLogger("fabric.investigate")


def classify(exc: GraphError) -> FailureClassification:
    if isinstance(exc, GraphTimeout):
        return FailureClassification.TIMEOUT
    return FailureClassification.GRAPH_UNAVAILABLE


class InvestigationFailed(Exception):
    """Raised when a failed result cannot even be saved (the graph is down)."""

    def __init__(self, result: InvestigationResult) -> None:
        super().__init__(f"investigation failed at {result.failure_stage}")
        self.result = result


class Recording:
    """The framing, saving and failure tagging of one organisation's investigations; the
    Investigator (engine/investigation/investigate.py) holds what they read."""

    graph: OrgGraph
    resolver: Resolver
    versions: Versions
    round_trips: Callable[[], int]
    observer: InvestigationObserver

    async def _internal(
        self, frame: outcomes.Frame, stage: FailureStage, stages: Stages, trace: Trace | None
    ) -> InvestigationResult:
        """An unexpected exception at `stage`: logged here with its traceback (operators
        need it), while the result carries only the closed stage and `internal`."""
        log.error("investigation %s failed at stage %s", frame.result_id, stage.value,
                  exc_info=True)  # fmt: skip
        result = outcomes.failure(frame, stage, FailureClassification.INTERNAL, trace)
        try:
            await self._persist(result, None)
        finally:
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
        return result

    async def _persist(self, result: InvestigationResult, key: str | None) -> None:
        try:
            await self.graph.results.save(
                result.id,
                result.model_dump_json(),
                created_ns=time.time_ns(),
                subject_keys=result.subject_keys,
                reuse_key=key,
                outcome=result.outcome.value,
            )
        except Exception as exc:
            kind = classify(exc) if isinstance(exc, GraphError) else FailureClassification.INTERNAL
            if kind is FailureClassification.INTERNAL:
                log.error("investigation %s could not be saved", result.id, exc_info=True)
            failed = result.model_copy(
                update={
                    "outcome": Outcome.FAILED,
                    "failure_stage": FailureStage.PERSIST,
                    "failure_classification": kind,
                }
            )
            raise InvestigationFailed(failed) from exc

    def _frame(
        self,
        actor: str,
        question: str,
        now: datetime,
        effective: EffectiveTime,
        understood: Interpretation | None,
    ) -> outcomes.Frame:
        context = outcomes.context_of(effective)
        summary = (
            {}  # the question was never understood (interpretation itself failed)
            if understood is None
            else {
                "references": list(understood.references),
                "fact_kinds": [k.value for k in understood.fact_kinds],
                "time_expression": understood.time_expression,
                "intent": understood.intent,
            }
        )
        return outcomes.Frame(
            result_id=str(uuid.uuid4()),
            org_id=self.resolver.org_id,
            actor=actor,
            question=question,
            created_at=now,
            time_context=context,
            interpretation=summary,
            versions=self.versions,
            label=temporal_label(effective, []),
        )

    def _trace(self, stages: Stages, start_trips: int) -> Trace:
        return stages.trace(self.round_trips() - start_trips)
