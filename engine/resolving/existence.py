"""Which of a reference's modules existed when the question asks about, and modules named by
a form of their name (engine.resolving.wordforms), told apart by it.

A module of a git import exists from its first commit (engine.resolving.activity.existed).
So, for the question's window:
- a name read loosely (folded, a typo, a part: "attrs converters" for attrs.converters) that
  resolved to a module with no commit before the window ends is asked about beside the
  modules of its name that did exist (`not_yet`): "who worked on attrs converters in '19?"
  was answered "No one changed attrs.converters" (made in 2021) while attr.converters had a
  commit that year. Named exactly, it is answered, and the answer says it did not exist yet;
- a word naming nothing as written but a module by its form ("the debugger": debug; "the
  converter" in 2019: src/attr/converters.py, src/attrs/converters.py being made in 2021)
  resolves when exactly one such module existed then, asks which when several did
  (`by_form`).
A file name two modules have exactly ("converters.py") still asks which, whenever the window
(bench/generalise.py holds it): each choice's label says how many commits it had before the
window ends, 0 for one made later (engine.resolving.activity.labels).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import iso
from engine.ports import OrgGraph
from engine.providers import Window
from engine.reading.scopes import Scope
from engine.resolving import wordforms
from engine.resolving.activity import existed
from engine.resolving.candidates import Ambiguous, Candidate, Resolved, Stage
from engine.resolving.matching import Match
from engine.resolving.within import Within

OFFERED = 5  # what a clarification offers
_LOOSE = frozenset({Match.FOLDED, Match.TYPO, Match.PREFIX, Match.SEARCH})


def _modules(subjects: Sequence[StoredSubject]) -> bool:
    return bool(subjects) and all(s.kind is SubjectKind.MODULE for s in subjects)


def _before(window: Window) -> str:
    return f"before {iso(window.end)}"


# Later than any commit: whether a subject has commit records at all.
_EVER = Window(datetime(1970, 1, 1, tzinfo=UTC), datetime(2200, 1, 1, tzinfo=UTC), True)


async def _alive(
    graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window
) -> list[StoredSubject]:
    """Those that existed in the window; every one of them when none has a commit record at
    all (modules no git import wrote, whose times are not known here)."""
    found = await existed(graph, subjects, window)
    if found or await existed(graph, subjects, _EVER):
        return found
    return list(subjects)


async def not_yet(
    graph: OrgGraph, reference: str, outcome: Resolved, window: Window
) -> Ambiguous | str | None:
    """A module resolved that did not exist in the window: the modules of its own name that
    did, to ask which (when it was named loosely), or the note saying it did not exist yet;
    None when it existed (or is no module)."""
    subject = outcome.subject
    if subject.kind is not SubjectKind.MODULE or await _alive(graph, [subject], window):
        return None
    note = (
        f"{subject.name} ({subject.key}) had no commit {_before(window)}: it did not exist "
        "yet in the window asked about."
    )
    if outcome.how not in _LOOSE:
        return note
    name = subject.name.rpartition(".")[2]
    namesakes, _ = await graph.subjects_by_handle(name, [SubjectKind.MODULE], OFFERED)
    alive = await existed(graph, [s for s in namesakes if s.key != subject.key], window)
    if not alive:
        return note
    offered = [Candidate(s, 0.9) for s in alive[: OFFERED - 1]]
    return Ambiguous([Candidate(subject, 0.9), *offered], Stage.HYBRID, total=len(offered) + 1)


async def by_form(
    graph: OrgGraph, reference: str, phrase: str | None, window: Window | None
) -> tuple[StoredSubject, str] | Ambiguous | str | None:
    """The module a reference naming nothing as written stands for by its form or as a
    description (engine.resolving.wordforms), with the note saying so; the modules to ask
    between when several existed in the window; the note saying none existed yet; None
    when no form names a module."""
    reading = await wordforms.read(graph, reference, phrase)
    if reading is None:
        return None
    found = list(reading.found)
    alive = found if window is None else await _alive(graph, found, window)
    if not alive:
        names = ", ".join(f"{s.name} ({s.key})" for s in found[:OFFERED])
        return (
            f'"{reference}" names no subject as written; read as a form of a name, it may '
            f"be {names}, which had no commit {_before(window) if window else 'yet'}: it did "
            "not exist yet in the window asked about."
        )
    if len(alive) == 1:
        return alive[0], reading.note(alive[0])
    offered = [Candidate(s, 0.8) for s in alive[:OFFERED]]
    return Ambiguous(offered, Stage.HYBRID, total=len(alive))


async def two_in_one(graph: OrgGraph, scope: Scope) -> Within | None:
    """Two names side by side, joined by nothing, neither holding the other, each naming
    exactly one module, and not the same one ("the testing helpers": click.testing, and
    click.termui by its name of 2014, helpers.py): one phrase whose words name two modules,
    asked about, never both answered; None otherwise."""
    found = [
        await graph.subjects_by_handle(name, [SubjectKind.MODULE], 2)
        for name in (scope.outer, scope.inner)
    ]
    if any(total != 1 for _, total in found) or found[0][0][0].key == found[1][0][0].key:
        return None
    named = [subjects[0] for subjects, _ in found]
    listed = " and ".join(f"{s.name} ({s.attributes.get('path') or s.key})" for s in named)
    prompt = (
        f'"{scope.phrase}" reads as one name, and its words name two modules: {listed}. '
        'Which one did you mean? (Join two names with "and" to ask about both.)'
    )
    return Within(None, tuple(Candidate(s, 0.8) for s in named), prompt)
