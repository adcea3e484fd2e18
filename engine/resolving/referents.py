"""The subject one reference of a question names, or why it names none.

A reference resolves with its kind word; a word naming a module by its form or as a
description is that module (engine.resolving.existence, engine.resolving.descriptions); a
repository tied with its own packages is the repository; a tie with a module of the shipped
code is that module, the others offered (engine.resolving.aside); a path naming nothing is
the module holding it; words next to a reference that it left out tell a tie apart, name a
part of what it names (engine.resolving.partwords), or end the question
(engine.resolving.unmatchedwords). What a reference was said to name nothing with is
kept (`untracked`) for engine.resolving.subjects to say. The readings of a reference's words
apart from its exact name are engine.resolving.describing's; here, the order they are tried in.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.reading.references import is_written_name
from engine.resolving import (
    actors,
    existence,
    firstnames,
    firsttypos,
    formerfolders,
    kinded,
    namesakes,
    partwords,
    soleactive,
)
from engine.resolving.aside import aside, shipped_of_tie, shipped_of_within
from engine.resolving.describing import Describing, Ref
from engine.resolving.disclosures import Disclosures, disclose, reach
from engine.resolving.formerpaths import folded_path
from engine.resolving.fullnames import Folded, other_people, other_person
from engine.resolving.gonefiles import DELETED_ASKED, deleted_file, deleted_said, its_path
from engine.resolving.matching import Match
from engine.resolving.pathreferents import by_path, gone_said, loosely_files
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    NotFound,
    Resolution,
    Resolved,
    Stage,
)
from engine.resolving.unmatchedwords import narrowed, unmatched_words
from engine.resolving.within import Within, read_as_scope
from engine.resolving.wordforms import described

# What one reference comes to: the subject, the subjects to ask between, none, or a scope.
Referent = StoredSubject | Ambiguous | NotFound | Within


class Referents(Describing):
    """Reads one reference at a time against one organisation's graph, for
    engine.resolving.subjects."""

    async def one(
        self,
        actor: str,
        question: str,
        reference: str,
        understood: Interpretation,
        kind: SubjectKind | None,
        told: Disclosures,
    ) -> Referent:
        """One reference: the subject it commits to (said how, where the answer must), or
        why it does not. A repository tied with its own packages is the repository; a path
        naming nothing is the module holding it. Words next to the reference that it left
        out tell a tie apart, name a part of it, or end the question."""
        ref = Ref(actor, question, reference, understood, kind, told)
        window = self.window
        said = (len(told.notes), told.candidates)  # what holds of the reference alone
        run = understood.beside_of(reference)  # "the test suite": the tests (a description)
        phrase = run.phrase if run is not None else None
        if described(phrase or reference) and (formed := await self._by_form(ref, phrase)):
            return formed
        outcome = await kinded.resolve(
            self.graph, self.resolver, actor, reference, understood, kind, told.notes
        )
        if isinstance(outcome, Within):
            return outcome
        if understood.life in DELETED_ASKED and not its_path(reference, outcome) and (
            deleted := await deleted_file(self.graph, reference)
        ):
            told.notes.append(deleted[1])  # "who killed _unicodefun.py?": the repository's commit
            return deleted[0]
        if isinstance(outcome, Ambiguous):
            outcome, chosen = await self._of_tie(ref, outcome)
            if chosen is not None:
                return chosen
        outcome = _demoted(reference, outcome)
        found = await self._otherwise(ref, outcome)
        if found is not None:
            return found
        if isinstance(outcome, Resolved):  # what is said of it, or what it names instead
            return await self._of_resolved(ref, outcome, said, window)
        return outcome

    async def _of_tie(self, ref: Ref, outcome: Ambiguous) -> tuple[Resolution, Referent | None]:
        """A reference naming several subjects: the outcome read on (the repository over its
        own packages, the tie narrowed to those who acted), and the referent ending it when
        one is chosen: the shipped code's module, the one the question's words or a first
        name settle, said; the file or files a word describes, when fewer than the tie."""
        actor, reference, understood, told = ref.actor, ref.reference, ref.understood, ref.told
        if ref.kind is None:
            settled = self._repository_first(ref, outcome)
            if not isinstance(settled, Ambiguous):
                return settled, None
            outcome = settled
        if shipped := shipped_of_tie(reference, outcome, understood):
            return outcome, self._shipped(ref, shipped)  # "the sansio package"
        if other := await other_people(self.graph, reference, outcome, understood):
            if isinstance(other, Folded):  # "Michael Bernstein": not either "Michael"
                told.notes.append(other.note)
                self.resolver.admit(actor, other.person)
                return outcome, other.person
            return outcome, other  # "Michael R. Brenstein": which, Michael R. Bernstein first
        acted = actors.acted(reference, outcome, understood)  # "did dependabot make"
        outcome, chosen = (acted, None) if isinstance(acted, Ambiguous) else (outcome, acted)
        chosen = chosen or narrowed(reference, outcome, understood)
        chosen = chosen or await firstnames.sole_carrier(self.graph, reference, outcome)
        if chosen is not None:
            told.notes.append(chosen[1])
            self.resolver.admit(actor, chosen[0])
            return outcome, chosen[0]
        if (
            not is_written_name(reference)
            and reference not in understood.actors  # "by pre-commit-ci": someone
            and all(c.subject.kind is SubjectKind.MODULE for c in outcome.candidates)
            and not loosely_files(reference, outcome)  # "the debugger": debug, said later
        ):
            found = await self._described(ref, alone=True)
            if isinstance(found, StoredSubject):  # "the readme": README.md, not an example's
                return outcome, found
            if isinstance(found, Ambiguous) and (found.total or 0) < (outcome.total or 0):
                return outcome, found  # "the changelog": CHANGELOG.md or changelog.d
        return outcome, None

    async def _otherwise(self, ref: Ref, outcome: Resolution) -> Referent | None:
        """What a reference names when its name alone does not settle it: a module by its
        form or a description, the module holding a path, a deleted folder said, the name
        it was a typo of asked or read; None when `outcome` stands."""
        actor, reference, understood, told = ref.actor, ref.reference, ref.understood, ref.told
        if isinstance(outcome, NotFound) and (gone := await deleted_said(self.graph, reference)):
            self.untracked[reference] = gone  # "useragents.py": deleted, not user_agent.py
            return outcome
        if isinstance(outcome, NotFound) and reference not in understood.actors and (
            formed := await self._by_form(ref, None)
        ):
            return formed  # "the debugger": the debug package, not debug/shared/debugger.js
        if (
            isinstance(outcome, NotFound)
            and reference not in understood.actors
            and reference not in self.untracked  # "the debugger" in 2005: said not made yet
        ):
            found = await self._described(ref)
            if found is not None:
                return found  # "the README", "the pre-commit config", "the test certificates"
        if not isinstance(outcome, Resolved) and "/" in reference:  # a path naming nothing
            at = await by_path(self.graph, self.resolver, actor, reference, outcome, told,
                               self.untracked)  # fmt: skip
            if at is not None:
                return at
        elif (gone := await gone_said(self.graph, reference, outcome, self.untracked)) is not None:
            # (by_path asked gone_said of a path naming nothing already: not read twice)
            self.untracked[reference] = gone  # "contrib", "requests/packages": deleted folders
            return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
        if isinstance(outcome, NotFound) and reference not in self.untracked and (
            other := await firsttypos.otherwise(self.graph, reference, understood, told.notes)
        ):  # "lukasa" (lukasaoz@...), asked; "Hyenk": Hynek, said, read as that
            if isinstance(other, Within):
                return other
            return await self.one(actor, ref.question, other, understood, ref.kind, told)
        return None

    async def _of_resolved(
        self,
        ref: Ref,
        outcome: Resolved,
        said: tuple[int, tuple[Candidate, ...]],
        window: Window | None,
    ) -> Referent:
        """A reference resolved to one subject: not made yet in the window asked, a person's
        name with words none of theirs holds, a namesake, what it names instead (`_apart`);
        else the subject, disclosed. `said`: what held of the reference alone (partwords);
        `window`: the question's."""
        reference, understood, told = ref.reference, ref.understood, ref.told
        if window is not None and window.historical:
            late = await existence.not_yet(self.graph, reference, outcome, window)
            if isinstance(late, Ambiguous):  # "attrs converters in '19": made in 2021
                return late
            told.notes.extend([late] if late else [])
        if other := await other_person(self.graph, reference, outcome, understood):
            if isinstance(other, Folded):  # "Michael Bernstein": Michael R. Bernstein, said
                told.notes.append(other.note)
                self.resolver.admit(ref.actor, other.person)
                return other.person
            self.untracked[reference] = other.notes[0]
            return other
        windows = soleactive.asked_over(understood, window) or ((window,) if window else ())
        if ask := await namesakes.asked(self.graph, reference, outcome.subject, windows):
            return await self._namesake(ref, ask, window)
        apart = await self._apart(ref, outcome.subject, said, window)
        if apart is not None:
            return apart
        await disclose(self.graph, reference, outcome, told, reach(window, understood))
        if folder := await formerfolders.said(self.graph, reference, outcome.subject, window):
            told.notes.append(folder)  # "click/ dir 2019": counted across its move, said
        return outcome.subject

    async def _namesake(
        self, ref: Ref, ask: Within, window: Window | None
    ) -> StoredSubject | Within:
        """A person's name others carry too: the only one of them active in the window, said
        (when fewer than those offered); else which one is asked."""
        people = [c.subject for c in ask.candidates]  # every one, when fewer than offered
        settled = len(people) < namesakes.OFFERED and await soleactive.settled(
            self.graph, ref.reference, people, ref.understood, window
        )  # "Hugo" in 2013: only Hugo Osvaldo Barrera committed, his (it asked which)
        if not settled:
            return ask
        ref.told.notes.append(settled[1])
        self.resolver.admit(ref.actor, settled[0])
        return settled[0]

    async def _apart(
        self,
        ref: Ref,
        subject: StoredSubject,
        said: tuple[int, tuple[Candidate, ...]],
        window: Window | None,
    ) -> Referent | None:
        """What a reference resolved to `subject` names instead of it: read as a scope (the
        shipped code's module in it), the shipped code's module beside it, a part of it the
        words it left out name; or said to name nothing with them. None: `subject` itself."""
        actor, reference, understood, told = ref.actor, ref.reference, ref.understood, ref.told
        if ask := await read_as_scope(self.graph, self.resolver, actor, reference, subject):
            if shipped := shipped_of_within(reference, ask, understood):
                return self._shipped(ref, shipped)  # "werkzeug sansio": the package's
            return ask  # "attrs validators": src/attr/validators.py or src/attrs/validators.py
        if beside := await aside(self.graph, reference, subject, understood):
            if isinstance(beside, Within):
                return beside  # "the CLI": only an example's module
            return self._shipped(ref, beside)  # "the termui module": src/click's
        if not unmatched_words(reference, understood):
            return None
        if subject.kind is SubjectKind.MODULE:
            found = await self._in_part(ref, subject)
            if found is not None:
                return found
        part = await partwords.read(
            self.graph, self.resolver, actor, reference, subject, understood,
            window, told, said,
        )  # fmt: skip
        if not isinstance(part, str):
            return part  # "the werkzeug debugger": werkzeug.debug
        self.untracked[reference] = part  # "attrs src": never all of attrs
        return NotFound(Stage.EXACT_NAME)


def _demoted(reference: str, outcome: Resolution) -> Resolution:
    """A match that is no name of the reference is none: a folded path matched as another
    path's name, a word naming only files loosely ("authors": AUTHORS.rst's former name)."""
    if (
        isinstance(outcome, Resolved)
        and outcome.how is Match.FOLDED
        and folded_path(reference, outcome.matched_name)
    ):
        outcome = NotFound(outcome.stage)
    if loosely_files(reference, outcome):
        outcome = NotFound(Stage.EXACT_NAME)
    return outcome
