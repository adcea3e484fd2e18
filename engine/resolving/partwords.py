"""Words beside a committed reference that no name matched: a part of what it names, or the
end of the question.

Known names are matched longest first, so "what changed in the werkzeug debugger this year?"
matches only "werkzeug", "debugger" beside it (engine.reading.runs), and "lines added in attrs
src last qtr" only "attrs". Both were answered for the whole repository with a limitation
saying the other word was not used: an answer about something not asked. Now the words are
read as a part of what the reference names, when it holds parts (a repository, a package, a
directory): a module inside it named by the words exactly, else by their form or as a
description (engine.resolving.wordforms: "debugger" is werkzeug.debug), said; several such
modules ask which (the one of the code the repository ships, when the others lie beside it:
engine.resolving.aside). When none is, or the reference names no holder ("core.py
frobnicated"), the question ends naming the phrase (engine.resolving.unmatchedwords): never
answered for the rest.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.resolving import wordforms
from engine.resolving.activity import existed
from engine.resolving.aside import shipped_first
from engine.resolving.candidates import Ambiguous, Candidate, Resolved, Stage, holds
from engine.resolving.disclosures import Disclosures
from engine.resolving.resolution import Resolver
from engine.resolving.unmatchedwords import unmatched_note
from engine.resolving.within import Within

LOOKED_UP = 50  # modules of the part's name read to find those inside the holder
OFFERED = 5  # what a clarification offers


def holder(subject: StoredSubject) -> bool:
    """A subject that holds modules: a repository, or a module that is no file."""
    if subject.kind is SubjectKind.REPOSITORY:
        return True
    return subject.kind is SubjectKind.MODULE and subject.attributes.get("module_kind") in (
        "package", "directory",
    )  # fmt: skip


def inside(outer: StoredSubject, module: StoredSubject) -> bool:
    """The module lies in the repository, or under the module's path in its repository."""
    if module.kind is not SubjectKind.MODULE or module.key == outer.key:
        return False
    if outer.kind is SubjectKind.REPOSITORY:
        return holds(outer, module)
    return module.key.startswith(f"{outer.key}/")


def _where(subject: StoredSubject) -> str:
    return str(subject.attributes.get("path") or subject.key.partition(":")[2])


async def part(
    graph: OrgGraph,
    resolver: Resolver,
    actor: str,
    reference: str,
    subject: StoredSubject,
    understood: Interpretation,
    window: Window | None,
) -> tuple[StoredSubject, str] | Ambiguous | None:
    """The module inside `subject` the words after `reference` name (with the note saying
    how it was read), the modules to ask between, or None when they name no part of it."""
    run = understood.beside_of(reference)
    if run is None or not holder(subject) or not run.phrase.startswith(reference):
        return None  # words before the name qualify it ("the oauth middleware"): no part
    words = " ".join(run.words)
    named, _ = await graph.subjects_by_handle(words, [SubjectKind.MODULE], LOOKED_UP)
    held = [m for m in named if inside(subject, m)]
    how = ""
    if not held:  # "debugger": werkzeug.debug, by its form
        reading = await wordforms.read(graph, words)
        held = [m for m in (reading.found if reading else ()) if inside(subject, m)]
        if reading is not None and held:
            how = f", read as {reading.how} " + " or ".join(f'"{n}"' for n in reading.names)
    if not held:  # "click parsr": click.parser, misspelt (within's reading of a scope)
        held = await _loosely(resolver, actor, words, subject)
        how = ", read loosely (a misspelling or a part of its name)" if held else ""
    if len(held) > 1 and window is not None:
        held = await existed(graph, held, window) or held
    if not held:
        return None
    tied = [Candidate(m, 0.8, exact=True) for m in held]
    if len(held) > 1 and (shipped := shipped_first(words, tied, understood)) is not None:
        return shipped.subject, f'"{run.phrase}": {shipped.note}'
    if len(held) > 1:
        return Ambiguous(tied[:OFFERED], Stage.HYBRID, total=len(tied))
    chosen = held[0]
    return chosen, (
        f'"{run.phrase}" was read as {chosen.name} ({_where(chosen)}): "{words}" names it '
        f"inside {subject.name}{how}."
    )


async def _loosely(
    resolver: Resolver, actor: str, words: str, subject: StoredSubject
) -> list[StoredSubject]:
    """The one module inside `subject` the words name loosely (a typo, a fold) as the
    resolver commits or ties on it; none when no one such module is."""
    outcome = await resolver.resolve(actor, words, SubjectKind.MODULE, 10, use_recent=False)
    found = [outcome.subject] if isinstance(outcome, Resolved) else []
    if isinstance(outcome, Ambiguous) and (outcome.total or 0) <= len(outcome.candidates):
        found = [c.subject for c in outcome.candidates]  # every one seen
    held = [m for m in found if inside(subject, m)]
    return held if len(held) == 1 else []


async def read(
    graph: OrgGraph,
    resolver: Resolver,
    actor: str,
    reference: str,
    subject: StoredSubject,
    understood: Interpretation,
    window: Window | None,
    told: Disclosures,
    said: tuple[int, tuple[Candidate, ...]],
) -> StoredSubject | Ambiguous | str:
    """The part of `subject` the words beside `reference` name, committed and said (what
    was said of the reference alone, from `said`: the count of `told`'s notes and its
    candidates then, no longer holds); the parts to ask between; else the note ending the
    question."""
    found = await part(graph, resolver, actor, reference, subject, understood, window)
    if isinstance(found, Ambiguous):
        return found
    if found is None:
        return unmatched_note(reference, subject, understood)[0]
    del told.notes[said[0] :]
    told.candidates = said[1]
    told.notes.append(found[1])
    resolver.admit(actor, found[0])
    return found[0]


async def of_scope(
    graph: OrgGraph,
    resolver: Resolver,
    actor: str,
    reference: str,
    module: StoredSubject,
    understood: Interpretation,
    window: Window | None,
    told: Disclosures,
) -> Within:
    """A module named with its repository (engine.resolving.within) and words beside it no
    name matched ("changelog.d entries added in attrs"): the part of it they name, the
    parts to ask between, or the prompt ending the question; it was answered with the
    module's commits (14 for 13 entries added), "entries" unsaid."""
    said = (len(told.notes), told.candidates)
    found = await read(graph, resolver, actor, reference, module, understood, window, told, said)
    if isinstance(found, str):
        return Within(None, prompt=found)
    if isinstance(found, Ambiguous):
        return Within(None, tuple(found.candidates))
    return Within(found)
