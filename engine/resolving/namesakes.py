"""A bare first name that is one person's whole name, while namesakes carry it as a first
name ("Adam": the person named just "Adam", and Adam Englander, Adam Williamson, ...), or
one word of the name of the person it committed to, carried by others too ("Hugo": Hugo van
Kemenade, who once committed as "Hugo", and Hugo Osvaldo Barrera).

The exact name commits at the exact stage; answered alone it counted that person's commits
(werkzeug, 2018: "Adam" 0, while Adam Englander and Adam Williamson made one each), and the
alternatives the answer listed, the first five a search found, left the active namesake
out; "what did Hugo change in 2013?" on requests answered for Hugo van Kemenade (0 commits)
while Hugo Osvaldo Barrera made one. So when a namesake was active in the question's window
the question is asked back, each candidate with their commits in the window, most active
first; the person the name committed to is answered alone only when no namesake was active
then."""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.providers import Window
from engine.resolving.activity import commits_in, counted, span
from engine.resolving.matching import handles
from engine.resolving.resolution import Candidate
from engine.resolving.within import Within

SAMPLE = 50  # people read who carry the name as a word of theirs
OFFERED = 5


async def asked(
    graph: OrgGraph, reference: str, person: StoredSubject, window: Window
) -> Within | None:
    """The clarification to ask (see the module docstring); None to answer `person`."""
    needle = normalise(reference)
    if person.kind is not SubjectKind.PERSON or " " in needle:
        return None
    if not reference.replace("-", "").isalpha():
        return None
    whole = normalise(person.name) == needle
    if not whole and not any(needle in normalise(h).split() for h in handles(person)):
        return None  # a login or address of theirs alone: no one else carries it
    hits, _ = await graph.search_all_tokens(reference, [SubjectKind.PERSON], SAMPLE)
    others = [
        s
        for s, _ in hits
        if s.key != person.key and any(needle in normalise(h).split() for h in handles(s))
    ]
    if not others:
        return None
    counts = await commits_in(graph, [person, *others], window)
    if not any(counts[s.key] for s in others):
        return None
    others.sort(key=lambda s: (-counts[s.key], s.name, s.key))
    offered = [person, *others[: OFFERED - 1]]
    names = "; ".join(f"{s.name} ({s.key}): {counted(counts[s.key])}" for s in offered)
    more = f" (and {len(others) - OFFERED + 1} more)" if len(others) > OFFERED - 1 else ""
    said = "is the whole name of" if whole else "is a name of"
    prompt = (
        f'"{reference}" {said} {person.name} and a first name others carry; '
        f"commits {span(window)}: {names}{more}. Which one did you mean?"
    )
    return Within(None, tuple(Candidate(s, 0.9) for s in offered), prompt)
