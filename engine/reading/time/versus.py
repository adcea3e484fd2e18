"""The words joining two periods compared, as rows, stated once: the time reader marks a
period after one as compared with (`VERSUS`, "vs 2024" is no time of its own), and
engine/reading/comparisons.py reads the period after one as the second of two
(engine/reading/twoperiods.py answers them).

A row's `needs` says when its words join periods compared rather than two questions: never
(always comparing: "than", "vs", "compared with", "compare to", "against", "2024 -> 2025"),
a comparing word elsewhere ("or": "busier in q1 or q2", "changed more in 2017 or in 2018",
never "how many commits in march or april", which asks two counts), or "compare" anywhere
("compare ... in March 2026 with March 2025", "how do 2024 and 2025 compare"). How did
commits in summer 2025 "compare with" summer 2024 ended on "two times named" while "compared
with" was read: a new phrasing is a row here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Needs(Enum):
    """What else a question must say for a row's words to join periods compared."""

    NOTHING = "nothing"
    COMPARATIVE = "comparative"  # "more", "busier", "fewer" ... (COMPARATIVE)
    COMPARE = "compare"  # the verb "compare" anywhere in the question (COMPARE)


@dataclass(frozen=True, slots=True)
class Join:
    """Words standing right before the second period: `pattern` (a regex fragment), with
    what else the question must say, and an example read so."""

    pattern: str
    needs: Needs
    example: str
    # Whether a time phrase starting with these words is said a comparison when no rule
    # reads it ("vs 2024"); "than" and "or" start no such phrase ("more than 2024 lines").
    starts: bool = True


JOINS = (
    Join(r"than", Needs.NOTHING, "more commits in apr than in mar", starts=False),
    Join(r"vs\.?|versus", Needs.NOTHING, "commits in 2025 vs 2024"),
    Join(r"compar(?:e|es|ed|ing)\s+(?:to|with|against)", Needs.NOTHING,
         "how did commits in summer 2025 compare with summer 2024"),
    Join(r"(?:in\s+)?comparison\s+(?:to|with)", Needs.NOTHING,
         "commits in 2025 in comparison with 2024"),
    Join(r"as\s+opposed\s+to|relative\s+to", Needs.NOTHING, "commits in 2025 relative to 2024"),
    Join(r"(?:stack(?:s|ed)?\s+up\s+)?against", Needs.NOTHING, "commits in 2025 against 2024"),
    Join(r"→|->|=>", Needs.NOTHING, "commits 2024 → 2025"),
    Join(r"or", Needs.COMPARATIVE, "was sessions.py changed more in 2017 or in 2018",
         starts=False),
    Join(r"with|to|and", Needs.COMPARE, "how do 2024 and 2025 compare in commits",
         starts=False),
)  # fmt: skip

# A preposition the second period may keep after the joining words ("than in mar").
_IN = r"(?:(?:in|during|over|for)\s+)?"
# What is compared said again before the second period, by a possessive or "the" and a word
# of how much changed ("compare David Lord's activity in February 2026 with his activity in
# January 2026", "Kevin's commits in May compare with his commits in April": it ended on "two
# times named", z39a A7). Only these words: a name there ("with parser.py in 2024") is another
# subject, compared as subjects are.
RESTATED = (
    r"(?:(?:his|her|their|its|the|that|those)\s+)?"
    r"(?:activity|commits?|changes|contributions?|work|output|churn|lines(?:\s+changed)?)\s+"
)


def _alternation(needs: Needs, *, starting: bool = False) -> str:
    return "|".join(
        j.pattern for j in JOINS if j.needs is needs and (j.starts or not starting)
    )


def before(needs: Needs) -> re.Pattern[str]:
    """The joining words of the rows needing `needs`, ending right before a period."""
    return re.compile(
        rf"(?:\b|(?<=\s))(?:{_alternation(needs)})\s*(?:{RESTATED})?{_IN}$", re.IGNORECASE
    )


# Words starting a time phrase no rule reads that compare it with the period read ("vs
# 2024", "compare to 2024"): said a comparison (engine/reading/time/reasons.py).
VERSUS = re.compile(
    rf"(?:\b|(?<=\s))(?:{_alternation(Needs.NOTHING, starting=True)})\s+$", re.IGNORECASE
)
STARTS = re.compile(rf"^(?:{_alternation(Needs.NOTHING, starting=True)})\s+", re.IGNORECASE)

# A word comparing how much ("busier", "more active", "changed less"): "or" then joins
# periods compared, not two questions.
COMPARATIVE = re.compile(
    r"\b(?:more|fewer|less|busier|quieter|slower|faster|bigger|smaller|higher|lower|greater)\b",
    re.IGNORECASE,
)
COMPARE = re.compile(r"\bcompar(?:e|es|ed|ing|ison)\b\s*", re.IGNORECASE)
