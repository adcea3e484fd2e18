"""A reference written as a path that names no subject as written ("src/attr/_compat.py"
after its move, "werkzeug/contrib", ".github/workflows", a path inside a module), and a word
naming only files loosely ("debugger", "authors"): what each names or why it names nothing,
for engine.resolving.referents. Kept apart so the referents read as the order of the
checks, not the paths' details.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject
from engine.ports import OrgGraph
from engine.resolving import descriptions
from engine.resolving.disclosures import Disclosures
from engine.resolving.formerpaths import moved
from engine.resolving.gonefolders import gone_note
from engine.resolving.matching import Match
from engine.resolving.resolution import Ambiguous, NotFound, Resolution, Resolved, Resolver
from engine.resolving.within import Within, holder_of_path


async def by_path(
    graph: OrgGraph,
    resolver: Resolver,
    actor: str,
    reference: str,
    outcome: Ambiguous | NotFound,
    told: Disclosures,
    untracked: dict[str, str],
) -> StoredSubject | NotFound | None:
    """A path naming no subject as written: the module it names since a move (said and
    remembered), a folder deleted or no module (said not tracked, in `untracked`), the
    module holding it (said); None when none of these holds."""
    if (former := await moved(graph, reference)) is not None:
        told.notes.append(former.note)
        # remembered as any subject resolved is: "exceptions.py" asked after
        # "attr/exceptions.py" and "src/attrs/exceptions.py" was answered for the second
        # "from your recent references", the first never remembered
        resolver.admit(actor, former.subject)
        return former.subject
    if (gone := await gone_said(graph, reference, outcome, untracked)) is not None:
        untracked[reference] = gone  # "werkzeug/contrib": a folder deleted
        return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
    if (folder := await descriptions.folder(graph, reference)) is not None:
        untracked[reference] = folder  # ".github/workflows": not all of .github
        return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
    held = await holder_of_path(graph, reference)
    if held is not None and held[0] is None:
        untracked[reference] = held[1]
        return outcome if isinstance(outcome, NotFound) else NotFound(outcome.stage)
    if held is not None and held[0] is not None:
        told.notes.append(held[1])
        resolver.admit(actor, held[0])
        return held[0]
    return None


async def gone_said(
    graph: OrgGraph, reference: str, outcome: object, untracked: dict[str, str]
) -> str | None:
    """A reference naming nothing, or a path naming a file whose folder of that path was
    deleted (requests/packages: the vendored folder, not packages.py made after), said
    as the folder gone (engine.resolving.gonefolders)."""
    if isinstance(outcome, NotFound) and reference not in untracked:
        return await gone_note(graph, reference)
    written = reference.strip().strip("/")
    if not isinstance(outcome, Resolved) or "/" not in written or "." in written:
        return None
    if outcome.subject.attributes.get("module_kind") != "file":
        return None
    return await gone_note(graph, reference, exact=True)


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
