"""The staged run of an investigation once its question is understood and its time chosen:
resolve -> plan -> read facts -> discover context -> synthesize -> compose -> validate.

Each stage is timed (engine/investigation/stages.py), and the stage running when something goes
wrong is the one a failure names (the investigator tags it; see
engine/investigation/investigate.py). An unresolved question ends at the resolve stage, before any
canonical fact is read. The read stages (plan, read facts, discover context, the question
types' own reads) are engine/investigation/reads.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.answering.framing import (
    lookback_of,
    window_of,
)
from engine.answering.synthesis import Synthesis, SynthesisInput, Synthesizer
from engine.domain.contract import (
    Axis,
    FailureStage,
    InvestigationResult,
)
from engine.domain.models import StoredSubject
from engine.domain.validation import require_valid
from engine.investigation import wholetime
from engine.investigation.answered import compose
from engine.investigation.reader import RunReader
from engine.investigation.reads import Reading, Reads
from engine.investigation.request import Run
from engine.investigation.stages import Stages
from engine.ports import OrgGraph
from engine.providers import Provider, Window
from engine.resolving import activity, outcomes, together
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import HeldRing
from engine.resolving.subjects import Subjects
from engine.resolving.wholehistory import asks_whole, of_people_alone, whole_phrase, widest

# What resolving gives: the subjects, or the composer of the result ending the run.
Resolved = list[StoredSubject] | Callable[..., InvestigationResult]


@dataclass(frozen=True)
class Pipeline:
    """The collaborators of one run, taken from the investigator when the run starts.

    round_trips: reads the graph statements sent so far (for the trace of an early end).
    """

    graph: OrgGraph
    resolver: Resolver
    providers: Sequence[Provider]
    synthesizer: Synthesizer
    signer: ReceiptSigner
    round_trips: Callable[[], int]

    async def run(self, run: Run) -> InvestigationResult:
        """The question's subjects resolved, then its facts read and answered; or the result
        ending it without them (a clarification, a no match, a narrower window asked)."""
        resolved, run = await self._resolved(run)
        stages, frame = run.stages, run.frame
        if not isinstance(resolved, list):
            window = window_of(run.effective, lookback_of(run.understood.intent))
            if run.understood.compared is not None:  # both periods' commits labelled
                window = replace(window, before=Window(*run.understood.compared, historical=True))
            ended = await self._ended(resolved, frame, window, stages)
            return wholetime.also_too_wide(ended, stages.too_wide)  # the 400-day rule too
        if stages.too_wide is not None:
            trace = stages.trace(self.round_trips())
            wide, ranked_in = stages.too_wide, stages.told.ranked_in
            return wholetime.narrower(wide, resolved, frame, self.signer, trace, ranked_in)
        return await self._answered(run, resolved)

    async def _resolved(self, run: Run) -> tuple[Resolved, Run]:
        """The subjects (or the composer ending the run), and the run with the time and frame
        answered: the whole history of what a question naming no time names (wholetime.py)."""
        understood, effective, stages = run.understood, run.effective, run.stages
        request = run.request
        # What the run resolves is remembered only once it is known the run referenced it:
        # not when the question is refused for its time (engine.resolving.ring.HeldRing).
        held = HeldRing(self.resolver.ring)
        resolver = self.resolver.holding(held)
        phrase = whole_phrase(understood, stages.too_wide)  # "ever": the whole history too
        whole = asks_whole(understood, effective, phrase)  # resolved over the widest window
        async with stages.stage(FailureStage.RESOLVE):
            subjects = Subjects(self.graph, resolver, self.signer, self.providers)
            resolved = await subjects.resolve(
                run.actor,
                request.question,
                request.prior_receipts,
                request.allow_clarification,
                understood,
                widest(effective) if whole else effective,
                stages.told,
            )
        self.resolver.vector_arm_missed |= resolver.vector_arm_missed
        if isinstance(resolved, list) and whole and not of_people_alone(understood, resolved):
            async with stages.stage(FailureStage.RESOLVE):
                effective, frame = await wholetime.whole(
                    self.graph, request.allow_clarification, understood, resolved, effective,
                    run.frame, stages, phrase,
                )  # fmt: skip
            run = replace(run, effective=effective, frame=frame)
        if not (isinstance(resolved, list) and stages.too_wide is not None):
            held.commit()
        return resolved, run

    async def _answered(self, run: Run, resolved: list[StoredSubject]) -> InvestigationResult:
        """The facts of the subjects read (the planned reading and the question types' own),
        synthesised, composed and validated against every fact read."""
        stages, understood = run.stages, run.understood
        reads = Reads(self.graph, self.providers)
        reading = await reads.read(resolved, run)
        named = together.named(resolved, stages.told.part)
        reader = RunReader(self.graph, self.providers, understood, resolved, stages.told.part)
        reading, own = await reads.own(self.synthesizer.questions, reader, named, run, reading)
        said, unanswerable = await reader.gaps()
        stages.told.notes.extend(said)
        unanswerable = own.unanswerable if unanswerable is None else unanswerable
        synthesis = await self._synthesize(run, named, reading, own.kept, unanswerable)
        reading_note = understood.time_note if run.request.start is None else None
        result = compose(
            run.frame, run.effective, reading_note, resolved, reading, synthesis, stages,
            self.resolver.vector_arm_missed, self.signer,
        )  # fmt: skip
        async with stages.stage(FailureStage.VALIDATE):
            read = {e.key for e in reading.episodes} | {s.key for s in resolved}
            read |= {e.relationship.rel_id for e in reading.edges}
            stages.checked = ({f.id: f for f in reading.facts}, frozenset(read))
            return require_valid(result, stages.checked[0], read)

    async def _synthesize(
        self,
        run: Run,
        named: Sequence[StoredSubject],
        reading: Reading,
        kept: Mapping[str, object],
        unanswerable: str | None,
    ) -> Synthesis:
        """The answer's words from what was read: the question as read and what it asked,
        the facts, episodes and edges of its window (the synthesis stage of `run`)."""
        understood = run.understood
        async with run.stages.stage(FailureStage.SYNTHESIZE):
            return await self.synthesizer.synthesize(
                SynthesisInput(
                    run.request.question,
                    understood.intent,
                    tuple(named),
                    reading.facts,
                    reading.episodes,
                    reading.edges,
                    reading.window,
                    Axis(run.effective.axis.value),
                    organisation_wide=run.stages.told.organisation_wide,
                    asked=understood.fact_kinds,
                    unanswerable=unanswerable,
                    kept=kept,
                    asks_both=understood.asks_both,
                    ranked_by=understood.ranked_by,
                    bots=understood.bots,
                    bots_only=understood.bots_only,
                    compares=understood.compares,
                    net=understood.net_lines,
                )
            )

    async def _ended(
        self,
        compose: Callable[..., InvestigationResult],
        frame: outcomes.Frame,
        window: Window,
        stages: Stages,
    ) -> InvestigationResult:
        """The result that ends the run before any fact is read; the candidates it offers
        labelled so that none reads like another ("X could mean X, X"): composed again
        once their activity in the window is read."""
        ended = compose(frame, stages.trace(self.round_trips()))
        if not ended.candidates:
            return ended
        async with stages.stage(FailureStage.RESOLVE):
            keys = [c.subject_key for c in ended.candidates]
            found = await self.graph.subjects_by_keys(keys)
            offered = [found[k] for k in keys if k in found]
            said = await activity.labels(self.graph, offered, window)
        return compose(replace(frame, labels=said), stages.trace(self.round_trips()))
