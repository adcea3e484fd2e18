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

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.providers import Window
from engine.resolving.activity import commits_over, counted, counted_over, span
from engine.resolving.matching import handles
from engine.resolving.resolution import Ambiguous, Candidate
from engine.resolving.within import Within

SAMPLE = 50  # people read who carry the name as a word of theirs
OFFERED = 5


def _bare(reference: str) -> str | None:
    """The reference folded, when it is one bare word a person's name may hold; else None."""
    needle = normalise(reference)
    if " " in needle or not reference.replace("-", "").isalpha():
        return None
    return needle


async def carriers(
    graph: OrgGraph, reference: str, people: Sequence[StoredSubject]
) -> list[StoredSubject]:
    """The people besides `people` who carry the bare word `reference` as a word of a name of
    theirs (Michael R. Bernstein beside the two people named just "Michael")."""
    needle = _bare(reference)
    if needle is None:
        return []
    hits, _ = await graph.search_all_tokens(reference, [SubjectKind.PERSON], SAMPLE)
    known = {p.key for p in people}
    return [
        s
        for s, _ in hits
        if s.key not in known and any(needle in normalise(h).split() for h in handles(s))
    ]


async def active(
    graph: OrgGraph, reference: str, people: Sequence[StoredSubject], windows: Sequence[Window]
) -> list[StoredSubject]:
    """Those `carriers` with a commit in one of the windows."""
    others = await carriers(graph, reference, people)
    if not others or not windows:
        return []
    counts = await commits_over(graph, others, windows)
    return [s for s in others if any(counts[s.key])]


async def widened(
    graph: OrgGraph, reference: str, outcome: Ambiguous, windows: Sequence[Window]
) -> Ambiguous:
    """A tie among people of one name with those carrying it as a word who committed in the
    windows asked, most active first: "what did Michael do in 2018?" offers Michael R.
    Bernstein beside the two people named just "Michael", "Ben in 2021" Ben Bodenmiller and
    Ben Li-Sauerwine beside the three named "Ben" (none of whom committed then)."""
    people = [c.subject for c in outcome.candidates]
    if not windows or any(p.kind is not SubjectKind.PERSON for p in people):
        return outcome
    more = await active(graph, reference, people, windows)
    if not more:
        return outcome
    counts = await commits_over(graph, [*people, *more], windows)
    ranked = sorted([*people, *more], key=lambda s: (-sum(counts[s.key]), s.name, s.key))
    return Ambiguous([Candidate(s, 0.9) for s in ranked], outcome.stage, len(ranked))


async def asked(
    graph: OrgGraph, reference: str, person: StoredSubject, windows: Sequence[Window]
) -> Within | None:
    """The clarification to ask (see the module docstring); None to answer `person`.
    `windows`: the question's one, or a comparison's two periods (a namesake active in
    either is asked about)."""
    needle = _bare(reference)
    if person.kind is not SubjectKind.PERSON or needle is None or not windows:
        return None
    whole = normalise(person.name) == needle
    if not whole and not any(needle in normalise(h).split() for h in handles(person)):
        return None  # a login or address of theirs alone: no one else carries it
    others = await carriers(graph, reference, [person])
    if not others:
        return None
    counts = await commits_over(graph, [person, *others], windows)
    if not any(any(counts[s.key]) for s in others):
        return None
    others.sort(key=lambda s: (-sum(counts[s.key]), s.name, s.key))
    offered = [person, *others[: OFFERED - 1]]
    one = len(windows) == 1
    names = "; ".join(
        f"{s.name} ({s.key}): "
        + (counted(counts[s.key][0]) if one else counted_over(counts[s.key], windows))
        for s in offered
    )
    more = f" (and {len(others) - OFFERED + 1} more)" if len(others) > OFFERED - 1 else ""
    said = "is the whole name of" if whole else "is a name of"
    commits = f"commits {span(windows[0])}" if one else "commits"
    prompt = (
        f'"{reference}" {said} {person.name} and a first name others carry; '
        f"{commits}: {names}{more}. Which one did you mean?"
    )
    return Within(None, tuple(Candidate(s, 0.9) for s in offered), prompt)
