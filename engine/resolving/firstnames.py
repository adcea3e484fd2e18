"""First names beside other references ("what did Armin change in core.py?", "how many
commits did David Lord and kevin make?"): engine.resolving.together finds the people each word
names; here the one person carrying it joins the question's subjects, said, and several ask which.
engine.resolving.subjects calls it once the references have resolved.

A first name asked alone ("what did jaron do in 2025?") that search offers one person for is
that person when it is certain (`sole_carrier`): the word is a whole word of that person's
name (not a login: "davidism" still asks) and no other subject's name, alias or handle holds
it at all ("Lord" is also in
"lord63": still asked). It asked which person, offering one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.domain.contract import InvestigationResult
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph, SubjectQuery
from engine.reading.interpretation import Interpretation
from engine.resolving import outcomes, together
from engine.resolving.disclosures import Disclosures
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Ambiguous, Candidate


async def joined(
    graph: OrgGraph,
    signer: ReceiptSigner,
    question: str,
    understood: Interpretation,
    subjects: list[StoredSubject],
    told: Disclosures,
) -> tuple[Callable[..., InvestigationResult] | None, Interpretation]:
    """The clarification to ask (or None), and the interpretation without the words read."""
    found, rest = await together.first_names(graph, understood.unread, question)
    for run, people in found:
        if any(p.key in {s.key for s in subjects} for p in people):
            continue  # a receipt chose one of them (engine.resolving.choice)
        if len(people) > 1:
            offered = tuple(Candidate(p, 0.9) for p in people)
            return (
                lambda frame, trace, ref=run, c=offered: outcomes.clarification(
                    frame, ref, c, signer, trace
                ),
                understood,
            )
        subjects.append(people[0])
        told.notes.append(
            f'"{run}" was taken to mean {people[0].name} ({people[0].key}), the one '
            "person of that name."
        )
    return None, replace(understood, unread=tuple(rest))


async def sole_carrier(
    graph: OrgGraph, reference: str, outcome: Ambiguous
) -> tuple[StoredSubject, str] | None:
    """The one person a single word names for certain, and the note saying so; None when
    it is not certain (see the module docstring)."""
    if not reference.isalpha() or len(outcome.candidates) != 1:
        return None
    person = outcome.candidates[0].subject
    needle = normalise(reference)
    if person.kind is not SubjectKind.PERSON or needle not in normalise(person.name).split():
        return None  # a login or an address ("davidism") is still asked about
    if await graph.count_subjects(SubjectQuery(search=reference)) != 1:
        return None  # another subject's names hold it too ("lord63" for "Lord")
    return person, (
        f'"{reference}" was taken to mean {person.name} ({person.key}), the one person of '
        "that name (no other name known here holds it)."
    )
