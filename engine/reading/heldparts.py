"""Later parts the first question's answer already holds: who did the most after a "who"
answer ("Who worked on the docs in spring, and who did the most?": the people are ranked by
commits, the first did the most), and the lines a person added and removed after what they
changed ("What did jorenham work on in May and how many lines did he add and remove?": the
changes are given with their lines, +449 -191).

Why rows: each was said not answered ("Only the first question is answered: ... ask it on its
own", z40a C06, C12) though the answer gave it, so the limitation contradicted the answer; or
it was asked again and the same ranking was given twice. Each row says what the part asks and
what first reading it must follow; whether the answer holds it is decided on the answer's
claimed facts (engine/investigation/heldjoins.py): when it does not (no ranking of people, no
lines claimed), the part stays said not answered. A part naming its own subject or time ("who
did the most on core.py?", "... in summer?", "how many lines did Kevin add?") matches no row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.domain.facts import FactKind
from engine.reading.laterrow import PERSON, Row, Writer, Written, row
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

_OF_IT = (r"(?:\s+(?:of\s+(?:it|them|that|this|those|these|the\s+(?:work|commits|changes))"
          r"|work|commits|changes|edits|contributions))?")  # fmt: skip
_DID = (r"(?:did|made|wrote|authored|contributed|committed|changed|had|has|does|owned|drove"
        r"|pushed|landed)")  # fmt: skip
_TOP = (r"(?:most\s+(?:active|prolific)|busiest|top\s+(?:contributor|committer|author|person)"
        r"|(?:biggest|main|leading|largest)\s+(?:contributor|committer|author))")  # fmt: skip
_SIDE = r"(?:add|remov|delet|chang|touch|edit|writ|wrote)\w*"

ROWS: tuple[Row, ...] = (
    # "who did the most?", "who made the most commits?", "who contributed most of it?"
    row("most", rf"who\s+{_DID}\s+(?:the\s+)?most{_OF_IT}\W*$"),
    # "who was the most active?", "who was the top contributor?", "who led?"
    row("most", rf"who\s+(?:was|is|were)\s+(?:the\s+)?(?:{_TOP}|top)\W*$"),
    row("most", r"who\s+(?:led(?:\s+the\s+way)?|came\s+out\s+on\s+top)\W*$"),
    # "how many commits was that?", "how many commits did he make?", "how many commits?"
    row("commits", rf"how\s+many\s+(?:commits|changes)(?:\s+(?:was\s+that|is\s+that|were\s+"
                   rf"(?:they|those|these|there|that)|did\s+{PERSON}\s+(?:make|author|push)"
                   r"|(?:in\s+)?(?:all|total)|altogether))?\W*$"),
    # "how many lines did he add and remove?", "how many lines of code did she change?"
    row("lines", rf"how\s+many\s+lines(?:\s+of\s+code)?\s+(?:did|has|have|had)\s+{PERSON}\s+"
                 rf"(?:\w+\s+)?{_SIDE}(?:\s+(?:and|or|&)\s+{_SIDE})?"
                 r"(?:\s+in\s+(?:total|all))?\W*$"),
    # "how much code did he change?", "how much code has she written?"
    row("lines", rf"how\s+much\s+code\s+(?:did|has|have|had)\s+{PERSON}\s+(?:\w+\s+)?{_SIDE}"
                 r"(?:\s+in\s+(?:total|all))?\W*$"),
)  # fmt: skip


def _most(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After a "who" answer (or a count of people, or how busy): its people are ranked by
    commits, the first did the most. After a count of commits, the row of
    engine/reading/laterwork.py asks who committed most."""
    people = understood.intent in (Intent.COUNT, Intent.STATUS) and (
        FactKind.ACTIVE_CONTRIBUTORS in understood.fact_kinds
    )
    if not (understood.intent == Intent.WHO or people) or understood.compared is not None:
        return None
    if understood.bots_only:  # "how many bots ..., and who was top?": the ranking holds
        return None  # everyone (a human first), never the bots counted alone
    said = f'"{rest}": said from the people the answer counts, ranked by commits.'
    return Written((), said, (), joins="most")


def _lines(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After what one person changed: the changes are given with their lines."""
    if understood.intent != Intent.WHAT_CHANGED or len(understood.acting) != 1:
        return None
    if len(understood.references) != 1:
        return None
    said = f'"{rest}": the lines {understood.acting[0]} added and removed are given.'
    return Written((), said, (), joins="lines")


def _commits(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After what one subject changed: the changes listed are its commits, counted."""
    if understood.intent != Intent.WHAT_CHANGED or len(understood.references) != 1:
        return None
    said = f'"{rest}": the changes listed are the commits, counted.'
    return Written((), said, (), joins="commits")


WRITERS: dict[str, Writer] = {"most": _most, "lines": _lines, "commits": _commits}


def read(question: str, rest: str, understood: Interpretation) -> Written | None:
    """The part `rest` as the first's answer holds it, or None (no row, or a first its row
    does not follow: another row, or the note that it was not answered, takes it)."""
    found = next((r for r in ROWS if r.matches(rest)), None)
    return None if found is None else WRITERS[found.job](question, rest, found.job, understood)
