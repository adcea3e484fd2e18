"""The read stages of a run (engine/investigation/pipeline.py): plan, read facts and discover
context over the window answered, and then each question type's own read beyond the planned
facts (engine/questions/base.py `Question.read`), reading everything again from another start
when one asks it. Kept apart from the pipeline, which resolves, synthesises, composes and
validates around these reads."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from engine.answering.framing import lookback_of, window_of
from engine.answering.planning import Plan, plan, read_facts
from engine.domain.contract import FailureStage
from engine.domain.facts import Fact
from engine.domain.models import Episode, RelationshipType, StoredSubject
from engine.investigation.reader import RunReader
from engine.investigation.request import Run
from engine.investigation.stages import Stages
from engine.ports import Edge, OrgGraph, TimeSpan
from engine.providers import Provider, ProviderResult, Window
from engine.questions import Asked, Found, Question
from engine.resolving import together
from engine.resolving.questiontime import NO_TIME

CONTEXT_TYPES = (RelationshipType.OWNS, RelationshipType.DEPENDS_ON)


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
class Reads:
    """The graph and providers a run reads with (the pipeline's own)."""

    graph: OrgGraph
    providers: Sequence[Provider]

    async def own(
        self,
        questions: Sequence[Question],
        reader: RunReader,
        named: Sequence[StoredSubject],
        run: Run,
        reading: Reading,
    ) -> tuple[Reading, Own]:
        """Each question type's own read beyond the planned facts, in the registry's order
        (engine/questions/base.py `Question.read`): the facts it reads beside them, the notes
        it states, the judgment when what is asked is not recorded, what its judgment reads
        back; and, when it finds the answer must read from another start ("when did X last
        change?" with no change in the window), everything read again from there (the types
        after it then see that reading)."""
        stages, told = run.stages, run.stages.told
        reader.replanned(reading.chosen.entries, reading.facts)
        own = Own()
        pending = list(questions)
        while pending:
            start: datetime | None = None
            end: datetime | None = None
            made: list[str] = []  # the types that read: the stage is timed only when one did
            async with stages.stage(FailureStage.READ_FACTS, timed=partial(bool, made)):
                while pending and start is None:
                    kind = pending.pop(0)
                    found = await kind.read(self._asked(run, reader, named, reading, own), reader)
                    if found is not None:
                        made.append(kind.name)
                        own = own.add(kind.name, found)
                        start, end = found.start, found.end
                        if start is not None:  # the window named is not the one answered
                            told.notes = [n for n in told.notes if not n.startswith(NO_TIME)]
                        told.notes.extend(found.notes)
            if start is not None:
                reading = await self.read(list(reader.subjects), run, start, end)
                reader.replanned(reading.chosen.entries, reading.facts)
        return replace(reading, results=[*reading.results, *own.results]), own

    @staticmethod
    def _asked(
        run: Run, reader: RunReader, named: Sequence[StoredSubject], reading: Reading, own: Own
    ) -> Asked:
        """What a question type's own read is given: the question as read, its subjects, the
        facts read so far (the planned ones and the types' before it), the window, the part."""
        told = run.stages.told
        return Asked(
            run.understood, tuple(reader.subjects), tuple(named),
            (*reading.facts, *(f for r in own.results for f in r.facts)),
            reading.window, part=told.part is not None,
            wide=told.organisation_wide, ranged=run.effective.axis.value == "range",
            actor=told.part.person.key if told.part else None,
            others=told.part.others if told.part else False,
            also=tuple(p.key for p in told.part.also) if told.part else (),
        )  # fmt: skip

    async def read(
        self,
        resolved: list[StoredSubject],
        run: Run,
        start: datetime | None = None,
        end: datetime | None = None,
    ) -> Reading:
        """The planned facts and the context of `resolved` over the run's window. `start`:
        read from there instead of the window's own start (a last change), up to `end`
        instead of its own end when given (a first change)."""
        understood, stages = run.understood, run.stages
        window = window_of(run.effective, lookback_of(understood.intent))
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
        episodes, edges = await self._context(resolved, window, stages)
        return Reading(
            window,
            chosen,
            results,
            tuple(e for es in episodes.values() for e in es if together.holds(part, e)),
            tuple(e for es in edges.values() for e in es),
        )

    async def _context(
        self, resolved: list[StoredSubject], window: Window, stages: Stages
    ) -> tuple[dict[str, list[Episode]], dict[str, list[Edge]]]:
        """The discover-context stage: the subjects' episodes in the window and the
        relationships valid at its end (owners and dependencies)."""
        async with stages.stage(FailureStage.DISCOVER_CONTEXT):
            keys = [s.key for s in resolved]
            span = TimeSpan(window.start_ns, window.end_ns)
            return await asyncio.gather(
                self.graph.episodes_of(keys, span=span, limit_per_subject=10),
                self.graph.relationships_of(
                    keys,
                    types=CONTEXT_TYPES,
                    at=TimeSpan.point(window.end_ns),
                    limit_per_subject=20,
                ),
            )
