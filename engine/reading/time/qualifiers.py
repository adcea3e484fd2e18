"""A time phrase qualified by words around it that no rule reads as a whole: a part of a period
before it ("the second week of last month"), a span counted from it ("the 3 months before
March"), a period right after it ("Q4 of the previous year"), or more of a span ("the last 2
years and 3 months"). engine/reading/time/phrases.py says these not understood, never the part
read alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.reading.time.calendar import LEADS, NUMBERS
from engine.reading.time.patterns import ORDINAL
from engine.reading.time.timelike import RANKS

if TYPE_CHECKING:
    from engine.reading.time.phrases import TimeMatch

# A part of a period named before a phrase ("the second week of", "the first 10 days of",
# "the spring of"), or a period named right after it ("of last year", "last year").
# Also a span counted to or from it ("the 3 months before March", "in the 12 months to March
# 2026", "the week after Christmas"), the same time in another period ("this time last
# year"), or a word bounding it ("through Q3": everything up to its end, not Q3).
_UNITS = (
    r"(?:days?|weeks?|fortnights?|months?|quarters?|half|halves|years?|spring|summer|autumn"
    r"|fall|winter|time|period|end|beginning|start|middle|rest|remainder|bulk|part|portion)"
)
_PART_OF = re.compile(
    rf"(?:\b(?:the\s+)?(?:[\w-]+\s+){{0,2}})?\b{_UNITS}\s+"
    r"(?:of|before|after|to|until|till|following|preceding|ending|from|since)\s+$"
    r"|\b(?:this|that|same)\s+(?:time|period|day|week|month)\s+$"
    # A day of it by its ordinal ("the twenty-first of March 2024" read March whole)
    rf"|\b(?:the\s+)?{ORDINAL}\s+of\s+$"
    r"|\b(?:through|thru|by|outside|since|after|before|until|till|as\s+(?:of|at))\s+$"
    # ... or with a name between ("before Halloween 2026", "around PyCon 2019": an event's
    # day, unknown here, answered the whole year; "on Diwali 2025", "on Canada Day 2025": a
    # holiday no row names, engine/reading/time/holidays.py)
    r"|\b(?:since|after|before|until|till|around|on|from|between|as\s+(?:of|at))\s+"
    r"(?-i:[A-Z][\w'\u2019-]*)(?:\s+(?-i:Day|Eve))?\s+$",
    re.IGNORECASE | re.ASCII,
)
# A span counted from the phrase when the phrase starts with its own preposition ("the 3
# months before March", "the week after Christmas").
_SPAN_BEFORE = re.compile(
    r"\b(?:days?|weeks?|fortnights?|months?|quarters?|years?)\s+$", re.IGNORECASE | re.ASCII
)
_SPANNED = frozenset({"before", "after", "until", "till", "since", "to", "following", "prior"})
# Joined to a period after it ("Q3 of last year"), or to more of a span ("the last 2 years
# and 3 months").
_JOINED = re.compile(r"(?:\s+of)?\s+$|\s*$", re.IGNORECASE)
_MORE = re.compile(
    rf"\s+and\s+(?:an?|\d+|{'|'.join(NUMBERS)}|half)\s+(?:an?\s+)?{_UNITS}\b",
    re.IGNORECASE | re.ASCII,
)


# A period asked which of ("which month of 2025 had the most commits", "the busiest week of
# last year"): the periods of the phrase ranked, which the question types read (months:
# engine/reading/rankedmonths.py; others end, wordrules "ranked periods"), not a part of it.
# Only where the question ranks: "which week of May did X change" stays not understood.
_RANKED_UNIT = re.compile(
    r"\b(?:which|what|busiest|hottest|liveliest|quietest|most\s+active|least\s+active)\s+"
    r"(?:calendar\s+)?(?:day|week|month|quarter|half|year|season)\s+of\s+$",
    re.IGNORECASE | re.ASCII,
)


def qualified(text: str, first: TimeMatch, found: list[TimeMatch]) -> tuple[int, int] | None:
    """The span of a time phrase that a part of a period qualifies, or that a period right
    after it qualifies, where no row reads the whole ("the second week of last month" read
    all of last month, "the last week of last month" the last 7 days with "last month" said
    unused, "Q4 of the previous year" this year's Q4): not understood, never the part read
    alone. A period ranked within it is no part of it (`_RANKED_UNIT`)."""
    before = _PART_OF.search(text, 0, first.start)
    ranked = _RANKED_UNIT.search(text, 0, first.start)
    if ranked is not None and ranked.end() == first.start and RANKS.search(text):
        before = None
    if before is not None and before.end() == first.start:
        return before.start(), first.end
    spanned = text[first.start : first.end].split()[0].lower() in _SPANNED
    if spanned and (unit := _SPAN_BEFORE.search(text, 0, first.start)):
        return unit.start(), first.end
    # A later phrase starting with a lead is a time of its own ("in 2026 in 2025": the first
    # is used and the second said unused), not a qualifier of the first.
    after = [
        m
        for m in found
        if m.start >= first.end
        and _JOINED.fullmatch(text, first.end, m.start)
        and text[m.start : m.end].split()[0].lower() not in LEADS  # "in 2026 in 2025": said
    ]
    if after:
        return first.start, max(m.end for m in after)
    if more := _MORE.match(text, first.end):
        return first.start, more.end()
    return None
