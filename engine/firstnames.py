"""First names beside other references ("what did Armin change in core.py?", "how many
commits did David Lord and kevin make?"): engine.together finds the people each word names;
here the one person carrying it joins the question's subjects, said, and several ask which.
engine.asking calls it once the references have resolved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine import outcomes, together
from engine.contract import InvestigationResult
from engine.disclosures import Disclosures
from engine.interpretation import Interpretation
from engine.models import StoredSubject
from engine.ports import OrgGraph
from engine.receipts import ReceiptSigner
from engine.resolution import Candidate


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
            continue  # a receipt chose one of them (engine.choice)
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
