"""What every run of an investigation shares, and the runs inside one: the question read with
its known names looked up first, the pipeline built from the investigator's collaborators, and
a question's parts (engine/investigation/parts.py) and windows (engine/investigation/unions.py)
each run as a question of its own over the request's time. Kept apart from
engine/investigation/investigate.py, which receives the request, reuses an answer and runs the
question itself over these (`SubRuns`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from engine.answering.synthesis import Synthesizer
from engine.domain.contract import FailureStage, InvestigationResult, Outcome
from engine.domain.errors import PublicError
from engine.domain.timecontext import EffectiveTime, resolve_time
from engine.investigation import parts, unions
from engine.investigation.failures import InvestigationFailed, Recording, classify
from engine.investigation.pipeline import Pipeline
from engine.investigation.request import InvestigationRequest, Run
from engine.investigation.stages import Stages
from engine.ports import GraphError
from engine.providers import Provider
from engine.reading.interpretation import Interpretation
from engine.reading.interpreter import interpret
from engine.reading.lookups import handle_candidates
from engine.resolving import outcomes, releases
from engine.resolving.handles import known_handles
from engine.resolving.questiontime import asked_time
from engine.resolving.receipts import ReceiptSigner


class SubRuns(Recording):
    """The reading, the pipeline and the runs inside a question, for the Investigator
    (engine/investigation/investigate.py), which holds what they read."""

    providers: list[Provider]
    synthesizer: Synthesizer
    signer: ReceiptSigner

    async def _part(
        self, actor: str, request: InvestigationRequest, now: datetime, question: str
    ) -> tuple[InvestigationResult, parts.Checked, Interpretation] | None:
        """One part of a question (engine/investigation/parts.py), run as a question of its
        own over the request's time: its result, what it was validated against and its
        reading, or None when its time is refused."""
        effective = resolve_time(request.as_of, request.start, request.end, now)
        understood = await self._interpret(actor, question, now, effective, effective.end)
        try:
            effective, notes, wide = asked_time(
                effective, understood, effective.end, request.allow_clarification
            )
        except PublicError:
            return None
        stages = Stages(too_wide=wide)
        stages.told.notes = list(notes)
        frame = self._frame(actor, question, now, effective, understood)
        asked = replace(request, question=question)
        run = Run(actor, asked, effective, understood, frame, stages)
        result = await self._pipeline().run(run)
        return result, stages.checked, understood

    async def _whole(
        self, actor: str, request: InvestigationRequest, now: datetime, question: str
    ) -> tuple[InvestigationResult, list[parts.Checked], Interpretation] | None:
        """One window of a union (engine/investigation/unions.py), run as a question of its
        own with its parts answered: its result, what it and each part were validated
        against, and its reading; None when its time is refused."""
        run = await self._part(actor, request, now, question)
        if run is None:
            return None
        result, checked, understood = run
        seen = [checked]

        async def ask(asked: str) -> unions.Part | None:
            found = await self._part(actor, request, now, asked)
            if found is not None:
                seen.append(found[1])
            return found

        return await parts.answered(result, checked, understood, ask), seen, understood

    async def _interpret(
        self,
        actor: str,
        question: str,
        now: datetime,
        effective: EffectiveTime,
        anchor: datetime,
    ) -> Interpretation:
        """Interpretation with the question's known names looked up first, and a release it
        names placed at its release commit (engine/resolving/releases.py); the graph being
        unavailable then fails the investigation at the interpret stage."""
        try:
            known = await known_handles(self.graph, handle_candidates(question, anchor))
            read = interpret(question, anchor, known.__contains__)
            return await releases.placed(self.graph, read)
        except GraphError as exc:
            stages = Stages()
            frame = self._frame(actor, question, now, effective, interpret(question, anchor))
            self.observer.investigation(Outcome.FAILED.value, False, stages.timings)
            raise InvestigationFailed(
                outcomes.failure(frame, FailureStage.INTERPRET, classify(exc), None)
            ) from exc

    def _pipeline(self) -> Pipeline:
        return Pipeline(
            self.graph,
            self.resolver,
            self.providers,
            self.synthesizer,
            self.signer,
            self.round_trips,
        )
