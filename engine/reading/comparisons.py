"""Two periods compared ("were there more commits in apr than in mar?", "how many commits in
2025 vs 2024?", "more commits this month than last month"): which two a question names
(`named`, answered by engine/reading/twoperiods.py when it asks how much something changes),
the two of "both <period> and <period>" (`both_periods`), and the periods after a comparing
word that engine/reading/uncompared.py names when the question ends instead.

A comparison of now with one earlier period ("is X changing more than last year?") is
answered (engine/reading/asked.py `comparison`, engine/questions/compared.py); "compare
core.py and parser.py in 2025" compares subjects in one period, answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

from engine.domain import timecontext as tc
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


@dataclass(frozen=True, slots=True)
class Named:
    """Two periods a question names to compare, each as written with its window [start,
    end), in the question's order (engine/reading/periods.py answers or refuses them)."""

    phrases: tuple[str, str]
    windows: tuple[tuple[datetime, datetime | None], tuple[datetime, datetime | None]]
    # Where the second period stands when no time rule read it alone ("than the first half"
    # of 2025): its words are the comparison's.
    span: tuple[int, int] | None = None


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
        return _prior(first, time, prior)
    for _, _, period in later_periods(text, time, reading, ors=True):
        second = _inherited(period, first, time, now) or _again(period, time, now)
        return None if second is None else _named(first, time, period, second)
    if (rest := _REST.match(text, time.end)) is not None:  # "than the first half" (of 2025)
        period = rest.group("period").strip()
        second = _inherited(period, first, time, now)
        if second is not None:
            found = _named(first, time, period, second)
            return replace(found, span=(rest.start("period"), rest.end("period")))
    if (same := SAME.match(text, time.end)) is not None:  # "this yr vs same time last yr"
        return same_time(first, time, same)
    if ELIDED.match(text, time.end):  # "this yr vs last": last year
        unit = unit_of(first.split()[-1])
        second = tp.read_time(f"last {unit}", now).match if unit in UNITS else None
        return None if second is None else _named(first, time, f"last {unit}", second)
    if (joined := _joined(text, first, now)) is not None:
        return joined
    if (over := _OVER.search(text)) is not None:  # "commits in 2025 year over year"
        unit = unit_of(over.group("unit") or _ABBREVIATED.get(over.group().lower(), ""))
        return _shifted(first, time, unit, over.group(), over.span())
    return None


# A time phrase joining two periods, read as the two compared: after "compare" ("compare
# commits in july and august"), or a range in a question asking which way something moved
# ("did commits grow from 2024 to 2025?", "commits year over year 2024 to 2025"): the
# range's two ends of one length, never the two years together against the two before them.
_RANGE = re.compile(
    r"^(?:from\s+)?(?P<one>.+?)(?:\s+(?:to|through|thru|until|till)\s+|\s*(?:→|->)\s*)(?P<two>.+)$",
    re.IGNORECASE,
)
# Each period against the one a unit before ("year over year", "yoy", "quarter on quarter").
_OVER = re.compile(
    r"\b(?:(?P<unit>year|quarter|month)[\s-]+(?:over|on)[\s-]+(?P=unit)|yoy|y/y|qoq)\b", re.I
)
_ABBREVIATED = {"yoy": "year", "y/y": "year", "qoq": "quarter"}


_ADDRESS = re.compile(r"\S+@\S+")


def _moved(text: str) -> bool:
    """Whether the question asks which way something moved ("grow", "dropped", "yoy")."""
    # not a word of an address ("github@declined.dev": "declined" compared a range's two ends)
    words = set(re.findall(r"[a-z]+", _ADDRESS.sub(" ", text.lower())))
    return bool(DIRECTION_WORDS & words) or _OVER.search(text) is not None


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
    two = _read(parts[1], now)
    one = None if two is None else _inherited(parts[0], parts[1], two, now)
    one = one or _read(parts[0], now)  # "from march to june 2025": march of 2025
    if one is None or two is None or (ranged and not _alike(one, two)):
        return None
    return _named(parts[0], one, parts[1], two)


def _alike(one: tp.TimeMatch, two: tp.TimeMatch) -> bool:
    """Whether two periods are of one length (two years, two months, two quarters): a range
    from a year to a month is a range, not two periods compared."""
    spans = [(m.end_at - m.start_at).days for m in (one, two) if m.end_at and m.start_at]
    return len(spans) == 2 and abs(spans[0] - spans[1]) * 10 <= max(spans)


# The first period's own span a unit earlier ("this yr vs same time last yr": 1 January to
# now, against 1 January to the same instant a year before; "march vs the same month last
# year"): one group, the unit. It ended on "two times named", "same time" garbled into the
# questions offered.
SAME = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or|with|to)\s+"
    r"(?P<phrase>(?:(?:the|that)\s+)?same\s+(?:time|period|span|stretch|point|days|weeks?"
    r"|months?|quarter)\s+(?:(?:of|in)\s+)?(?:(?:last|the\s+previous|the\s+prior)\s+"
    r"(?P<unit>[a-z]+)|(?:a|one|the)\s+(?P<before>[a-z]+)\s+(?:before|earlier|ago|prior)))\b",
    re.IGNORECASE,
)
_MONTHS_IN = {"month": 1, "quarter": 3, "year": 12}


def same_time(first: str, time: tp.TimeMatch, same: re.Match[str]) -> Named | None:
    """The first period's span moved back one unit (a year, a quarter, a month), with the
    words naming it as the comparison's (`Named.span`); None for a unit no calendar has."""
    unit = unit_of(same.group("unit") or same.group("before"))
    lead = len(same.group()) - len(same.group().lstrip(" ,"))
    return _shifted(first, time, unit, same.group("phrase"), (same.start() + lead, same.end()))


def _shifted(
    first: str, time: tp.TimeMatch, unit: str | None, phrase: str, span: tuple[int, int]
) -> Named | None:
    """The first period and its span `unit` earlier, `phrase` (at `span`) naming it."""
    if unit not in _MONTHS_IN or time.start_at is None:
        return None
    end, months = time.end_at, _MONTHS_IN[unit]
    back = (tc.months_before(time.start_at, months),
            None if end is None else tc.months_before(end, months))  # fmt: skip
    return Named((first, phrase), ((time.start_at, end), back), span=span)


# The calendar unit before the first period ("more commits in 2025 than the year before",
# "Q1 2025 compared with the previous quarter": Q4 2024, where "the previous quarter" was
# read back from now, Q2 2026, and answered against Q1 2025). One group, the unit.
PRIOR = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?:in\s+|during\s+)?"
    r"(?P<phrase>(?:the\s+)?(?:(?:previous|prior|preceding)\s+(?P<unit>week|month|quarter|year)"
    r"|(?P<before>week|month|quarter|year)\s+(?:before|prior|earlier)))(?!\s*[\w'])",
    re.IGNORECASE,
)


def _prior(first: str, time: tp.TimeMatch, prior: re.Match[str]) -> Named | None:
    """The whole calendar unit before the one the first period starts in."""
    if time.start_at is None:
        return None
    unit = (prior.group("unit") or prior.group("before")).lower()
    start, end = tc.period_of(unit, time.start_at, -1)
    span = (prior.start("phrase"), prior.end("phrase"))
    return Named((first, prior.group("phrase")), ((time.start_at, time.end_at), (start, end)),
                 span=span)  # fmt: skip


# What follows the first period right after a comparing word, up to the clause's end.
_REST = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?:in\s+|during\s+)?"
    r"(?P<period>[^?.!,;]+?)\s*(?:[?.!,;]|$)",
    re.IGNORECASE,
)
_WRITTEN_YEAR = re.compile(r"\b(?:19|20)\d\d\b|'\d\d\b")
_RELATIVE = re.compile(r"\b(?:this|last|next|previous|prior|past|current|ago)\b|\d", re.I)


def _inherited(
    period: str, first: str, time: tp.TimeMatch, now: datetime
) -> tp.TimeMatch | None:
    """A second period written without the year the first one names reads in that year
    ("in march 2025 vs april": April 2025; "the second half of 2025 than the first half":
    the first half of 2025), when it reads so whole. None otherwise."""
    if time.start_at is None or not _WRITTEN_YEAR.search(first) or _RELATIVE.search(period):
        return None
    year = time.start_at.year
    for written in (f"{period} of {year}", f"{period} {year}"):
        found = tp.read_time(written, now).match
        if found is not None and found.start == 0 and found.end == len(written):
            return found if found.start_at is not None else None
    return None


def _again(period: str, time: tp.TimeMatch, now: datetime) -> tp.TimeMatch | None:
    """The second period as written; "last summer" beside "this summer", read as the same
    (the latest summer wholly past), is the one before it."""
    second = _read(period, now)
    season = _LAST_SEASON.match(period)
    if second is not None and season and (second.start_at, second.end_at) == (
        time.start_at, time.end_at
    ):
        return _read(f"the {season.group(1)} before last", now)
    return second


_LAST_SEASON = re.compile(r"^(?:last|previous)\s+(spring|summer|autumn|fall|winter)$", re.I)


def _read(period: str, now: datetime) -> tp.TimeMatch | None:
    """A period as written alone; a bare month after a preposition ("versus august")."""
    found = tp.read_time(period, now).match or tp.read_time(f"in {period}", now).match
    return found if found is not None and found.start_at is not None else None


def _named(first: str, one: tp.TimeMatch, second: str, two: tp.TimeMatch) -> Named:
    assert one.start_at is not None and two.start_at is not None
    return Named((first, second), ((one.start_at, one.end_at), (two.start_at, two.end_at)))


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
            second = _inherited(period, first, time, now) or _again(period, time, now)
            if second is not None:
                span = (joined.end(), joined.end() + len(period))
                return replace(_named(first, time, period, second), span=span)
    return None


# A period compared with the one before, its unit left out ("this yr vs last", "this month
# compared to the previous one"): the count of the first was answered, the rest unsaid.
ELIDED = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?:the\s+)?"
    r"(?:last|previous|prior|one\s+before)(?:\s+one)?\b(?!\s+[a-z0-9])",
    re.IGNORECASE,
)


UNITS = frozenset({"week", "month", "quarter", "year"})


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


def dates(start: datetime | None, end: datetime | None) -> str:
    if start is None:
        return ""
    return f" ({tc.iso(start)} to {tc.iso(end) if end else 'now'})"
