"""People named together with other subjects: "how many commits did David Lord make to the
parser?", "what did David Lord change in core.py?".

Every fact is about one subject: a person's commits are theirs anywhere, a module's are
everyone's. The part of one person's work inside one module or repository is computed by
no provider, and an answer over both subjects adds them up ("54 commit(s) to David Lord,
click.parser" where git counts 3), which answers neither. So such a question is a
clarification naming both and offering each alone, and pointing at the question that does
show each person's part of a subject ("who changed click.parser?").
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.models import StoredSubject, SubjectKind
from engine.resolution import Candidate


def people_with_others(
    subjects: Sequence[StoredSubject],
) -> tuple[str, tuple[Candidate, ...]] | None:
    """(the prompt, the subjects offered alone) when people and other subjects are named
    together; None otherwise."""
    people = [s for s in subjects if s.kind is SubjectKind.PERSON]
    others = [s for s in subjects if s.kind is not SubjectKind.PERSON]
    if not people or not others:
        return None
    who = _names(people)
    what = _names(others)
    whose = "their" if len(people) > 1 else "one person's"
    prompt = (
        f"The question names {who} together with {what}: answers are computed for each "
        "subject on its own (a person's changes anywhere, a module's or repository's by "
        f"anyone), never for {whose} part of another subject, and adding them up would "
        f'answer neither. Ask about one of them, or ask "who changed {others[0].name}?" to '
        "see each person's part."
    )
    return prompt, tuple(Candidate(s, 1.0) for s in (*people, *others))


def _names(subjects: Sequence[StoredSubject]) -> str:
    names = [f"{s.name} ({s.key})" for s in subjects]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
