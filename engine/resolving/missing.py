"""The references of a question that named nothing (engine/resolving/subjects.py reads them):
a person asked about who is unknown, or a name that names something, ends the question with a
no match saying which and the nearest readings; beside subjects found, the others are said
left out of the answer; with none found, the no match says which names matched nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.domain.contract import InvestigationResult
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving import nobody, outcomes
from engine.resolving import subjectless as unnamed
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Candidate
from engine.resolving.unmatchedwords import (
    file_note,
    missing_note,
    names_something,
    unread_note,
)

Ended = Callable[..., InvestigationResult]

ACTOR_UNKNOWN = (
    "the question asks what they did, and an answer without them would count everyone's, "
    "so none is given. Name them as the history does (a name or an e-mail address)."
)
# After "by", "has", "have" the words are as often not a name ("by hand", "by author",
# "have landed"): unknown, they are said and the count is everyone's.
ACTOR_LEFT = "the count is everyone's, not only theirs."


@dataclass
class Unmatched:
    """The references that named nothing, the nearest readings of them, and what a
    reference was said to name nothing with (Referents.untracked)."""

    untracked: Mapping[str, str]
    names: list[str] = field(default_factory=list)
    closest: list[Candidate] = field(default_factory=list)


async def no_one(
    g: OrgGraph, signer: ReceiptSigner, understood: Interpretation, unmatched: Unmatched
) -> Ended | None:
    """The no match of a question asking what an unknown person did, or naming something
    nothing matched; None when neither."""
    missing, untracked, closest = unmatched.names, unmatched.untracked, unmatched.closest
    if unknown := [m for m in missing if m in understood.doers]:
        no_one = '"{}" names no one known here: ' + ACTOR_UNKNOWN
        said = tuple([
            untracked.get(m) or await nobody.said(g, m, understood, no_one.format(m))
            for m in unknown
        ])  # fmt: skip
        return lambda frame, trace: outcomes.no_match(frame, trace, said, closest, signer)
    if dropped := [m for m in missing if names_something(m, understood)]:
        said = tuple([
            untracked.get(m)
            or await nobody.said(g, m, understood, (
                f'"{m}" names no one known here: {ACTOR_UNKNOWN}' if m in understood.actors
                else missing_note(m, understood)))
            for m in dropped
        ])  # fmt: skip
        return lambda frame, trace: outcomes.no_match(frame, trace, said, closest, signer)
    return None


def left_out(understood: Interpretation, unmatched: Unmatched) -> list[str]:
    """Beside the subjects found: each name that matched nothing, said left out."""
    untracked = unmatched.untracked
    return [
        f'"{m}" names no one known here: {ACTOR_LEFT}'
        if m in understood.actors
        else untracked.get(m)
        or f'"{m}" names no subject known here: it is left out of the answer.'
        f"{file_note(m)}"
        for m in unmatched.names
    ]


async def nothing(
    g: OrgGraph,
    signer: ReceiptSigner,
    understood: Interpretation,
    unmatched: Unmatched,
    alone_notes: tuple[str, ...] | list[str],
) -> Ended:
    """No subject found: the no match says which names matched nothing."""
    untracked = unmatched.untracked
    named = [
        untracked.get(m) or await nobody.said(g, m, understood, missing_note(m, understood))
        for m in unmatched.names
    ]
    said = (*await unnamed.emptiness(g), *named, *alone_notes)
    said = (*said, *unread_note(understood))
    closest = unmatched.closest
    return lambda frame, trace: outcomes.no_match(frame, trace, said, closest, signer)
