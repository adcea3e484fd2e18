"""A person the question names whom no history here knows, said with a way to find people.

"linus torvalds commits this yr" (click), "grace hopper commits" (werkzeug) ended '"linus
torvalds" was not understood: no rule here reads it' or '"grace hopper" names no subject
known here': honest, but with no way forward (z38b c12, w12, r14, a12), and "not understood"
for a plain name. A reference written as a person's name (two to four words of letters, no
path, no dotted name) asked about people or commits is said as nobody of that name in the
repositories here, with the question that lists who did commit, over the question's own
time when it names one.
"""

from __future__ import annotations

import re

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.ports import OrgGraph
from engine.ports.shapes import SubjectOrder, SubjectQuery
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent

# A name as people write one: words of letters (an apostrophe or a hyphen inside: "O'Neil",
# "Hatfield-Dodds"), two to four of them; one word is as often a word not read as a name.
_WORD = r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*"
_NAME = re.compile(rf"^{_WORD}(?:\s+{_WORD}){{1,3}}$")
_PEOPLE_KINDS = frozenset(
    {FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHURN}
)
_DAYS = 400  # the seed rule: a window wider is refused (the way forward must not be)
_PEOPLE_INTENTS = frozenset({Intent.COUNT, Intent.WHO, Intent.WHAT_CHANGED})
_SHOWN = 3  # repositories named in the note


def person_like(reference: str, understood: Interpretation) -> bool:
    """The reference is written as a person's name and the question asks what someone did
    (a doer or an actor, or commits, people or lines asked)."""
    if not _NAME.match(reference.strip()):
        return False
    if understood.kind_hint not in (None, SubjectKind.PERSON):
        return False  # "the flux capacitor module": a module not found, no person
    if reference in understood.doers or reference in understood.actors:
        return True
    asked = set(understood.fact_kinds) & _PEOPLE_KINDS
    return bool(asked) and understood.intent in _PEOPLE_INTENTS


async def nobody_note(graph: OrgGraph, reference: str, understood: Interpretation) -> str:
    """The no match's note: nobody of the name, where, and how to find who committed."""
    query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,), brief=True, order=SubjectOrder.KEY)
    page = await graph.find_subjects(query, _SHOWN + 1)
    names = [s.name for s in page.items[:_SHOWN]]
    where = ", ".join(names) + (" ..." if page.has_next or len(page.items) > _SHOWN else "")
    place = names[0] if len(names) == 1 else "X"
    start, end = understood.start, understood.end
    bounded = start is not None and end is not None and (end - start).days <= _DAYS
    period = understood.time_expression if bounded else None
    period = period or "in the last year"
    return (
        f'"{reference}" names no one known here: no commit author in '
        f"{where or 'this organisation'} is named so (by name, e-mail address or GitHub "
        "login), nor any file, module or repository. To see who did commit, ask "
        f'"who committed to {place} {period}?"; a person is named as their commits spell it.'
    )


async def said(graph: OrgGraph, reference: str, understood: Interpretation, otherwise: str) -> str:
    """The nobody note for a reference written as a person's name, else `otherwise`."""
    if person_like(reference, understood):
        return await nobody_note(graph, reference, understood)
    return otherwise
