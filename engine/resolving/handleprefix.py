"""A login or handle written short: a word no name, address or login here is, but the start of
the local part of a person's e-mail address or of their GitHub login. On requests "first
commit by lukasa" ended '"lukasa" names no subject known here' (z39b r7), though Cory Benfield
committed 329 times as lukasaoz@gmail.com; attrs' "tinche" is how tinchester@gmail.com (Tin
Tvrtković) begins.

The start of a handle is not the handle: resolveReference never guesses (docs/graphql.md,
"Resolution"), and the rest of the address could make another person's ("lukasa" is not
"lukasaoz" as "davidism" is davidism@gmail.com). So the question is asked back, never
answered: the people whose address or login begins with the word are offered, each with the
address that does, so the asker sees why. A short word (under MIN_LETTERS letters) begins too
many handles to say anything; it ends as before.
"""

from __future__ import annotations

import re

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery
from engine.reading.interpretation import Interpretation
from engine.resolving.resolution import Candidate
from engine.resolving.within import Within

MIN_LETTERS = 5  # "lukasa", "tinche": shorter starts ("kev", "dav") begin too many handles
SAMPLE = 20  # people read whose search text holds the word
OFFERED = 5
_WORD = re.compile(r"[a-z][a-z0-9._-]*")
SCORE = 0.6  # below any commit: offered, never chosen (engine.domain.gates)


def begun(word: str, person: StoredSubject) -> str | None:
    """The address (or login) of `person` whose local part (a GitHub no-reply address's
    login) begins with `word` without being it; None when none does."""
    for alias in (person.name, *person.aliases):
        local, at, _ = alias.strip().lower().partition("@")
        login = local.rpartition("+")[2]  # 12345+login@users.noreply.github.com
        if at and login.startswith(word) and login != word:
            return alias.strip()
    return None


async def offered(graph: OrgGraph, reference: str, understood: Interpretation) -> Within | None:
    """The clarification offering the people whose address or login begins with `reference`
    (see the module docstring); None when it is no handle written short of anyone's."""
    if understood.kind_hint not in (None, SubjectKind.PERSON):
        return None  # "the lukasa module": a module not found, no person
    word = reference.strip().lower()
    letters = sum(c.isalpha() for c in word)
    if not _WORD.fullmatch(word) or letters < MIN_LETTERS:
        return None
    page = await graph.find_subjects(SubjectQuery(kinds=(SubjectKind.PERSON,), search=word), SAMPLE)
    found = [(p, a) for p in page.items if (a := begun(word, p)) is not None]
    if not found or page.has_next:
        return None
    shown = found[:OFFERED]
    each = "; ".join(f"{p.name} ({p.key}), whose {_said(a)} begins so" for p, a in shown)
    who = shown[0][0].name if len(shown) == 1 else "one of them"
    prompt = (
        f'"{reference}" is no name, address or login known here, but it is how an e-mail '
        f"address or login begins: {each}. The start of a handle is not taken for the "
        f"handle; did you mean {who}?"
    )
    return Within(None, tuple(Candidate(p, SCORE) for p, _ in shown), prompt)


def _said(handle: str) -> str:
    if "@users.noreply.github.com" in handle.lower():
        login = handle.partition("@")[0].rpartition("+")[2]
        return f"GitHub login {login} ({handle})"
    return f"address {handle}"
