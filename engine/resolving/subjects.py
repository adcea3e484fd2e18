"""What a question is about, and what the answer must say about how that was decided.

References resolve with the kind word next to them; a question naming no subject is about
the organisation (its repositories), or about a cohort of the kind it asks for; a module
named with its repository is that repository's module, or a clarification when it has none
(engine.resolving.within); a path resolves to the module holding it, said; a committed reference
discloses when it came from the actor's recent references, when a misspelt name was taken
to mean a subject, which other people share a first name (with receipts to ask again), and
a name that matched nothing is said, never dropped. Names known before the question is read:
engine/resolving/handles.py; the time a question names: engine/resolving/questiontime.py; a question
naming no subject: engine/resolving/subjectless.py; subjects ranked by how much they changed:
engine/resolving/rankedsubjects.py; the subject one reference names: engine/resolving/referents.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from engine.answering.framing import lookback_of, window_of
from engine.domain.contract import InvestigationResult
from engine.domain.models import StoredSubject
from engine.domain.timecontext import EffectiveTime
from engine.ports import OrgGraph
from engine.providers import Provider
from engine.reading import clauses, meaning
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent
from engine.resolving import (
    changers,
    choice,
    existence,
    firstnames,
    kinded,
    nobody,
    outcomes,
    partwords,
    pronouns,
    questiontime,
    together,
)
from engine.resolving import rankedsubjects as busiest
from engine.resolving import subjectless as unnamed
from engine.resolving.aside import shipped_of_within
from engine.resolving.disclosures import Disclosures
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.referents import Referents
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    NotFound,
    Resolver,
)
from engine.resolving.unmatchedwords import (
    file_note,
    missing_note,
    names_something,
    unread_note,
)
from engine.resolving.within import (
    Within,
    tests_of,
    within,
)

ACTOR_UNKNOWN = (
    "the question asks what they did, and an answer without them would count everyone's, "
    "so none is given. Name them as the history does (a name or an e-mail address)."
)
# After "by", "has", "have" the words are as often not a name ("by hand", "by author",
# "have landed"): unknown, they are said and the count is everyone's.
ACTOR_LEFT = "the count is everyone's, not only theirs."


class Subjects:
    """Finds what a question is about in one organisation's graph."""

    def __init__(
        self,
        graph: OrgGraph,
        resolver: Resolver,
        signer: ReceiptSigner,
        providers: Sequence[Provider],
    ) -> None:
        self.graph = graph
        self.resolver = resolver
        self.signer = signer
        self.providers = providers
        # each reference's subject; what it said names nothing, and the question's window
        self.referents = Referents(graph, resolver)

    async def resolve(
        self,
        actor: str,
        question: str,
        receipts: Sequence[str],
        allow_clarification: bool,
        understood: Interpretation,
        effective: EffectiveTime,
        told: Disclosures,
    ) -> list[StoredSubject] | Callable[..., InvestigationResult]:
        """The subjects the question is about, or the composer of the result that ends the
        investigation without them (a clarification, or no match)."""
        if unread := questiontime.unread(understood):  # a time no rule reads: no answer
            return lambda frame, trace: outcomes.no_match(frame, trace, unread)
        self.referents.window = window_of(effective, lookback_of(understood.intent))
        if understood.ranking is not None:  # what it names holds what is ranked
            named = partial(self.resolve, actor, question, receipts, allow_clarification)
            return await busiest.subjects(
                self.graph, understood, effective, told,
                lambda asked: named(asked, effective, told),
            )  # fmt: skip
        if unasked := meaning.ending(understood.unasked) or understood.own_times:
            return lambda frame, trace: outcomes.no_match(frame, trace, unasked)
        bound = [
            key
            for r in receipts
            if (key := self.signer.verify(r, self.resolver.org_id, actor, question))
        ]
        subjects: list[StoredSubject] = []
        if bound:
            found = await self.graph.subjects_by_keys(bound)
            subjects = [found[k] for k in bound if k in found]
            subjects, done = await choice.beside(
                subjects, understood,
                lambda ref, kind, said: self.referents.one(
                    actor, question, ref, understood, kind, said
                ),
                told,
            )  # fmt: skip
            for subject in subjects:  # the caller chose it: a reference like any resolved one
                self.resolver.admit(actor, subject)
            if done is not None:  # the references the receipts left, read as any is
                clear = allow_clarification
                ended = await self._named(actor, question, understood, clear, subjects, told, done)
                if ended is not None:
                    return ended
        if not subjects and understood.references:
            ended = await self._named(
                actor, question, understood, allow_clarification, subjects, told
            )
            if ended is not None:
                return ended
        if not subjects and not understood.references:
            cohort = understood.kind_hint is not None and understood.intent != Intent.WHO
            if cohort and not kinded.counts_people(understood):
                subjects = await unnamed.cohort(
                    self.graph, self.providers, understood, effective, told.notes
                )
            elif understood.fact_kinds:
                subjects, note = await unnamed.organisation(self.graph, effective)
                told.organisation_wide = bool(subjects)
                told.notes.extend([note] if note else [])
        asked_too = clauses.unanswered_note(understood.unanswered)
        if not subjects:
            notes = (*await unnamed.emptiness(self.graph), *unread_note(understood), *asked_too)
            if not notes and not understood.references:
                notes = (unnamed.nothing_found(understood),)
            return lambda frame, trace: outcomes.no_match(frame, trace, notes)
        if understood.unread and understood.references:
            ended, understood = await firstnames.joined(
                self.graph, self.signer, understood, subjects, told, allow_clarification,
                lambda run: self.referents.one(actor, question, run, understood, None, told),
            )  # fmt: skip
            if ended is not None:
                return ended
        told.notes.extend([*unread_note(understood), *asked_too])
        chosen = list({s.key: s for s in subjects}.values())
        whose, unsaid = pronouns.referred(chosen, understood.pronouns)  # "his first commit"
        if unsaid is not None:
            return lambda frame, trace: outcomes.no_match(frame, trace, (unsaid,))
        told.notes.extend([whose] if whose else [])
        if together.only_left_out(chosen, understood.excluding):
            # "besides David Lord, who committed in 2025?": everyone else's part of the
            # organisation's repositories (it ended: leaving out was computed only for a part)
            held, note = await unnamed.organisation(self.graph, effective)
            chosen += held
            told.notes.extend([note] if note and held else [])
        parted = together.part_of(chosen, understood.fact_kinds, understood.excluding)
        if left := together.left_out(chosen, parted and parted[0], understood.excluding):
            return lambda frame, trace: outcomes.no_match(frame, trace, (left,))
        if parted is not None:
            told.part, held = parted
            told.notes.append(told.part.note(held))
            return held
        mixed = together.people_with_others(chosen, understood.compares)
        if mixed is None:
            return chosen
        prompt, offered = mixed
        if not allow_clarification or not offered:
            return lambda frame, trace: outcomes.no_match(frame, trace, (prompt,))
        return lambda frame, trace: outcomes.clarification(
            frame, "", offered, self.signer, trace, prompt=prompt
        )

    async def _named(
        self,
        actor: str,
        question: str,
        understood: Interpretation,
        allow_clarification: bool,
        subjects: list[StoredSubject],
        told: Disclosures,
        done: frozenset[str] = frozenset(),
    ) -> Callable[..., InvestigationResult] | None:
        """The subjects the question names, added to `subjects`: modules with their
        repository first, then each other reference (but those `done`: read beside a
        receipt); or the composer of the clarification (or no match) that ends the
        investigation. A reference naming nothing is said."""
        consumed: set[str] = set(done)
        untracked = self.referents.untracked  # what a reference was said to name nothing with
        ended = await self._scopes(actor, understood, allow_clarification, subjects, consumed, told)
        if ended is not None:
            return ended
        alone, alone_notes = await kinded.alone(self.graph, understood)  # "the repo"
        subjects.extend(alone)
        kinds = understood.reference_kinds or (None,) * len(understood.references)
        missing: list[str] = []
        closest: list[Candidate] = []  # the nearest readings of what named nothing
        namesakes: list[tuple[str, Ambiguous]] = []  # people of one name, beside what changed
        for reference, kind in zip(understood.references, kinds, strict=False):
            if reference in consumed:
                continue
            outcome = await self.referents.one(actor, question, reference, understood, kind, told)
            if isinstance(outcome, Ambiguous) and not namesakes and changers.among_people(outcome):
                namesakes.append((reference, outcome))  # read once the others are known
                continue
            if isinstance(outcome, StoredSubject):
                subjects.append(outcome)
            elif isinstance(outcome, Ambiguous) and allow_clarification:
                return lambda frame, trace, ref=reference, c=outcome.candidates: (
                    outcomes.clarification(frame, ref, c, self.signer, trace)
                )
            elif isinstance(outcome, Ambiguous):  # answered without it: another question
                which = (outcomes.prompt_for(reference, outcome.candidates),)
                return lambda frame, trace: outcomes.no_match(frame, trace, which)
            elif isinstance(outcome, NotFound):
                missing.append(reference)
                closest += outcome.suggestions
            elif isinstance(outcome, Within):  # named with a kind it is not: ask which
                return self._ask(outcome, reference, allow_clarification)
        for reference, outcome in namesakes:  # "kevin" beside types.py: who changed it
            ended = await self._changer(
                actor, reference, outcome, subjects, told, allow_clarification
            )
            if ended is not None:
                return ended
        g = self.graph
        if unknown := [m for m in missing if m in understood.doers]:
            no_one = '"{}" names no one known here: ' + ACTOR_UNKNOWN
            said = tuple([
                untracked.get(m) or await nobody.said(g, m, understood, no_one.format(m))
                for m in unknown
            ])  # fmt: skip
            return lambda frame, trace: outcomes.no_match(
                frame, trace, said, closest, self.signer
            )
        if dropped := [m for m in missing if names_something(m, understood)]:
            said = tuple([
                untracked.get(m)
                or await nobody.said(g, m, understood, (
                    f'"{m}" names no one known here: {ACTOR_UNKNOWN}' if m in understood.actors
                    else missing_note(m, understood)))
                for m in dropped
            ])  # fmt: skip
            return lambda frame, trace: outcomes.no_match(
                frame, trace, said, closest, self.signer
            )
        if subjects:
            told.notes.extend(alone_notes)
            told.notes.extend(
                f'"{m}" names no one known here: {ACTOR_LEFT}'
                if m in understood.actors
                else untracked.get(m)
                or f'"{m}" names no subject known here: it is left out of the answer.'
                f"{file_note(m)}"
                for m in missing
            )
        elif missing:  # the no match says which names matched nothing
            named = [
                untracked.get(m) or await nobody.said(g, m, understood, missing_note(m, understood))
                for m in missing
            ]
            said = (*await unnamed.emptiness(self.graph), *named, *alone_notes)
            said = (*said, *unread_note(understood))
            return lambda frame, trace: outcomes.no_match(
                frame, trace, said, closest, self.signer
            )
        return None

    async def _changer(
        self,
        actor: str,
        reference: str,
        outcome: Ambiguous,
        subjects: list[StoredSubject],
        told: Disclosures,
        allow_clarification: bool,
    ) -> Callable[..., InvestigationResult] | None:
        """The one of several people of a name who ever changed what the question names
        joins `subjects`, said; else the clarification (engine.resolving.changers)."""
        found = None
        if self.referents.window is not None:  # set once the question's time is known (resolve)
            found = await changers.only_changer(
                self.graph, reference, outcome, subjects, self.referents.window.end
            )
        if isinstance(found, tuple):
            subjects.append(found[0])
            told.notes.append(found[1])
            self.resolver.admit(actor, found[0])
            return None
        if not allow_clarification:
            which = (found or outcomes.prompt_for(reference, outcome.candidates),)
            return lambda frame, trace: outcomes.no_match(frame, trace, which)
        return lambda frame, trace: outcomes.clarification(
            frame, reference, outcome.candidates, self.signer, trace, prompt=found
        )

    async def _scopes(
        self,
        actor: str,
        understood: Interpretation,
        allow_clarification: bool,
        subjects: list[StoredSubject],
        consumed: set[str],
        told: Disclosures,
    ) -> Callable[..., InvestigationResult] | None:
        """Modules named with their repository (engine.resolving.within): found ones join `subjects`
        and their references are `consumed`; a pair not found ends the investigation with a
        clarification (or no match)."""
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
                subjects.append(found.subject)
                self.resolver.admit(actor, found.subject)
                told.notes.extend([found.note] if found.note else [])
                continue
            return self._ask(found, scope.phrase, allow_clarification)
        return None

    def _ask(
        self, found: Within, reference: str, allow_clarification: bool
    ) -> Callable[..., InvestigationResult]:
        """The clarification (or, when none is allowed, the no match) `found` asks."""
        prompt, offered = found.prompt or "", found.candidates
        if not allow_clarification or not offered:  # nothing to choose: "attrs src"
            return lambda frame, trace: outcomes.no_match(frame, trace, (prompt,))
        return lambda frame, trace: outcomes.clarification(
            frame, reference, offered, self.signer, trace, prompt=prompt
        )


