"""`facts(subjectKey, personKey)`: one person's part of a module or repository, read back as
an investigation claimed it ("how many commits did Hynek make to attr.exceptions in 2016?"):
the subject's records whose actor is the person (`others`: anyone else), the fact's id and
`actorKey` naming both (engine/resolving/together.py)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.errors import BadUserInput
from engine.domain.facts import FactKind
from engine.domain.models import StoredSubject, SubjectKind
from engine.resolving.together import HELD, PART_KINDS, Part
from resolvers.args import clean_text
from resolvers.types import Ctx


async def part_of(
    info: Ctx,
    subject: StoredSubject,
    person_key: str | None,
    others: bool,
    kinds: Sequence[FactKind],
) -> tuple[Part | None, list[FactKind]]:
    """The part asked for (None: everyone's) and the kinds to read; a part of what is not
    computed for one (another kind of subject or fact, a key naming no person) is refused
    with BAD_USER_INPUT, never answered with everyone's figures."""
    if person_key is None:
        if others:
            raise BadUserInput("others needs a personKey: everyone's part but that person's")
        return None, list(kinds)
    key = clean_text(person_key, "personKey", 256) or ""
    person = await info.context.loaders.subject(key, None)
    if person is None or person.kind is not SubjectKind.PERSON:
        raise BadUserInput(f"personKey {key!r} names no person here")
    if subject.kind not in HELD:
        raise BadUserInput("a person's part is computed of a module or a repository only")
    wrong = [k.name for k in kinds if k not in PART_KINDS]
    if wrong:
        allowed = ", ".join(sorted(k.name for k in PART_KINDS))
        raise BadUserInput(
            f"a person's part is computed for {allowed}, not for {', '.join(wrong)}"
        )
    return Part(person, others), list(kinds) or sorted(PART_KINDS)
