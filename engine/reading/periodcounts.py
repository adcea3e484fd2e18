"""A count of commits broken down by calendar month, quarter or week ("commits by month in
2025", "attrs activity by month past 6 mo", "commits to werkzeug per week in July 2026",
"weekly commits", "commits per quarter in 2025"): each period's commits, listed in calendar
order (engine/questions/periods.py). It ended as the word rule "per period"
(engine/reading/breakdowns.py) ends every breakdown ("per quarter in 2025" ended on "quarter
in 2025" not understood as a time); other units (days, years), lines or people by period,
and rates ("commits a week") still end there. Read before the time phrase's neighbours
are (engine.reading.time.beside):
"month" of "by month past 6 mo" is the unit counted by, not a word changing the time.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from engine.domain.facts import FactKind
from engine.reading import references as r
from engine.reading.vocabulary import LINE_WORDS, Intent

# The units a breakdown is read in, by the word naming it: at most 14 months or 58 weeks in
# a window one answer may cover (engine.resolving.questiontime), each read apart.
_UNITS = {"month": "month", "months": "month", "week": "week", "weeks": "week"} | {
    "quarter": "quarter", "quarters": "quarter"
}  # fmt: skip
PERIODIC = {"monthly": "month", "weekly": "week", "quarterly": "quarter"}
# "by month", "per week", "each month": the unit each count is of. Not "a" or "every":
# "commits a week" asks a rate, not each week's count.
_PER = frozenset({"by", "per", "each"})
# What a breakdown counts: commits ("commits", "activity"), the intents counting them or
# asking about them ("how many", a status). Not a trend: "did commits go up by month" asks
# which way they moved (engine.reading.asked.direction), and a comparison of two periods
# ends the breakdown (engine.reading.interpreter), never answered by month silently.
_COUNTED = frozenset({FactKind.COMMIT_ACTIVITY})
_INTENTS = frozenset({Intent.COUNT, Intent.STATUS})
# Words asking for another figure by period (people, lines) or another period: not read.
_OTHERS = frozenset(
    {"people", "contributors", "contributor", "authors", "author", "developers", "committers"}
    | {"developer", "committer", "person", "who", "day", "days", "daily"}
    | {"year", "years", "yearly", "annually", "hour", "hours"}
)


# The words naming the figures of a breakdown ("monthly commit counts", "totals per month").
_FIGURES = frozenset({"counts", "totals", "numbers", "figures", "tallies"})


# The words asking for a breakdown ("Break down X's commits by month", "a breakdown of commits
# by author"): the verb of the breakdown whose unit the question names after "by", "per" or
# "each" (or "monthly"), which the breakdown's own reading reads or names (this one, by
# people: engine.reading.perperson, or a unit not computed: the "per period" word row).
# "Break" was tried as a name and the question ended, or was said to name no subject.
_BREAKING = (("break", "down"), ("breaks", "down"), ("broken", "down"), ("breakdown",))
_BY_UNIT = _PER | {"into"}


def read_breaking(tokens: Sequence[r.Token]) -> str | None:
    """The words asking for a breakdown, taken when the question names its unit after
    them ("by month", "per author", "weekly"); the words as read, or None."""
    free = [t for t in tokens if t.free]
    words = [t.norm for t in free]
    for row in _BREAKING:
        n = len(row)
        at = next((i for i in range(len(words)) if tuple(words[i : i + n]) == row), None)
        if at is None:
            continue
        rest = words[at + n :]
        unit = any(a in _BY_UNIT and b not in ("the", "a") for a, b in pairwise(rest))
        if not (unit or set(rest) & set(PERIODIC)):
            return None
        for token in free[at : at + n]:
            token.free = False
        return " ".join(row)
    return None


def read(
    text: str,
    tokens: Sequence[r.Token],
    readable: Sequence[r.Token],
    kinds: Sequence[FactKind],
    intent: Intent,
) -> tuple[str, str] | None:
    """The unit ("month", "week") the question's commits are counted by and its words as
    written ("by month", "weekly"), or None; the words are then read, in `tokens` and
    `readable` alike."""
    if intent not in _INTENTS or not set(kinds) <= _COUNTED:
        return None
    free = [t for t in tokens if t.free]
    words = [t.norm for t in free]
    if set(words) & (_OTHERS | LINE_WORDS):
        return None
    found: list[tuple[str, list[r.Token]]] = []
    for i, word in enumerate(words):
        if word in PERIODIC:
            found.append((PERIODIC[word], [free[i]]))
        elif word in _PER and i + 1 < len(words) and words[i + 1] in _UNITS:
            found.append((_UNITS[words[i + 1]], free[i : i + 2]))
    if len({unit for unit, _ in found}) != 1:  # none, or "weekly ... by month": two asked
        return None
    spans = {(t.start, t.end) for _, taken in found for t in taken}
    # "monthly commit counts in 2025": the figures each period's count is ("counts" ended
    # the question, not understood); read only beside a unit counted by.
    spans |= {(t.start, t.end) for t in free if t.norm in _FIGURES}
    for token in [*tokens, *readable]:
        if (token.start, token.end) in spans:
            token.free = False
    taken = sorted({(t.start, t.end) for _, words in found for t in words})
    return found[0][0], text[taken[0][0] : taken[-1][1]]
