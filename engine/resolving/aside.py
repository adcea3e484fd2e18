"""A module beside the code a repository ships (its examples, tests, docs) named by a bare
word that the question does not place there.

"who touched the CLI in 2024?" in click resolved "CLI" to examples/complex/complex/cli.py
(an alias "cli" of the example's module) and answered for it: the one module of that name is
an example, and the user asking about "the CLI" of click most likely meant something else.
Such a module is never chosen silently for a word: the question asks whether it is meant
(a clarification offering it, its place said), or, where no clarification may be asked, ends
naming it. Named by a path or a file name ("examples/complex/complex/cli.py", "conftest.py"),
or with a word placing it ("the CLI example", "the test utils"), it is answered as before.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving.candidates import ASIDE, Candidate, aside_of
from engine.resolving.within import Within

OFFERED = 5  # modules of the name a clarification offers
_PLACING = frozenset(ASIDE) | {"testing", "documentation", "benchmark", "bench"}


def _placed(reference: str, understood: Interpretation) -> bool:
    """The question places the name beside the code: a word of it, of the run holding it,
    or of another reference is one of _PLACING."""
    run = understood.beside_of(reference)
    said = [reference, *(run.words if run else ()), *understood.references]
    return any(w in _PLACING for text in said for w in normalise(text).split())


async def aside(
    graph: OrgGraph, reference: str, subject: StoredSubject, understood: Interpretation
) -> Within | None:
    """What to ask when a bare word resolved to a module beside the code: which one, among
    it and the other modules of that name ("the termui module": the example's package or
    src/click/termui.py), or whether it is meant when it is the only one; None otherwise."""
    if "/" in reference or "." in reference:
        return None
    where = aside_of(subject)
    if where is None or _placed(reference, understood):
        return None
    named, _ = await graph.subjects_by_handle(reference, [SubjectKind.MODULE], OFFERED)
    others = [s for s in named if s.key != subject.key]
    if others:
        return Within(None, tuple(Candidate(s, 0.5) for s in [subject, *others]))
    prompt = (
        f'"{reference}" names only {subject.name} ({_path(subject)}), a module of {where}, '
        "not of the code the repository ships. Is it the one you meant?"
    )
    return Within(None, (Candidate(subject, 0.5),), prompt)


def _path(subject: StoredSubject) -> str:
    return subject.key.split(":", 1)[-1]
