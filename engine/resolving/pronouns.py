"""Whom a possessive pronoun of the question ("his", "her": engine.reading.pronouns) stands
for: the one person among its subjects ("When did davidism make his first commit to click?":
David Lord's first commit to click), said. With no person named, or several, it stands for no
one the answer could choose: the question ends naming it, never answered about someone else.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.reading.pronouns import POSSESSIVES


def referred(
    subjects: Sequence[StoredSubject], pronouns: Sequence[str]
) -> tuple[str | None, str | None]:
    """(the note saying whom the pronouns stand for, the limitation ending the question):
    both None when the question holds no pronoun."""
    if not pronouns:
        return None, None
    said = " and ".join(f'"{p}"' for p in pronouns)
    people = list({s.key: s for s in subjects if s.kind is SubjectKind.PERSON}.values())
    if len(people) == 1:
        person = people[0]
        owner = f"{person.name}'s" if set(pronouns) & POSSESSIVES else person.name
        return f"{said} read as {owner} ({person.key}), the one person named.", None
    if not people:
        whom = "the question names no person it could stand for"
    else:
        whom = f"the question names {len(people)} people ({', '.join(p.name for p in people)})"
    return None, (
        f"{said} was not understood: {whom}, so whose it is cannot be told; an answer "
        "choosing would be about someone the question may not mean. Name the person."
    )
