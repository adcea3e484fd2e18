"""The staged run of an investigation once its question is understood and its time chosen:
resolve -> plan -> read facts -> discover context -> synthesize -> compose -> validate.

Each stage is timed (engine/investigation/stages.py), and the stage running when something goes
wrong is the one a failure names (the investigator tags it; see
engine/investigation/investigate.py). An unresolved question ends at the resolve stage, before any
canonical fact is read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from engine.answering.framing import (
    lookback_of,
    window_of,
)
from engine.answering.planning import Plan, plan, read_facts
from engine.answering.synthesis import Synthesis, SynthesisInput, Synthesizer
from engine.domain.contract import (
    Axis,
    FailureStage,
    InvestigationResult,
)
from engine.domain.facts import Fact
from engine.domain.models import Episode, RelationshipType, StoredSubject
from engine.domain.timecontext import EffectiveTime
from engine.domain.validation import require_valid
from engine.investigation import wholetime
from engine.investigation.answered import compose
from engine.investigation.reader import RunReader
from engine.investigation.stages import Stages
from engine.ports import Edge, OrgGraph, TimeSpan
from engine.providers import Provider, ProviderResult, Window
from engine.questions import Asked, Found
from engine.reading.interpretation import Interpretation
from engine.resolving import activity, outcomes, together
from engine.resolving.questiontime import NO_TIME
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import HeldRing
from engine.resolving.subjects import Subjects
from engine.resolving.wholehistory import asks_whole, of_people_alone, whole_phrase, widest

if TYPE_CHECKING:  # the request is the investigator's; only its fields are read here
    from engine.investigation.investigate import InvestigationRequest

CONTEXT_TYPES = (RelationshipType.OWNS, RelationshipType.DEPENDS_ON)


# What resolving gives: the subjects, or the composer of the result ending the run.
Resolved = list[StoredSubject] | Callable[..., InvestigationResult]


@dataclass(frozen=True)
class Reading:
    """Everything read for the resolved subjects: the plan, what its reads returned over the
    window, and the context around the subjects (episodes, owners and dependencies)."""

    window: Window
    chosen: Plan
    results: list[ProviderResult]
    episodes: tuple[Episode, ...]
    edges: tuple[Edge, ...]

    @property
    def facts(self) -> tuple[Fact, ...]:
        return tuple(f for r in self.results for f in r.facts)


@dataclass(frozen=True)
class Own:
    """What the question types' own reads found (engine/questions/base.py `Found`), together:
    the facts read beside the planned ones, the last judgment given for what is not recorded,
    and what each kept for its judgment, by its name."""

    results: tuple[ProviderResult, ...] = ()
    unanswerable: str | None = None
    kept: Mapping[str, object] = field(default_factory=dict)

    def add(self, name: str, found: Found) -> Own:
        kept = dict(self.kept) | ({} if found.kept is None else {name: found.kept})
        unanswerable = self.unanswerable if found.unanswerable is None else found.unanswerable
        return Own((*self.results, *found.results), unanswerable, kept)


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

    async def run(
        self,
        actor: str,
        request: InvestigationRequest,
        effective: EffectiveTime,
        understood: Interpretation,
        frame: outcomes.Frame,
        stages: Stages,
    ) -> InvestigationResult:
        """The question's subjects resolved, then its facts read and answered; or the result
        ending it without them (a clarification, a no match, a narrower window asked)."""
        resolved, effective, frame = await self._resolved(
            actor, request, effective, understood, frame, stages
        )
        if not isinstance(resolved, list):
            ended = await self._ended(
                resolved, frame, window_of(effective, lookback_of(understood.intent)), stages
            )
            return wholetime.also_too_wide(ended, stages.too_wide)  # the 400-day rule too
        if stages.too_wide is not None:
            trace = stages.trace(self.round_trips())
            wide, ranked_in = stages.too_wide, stages.told.ranked_in
            return wholetime.narrower(wide, resolved, frame, self.signer, trace, ranked_in)
        return await self._answered(request, understood, resolved, effective, frame, stages)

    async def _resolved(
        self,
        actor: str,
        request: InvestigationRequest,
        effective: EffectiveTime,
        understood: Interpretation,
        frame: outcomes.Frame,
        stages: Stages,
    ) -> tuple[Resolved, EffectiveTime, outcomes.Frame]:
        """The subjects (or the composer ending the run), and the time and frame answered:
        the whole history of what a question naming no time names (wholetime.py)."""
        # What the run resolves is remembered only once it is known the run referenced it:
        # not when the question is refused for its time (engine.resolving.ring.HeldRing).
        held = HeldRing(self.resolver.ring)
        resolver = self.resolver.holding(held)
        phrase = whole_phrase(understood, stages.too_wide)  # "ever": the whole history too
        whole = asks_whole(understood, effective, phrase)  # resolved over the widest window
        async with stages.stage(FailureStage.RESOLVE):
            subjects = Subjects(self.graph, resolver, self.signer, self.providers)
            resolved = await subjects.resolve(
                actor,
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
                    frame, stages, phrase,
                )  # fmt: skip
        if not (isinstance(resolved, list) and stages.too_wide is not None):
            held.commit()
        return resolved, effective, frame

    async def _answered(
        self,
        request: InvestigationRequest,
        understood: Interpretation,
        resolved: list[StoredSubject],
        effective: EffectiveTime,
        frame: outcomes.Frame,
        stages: Stages,
    ) -> InvestigationResult:
        """The facts of the subjects read (the planned reading and the question types' own),
        synthesised, composed and validated against every fact read."""
        reading = await self._read(resolved, understood, effective, stages)
        named = together.named(resolved, stages.told.part)
        reader = RunReader(self.graph, self.providers, understood, resolved, stages.told.part)
        reading, own = await self._own_reads(reader, named, understood, effective, stages, reading)
        said, unanswerable = await reader.gaps()
        stages.told.notes.extend(said)
        unanswerable = own.unanswerable if unanswerable is None else unanswerable
        synthesis = await self._synthesize(
            request.question, understood, named, reading, effective, stages, own.kept, unanswerable
        )
        reading_note = understood.time_note if request.start is None else None
        result = compose(
            frame, effective, reading_note, resolved, reading, synthesis, stages,
            self.resolver.vector_arm_missed, self.signer,
        )  # fmt: skip
        async with stages.stage(FailureStage.VALIDATE):
            read = {e.key for e in reading.episodes} | {s.key for s in resolved}
            read |= {e.relationship.rel_id for e in reading.edges}
            stages.checked = ({f.id: f for f in reading.facts}, frozenset(read))
            return require_valid(result, stages.checked[0], read)

    async def _synthesize(
        self,
        question: str,
        understood: Interpretation,
        named: Sequence[StoredSubject],
        reading: Reading,
        effective: EffectiveTime,
        stages: Stages,
        kept: Mapping[str, object],
        unanswerable: str | None,
    ) -> Synthesis:
        """The answer's words from what was read: the question as read and what it asked,
        the facts, episodes and edges of its window (the synthesis stage of `run`)."""
        async with stages.stage(FailureStage.SYNTHESIZE):
            return await self.synthesizer.synthesize(
                SynthesisInput(
                    question,
                    understood.intent,
                    tuple(named),
                    reading.facts,
                    reading.episodes,
                    reading.edges,
                    reading.window,
                    Axis(effective.axis.value),
                    organisation_wide=stages.told.organisation_wide,
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

    async def _own_reads(
        self,
        reader: RunReader,
        named: Sequence[StoredSubject],
        understood: Interpretation,
        effective: EffectiveTime,
        stages: Stages,
        reading: Reading,
    ) -> tuple[Reading, Own]:
        """Each question type's own read beyond the planned facts, in the registry's order
        (engine/questions/base.py `Question.read`): the facts it reads beside them, the notes
        it states, the judgment when what is asked is not recorded, what its judgment reads
        back; and, when it finds the answer must read from another start ("when did X last
        change?" with no change in the window), everything read again from there (the types
        after it then see that reading)."""
        told = stages.told
        reader.replanned(reading.chosen.entries, reading.facts)
        own = Own()
        pending = list(self.synthesizer.questions)
        while pending:
            start: datetime | None = None
            end: datetime | None = None
            made: list[str] = []  # the types that read: the stage is timed only when one did
            async with stages.stage(FailureStage.READ_FACTS, timed=partial(bool, made)):
                while pending and start is None:
                    kind = pending.pop(0)
                    asked = Asked(
                        understood, tuple(reader.subjects), tuple(named),
                        (*reading.facts, *(f for r in own.results for f in r.facts)),
                        reading.window, part=told.part is not None,
                        wide=told.organisation_wide, ranged=effective.axis.value == "range",
                        actor=told.part.person.key if told.part else None,
                        others=told.part.others if told.part else False,
                        also=tuple(p.key for p in told.part.also) if told.part else (),
                    )  # fmt: skip
                    found = await kind.read(asked, reader)
                    if found is not None:
                        made.append(kind.name)
                        own = own.add(kind.name, found)
                        start, end = found.start, found.end
                        if start is not None:  # the window named is not the one answered
                            told.notes = [n for n in told.notes if not n.startswith(NO_TIME)]
                        told.notes.extend(found.notes)
            if start is not None:
                subjects = list(reader.subjects)
                reading = await self._read(subjects, understood, effective, stages, start, end)
                reader.replanned(reading.chosen.entries, reading.facts)
        return replace(reading, results=[*reading.results, *own.results]), own

    async def _read(
        self,
        resolved: list[StoredSubject],
        understood: Interpretation,
        effective: EffectiveTime,
        stages: Stages,
        start: datetime | None = None,
        end: datetime | None = None,
    ) -> Reading:
        """`start`: read from there instead of the window's own start (a last change), up
        to `end` instead of its own end when given (a first change)."""
        window = window_of(effective, lookback_of(understood.intent))
        window = window if start is None else replace(window, start=start)
        window = window if end is None else replace(window, end=end, historical=True)
        if understood.compared is not None:  # "than last year": the window before is that
            window = replace(window, before=Window(*understood.compared, historical=True))
        async with stages.stage(FailureStage.PLAN):
            chosen = plan(self.providers, resolved, understood.fact_kinds)
        stages.planned(chosen)
        part = stages.told.part
        async with stages.stage(FailureStage.READ_FACTS):
            source = self.graph if part is None else together.PartSource(self.graph, part)
            results = await read_facts(chosen, source, window)
            if part is not None:
                results = [replace(r, facts=tuple(map(part.fact, r.facts))) for r in results]
        async with stages.stage(FailureStage.DISCOVER_CONTEXT):
            keys = [s.key for s in resolved]
            span = TimeSpan(window.start_ns, window.end_ns)
            episodes, edges = await asyncio.gather(
                self.graph.episodes_of(keys, span=span, limit_per_subject=10),
                # Relationships valid at the effective time: owners and dependencies.
                self.graph.relationships_of(
                    keys,
                    types=CONTEXT_TYPES,
                    at=TimeSpan.point(window.end_ns),
                    limit_per_subject=20,
                ),
            )
        return Reading(
            window,
            chosen,
            results,
            tuple(e for es in episodes.values() for e in es if together.holds(part, e)),
            tuple(e for es in edges.values() for e in es),
        )
