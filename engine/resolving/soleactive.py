"""A name several people carry, asked over a time the question names, when only one of them
made a commit in that time: "joren commits 2026" on requests (Joren Hammudoglu 3, Joren
Vrancken 0), "dependabot commits 2023" on click (dependabot[bot] 25, dependabot-preview[bot]
0). It asked which of them, the answer sitting in the prompt (z39b c6, w9, r12).

This is not choosing by who was active (a guess, DESIGN.md §5): every reading of the name
gets its figure. The one who committed is answered; each other one's figure in that time is
0, and the answer says so by name ("Joren Vrancken made none from ... to ..."), so the
answer is the same whichever person was meant. Only a time the question names settles it: with
none, the window is a default the asker did not choose, and "made none" would be of a time
they did not ask about. Several people with commits in the time are still asked about.

Every reading of the name means those who carry it as a word of their name too
(engine.resolving.namesakes.carriers): requests "what did Michael do in 2018?" was answered
for the person named just "Michael" (michael-k, 1 commit), the other "Michael" none, while
Michael R. Bernstein made one then too; it asks which now, both offered. A question comparing
two periods ("Kai in 2020 vs 2021") is asked over both: the one who committed in either.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.resolving import namesakes
from engine.resolving.activity import commits_over, counted_over
from engine.resolving.changers import among_people
from engine.resolving.resolution import Ambiguous


def asked_over(understood: Interpretation, window: Window | None) -> tuple[Window, ...]:
    """The windows the question itself names: its one period, or a comparison's two (the
    earlier first); none when it names no time or a union of windows."""
    if window is None or understood.start is None or understood.end is None:
        return ()
    if understood.union is not None:
        return ()
    if understood.compared is not None:
        start, end = understood.compared
        return Window(start, end, True), window
    return (window,)


async def settled(
    graph: OrgGraph,
    reference: str,
    people: Sequence[StoredSubject],
    understood: Interpretation,
    window: Window | None,
) -> tuple[StoredSubject, str] | None:
    """The one of `people` (all persons, every one the name can mean) with commits in the
    windows the question names, and the note naming the others' none; else None (also when
    someone else carrying the name as a word of theirs committed then)."""
    over = asked_over(understood, window)
    if not over or len(people) < 2:
        return None
    if any(p.kind is not SubjectKind.PERSON for p in people):
        return None
    counts = await commits_over(graph, people, over)
    active = [p for p in people if any(counts[p.key])]
    if len(active) != 1:
        return None
    if await namesakes.active(graph, reference, people, over):
        return None  # "Michael" in 2018: Michael R. Bernstein committed too
    person = active[0]
    idle = [p.name for p in people if p.key != person.key]
    return person, (
        f'"{reference}" names {len(people)} people here: {person.name} ({person.key}) made '
        f"{counted_over(counts[person.key], over)}, and {_listed(idle)} none, so the answer "
        f"is {person.name}'s whichever was meant."
    )


async def of_tie(
    graph: OrgGraph,
    reference: str,
    outcome: Ambiguous,
    understood: Interpretation,
    window: Window | None,
) -> tuple[StoredSubject, str] | None:
    """`settled` over a clarification among people alone, every one of them offered."""
    if not among_people(outcome):
        return None
    people = [c.subject for c in outcome.candidates]
    return await settled(graph, reference, people, understood, window)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
