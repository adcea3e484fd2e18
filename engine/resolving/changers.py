"""A name several people carry, asked beside what it names them changing ("when did kevin
last touch types.py?", "what did andreas change in termui.py?"): the one of them who ever
changed it (before the question's window ends) is meant, said, with the others named; when
several did, the question is still asked, saying who changed it. Choosing by who was active
in the window would be a guess (DESIGN.md §5: never silently pick among close candidates);
who ever changed the subject the question names is what the question itself says: the
others never touched it (engine.resolving.soleactive answers for the only one with commits
in a time the question names, the others' none said). It asked among 3 Kevins in click
though only Kevin Deldycke and Kevin Yap ever changed src/click/types.py (c33, z33).

Only a clarification among people alone (each candidate a person, the search complete) is
read so, beside modules or repositories the question names; a person's commits to a module
are the module's commit records whose actor is that person (engine.resolving.together).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from engine.domain.evidence import EvidenceRequest, EvidenceRule
from engine.domain.models import SourceRecordKind, StoredSubject, SubjectKind, to_ns
from engine.domain.timecontext import iso
from engine.ports import OrgGraph
from engine.resolving.activity import counted
from engine.resolving.resolution import Ambiguous

HELD = frozenset({SubjectKind.MODULE, SubjectKind.REPOSITORY})
_EVER = datetime(1970, 1, 1, tzinfo=UTC)


def among_people(outcome: Ambiguous) -> bool:
    """A clarification among people alone, every one of them offered."""
    whole = outcome.total is None or outcome.total <= len(outcome.candidates)
    return (
        whole
        and len(outcome.candidates) > 1
        and all(c.subject.kind is SubjectKind.PERSON for c in outcome.candidates)
    )


async def changed(
    graph: OrgGraph, people: Sequence[StoredSubject], held: Sequence[StoredSubject], end: datetime
) -> dict[str, int]:
    """Each person's commits to all of `held` before `end`, by key (in one round trip)."""
    start_ns, end_ns = to_ns(_EVER), to_ns(end)
    assert start_ns is not None and end_ns is not None
    requests = [
        EvidenceRequest(
            s.key, (SourceRecordKind.COMMIT,), EvidenceRule.CHANGES, start_ns, end_ns,
            actor=p.key,
        )
        for p in people
        for s in held
    ]  # fmt: skip
    counts = iter(await graph.evidence_counts(requests))
    out: dict[str, int] = {}
    for person in people:
        each = [next(counts) for _ in held]
        out[person.key] = min(each) and sum(each)  # 0 unless they changed every one
    return out


async def only_changer(
    graph: OrgGraph,
    reference: str,
    outcome: Ambiguous,
    subjects: Sequence[StoredSubject],
    end: datetime,
) -> tuple[StoredSubject, str] | str | None:
    """The one person of `outcome` who ever changed the modules or repositories among
    `subjects`, with the note saying why; else the prompt asking which, saying who changed
    them; None when the rule does not apply (no such subject named)."""
    held = [s for s in subjects if s.kind in HELD]
    if not held or not among_people(outcome):
        return None
    people = [c.subject for c in outcome.candidates]
    counts = await changed(graph, people, held, end)
    changers = [p for p in people if counts[p.key]]
    names = ", ".join(s.name for s in held)
    before = iso(end)[:10]
    never = [p.name for p in people if not counts[p.key]]
    if len(changers) == 1:
        person = changers[0]
        return person, (
            f'"{reference}" was taken to mean {person.name} ({person.key}): of the '
            f"{len(people)} people of that name, the only one who ever changed {names} "
            f"({counted(counts[person.key])} before {before}); {_listed(never)} never did."
        )
    did = "; ".join(f"{p.name} ({p.key}) {counted(counts[p.key])}" for p in changers)
    said = (
        f"commits to {names} before {before}: {did}"
        if changers
        else f"none of them ever changed {names} before {before}"
    )
    return f'"{reference}" could mean {len(people)} people; {said}. Which one did you mean?'


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
