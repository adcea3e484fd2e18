"""The investigation: interpret -> resolve -> plan -> read facts -> context -> synthesize ->
validate -> persist, each stage typed, timed and tagged on failure.

An unresolved question (ambiguous or absent subjects) ends before any canonical fact is read,
with a result composed without a model. A failure carries a closed stage and classification,
never an exception's text. Results are immutable once saved.

Here: the question received, answer reuse, the question read and run; the request and the
record a run carries are engine/investigation/request.py's, the question's parts and windows
run as questions of their own in engine/investigation/subruns.py, results are framed, saved
and failures tagged in engine/investigation/failures.py, the time the answer covers is chosen
in engine/resolving/questiontime.py, the stages from resolve to validate run in
engine/investigation/pipeline.py, and a reusable answer is rechecked in
engine/investigation/reuse.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial

from engine.answering.framing import lookback_of, window_of
from engine.answering.synthesis import Synthesizer
from engine.domain.contract import (
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    Versions,
)
from engine.domain.errors import PublicError
from engine.domain.timecontext import EffectiveTime, resolve_time, time_axis_key
from engine.domain.validation import ContractViolation
from engine.investigation import parts, unions
from engine.investigation.failures import InvestigationFailed, classify
from engine.investigation.observer import NULL_OBSERVER, InvestigationObserver
from engine.investigation.pipeline import Pipeline
from engine.investigation.request import InvestigationRequest, Run
from engine.investigation.reuse import ReuseKey, reusable, reuse_key
from engine.investigation.stages import Stages
from engine.investigation.subruns import SubRuns
from engine.ports import GraphError, OrgGraph
from engine.providers import Provider
from engine.reading import antecedents, followups
from engine.reading.interpretation import Interpretation
from engine.resolving import outcomes
from engine.resolving.questiontime import asked_time
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver


@dataclass(frozen=True)
class Asked:
    """A question as read: who asked, the request (a follow-up written whole), the instant
    asked at, the request's time, the reading, and the follow-up it was (None: none)."""

    actor: str
    request: InvestigationRequest
    now: datetime
    effective: EffectiveTime
    understood: Interpretation
    followed: followups.Followed | None


class Investigator(SubRuns):
    """Runs investigations for one organisation.

    graph: the organisation's graph (directory, fact source, episodes, result store).
    round_trips: reads the graph statements sent so far (for the trace).
    reuse_max_age: answer reuse window; None turns reuse off (the default).
    observer: told the outcome and stage timings of every investigation (metrics).
    """

    def __init__(
        self,
        graph: OrgGraph,
        resolver: Resolver,
        providers: Sequence[Provider],
        synthesizer: Synthesizer,
        signer: ReceiptSigner,
        versions: Versions,
        *,
        now: Callable[[], datetime],
        round_trips: Callable[[], int] = lambda: 0,
        reuse_max_age: timedelta | None = None,
        observer: InvestigationObserver = NULL_OBSERVER,
    ) -> None:
        self.graph = graph
        self.resolver = resolver
        self.providers = list(providers)
        self.synthesizer = synthesizer
        self.signer = signer
        # A result names the epoch it read; the reuse key carries it, so reuse never crosses
        # epochs (the graph is pinned to one for its life).
        self.versions = versions.model_copy(update={"epoch": getattr(graph, "epoch", 0)})
        self.now = now
        self.round_trips = round_trips
        self.reuse_max_age = reuse_max_age
        self.observer = observer

    async def investigate(
        self, actor: str, request: InvestigationRequest
    ) -> tuple[InvestigationResult, bool]:
        """The result, and whether it was reused. BadUserInput for refused times."""
        now = self.now()
        effective = resolve_time(request.as_of, request.start, request.end, now)
        # "and in 2026?" after a full question: that question with the fragment's parts
        # (engine/reading/followups.py), keyed, read and answered as asked so.
        ring, org = self.resolver.ring, self.resolver.org_id
        previous = ring.previous(org, actor)
        followed = followups.followed(request.question, previous, effective.end)
        # "who made them?" after a question naming things, or after a colon in its own
        # question: asked of those things (engine/reading/antecedents.py)
        followed = followed or antecedents.followed(request.question, previous)
        if followed is not None:
            request = replace(request, question=followed.question)
        # Reuse runs before interpretation and keys on the request's clamped time (a fixed
        # literal for the current axis), never on a window read from the wording: "in the last
        # 7 days" would key on the clock and never be found again (seed 003, TimeAxisKeyFor).
        key = reuse_key(
            request.question, self.resolver.org_id, self.versions, time_axis_key(effective)
        )
        if self.reuse_max_age is not None and not request.prior_receipts:
            reused = await self._reuse(actor, request.question, now, effective, key)
            if reused is not None:
                return reused, reused.outcome is not Outcome.FAILED
        # Time phrases are read relative to the request's time ("in the last 3 months" with
        # asOf: the 3 months before asOf), and never reach past it.
        anchor = effective.end
        try:
            understood = await self._interpret(actor, request.question, now, effective, anchor)
        except (InvestigationFailed, PublicError):
            raise
        except Exception:  # a bug: a tagged, saved failure, never a bare error
            frame = self._frame(actor, request.question, now, effective, None)
            return await self._internal(frame, FailureStage.INTERPRET, Stages(), None), False
        if followed is not None:  # what it carried, its recent references may settle
            understood = replace(understood, carried=followed.carried)
        if followed is not None and followed.window is not None:  # "the quarter before that"
            start, end = followed.window  # exact: the days written may start at noon
            understood = replace(understood, as_of=None, start=start, end=end,
                                 time_note=followed.time_note)  # fmt: skip
        asked = Asked(actor, request, now, effective, understood, followed)
        return await self._asked(asked, key.digest), False

    async def _asked(self, asked: Asked, key: str) -> InvestigationResult:
        """A question read: the time it covers chosen (refused when too wide, BadUserInput),
        remembered for a follow-up, and answered."""
        actor, request, understood = asked.actor, asked.request, asked.understood
        followed = asked.followed
        anchor = asked.effective.end
        effective, time_notes, wide = asked_time(
            asked.effective, understood, anchor, request.allow_clarification
        )
        stages = Stages(too_wide=wide)
        framed = asked.effective if wide else effective
        frame = self._frame(actor, request.question, asked.now, framed, understood)
        stages.told.notes = [*([followed.note] if followed else []), *time_notes]
        if followed is not None or not followups.is_fragment(request.question):
            covered = window_of(effective, lookback_of(understood.intent))
            previous = followups.Previous(
                request.question, understood.time_expression, understood.references,
                covered.start,
            )  # fmt: skip
            ring, org = self.resolver.ring, self.resolver.org_id
            ring.asked(org, actor, previous)
        run = Run(actor, request, effective, understood, frame, stages)
        return await self._answer(run, key)

    async def _reuse(
        self, actor: str, question: str, now: datetime, effective: EffectiveTime, key: ReuseKey
    ) -> InvestigationResult | None:
        """A saved answer still visible under `key`, or None. A failure of the lookup or its
        recheck ends as a failed result tagged `reuse` (saved when the graph takes it), never
        a bare error."""
        assert self.reuse_max_age is not None
        try:
            reused = await reusable(self.graph, key.digest, now - self.reuse_max_age)
        except GraphError as exc:
            frame = self._frame(actor, question, now, effective, None)
            failed = outcomes.failure(frame, FailureStage.REUSE, classify(exc), None)
            self.observer.investigation(Outcome.FAILED.value, False, ())
            try:
                await self._persist(failed, None)
            except InvestigationFailed:
                raise InvestigationFailed(failed) from exc
            return failed
        except Exception:  # a bug: a tagged, saved failure, never a bare error
            frame = self._frame(actor, question, now, effective, None)
            return await self._internal(frame, FailureStage.REUSE, Stages(), None)
        if reused is not None:
            self.observer.investigation(reused.outcome.value, True, ())
        return reused

    async def _answer(self, run: Run, key: str) -> InvestigationResult:
        """The stages run, the result saved (an answer under its reuse key), every outcome
        told to the observer, and every failure tagged with the stage it happened in."""
        frame, stages = run.frame, run.stages
        start_trips = self.round_trips()
        pipeline = self._pipeline()
        try:
            result = await self._answered(run, pipeline)
        except GraphError as exc:
            kind = classify(exc)
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise InvestigationFailed(
                outcomes.failure(frame, stages.current, kind, self._trace(stages, start_trips))
            ) from exc
        except ContractViolation:
            result = outcomes.failure(
                frame,
                FailureStage.VALIDATE,
                FailureClassification.CONTRACT_VIOLATION,
                self._trace(stages, start_trips),
            )
        except PublicError:
            raise
        except Exception:  # a bug in any stage: a tagged, saved failure, never a bare error
            trace = self._trace(stages, start_trips)
            return await self._internal(frame, stages.current, stages, trace)
        return await self._saved(result, stages, start_trips, key)

    async def _answered(self, run: Run, pipeline: Pipeline) -> InvestigationResult:
        """The pipeline's result, with each part of the question and each window of a union
        answered in it."""
        actor, request, created = run.actor, run.request, run.frame.created_at
        result = await pipeline.run(run)
        # "..., and who made them?": each part answered, in one result
        ask = partial(self._part, actor, request, created)
        result = await parts.answered(result, run.stages.checked, run.understood, ask)
        # "in March and July 2026": each window answered, the figures added
        whole = partial(self._whole, actor, request, created)
        return await unions.answered(result, run.understood, whole)

    async def _saved(
        self, result: InvestigationResult, stages: Stages, start_trips: int, key: str
    ) -> InvestigationResult:
        """`result` with its trace, saved (an answer under its reuse key) and told to the
        observer."""
        result = result.model_copy(update={"trace": self._trace(stages, start_trips)})
        try:
            await self._persist(result, key if result.outcome is Outcome.ANSWERED else None)
        except InvestigationFailed:
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise
        self.observer.investigation(result.outcome.value, False, stages.timings)
        return result


__all__ = ["InvestigationFailed", "InvestigationRequest", "Investigator"]
