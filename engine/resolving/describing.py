"""What a reference's words name apart from its exact name, for engine.resolving.referents: a
module by its form or as a description (engine.resolving.existence,
engine.resolving.descriptions), a module's name inside a longer run of words, the shipped
code's module taken for a word (engine.resolving.aside), and a repository tied with its own
packages. Each says what it chose (the disclosures) and keeps what a reference was said to
name nothing with (`untracked`). Kept apart so that engine.resolving.referents reads as the
order in which these are tried."""

from __future__ import annotations

from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.resolving import descriptions, existence
from engine.resolving.aside import Shipped, shipped_first
from engine.resolving.disclosures import Disclosures
from engine.resolving.resolution import (
    Ambiguous,
    Candidate,
    NotFound,
    Resolution,
    Resolved,
    Resolver,
    Stage,
)
from engine.resolving.unmatchedwords import qualified, unmatched_note
from engine.resolving.within import repository_over_its_package


@dataclass(frozen=True)
class Ref:
    """One reference being read: who asked, the question, the reference, the question as
    read, the kind word written with it, and what is disclosed (added to). One record, so
    that the steps of reading it pass one value, never the same parameters in turn."""

    actor: str
    question: str
    reference: str
    understood: Interpretation
    kind: SubjectKind | None
    told: Disclosures


class Describing:
    """One organisation's graph and resolver, and what its references were said to name
    nothing with; the readings of a reference's words (engine.resolving.referents.Referents
    tries them in order)."""

    def __init__(self, graph: OrgGraph, resolver: Resolver) -> None:
        self.graph = graph
        self.resolver = resolver
        # References said to name nothing known, with what is said: paths not tracked
        # (engine.resolving.within.holder_of_path), a person's name with words no name of
        # theirs holds (engine.resolving.unmatchedwords.other_person).
        self.untracked: dict[str, str] = {}
        self.window: Window | None = None  # the question's, once known: namesakes' activity

    async def _by_form(self, ref: Ref, phrase: str | None) -> StoredSubject | Ambiguous | None:
        """The module a word names by its form or as a description, existing in the
        question's window (engine.resolving.existence), said; the modules to ask between;
        None (what names nothing is then said as before, or why the module read is not
        answered: it did not exist yet)."""
        reference = ref.reference
        formed = await existence.by_form(self.graph, reference, phrase, self.window)
        if formed is None or isinstance(formed, Ambiguous):
            return formed
        if isinstance(formed, str):
            self.untracked[reference] = formed
            return None
        ref.told.notes.append(formed[1])
        return formed[0]

    async def _in_part(
        self, ref: Ref, subject: StoredSubject
    ) -> StoredSubject | Ambiguous | NotFound | None:
        """A module's name inside a longer run of words ("the oauth middleware", "the GitHub
        workflows"): the file or folder the whole run describes; else, words before the name
        qualifying it, nothing, said (answered for `subject`, "oauth" dropped, it was another,
        coarser question's); else None (words after it: engine.resolving.partwords)."""
        reference, understood = ref.reference, ref.understood
        found = await self._described(ref)
        if found is not None and not (isinstance(found, StoredSubject) and found == subject):
            return found
        if not qualified(reference, understood):
            return None
        self.untracked[reference] = unmatched_note(reference, subject, understood)[0]
        return NotFound(Stage.EXACT_NAME)

    async def _described(
        self, ref: Ref, alone: bool = False
    ) -> StoredSubject | Ambiguous | NotFound | None:
        """The file or folder the words around a reference describe (engine.resolving.
        descriptions): the one module, said; the modules to ask between (the shipped one
        where the others lie beside it); a folder that is no module, said not tracked; None
        when they describe no path here. `alone`: no folder (a module, a tie, or None)."""
        reference, understood = ref.reference, ref.understood
        run = understood.beside_of(reference)
        phrase = run.phrase if run is not None else reference
        found = await descriptions.read(self.graph, phrase)
        if found is None or (alone and found.folder is not None):
            return None
        if found.folder is not None:
            self.untracked[reference] = found.note
            return NotFound(Stage.EXACT_NAME)
        if found.alone and len(found.subjects) == 1:
            ref.told.notes.append(found.note)
            self.resolver.admit(ref.actor, found.subjects[0])
            return found.subjects[0]
        tied = tuple(Candidate(s, 0.8, exact=True) for s in found.subjects)
        if found.alone and (shipped := shipped_first(phrase, tied, understood)):
            return self._shipped(ref, shipped)
        return Ambiguous(list(tied[: descriptions.OFFERED]), Stage.HYBRID, total=len(tied))

    def _shipped(self, ref: Ref, shipped: Shipped) -> StoredSubject:
        """The module of the shipped code a word was taken to mean, said, the others of its
        name offered (engine.resolving.aside)."""
        ref.told.notes.append(shipped.note)
        ref.told.candidates = (*ref.told.candidates, *shipped.others)
        self.resolver.admit(ref.actor, shipped.subject)
        return shipped.subject

    def _repository_first(self, ref: Ref, outcome: Ambiguous) -> Resolution:
        """A repository tied with its own same-named packages is the repository, said."""
        chosen = repository_over_its_package(ref.reference, outcome)
        if chosen is None:
            return outcome
        repository, packages, note = chosen
        ref.told.notes.append(note)
        ref.told.candidates = (*ref.told.candidates, *packages)
        self.resolver.admit(ref.actor, repository)
        return Resolved(repository, packages[0].score, Stage.EXACT_NAME, repository.name)
