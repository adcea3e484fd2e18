"""Two periods compared ("were there more commits in apr than in mar?", "how many commits in
2025 vs 2024?", "more commits this month than last month"): which two a question names
(`named`, answered by engine/reading/twoperiods.py when it asks how much something changes),
the two of "both <period> and <period>" (`both_periods`), and the periods after a comparing
word that engine/reading/uncompared.py names when the question ends instead. The pair and a
second period read from the first ("the same time last year", "the previous quarter", "year
over year"): engine/reading/periodpairs.py.

A comparison of now with one earlier period ("is X changing more than last year?") is
answered (engine/reading/asked.py `comparison`, engine/questions/compared.py); "compare
core.py and parser.py in 2025" compares subjects in one period, answered.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from engine.reading.periodpairs import (
    ABBREVIATED,
    COUNTED,
    ELIDED,
    OVER,
    PRIOR,
    SAME,
    Named,
    again,
    counted,
    elided,
    inherited,
    pair,
    previous,
    read_alone,
    same_time,
    shifted,
)
from engine.reading.time import phrases as tp
from engine.reading.time import versus as vs
from engine.reading.time.spellings import unit_of
from engine.reading.vocabulary import DIRECTION_WORDS

# The words standing before the period compared with, as rows (engine/reading/time/versus.py):
# always ("than (in)", "vs", "compare with", "against"), after a comparing word elsewhere
# ("or"), or in a question saying "compare" ("with", "to", "and").
LEAD = vs.before(vs.Needs.NOTHING)
_OR = vs.before(vs.Needs.COMPARATIVE)
_WITH = vs.before(vs.Needs.COMPARE)
PREPOSITION = re.compile(r"^(?:in|during|for|over|on)\s", re.IGNORECASE)
COMPARE = vs.COMPARE
JOINED = re.compile(r"\s+(?:and|with|to|vs\.?|versus)\s+", re.IGNORECASE)


def named(
    text: str, time: tp.TimeMatch | None, reading: tp.TimeReading, now: datetime
) -> Named | None:
    """The two periods a question compares, when it names both: the time read and one after
    "than", "vs", "compared to", "against" or "or" ("in q1 or q2"); "this yr vs last"; one
    phrase joining two after "compare" ("compare commits in july and august")."""
    if time is None or time.start_at is None or len(set(reading.ignored)) > 1:
        return None  # "q1 vs q2 vs q3": more than two periods
    first = text[time.start : time.end]
    if (prior := PRIOR.match(text, time.end)) is not None:  # "Q1 2025 vs the previous quarter"
        return previous(first, time, prior)
    if (before := COUNTED.match(text, time.end)) is not None:  # "... the 6 weeks before that"
        return counted(first, time, before)
    for _, _, period in later_periods(text, time, reading, ors=True):
        second = inherited(period, first, time, now) or again(period, time, now)
        if second is None:
            return None
        # "in Feb compared with Jan 2025": the year written once is both's (February 2025,
        # as "from march to june 2025" reads); it was answered for February 2026, said
        earlier = inherited(first, period, second, now)
        return pair(first, earlier or time, period, second)
    if (rest := _REST.match(text, time.end)) is not None:  # "than the first half" (of 2025)
        period = rest.group("period").strip()
        second = inherited(period, first, time, now)
        if second is not None:
            found = pair(first, time, period, second)
            return replace(found, span=(rest.start("period"), rest.end("period")))
    if (same := SAME.match(text, time.end)) is not None:  # "this yr vs same time last yr"
        return same_time(first, time, same)
    if (left := ELIDED.match(text, time.end)) is not None:  # "this yr vs last": last year
        if (unit_before := elided(first, time, left, now)) is None:
            return None
        span = left.span("phrase")  # its words are the comparison's ("one", "before")
        phrase, window = unit_before
        return Named((first, phrase), ((time.start_at, time.end_at), window), span=span)
    if (joined := _joined(text, first, now)) is not None:
        return joined
    if (over := OVER.search(text)) is not None:  # "commits in 2025 year over year"
        unit = unit_of(over.group("unit") or ABBREVIATED.get(over.group().lower(), ""))
        return shifted(first, time, unit, over.group(), over.span())
    return None


# A time phrase joining two periods, read as the two compared: after "compare" ("compare
# commits in july and august"), or a range in a question asking which way something moved
# ("did commits grow from 2024 to 2025?", "commits year over year 2024 to 2025"): the
# range's two ends of one length, never the two years together against the two before them.
_RANGE = re.compile(
    r"^(?:from\s+)?(?P<one>.+?)(?:\s+(?:to|through|thru|until|till)\s+|\s*(?:→|->)\s*)(?P<two>.+)$",
    re.IGNORECASE,
)
_ADDRESS = re.compile(r"\S+@\S+")


def _moved(text: str) -> bool:
    """Whether the question asks which way something moved ("grow", "dropped", "yoy")."""
    # not a word of an address ("github@declined.dev": "declined" compared a range's two ends)
    words = set(re.findall(r"[a-z]+", _ADDRESS.sub(" ", text.lower())))
    return bool(DIRECTION_WORDS & words) or OVER.search(text) is not None


def _joined(text: str, first: str, now: datetime) -> Named | None:
    """The two periods one time phrase joins, when the question compares them."""
    ranged = COMPARE.search(text) is None
    if not ranged:
        parts = JOINED.split(first, maxsplit=1)
    elif _moved(text) and (span := _RANGE.match(first)) is not None:
        parts = [span.group("one"), span.group("two")]
    else:
        return None
    if len(parts) < 2:
        return None
    lead = PREPOSITION.match(parts[0])
    if lead and not PREPOSITION.match(parts[1]):
        parts[1] = f"{lead.group()}{parts[1]}"  # "in july and august": "in august"
    two = read_alone(parts[1], now)
    one = None if two is None else inherited(parts[0], parts[1], two, now)
    one = one or read_alone(parts[0], now)  # "from march to june 2025": march of 2025
    if one is None or two is None or (ranged and not _alike(one, two)):
        return None
    return pair(parts[0], one, parts[1], two)


def _alike(one: tp.TimeMatch, two: tp.TimeMatch) -> bool:
    """Whether two periods are of one length (two years, two months, two quarters): a range
    from a year to a month is a range, not two periods compared."""
    spans = [(m.end_at - m.start_at).days for m in (one, two) if m.end_at and m.start_at]
    return len(spans) == 2 and abs(spans[0] - spans[1]) * 10 <= max(spans)


# What follows the first period right after a comparing word, up to the clause's end.
_REST = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?:in\s+|during\s+)?"
    r"(?P<period>[^?.!,;]+?)\s*(?:[?.!,;]|$)",
    re.IGNORECASE,
)
# "who contributed in both 2024 and 2025?": people active in each of two periods
# (engine/questions/both.py), never the first period alone.
_BOTH = re.compile(r"\bboth\s+(?:in\s+|during\s+|of\s+)?$", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+(?:in\s+|during\s+)?", re.IGNORECASE)


def both_periods(
    text: str, time: tp.TimeMatch | None, reading: tp.TimeReading, now: datetime
) -> Named | None:
    """The two periods of "both <period> and <period>" (the second one the time reader read
    and left aside, or one written without the first's year: "both march and april 2025")."""
    if time is None or time.start_at is None or not _BOTH.search(text[: time.start]):
        return None
    joined = _AND.match(text, time.end)
    if joined is None:
        return None
    first = text[time.start : time.end]
    for period in dict.fromkeys(reading.ignored):
        if text.startswith(period, joined.end()):
            second = inherited(period, first, time, now) or again(period, time, now)
            if second is not None:
                span = (joined.end(), joined.end() + len(period))
                return replace(pair(first, time, period, second), span=span)
    return None


def later_periods(
    text: str, time: tp.TimeMatch, reading: tp.TimeReading, *, ors: bool = False
) -> list[tuple[int, int, str]]:
    """Each later period compared with the first: its clause's span (from "than") and the
    period as written. `ors`: one after "or" too, in a question comparing ("busier in q1 or
    q2", "more commits in 2025 or 2024"; "how many commits in march or april" asks two
    counts: engine.reading.comparisons.two_times ends it)."""
    found = []
    leads = (LEAD, _OR) if ors and vs.COMPARATIVE.search(text) else (LEAD,)
    if COMPARE.search(text):  # "compare ... March 2026 with March 2025", "how do X and Y compare"
        leads = (*leads, _WITH)
    for phrase in reading.ignored:  # understood, after the first: "than in mar"
        at = text.find(phrase, time.end)
        lead = next((m for x in leads if at >= 0 and (m := x.search(text[:at]))), None)
        if lead is not None:
            found.append((lead.start(), at + len(phrase), phrase))
    for phrase in reading.not_understood:  # "vs 2024": the year no rule reads alone
        starts = vs.STARTS.match(phrase)
        at = text.find(phrase)
        if starts is not None and at >= 0:
            found.append((at, at + len(phrase), phrase[starts.end() :]))
    return sorted(found)
