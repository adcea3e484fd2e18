"""A module beside the code a repository ships (its examples, tests, docs) named by a bare
word that the question does not place there.

"who touched the CLI in 2024?" in click resolved "CLI" to examples/complex/complex/cli.py
(an alias "cli" of the example's module) and answered for it: the one module of that name is
an example, and the user asking about "the CLI" of click most likely meant something else.
Such a module is never chosen silently for a word: the question asks whether it is meant
(a clarification offering it, its place said), or, where no clarification may be asked, ends
naming it. Named by a path or a file name ("examples/complex/complex/cli.py", "conftest.py"),
or with a word placing it ("the CLI example", "the test utils"), it is answered as before.

A bare word naming one module of the code the repository ships and others beside it only
("the termui module" in click: src/click/termui.py and the example's package examples/termui;
"the sansio package" in werkzeug: src/werkzeug/sansio and tests/sansio) is the shipped one,
said, the others offered with receipts (`shipped_first`): it asked which, though a question
not placing the word among the examples or tests asks about the code (independent checks
c32a, z32a). Two shipped modules of the name still ask which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving.candidates import ASIDE, Ambiguous, Candidate, aside_of
from engine.resolving.within import Within

OFFERED = 5  # modules of the name a clarification offers
_PLACING = frozenset(ASIDE) | {"testing", "documentation", "benchmark", "bench"}


def _placed(reference: str, understood: Interpretation) -> bool:
    """The question places the name beside the code: a word of it, of the run holding it,
    or of another reference is one of _PLACING."""
    run = understood.beside_of(reference)
    said = [reference, *(run.words if run else ()), *understood.references]
    return any(w in _PLACING for text in said for w in normalise(text).split())


@dataclass(frozen=True, slots=True)
class Shipped:
    """The module of the shipped code a bare word was taken to mean, the note saying so,
    and the others of its name (offered with receipts)."""

    subject: StoredSubject
    note: str
    others: tuple[Candidate, ...]


def shipped_first(
    reference: str, tied: Sequence[Candidate], understood: Interpretation
) -> Shipped | None:
    """The one module of the code a repository ships among modules of one name whose others
    all lie beside it (examples, tests, docs, benchmarks), when the question does not place
    the name there; None otherwise (see the module docstring)."""
    if "/" in reference or _placed(reference, understood) or len(tied) < 2:
        return None
    if any(c.subject.kind is not SubjectKind.MODULE or not c.exact for c in tied):
        return None  # a typo one slip from two names ("clik": click, cli) still asks
    shipped = [c.subject for c in tied if aside_of(c.subject) is None]
    if len(shipped) != 1:
        return None
    chosen = shipped[0]
    others = tuple(c for c in tied if c.subject.key != chosen.key)
    if any(_repository(c.subject) != _repository(chosen) for c in others):
        return None  # another repository's module is no example of this one's
    said = "; ".join(f"{_inside(c.subject)} ({aside_of(c.subject)})" for c in others)
    return Shipped(chosen, (
        f'"{reference}" also names {said}; answered for {chosen.name} ({_inside(chosen)}), the '
        "code the repository ships. Name the other by its path to ask about it."
    ), others)  # fmt: skip


def shipped_of_tie(
    reference: str, outcome: Ambiguous, understood: Interpretation
) -> Shipped | None:
    """`shipped_first` over a resolver's tie, when every tied subject was seen."""
    if outcome.total is None or outcome.total > len(outcome.candidates):
        return None
    return shipped_first(reference, outcome.candidates, understood)


def shipped_of_within(
    reference: str, found: Within, understood: Interpretation
) -> Shipped | None:
    """`shipped_first` over the modules of one name a repository holds, that a module named
    with its repository asks between ("werkzeug's sansio", "click's termui"): the package's
    module, when the others lie beside the code. It asked between werkzeug.sansio and
    tests/sansio, though a module named with its package's name is the package's."""
    if found.subject is not None or not found.candidates:
        return None
    tied = [replace(c, exact=True) for c in found.candidates]
    return shipped_first(reference, tied, understood)


async def aside(
    graph: OrgGraph, reference: str, subject: StoredSubject, understood: Interpretation
) -> Within | Shipped | None:
    """What to ask when a bare word resolved to a module beside the code: which one, among
    it and the other modules of that name ("the CLI": examples/complex's cli.py), or whether
    it is meant when it is the only one; the shipped module of that name when there is one
    (`shipped_first`); None otherwise."""
    if "/" in reference or "." in reference:
        return None
    where = aside_of(subject)
    if where is None or _placed(reference, understood):
        return None
    named, _ = await graph.subjects_by_handle(reference, [SubjectKind.MODULE], OFFERED)
    others = [s for s in named if s.key != subject.key]
    tied = tuple(Candidate(s, 0.5, exact=True) for s in [subject, *others])
    if others and len(named) < OFFERED and (shipped := shipped_first(reference, tied, understood)):
        return shipped
    if others:
        return Within(None, tied)
    prompt = (
        f'"{reference}" names only {subject.name} ({_path(subject)}), a module of {where}, '
        "not of the code the repository ships. Is it the one you meant?"
    )
    return Within(None, (Candidate(subject, 0.5),), prompt)


def _path(subject: StoredSubject) -> str:
    return subject.key.split(":", 1)[-1]


def _inside(subject: StoredSubject) -> str:
    """Its path in its repository ("src/click/termui.py")."""
    return _path(subject).partition("/")[2]


def _repository(subject: StoredSubject) -> str:
    return _path(subject).partition("/")[0]
