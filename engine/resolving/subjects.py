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
engine/resolving/rankedsubjects.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from engine.answering.framing import lookback_of, window_of
from engine.domain.contract import InvestigationResult
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import EffectiveTime
from engine.ports import OrgGraph
from engine.providers import Provider, Window
from engine.reading import clauses, meaning
from engine.reading.interpretation import Interpretation
from engine.reading.references import is_written_name
from engine.reading.vocabulary import Intent
from engine.resolving import (
    actors,
    changers,
    choice,
    descriptions,
    existence,
    firstnames,
    kinded,
    namesakes,
    outcomes,
    questiontime,
    together,
)
from engine.resolving import rankedsubjects as busiest
from engine.resolving import subjectless as unnamed
from engine.resolving.aside import Shipped, aside, shipped_first, shipped_of_tie
from engine.resolving.disclosures import Disclosures, disclose
from engine.resolving.formerpaths import folded_path, moved
from engine.resolving.fullnames import other_person
from engine.resolving.matching import Match
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    NotFound,
    Resolution,
    Resolved,
    Resolver,
    Stage,
)
from engine.resolving.unmatchedwords import (
    file_note,
    missing_note,
    names_something,
    narrowed,
    qualified,
    unmatched_note,
    unmatched_words,
    unread_note,
)
from engine.resolving.within import (
    Within,
    holder_of_path,
    read_as_scope,
    repository_over_its_package,
    tests_of,
    within,
)
from engine.resolving.wordforms import described

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
        # References said to name nothing known, with what is said: paths not tracked
        # (engine.resolving.within.holder_of_path), a person's name with words no name of
        # theirs holds (engine.resolving.unmatchedwords.other_person).
        self.untracked: dict[str, str] = {}
        self.window: Window | None = None  # the question's, once known: namesakes' activity

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
        self.window = window_of(effective, lookback_of(understood.intent))
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
                lambda ref, kind, said: self._one(actor, question, ref, understood, kind, said),
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
                lambda run: self._one(actor, question, run, understood, None, told),
            )  # fmt: skip
            if ended is not None:
                return ended
        told.notes.extend([*unread_note(understood), *asked_too])
        chosen = list({s.key: s for s in subjects}.values())
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
            outcome = await self._one(actor, question, reference, understood, kind, told)
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
        if unknown := [m for m in missing if m in understood.doers]:
            said = tuple(
                self.untracked.get(m) or f'"{m}" names no one known here: {ACTOR_UNKNOWN}'
                for m in unknown
            )
            return lambda frame, trace: outcomes.no_match(
                frame, trace, said, closest, self.signer
            )
        if dropped := [m for m in missing if names_something(m, understood)]:
            said = tuple(
                self.untracked.get(m)
                or (f'"{m}" names no one known here: {ACTOR_UNKNOWN}' if m in understood.actors
                    else missing_note(m, understood))
                for m in dropped
            )
            return lambda frame, trace: outcomes.no_match(
                frame, trace, said, closest, self.signer
            )
        if subjects:
            told.notes.extend(alone_notes)
            told.notes.extend(
                f'"{m}" names no one known here: {ACTOR_LEFT}'
                if m in understood.actors
                else self.untracked.get(m)
                or f'"{m}" names no subject known here: it is left out of the answer.'
                f"{file_note(m)}"
                for m in missing
            )
        elif missing:  # the no match says which names matched nothing
            named = (self.untracked.get(m) or missing_note(m, understood) for m in missing)
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
        if self.window is not None:  # set once the question's time is known (resolve)
            found = await changers.only_changer(
                self.graph, reference, outcome, subjects, self.window.end
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

    async def _one(
        self,
        actor: str,
        question: str,
        reference: str,
        understood: Interpretation,
        kind: SubjectKind | None,
        told: Disclosures,
    ) -> StoredSubject | Ambiguous | NotFound | Within:
        """One reference: the subject it commits to (said how, where the answer must), or
        why it does not. A repository tied with its own packages is the repository; a path
        naming nothing is the module holding it. Words next to the reference that it left
        out tell a tie apart, or are said (engine.resolving.unmatchedwords)."""
        window = self.window
        run = understood.beside_of(reference)  # "the test suite": the tests (a description)
        phrase = run.phrase if run is not None else None
        if described(phrase or reference) and (
            formed := await self._by_form(reference, phrase, told)
        ):
            return formed
        outcome = await kinded.resolve(
            self.graph, self.resolver, actor, reference, understood, kind, told.notes
        )
        if isinstance(outcome, Within):
            return outcome
        if isinstance(outcome, Ambiguous) and kind is None:
            outcome = self._repository_first(actor, reference, outcome, told)
        if isinstance(outcome, Ambiguous) and (
            shipped := shipped_of_tie(reference, outcome, understood)
        ):
            return self._shipped(actor, shipped, told)  # "the sansio package": src/werkzeug's
        if isinstance(outcome, Ambiguous):
            acted = actors.acted(reference, outcome, understood)  # "did dependabot make"
            outcome, chosen = (acted, None) if isinstance(acted, Ambiguous) else (outcome, acted)
            chosen = chosen or narrowed(reference, outcome, understood)
            chosen = chosen or await firstnames.sole_carrier(self.graph, reference, outcome)
            if chosen is not None:
                told.notes.append(chosen[1])
                self.resolver.admit(actor, chosen[0])
                return chosen[0]
        if (
            isinstance(outcome, Ambiguous)
            and not is_written_name(reference)
            and reference not in understood.actors  # "by pre-commit-ci": someone
            and all(c.subject.kind is SubjectKind.MODULE for c in outcome.candidates)
            and not loosely_files(reference, outcome)  # "the debugger": debug, said later
        ):
            found = await self._described(actor, reference, understood, told, alone=True)
            if isinstance(found, StoredSubject):  # "the readme": README.md, not an example's
                return found
            if isinstance(found, Ambiguous) and (found.total or 0) < (outcome.total or 0):
                return found  # "the changelog": CHANGELOG.md or changelog.d, not their files
        if (
            isinstance(outcome, Resolved)
            and outcome.how is Match.FOLDED
            and folded_path(reference, outcome.matched_name)
        ):
            outcome = NotFound(outcome.stage)
        if loosely_files(reference, outcome):
            outcome = NotFound(Stage.EXACT_NAME)  # "authors": AUTHORS.rst's former name
        if isinstance(outcome, NotFound) and reference not in understood.actors and (
            formed := await self._by_form(reference, None, told)
        ):
            return formed  # "the debugger": the debug package, not debug/shared/debugger.js
        if (
            isinstance(outcome, NotFound)
            and reference not in understood.actors
            and reference not in self.untracked  # "the debugger" in 2005: said not made yet
        ):
            found = await self._described(actor, reference, understood, told)
            if found is not None:
                return found  # "the README", "the pre-commit config", "the test certificates"
        if not isinstance(outcome, Resolved) and "/" in reference:
            if (former := await moved(self.graph, reference)) is not None:
                told.notes.append(former.note)
                return former.subject
            if (folder := await descriptions.folder(self.graph, reference)) is not None:
                self.untracked[reference] = folder  # ".github/workflows": not all of .github
                return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
            held = await holder_of_path(self.graph, reference)
            if held is not None and held[0] is None:
                self.untracked[reference] = held[1]
                return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
            if held is not None and held[0] is not None:
                told.notes.append(held[1])
                return held[0]
        if isinstance(outcome, Resolved) and window is not None and window.historical:
            late = await existence.not_yet(self.graph, reference, outcome, window)
            if isinstance(late, Ambiguous):  # "attrs converters in '19": made in 2021
                return late
            told.notes.extend([late] if late else [])
        if isinstance(outcome, Resolved) and (
            other := await other_person(self.graph, reference, outcome, understood)
        ):
            self.untracked[reference] = other.notes[0]
            return other
        if isinstance(outcome, Resolved) and window is not None and (
            ask := await namesakes.asked(self.graph, reference, outcome.subject, window)
        ):
            return ask
        if isinstance(outcome, Resolved) and (
            ask := await read_as_scope(self.graph, self.resolver, actor, reference, outcome.subject)
        ):
            return ask  # "attrs validators": src/attr/validators.py or src/attrs/validators.py
        if isinstance(outcome, Resolved) and (
            beside := await aside(self.graph, reference, outcome.subject, understood)
        ):
            if isinstance(beside, Within):
                return beside  # "the CLI": only an example's module
            return self._shipped(actor, beside, told)  # "the termui module": src/click's
        if (
            isinstance(outcome, Resolved)
            and outcome.subject.kind is SubjectKind.MODULE
            and unmatched_words(reference, understood)
        ):
            found = await self._in_part(actor, reference, outcome.subject, understood, told)
            if found is not None:
                return found
        if isinstance(outcome, Resolved):
            await disclose(self.graph, reference, outcome, told)
            told.notes += unmatched_note(reference, outcome.subject, understood)
            return outcome.subject
        return outcome

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
            if found is None and scope.bare:  # "the routing tests": tests/test_routing.py
                found = await tests_of(self.graph, scope)
            if found is None and scope.bare:  # "the testing helpers": one phrase, two modules
                found = await existence.two_in_one(self.graph, scope)
            if found is None:
                continue
            consumed.update((scope.outer, scope.inner))
            if found.subject is not None:
                subjects.append(found.subject)
                self.resolver.admit(actor, found.subject)
                told.notes.extend([found.note] if found.note else [])
                continue
            return self._ask(found, scope.phrase, allow_clarification)
        return None

    async def _by_form(
        self, reference: str, phrase: str | None, told: Disclosures
    ) -> StoredSubject | Ambiguous | None:
        """The module a word names by its form or as a description, existing in the
        question's window (engine.resolving.existence), said; the modules to ask between;
        None (what names nothing is then said as before, or why the module read is not
        answered: it did not exist yet)."""
        formed = await existence.by_form(self.graph, reference, phrase, self.window)
        if formed is None or isinstance(formed, Ambiguous):
            return formed
        if isinstance(formed, str):
            self.untracked[reference] = formed
            return None
        told.notes.append(formed[1])
        return formed[0]

    async def _in_part(
        self,
        actor: str,
        reference: str,
        subject: StoredSubject,
        understood: Interpretation,
        told: Disclosures,
    ) -> StoredSubject | Ambiguous | NotFound | None:
        """A module's name inside a longer run of words ("the oauth middleware", "the GitHub
        workflows"): the file or folder the whole run describes; else, words before the name
        qualifying it, nothing, said (answered for `subject`, "oauth" dropped, it was another,
        coarser question's); else None (words after it are said beside the answer)."""
        found = await self._described(actor, reference, understood, told)
        if found is not None and not (isinstance(found, StoredSubject) and found == subject):
            return found
        if not qualified(reference, understood):
            return None
        self.untracked[reference] = unmatched_note(reference, subject, understood)[0]
        return NotFound(Stage.EXACT_NAME)

    async def _described(
        self,
        actor: str,
        reference: str,
        understood: Interpretation,
        told: Disclosures,
        alone: bool = False,
    ) -> StoredSubject | Ambiguous | NotFound | None:
        """The file or folder the words around a reference describe (engine.resolving.
        descriptions): the one module, said; the modules to ask between (the shipped one
        where the others lie beside it); a folder that is no module, said not tracked; None
        when they describe no path here. `alone`: no folder (a module, a tie, or None)."""
        run = understood.beside_of(reference)
        phrase = run.phrase if run is not None else reference
        found = await descriptions.read(self.graph, phrase)
        if found is None or (alone and found.folder is not None):
            return None
        if found.folder is not None:
            self.untracked[reference] = found.note
            return NotFound(Stage.EXACT_NAME)
        if found.alone and len(found.subjects) == 1:
            told.notes.append(found.note)
            self.resolver.admit(actor, found.subjects[0])
            return found.subjects[0]
        tied = tuple(Candidate(s, 0.8, exact=True) for s in found.subjects)
        if found.alone and (shipped := shipped_first(phrase, tied, understood)):
            return self._shipped(actor, shipped, told)
        return Ambiguous(list(tied[: descriptions.OFFERED]), Stage.HYBRID, total=len(tied))

    def _shipped(self, actor: str, shipped: Shipped, told: Disclosures) -> StoredSubject:
        """The module of the shipped code a word was taken to mean, said, the others of its
        name offered (engine.resolving.aside)."""
        told.notes.append(shipped.note)
        told.candidates = (*told.candidates, *shipped.others)
        self.resolver.admit(actor, shipped.subject)
        return shipped.subject

    def _repository_first(
        self, actor: str, reference: str, outcome: Ambiguous, told: Disclosures
    ) -> Resolution:
        """A repository tied with its own same-named packages is the repository, said."""
        chosen = repository_over_its_package(reference, outcome)
        if chosen is None:
            return outcome
        repository, packages, note = chosen
        told.notes.append(note)
        told.candidates = (*told.candidates, *packages)
        self.resolver.admit(actor, repository)
        return Resolved(repository, packages[0].score, Stage.EXACT_NAME, repository.name)

    def _ask(
        self, found: Within, reference: str, allow_clarification: bool
    ) -> Callable[..., InvestigationResult]:
        """The clarification (or, when none is allowed, the no match) `found` asks."""
        prompt, offered = found.prompt or "", found.candidates
        if not allow_clarification:
            return lambda frame, trace: outcomes.no_match(frame, trace, (prompt,))
        return lambda frame, trace: outcomes.clarification(
            frame, reference, offered, self.signer, trace, prompt=prompt
        )


def loosely_files(reference: str, outcome: Resolution | Within) -> bool:
    """A word that is no file name (no "." or "/") naming only files other than Python
    modules, none of them by its current name as written: "debugger" (werkzeug's
    debug/shared/debugger.js, in part), "authors" (requests' AUTHORS.rst, once AUTHORS). A
    word of the question is no file's name ("how many authors touched adapters.py"): it
    names nothing, so a module it names by its form is read (the debug package) or it is
    said. "LICENSE" or "Makefile", written as the file is named, still name it."""
    if "." in reference or "/" in reference:
        return False
    if isinstance(outcome, Resolved):
        return _loose(outcome.subject, outcome.how, outcome.matched_name)
    if not isinstance(outcome, Ambiguous) or not outcome.candidates:
        return False
    if (outcome.total or 0) > len(outcome.candidates):
        return False
    return all(_loose(c.subject, c.how, c.matched_handle) for c in outcome.candidates)


def _loose(subject: StoredSubject, how: Match | None, handle: str | None) -> bool:
    """A file module that is no Python module (graph/git/modules.py: no dotted name), not
    matched exactly by its name or an alias (a former name, a part, a fold, a typo)."""
    if subject.attributes.get("module_kind") != "file" or "dotted" in subject.attributes:
        return False
    return how is not Match.EXACT or handle not in (subject.name, *subject.aliases)
