"""The subjects a question's references name (engine/resolving/subjects.py asks): modules
named with their repository first ("click's termui", "the routing tests"), then each other
reference with its kind word; people of one name beside what changed are the one who changed
it; a reference asking which ends the investigation with a clarification (or no match), and
one naming nothing is said (engine/resolving/missing.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving import (
    activity,
    actors,
    changers,
    existence,
    kinded,
    missing,
    outcomes,
    partwords,
    soleactive,
)
from engine.resolving.aside import shipped_of_within
from engine.resolving.disclosures import Disclosures
from engine.resolving.missing import Ended
from engine.resolving.namesakes import widened
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.referents import Referent, Referents
from engine.resolving.resolution import Ambiguous, NotFound, Resolver
from engine.resolving.within import Within, tests_of, within


@dataclass(frozen=True)
class Asking:
    """One question whose references are read: who asked, the question, its reading, whether a
    clarification may end it, the subjects found so far (the list the readers add to) and
    what is disclosed. One record, passed from step to step of `Named` instead of the same
    six parameters in turn."""

    actor: str
    question: str
    understood: Interpretation
    allow_clarification: bool
    subjects: list[StoredSubject]
    told: Disclosures


class Named:
    """Reads the references of questions in one organisation's graph, with the referents of
    the Subjects asking (their window set once the question's time is known)."""

    def __init__(
        self, graph: OrgGraph, resolver: Resolver, signer: ReceiptSigner, referents: Referents
    ) -> None:
        self.graph = graph
        self.resolver = resolver
        self.signer = signer
        self.referents = referents

    async def read(self, asking: Asking, done: frozenset[str] = frozenset()) -> Ended | None:
        """The subjects the question names, added to `asking.subjects`: modules with their
        repository first, then each other reference (but those `done`: read beside a
        receipt); or the composer of the clarification (or no match) that ends the
        investigation. A reference naming nothing is said (engine/resolving/missing.py)."""
        understood, subjects, told = asking.understood, asking.subjects, asking.told
        consumed: set[str] = set(done)
        ended = await self._scopes(asking, consumed)
        if ended is not None:
            return ended
        alone, alone_notes = await kinded.alone(self.graph, understood)  # "the repo"
        subjects.extend(alone)
        unmatched = missing.Unmatched(self.referents.untracked)
        namesakes: list[tuple[str, Ambiguous]] = []  # people of one name, beside what changed
        compared: list[tuple[str, Ambiguous]] = []  # a tie compared with what else is named
        ended = await self._each(asking, consumed, unmatched, namesakes, compared)
        if ended is not None:
            return ended
        ended = await self._compared(asking, namesakes, compared)
        if ended is not None:
            return ended
        unsettled = [  # "kevin" beside types.py: who changed it; those settled first
            (reference, outcome)
            for reference, outcome in namesakes
            if await self._changer(asking, reference, outcome)
        ]
        for reference, outcome in unsettled[:1]:  # asked, saying what the others were found to be
            return await self._changer(asking, reference, outcome)
        if ended := await missing.no_one(self.graph, self.signer, understood, unmatched):
            return ended
        if subjects:
            told.notes.extend(alone_notes)
            told.notes.extend(missing.left_out(understood, unmatched))
        elif unmatched.names:  # the no match says which names matched nothing
            return await missing.nothing(
                self.graph, self.signer, understood, unmatched, alone_notes
            )
        return None

    async def _each(
        self,
        asking: Asking,
        consumed: set[str],
        unmatched: missing.Unmatched,
        namesakes: list[tuple[str, Ambiguous]],
        compared: list[tuple[str, Ambiguous]],
    ) -> Ended | None:
        """Each reference not `consumed` read with its kind word: a subject joins `subjects`,
        one naming nothing `unmatched`, people of one name `namesakes` and a tie in a
        comparison `compared` (read once the others are known); of several people of a name,
        the only one committing in the time named joins (engine.resolving.soleactive); a
        reference asking which ends the investigation (its composer)."""
        understood = asking.understood
        kinds = understood.reference_kinds or (None,) * len(understood.references)
        for reference, kind in zip(understood.references, kinds, strict=False):
            if reference in consumed:
                continue
            outcome = await self.referents.one(
                asking.actor, asking.question, reference, understood, kind, asking.told
            )
            if _later(reference, outcome, understood, namesakes, compared):
                continue
            outcome = await self._sole(asking, reference, outcome)
            ended = await self._placed(asking, reference, outcome, unmatched)
            if ended is not None:
                return ended
        return None

    async def _sole(self, asking: Asking, reference: str, outcome: Referent) -> Referent:
        """Of several people of a name, the only one committing in the time named
        (engine.resolving.soleactive), said and admitted; else the tie widened with those
        carrying the name who committed then (engine.resolving.namesakes); else `outcome`."""
        if not isinstance(outcome, Ambiguous):
            return outcome
        settled = await soleactive.of_tie(
            self.graph, reference, outcome, asking.understood, self.referents.window
        )
        if settled:
            asking.told.notes.append(settled[1])  # one of the name's people committed then
            self.resolver.admit(asking.actor, settled[0])
            return settled[0]
        if changers.among_people(outcome):  # "Michael" in 2018: Michael R. Bernstein offered too
            over = soleactive.asked_over(asking.understood, self.referents.window)
            return await widened(self.graph, reference, outcome, over)
        return outcome

    async def _placed(
        self, asking: Asking, reference: str, outcome: Referent, unmatched: missing.Unmatched
    ) -> Ended | None:
        """One reference's outcome in its place: a subject joins `subjects`, a name naming
        nothing `unmatched`; a tie, or a name with a kind it is not, asks which (the
        composer ending the investigation)."""
        subjects, understood = asking.subjects, asking.understood
        if isinstance(outcome, StoredSubject):
            subjects.append(outcome)
        elif isinstance(outcome, Ambiguous) and asking.allow_clarification:
            return await self._which(reference, outcome, subjects, understood)
        elif isinstance(outcome, Ambiguous):  # answered without it: another question
            which = (outcomes.prompt_for(reference, outcome.candidates),)
            return lambda frame, trace: outcomes.no_match(frame, trace, which)
        elif isinstance(outcome, NotFound):
            unmatched.names.append(reference)
            unmatched.closest += outcome.suggestions
        elif isinstance(outcome, Within):  # named with a kind it is not: ask which
            return self._ask(outcome, reference, asking.allow_clarification)
        return None

    async def _changer(self, asking: Asking, reference: str, outcome: Ambiguous) -> Ended | None:
        """The one of several people of a name who ever changed what the question names
        joins `subjects`, said (engine.resolving.changers); else the only one of them who
        committed in the time the question names (engine.resolving.soleactive); else the
        clarification, saying what else was found."""
        subjects, understood = asking.subjects, asking.understood
        found: tuple[StoredSubject, str] | str | None = None
        window = self.referents.window  # set once the question's time is known (resolve)
        if window is not None:
            found = await changers.only_changer(
                self.graph, reference, outcome, subjects, window.end
            )
        if not isinstance(found, tuple):
            tie = await soleactive.of_tie(self.graph, reference, outcome, understood, window)
            found = tie or found
        if isinstance(found, tuple):
            subjects.append(found[0])
            asking.told.notes.append(found[1])
            self.resolver.admit(asking.actor, found[0])
            return None
        if found is None:  # "Michael" in 2018: Michael R. Bernstein offered too
            over = soleactive.asked_over(understood, window)
            outcome = await widened(self.graph, reference, outcome, over)
        if not asking.allow_clarification:
            which = (found or outcomes.prompt_for(reference, outcome.candidates),)
            return lambda frame, trace: outcomes.no_match(frame, trace, which)
        beside = await self._beside(subjects, understood)
        return lambda frame, trace: outcomes.clarification(
            frame, reference, outcome.candidates, self.signer, trace, prompt=found, beside=beside
        )

    async def _compared(
        self,
        asking: Asking,
        namesakes: list[tuple[str, Ambiguous]],
        compared: list[tuple[str, Ambiguous]],
    ) -> Ended | None:
        """A tie of people and other subjects compared with a person is its people
        (engine.resolving.actors.compared): the one joins `subjects`, several `namesakes`;
        else the clarification asking which, saying what else was found."""
        understood, subjects, told = asking.understood, asking.subjects, asking.told
        for reference, outcome in compared:  # "dependabot vs pre-commit-ci": its people
            people = bool(namesakes) or any(s.kind is SubjectKind.PERSON for s in subjects)
            found = actors.compared(reference, outcome, understood, people)
            if isinstance(found, tuple):
                subjects.append(found[0])
                told.notes.append(found[1])
            elif changers.among_people(found):
                namesakes.append((reference, found))
            elif asking.allow_clarification:
                return await self._which(reference, found, subjects, understood)
            else:
                which = (outcomes.prompt_for(reference, found.candidates),)
                return lambda frame, trace: outcomes.no_match(frame, trace, which)
        return None

    async def _which(
        self,
        reference: str,
        outcome: Ambiguous,
        subjects: Sequence[StoredSubject],
        understood: Interpretation,
    ) -> Ended:
        """The clarification asking which of `outcome` was meant, saying what else was found."""
        beside = await self._beside(subjects, understood)
        return lambda frame, trace: outcomes.clarification(
            frame, reference, outcome.candidates, self.signer, trace, beside=beside
        )

    async def _beside(self, subjects: Sequence[StoredSubject], understood: Interpretation) -> str:
        """In a comparison, the people found so far with their figure (engine.resolving.
        activity.beside): the other side is never dropped unsaid."""
        if not understood.compares:
            return ""
        return await activity.beside(self.graph, subjects, self.referents.window)

    async def _scopes(self, asking: Asking, consumed: set[str]) -> Ended | None:
        """Modules named with their repository (engine.resolving.within): found ones join `subjects`
        and their references are `consumed`; a pair not found ends the investigation with a
        clarification (or no match)."""
        actor, understood, told = asking.actor, asking.understood, asking.told
        for scope in understood.scopes:
            # a question's place ("requests: ...") holds each other reference in turn
            if scope.inner in consumed or (scope.outer in consumed and not scope.prefix):
                continue
            found = await within(self.graph, self.resolver, actor, scope)
            if found is not None and (shipped := shipped_of_within(scope.inner, found, understood)):
                told.candidates = (*told.candidates, *shipped.others)  # "click's termui"
                found = Within(shipped.subject, note=shipped.note)
            if found is None and scope.bare:  # "the routing tests": tests/test_routing.py
                found = await tests_of(self.graph, scope)
            if found is None and scope.bare:  # "the testing helpers": one phrase, two modules
                found = await existence.two_in_one(self.graph, scope)
            if found is None:
                continue
            consumed.update((scope.outer, scope.inner))
            if found.subject is not None and understood.beside_of(scope.inner):
                found = await partwords.of_scope(  # "changelog.d entries added in attrs"
                    self.graph, self.resolver, actor, scope.inner, found.subject, understood,
                    self.referents.window, told,
                )  # fmt: skip
            if found.subject is not None:
                asking.subjects.append(found.subject)
                self.resolver.admit(actor, found.subject)
                told.notes.extend([found.note] if found.note else [])
                continue
            return self._ask(found, scope.phrase, asking.allow_clarification)
        return None

    def _ask(
        self, found: Within, reference: str, allow_clarification: bool
    ) -> Ended:
        """The clarification (or, when none is allowed, the no match) `found` asks."""
        prompt, offered = found.prompt or "", found.candidates
        if not allow_clarification or not offered:  # nothing to choose: "attrs src"
            return lambda frame, trace: outcomes.no_match(frame, trace, (prompt,))
        return lambda frame, trace: outcomes.clarification(
            frame, reference, offered, self.signer, trace, prompt=prompt
        )


def _later(
    reference: str,
    outcome: Referent,
    understood: Interpretation,
    namesakes: list[tuple[str, Ambiguous]],
    compared: list[tuple[str, Ambiguous]],
) -> bool:
    """A tie read once the other references are known, kept: the first of people of one
    name (`namesakes`), and in a comparison the first tie (`compared`)."""
    if isinstance(outcome, Ambiguous) and not namesakes and changers.among_people(outcome):
        namesakes.append((reference, outcome))
        return True
    if isinstance(outcome, Ambiguous) and understood.compares and not compared:
        compared.append((reference, outcome))  # "X vs pre-commit-ci": X read first
        return True
    return False
