"""Months, quarters or weeks ranked by their commits ("which month in 2026 had the most commits
in werkzeug?", "busiest month this yr", "which quarter of 2025 was the busiest", "busiest week
in requests this yr"): answered
(engine/questions/months.py) instead of ending as the word rule "ranked periods"
(engine/reading/wordrules.py) ends them. Read before the time phrase's neighbours are
(engine.reading.time.beside): "month" of "busiest month this yr" is the period ranked, not a
word changing "this yr". Days, hours, and periods ranked by lines or people still end.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.facts import FactKind
from engine.reading import references as r
from engine.reading.verbs import BUSIEST
from engine.reading.vocabulary import LINE_WORDS

_MOST = BUSIEST | {"most", "highest", "biggest", "peak"}
# The periods ranked here, each by its name and plural: at most 5 quarters, 14 months or 58
# weeks in a window one answer may cover (engine.resolving.questiontime), each read apart.
_UNITS = {"month": "month", "months": "month", "quarter": "quarter", "quarters": "quarter"} | {
    "week": "week", "weeks": "week"
}  # fmt: skip
_MONTHS = frozenset(_UNITS)
_OPENERS = frozenset({"which", "what"})
# A verb ranking the periods at the question's start ("Rank the months of 2021 by commits").
VERBS = frozenset({"rank", "order", "sort"})
_OTHER_PERIODS = frozenset(
    {"day", "days", "weekday", "hour", "hours"}
    | {"season", "seasons", "year", "years", "daily", "weekly", "monthly", "per", "each"}
)
# What a ranking of months counts: commits, activity ("busiest", "most active").
_COUNTED = frozenset({FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHURN})
_PEOPLE = frozenset(
    {"people", "contributors", "contributor", "authors", "author", "developers", "committers"}
    | {"developer", "committer", "person", "who"}
)


def read(
    tokens: Sequence[r.Token],
    readable: Sequence[r.Token],
    kinds: Sequence[FactKind],
    time: tuple[int, int] | None = None,
) -> str | None:
    """The period the question ranks by commits ("month", "quarter"), or None; its words
    ("busiest", "most active", "month", "which") are then read, in `tokens` and `readable`
    alike. The words of the time
    phrase read (`time`) rank nothing: "year" of "the busiest month of last year" is the
    window's, not a period ranked (it ended on "month of last year" not understood)."""
    free = list(tokens)  # "busiest", "most active": fact words too, taken by then
    words = [t.norm for t in free]
    outside = [t.norm for t in free if time is None or not time[0] <= t.start < time[1]]
    if set(outside) & (_OTHER_PERIODS | LINE_WORDS | _PEOPLE) or not set(kinds) <= _COUNTED:
        return None
    if kinds and set(kinds) == {FactKind.CHURN}:  # "the most churn": lines
        return None
    if len({_UNITS[w] for w in outside if w in _UNITS}) > 1:  # "which month of which quarter"
        return None
    taken: list[int] = []
    # "which month ...", "in which month ...", "Looking at commits, which month ...": the
    # first "which" or "what" before a period.
    opener = next(
        (k for k in range(len(words) - 1) if words[k] in _OPENERS and words[k + 1] in _MONTHS),
        len(words),
    )
    # "Rank the months of spring 2021 by number of commits", "order the weeks of May by
    # commits": a verb ranking, then the periods (it ended on "Rank" not understood).
    ranks = words[:1] in [[v] for v in VERBS] and "by" in words
    at = 2 if words[1:2] == ["the"] else 1
    if ranks and words[at : at + 1] and words[at] in _MONTHS:
        taken = [0, at]
    for i, word in enumerate(words):
        if taken or word not in _MOST:
            continue
        ahead = i + 2 if words[i + 1 : i + 2] == ["active"] else i + 1
        with_the = i - 1 if words[i - 1 : i] == ["the"] else i  # "month with the most"
        if words[ahead : ahead + 1] and words[ahead] in _MONTHS:
            taken = list(range(i, ahead + 1))  # "busiest month", "most active month"
        elif words[opener : opener + 1] and words[opener] in _OPENERS and (
            words[opener + 1 : opener + 2] and words[opener + 1] in _MONTHS
        ):
            taken = [opener, opener + 1, i]  # "which month ... the most commits"
        elif with_the >= 2 and words[with_the - 1] == "with" and words[with_the - 2] in _MONTHS:
            taken = list(range(with_the - 2, i + 1))  # "the month with the most commits"
        if taken:
            break
    spans = {(free[i].start, free[i].end) for i in taken}
    for token in [*tokens, *readable]:
        if (token.start, token.end) in spans:
            token.free = False
    return next((_UNITS[words[i]] for i in taken if words[i] in _UNITS), None)
