"""Word rows about comparing: "more than" a number (a threshold) and a comparative between
two subjects ("is core.py busier than types.py?"), neither computed (engine/reading/
wordrules.py holds the rows; a period compared with another is engine.questions.compared's).
"""

from __future__ import annotations

from engine.reading.time.calendar import TIME_WORDS
from engine.reading.wordrow import At

COMPARED = frozenset({"more", "less", "fewer"})
COMPARATIVES = COMPARED | frozenset(
    {"busier", "quieter", "bigger", "larger", "smaller", "faster", "slower", "older", "newer"}
    | {"healthier", "riskier", "better", "worse", "higher", "lower", "greater", "hotter"}
)
BETWEEN_NOTE = (
    "a comparison between subjects is not computed (each one's figures are, asked in "
    'turn); a period is compared with now ("is X changing more than last year?").'
)


def compared(a: At) -> bool:
    return a.word in COMPARED and a.after == "than" and a.before != "or"


def between_extent(a: At) -> tuple[int, int]:
    """ "busier than": from the comparative; "more active than": from "more"."""
    return a.through_next() if a.word in COMPARATIVES else a.around()


def between_subjects(a: At) -> bool:
    """ "is core.py busier than types.py?": a comparative ("busier", or "more" and a word:
    "more active", "less often") and "than" followed by a name, not a period (that is
    engine.questions.compared's) nor a number (a threshold: the `compared` row). It answered
    with one subject's figures, or with both subjects' status, the comparison unsaid."""
    if a.after != "than" or a.i + 1 >= len(a.free):
        return False
    than = a.free[a.i + 1]
    following = next((t for t in a.tokens if t.start > than.start and t.norm != "the"), None)
    return (
        (a.word in COMPARATIVES or a.before in COMPARED)
        and a.before != "or"
        and following is not None
        and following.norm not in TIME_WORDS | {"in", "during", "for", "before"}
        and not following.norm.isdigit()
    )
