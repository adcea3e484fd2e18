"""The subject one reference of a question names, or why it names none.

A reference resolves with its kind word; a word naming a module by its form or as a
description is that module (engine.resolving.existence, engine.resolving.descriptions); a
repository tied with its own packages is the repository; a tie with a module of the shipped
code is that module, the others offered (engine.resolving.aside); a path naming nothing is
the module holding it; words next to a reference that it left out tell a tie apart, name a
part of what it names (engine.resolving.partwords), or end the question
(engine.resolving.unmatchedwords). What a reference was said to name nothing with is
kept (`untracked`) for engine.resolving.subjects to say.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.reading.references import is_written_name
from engine.resolving import (
    actors,
    descriptions,
    existence,
    firstnames,
    firsttypos,
    formerfolders,
    kinded,
    namesakes,
    partwords,
    soleactive,
)
from engine.resolving.aside import (
    Shipped,
    aside,
    shipped_first,
    shipped_of_tie,
    shipped_of_within,
)
from engine.resolving.disclosures import Disclosures, disclose, reach
from engine.resolving.formerpaths import folded_path
from engine.resolving.fullnames import other_person
from engine.resolving.gonefiles import deleted_file, its_path
from engine.resolving.matching import Match
from engine.resolving.pathreferents import by_path, gone_said, loosely_files
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
    narrowed,
    qualified,
    unmatched_note,
    unmatched_words,
)
from engine.resolving.within import (
    Within,
    read_as_scope,
    repository_over_its_package,
)
from engine.resolving.wordforms import described


class Referents:
    """Reads one reference at a time against one organisation's graph, for
    engine.resolving.subjects."""

    def __init__(self, graph: OrgGraph, resolver: Resolver) -> None:
        self.graph = graph
        self.resolver = resolver
        # References said to name nothing known, with what is said: paths not tracked
        # (engine.resolving.within.holder_of_path), a person's name with words no name of
        # theirs holds (engine.resolving.unmatchedwords.other_person).
        self.untracked: dict[str, str] = {}
        self.window: Window | None = None  # the question's, once known: namesakes' activity

    async def one(
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
        out tell a tie apart, name a part of it, or end the question."""
        window = self.window
        said = (len(told.notes), told.candidates)  # what holds of the reference alone
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
        if understood.life == "removed" and not its_path(reference, outcome) and (
            deleted := await deleted_file(self.graph, reference)
        ):
            told.notes.append(deleted[1])  # "who killed _unicodefun.py?": the repository's commit
            return deleted[0]
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
            return await self.one(actor, question, other, understood, kind, told)
        if isinstance(outcome, Resolved):  # what is said of it, or what it names instead
            return await self._of_resolved(
                actor, reference, outcome, understood, told, said, window
            )
        return outcome

    async def _of_resolved(
        self,
        actor: str,
        reference: str,
        outcome: Resolved,
        understood: Interpretation,
        told: Disclosures,
        said: tuple[int, tuple[Candidate, ...]],
        window: Window | None,
    ) -> StoredSubject | Ambiguous | NotFound | Within:
        """A reference resolved to one subject: not made yet in the window asked, a person's
        name with words none of theirs holds, a namesake, read as a scope, the shipped code's
        module beside it, words left out naming a part of it; else the subject, disclosed.
        `said`: what held of the reference alone (partwords); `window`: the question's."""
        if window is not None and window.historical:
            late = await existence.not_yet(self.graph, reference, outcome, window)
            if isinstance(late, Ambiguous):  # "attrs converters in '19": made in 2021
                return late
            told.notes.extend([late] if late else [])
        if other := await other_person(self.graph, reference, outcome, understood):
            self.untracked[reference] = other.notes[0]
            return other
        if window is not None and (
            ask := await namesakes.asked(self.graph, reference, outcome.subject, window)
        ):
            people = [c.subject for c in ask.candidates]  # every one, when fewer than offered
            settled = len(people) < namesakes.OFFERED and await soleactive.settled(
                self.graph, reference, people, understood, window
            )  # "Hugo" in 2013: only Hugo Osvaldo Barrera committed, his (it asked which)
            if not settled:
                return ask
            told.notes.append(settled[1])
            self.resolver.admit(actor, settled[0])
            return settled[0]
        if (
            ask := await read_as_scope(self.graph, self.resolver, actor, reference, outcome.subject)
        ):
            if shipped := shipped_of_within(reference, ask, understood):
                return self._shipped(actor, shipped, told)  # "werkzeug sansio": the package's
            return ask  # "attrs validators": src/attr/validators.py or src/attrs/validators.py
        if beside := await aside(self.graph, reference, outcome.subject, understood):
            if isinstance(beside, Within):
                return beside  # "the CLI": only an example's module
            return self._shipped(actor, beside, told)  # "the termui module": src/click's
        if outcome.subject.kind is SubjectKind.MODULE and unmatched_words(reference, understood):
            found = await self._in_part(actor, reference, outcome.subject, understood, told)
            if found is not None:
                return found
        if unmatched_words(reference, understood):
            part = await partwords.read(
                self.graph, self.resolver, actor, reference, outcome.subject, understood,
                window, told, said,
            )  # fmt: skip
            if not isinstance(part, str):
                return part  # "the werkzeug debugger": werkzeug.debug
            self.untracked[reference] = part  # "attrs src": never all of attrs
            return NotFound(Stage.EXACT_NAME)
        await disclose(self.graph, reference, outcome, told, reach(window, understood))
        if folder := await formerfolders.said(self.graph, reference, outcome.subject, window):
            told.notes.append(folder)  # "click/ dir 2019": counted across its move, said
        return outcome.subject

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
        coarser question's); else None (words after it: engine.resolving.partwords)."""
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
