"""Later parts asking of the first's work: who owned most of it ("How many commits touched
the routing code in 2023, and who owned most of that work?"), what share of its commits came
from bots ("Who were the most active in H1 2026, and what share of the commits came from
bots?"), and, after when a path was made, when it last changed ("When was the help module
first created, and when was it last modified?").

Why rows: each was said not answered ("Only the first question is answered", z39a W2, R1,
R11), though each is a question answered here: who committed most to the first's subject over
its time, the bots' commits among all the first's "who" answer counts (its contributors fact
holds both), the subject's last change at any age. And "how does that change if we count all
of his email addresses?" (R7) was said not answered though the count given is over the
identities joined as the person, listed. Each row writes the part over the first's one
subject and time; a first of no one subject (several, or a person where a place is wanted)
writes nothing and the part stays said not answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.reading.laterrow import Row, Writer, Written, row, with_time
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

_WORK = r"(?:that|this|the|those|these|it|them|their|its)"
# The words standing for the first's path after "the" ("when was the folder removed?")
_PATHWORD = r"(?:file|folder|directory|dir|module|package|path)"
_OWNED = (r"(?:owned|owns|own|did|does|do|made|makes|wrote|writes|authored|drove|handled"
          r"|led|leads|contributed|was\s+(?:responsible\s+for|behind)"
          r"|is\s+(?:responsible\s+for|behind)|were\s+responsible\s+for)")  # fmt: skip
# Words that make a share of bots another share (the people's, not the bots').
_NOT = r"(?!.*\b(?:not|non|excluding|except|other\s+than|apart|besides|humans?)\b)"

ROWS: tuple[Row, ...] = (
    # "what share of the commits came from bots?", "what percentage were bots?", "how much
    # of that was bots?"
    row("bots", _NOT + r"(?:what|which)\s+(?:share|percentage|proportion|fraction|percent"
                r"|part|portion)\b.*\bbots?\b"),
    row("bots", _NOT + r"how\s+much\s+of\b.*\bbots?\b"),
    # "who owned most of that work?", "who was responsible for most of them?", "who did the
    # bulk of it?"
    row("owner", r"who\s+" + _OWNED + r"\s+(?:the\s+)?(?:most|bulk|majority|lion'?s\s+share)"
                 rf"(?:\s+of)?(?:\s+{_WORK}(?:\s+(?:work|changes?|commits?|code))?)?\W*$"),
    row("owner", rf"who\s+{_OWNED}\s+(?:that|this|the)\s+work\W*$"),
    row("owner", r"whose\s+work\s+was\s+(?:it|that|this)(?:\s+mostly)?\W*$"),
    # "how does that change if we count all of his email addresses?": the count is already
    # over the identities the import joins as the person (said not answered, yet it was)
    row("addresses", r"how\s+(?:does|would|did|will|do)\s+(?:that|it|this|the\s+\w+)\s+"
                     r"(?:change|differ|look)\s+(?:if|when)\b.*\b(?:e-?mails?|addresses"
                     r"|identities|aliases|accounts)\b"),
    # "when was it last modified?", "when did it last change?", "what was its latest change?"
    row("since", r"when\s+(?:was|has|is)\s+(?:it|that|this|the\s+\w+)\s+(?:been\s+)?"
                 r"(?:last|most\s+recently|latest)\s+(?:modified|changed|touched|updated"
                 r"|edited|committed\s+to|worked\s+on)\W*$"),
    row("since", r"when\s+did\s+(?:it|that|this)\s+(?:last\s+change|change\s+last"
                 r"|last\s+get\s+\w+)\W*$"),
    row("since", r"(?:what|when)\s+(?:was|is)\s+(?:its|the)\s+(?:last|latest|most\s+recent)"
                 r"\s+(?:change|commit|modification|update|edit)\W*$"),
    # "when removed?", "when was it deleted?", "when did it get moved?": after when a path was
    # made, when it went (said not answered though the answer named its move: z40b C09). "the"
    # only before a word for a path ("the folder"): "the changelog", "the fixture" name
    # another, unnamed subject (review41 F3), never the first's path
    row("gone", r"when\s+(?:(?:was|were|is|has)\s+(?:it|that|this|they|the\s+" + _PATHWORD + r")"
                r"\s+(?:been\s+)?"
                r"|did\s+(?:it|that|this|they)\s+get\s+)?(?P<verb>removed|deleted|dropped|killed"
                r"|moved|renamed)\W*$"),
)  # fmt: skip


_GONE = next(r for r in ROWS if r.job == "gone")


def _place(understood: Interpretation) -> str | None:
    """The first's one subject that is no person, or None."""
    refs = [r for r in understood.references if r not in understood.acting]
    return refs[0] if len(understood.references) == 1 and len(refs) == 1 else None


def _bots(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After a "who" (or a count of a place's commits): the bots' commits among all, from
    the contributors' fact of the "who" answer, or of "who committed" over the first's
    subject and time."""
    if understood.acting or len(understood.references) > 1:
        return None
    if understood.intent == Intent.WHO:
        return Written((), f'"{rest}": the people counted hold the bots\' commits.', (),
                       joins="bots")  # fmt: skip
    if understood.intent != Intent.COUNT:
        return None
    place = f" to {understood.references[0]}" if understood.references else ""
    asked = with_time(f"who committed{place}", understood)
    said = f'"{rest}" answered from "{asked}".'
    return Written((asked,), said, (Intent.WHO.value,), joins="bots")


def _owner(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """Who committed most to the first's one place over its time."""
    place = _place(understood)
    if place is None or understood.intent == Intent.WHO or understood.life:
        return None
    asked = with_time(f"who committed most to {place}", understood)
    return Written((asked,), f'"{rest}" answered as "{asked}".', (Intent.WHO.value,))


def _since(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After when the first's one path was made (or first changed): its last change."""
    place = _place(understood)
    if place is None or not (understood.life == "made" or understood.asks_first):
        return None
    asked = f"when was {place} last changed?"
    said = f'"{rest}" answered as "{asked}".'
    return Written((asked,), said, ("last",), one_window=False)


def _gone(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After when the first's one path was made: when it was removed (or moved), at any age,
    as that question is answered on its own (a path moved, not deleted, is said so)."""
    place = _place(understood)
    found = _GONE.matches(rest)
    if place is None or found is None or understood.life != "made":
        return None
    asked = f"when was {place} {found.group('verb').lower()}?"
    said = f'"{rest}" answered as "{asked}".'
    return Written((asked,), said, (Intent.WHAT_CHANGED.value,), one_window=False)


def _addresses(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After one person's count: the count given is over the identities joined as them."""
    if understood.intent != Intent.COUNT or len(understood.acting) != 1:
        return None
    said = (f'"{rest}": the count given is already over every identity the import joins as '
            f"{understood.acting[0]} (one e-mail address, or one full name; each listed with "
            "its commits when there are several); an address used under another name is not "
            "joined.")  # fmt: skip
    return Written((), said, (), joins="addresses")


WRITERS: dict[str, Writer] = {
    "bots": _bots, "owner": _owner, "since": _since, "addresses": _addresses, "gone": _gone,
}  # fmt: skip
