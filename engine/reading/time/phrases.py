"""Time phrases in a question: what they mean, and which ones were not understood.

Every phrase is read relative to a reference instant `now` (the request's asOf when it has
one, else the clock), in UTC. A period is half-open [start, stop); a period under way stops
at `now`. "as of" and "on" name a point (the first instant of the day or month named; "as of
yesterday", "as of last month": its end, as of being up to and including it); a month,
quarter or day without a year is the most recent one that has started.

Understood: "since X", "after X", "before X" (an open start: wider than any answer may
cover, so the caller offers the widest allowed window instead), "between X and Y", "from X to
Y", "2019-2020" (both years), "since the start of X" (of 2026, of the year),
"in/during/for X" (a year, a month, "Q4 2024", "Q4 of 2024", "2024-Q4", "the fourth quarter
of 2024", "H1 2025", "the first half of 2025", a season, a date), "Q4 2024", "December
2024", an ISO date, "in the last N days/weeks/fortnights/months/quarters/years", "the past
year", "the past fortnight",
"last/this/previous week|month|quarter|year", "yesterday", "today", "year to date", "N days
ago", "as of X", "on X", weekdays ("since last Tuesday", "on Friday"), "the week of X" (its
Monday-to-Sunday week), "the last couple of (2) / few (3) weeks" (stated), "ever" and "of
all time" (everything before now, when no other time is named), parts of a period and
periods counted from now ("late 2025", "next month": engine/reading/time/spans.py), and the vague
"lately", "recently", "of late", "these days", "in recent weeks/months" (RECENT_DAYS: the 90
days before `now`; the reading is stated). A point ("on X", "N days ago") also carries its
own period (`TimeMatch.period`), which a question counting over time reads instead.
Calendar words and the periods of date phrases: engine/reading/time/calendar.py.

Seasons are the northern hemisphere's meteorological ones (spring March to May, summer June
to August, autumn or fall September to November, winter December to February), and the
reading says so: "summer 2024", "the summer of 2024", "last summer" (the latest one that has
ended), "this summer" (the current year's). "winter 2024" is not read: it could be either
side of the new year.

A phrase that looks like time but matches none of these (a year, a month name, "since",
"ago", "next", a weekday, "N sprints", ...) is reported verbatim in `not_understood`: the
caller must ask or say which window it used instead, never fall back silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import spans as timespans
from engine.reading.time.calendar import (
    MONTHS,
    NUMBERS,
    WEEKDAYS,
    count_of,
    date_period,
    recent_season,
    span_before,
)
from engine.reading.time.periods import end_of, first_of, last_of, nth_week, point_period
from engine.reading.time.slashdates import PATTERN as _SLASH
from engine.reading.time.slashdates import WhichDay
from engine.reading.time.spans import RECENT_DAYS

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # the open start of "before X"
_MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b"
_YEAR = r"(?:19[7-9]\d|2\d{3})(?![-\d]|[/.]\d)"  # not a year-first date's (2026/03/04)
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_ISO = r"\d{4}-\d{2}-\d{2}(?![\d:T])"
# A day written year first with slashes (2026/03/04), never a number's ("version 2025/1/2"):
# a date after "since", "before", "between"... ("on 2026/03/04" is engine/reading/time/spans.py's).
_YMD = rf"{timespans.NUMBERED}(?:19[7-9]\d|2\d{{3}})/\d{{1,2}}/\d{{1,2}}(?![\d/.])"
# "Christmas", "Christmas Day 2025", "New Year's Day", "the new year" (not their eves).
_HOLIDAY = (
    r"(?:(?:christmas|xmas)(?:\s+day)?|(?:the\s+)?new\s+year(?:'s)?(?:\s+day)?)"
    r"(?!\s+eve)(?:,?\s+\d{4}(?!\d))?"
)
_DAY_DATE = (
    rf"(?:{_ISO}|{_SLASH}|{_HOLIDAY}|(?:the\s+)?{_ORD}\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}}(?!\d))?"
    rf"|{_MONTH}\s+{_ORD}(?:,?\s+\d{{4}})?(?!\d))"
)
# "Q3 2025", "Q3 of 2025", "Q3-2025", "2025 Q3", "2025-Q3", "the third quarter of 2025", "Q3".
_QUARTER_OF = r"(?:q[1-4]|(?:the\s+)?(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)"
_QUARTER = (
    rf"(?:{_QUARTER_OF}(?:\s+of|\s*[-/])?\s*{_YEAR}|(?:19[7-9]\d|2\d{{3}})\s*-?\s*q[1-4]"
    rf"|{_QUARTER_OF})\b"
)
# "2019-2020", "2019 - 2020": both years, whole ("during 2019-2020" is read as between them).
_YEARS = r"(19[7-9]\d|2\d{3})\s*[-\u2013]\s*(19[7-9]\d|2\d{3})(?![-\d])"
_WHICH_YEAR = rf"(?:{_YEAR}|the\s+year|this\s+year|last\s+year)"
_HALF = rf"(?:h[12]\s+{_YEAR}|(?:the\s+)?(?:first|second|1st|2nd)\s+half\s+of\s+{_WHICH_YEAR})"
_SEASON = rf"(?:(?:the\s+)?(?:spring|summer|autumn|fall)\s+(?:of\s+)?{_YEAR})"
_WEEKDAY = rf"(?:(?:last|this|past)\s+)?(?:{'|'.join(WEEKDAYS)})\b"
_DATE = (
    rf"(?:{_HALF}|{_SEASON}|{_MONTH}\s+{_YEAR}|{_DAY_DATE}|{_YMD}|{_QUARTER}|{_MONTH}|{_YEAR}"
    rf"|{_WEEKDAY})"
)
# "a couple of" is 2 and "a few" 3 (stated: VAGUE_COUNT_NOTE).
_N = r"(\d{1,4}|(?:a\s+)?couple\s+of|(?:a\s+)?few|" + "|".join(NUMBERS) + ")"
_UNIT = r"(hour|day|week|fortnight|month|quarter|year)s?"
_PRE = r"\b(?:(?:in|over|during|within|for)\s+)?the\s+(?:last|past)\s+"
# "2025 vs 2024": the period after it is another one to compare with
# (engine.resolving.questiontime).
VERSUS_WORDS = frozenset({"vs", "vs.", "versus", "compared", "against"})
VERSUS = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against)\s+$", re.IGNORECASE)
# "ever", "of all time": everything before now (wider than an answer may cover: said, and the
# widest window offered), when the question names no other time.
_EVER = re.compile(r"\b(?:ever|(?:of\s+)?all[\s-]+time|since\s+forever)\b", re.IGNORECASE)
_RECENT = (
    r"\b(?:lately|recently|of\s+late|as\s+of\s+late|these\s+days|nowadays"
    r"|in\s+recent\s+(?:days|weeks|months|times))\b"
)
# "as of yesterday", "as of last month": up to and including it (timeperiods.end_of).
_AS_OF_END = r"yesterday|today|now|(?:last|previous|this)\s+(?:week|month|quarter|year)"
_PATTERNS = [
    (name, re.compile(pattern, re.IGNORECASE | re.ASCII))
    for name, pattern in (
        ("between", rf"\bbetween\s+({_DATE})\s+and\s+({_DATE})"),
        ("both", rf"\b(?:in|during)\s+({_DATE})\s+and\s+({_DATE})"),
        ("between", rf"\bfrom\s+({_DATE})\s+(?:to|until|till|through|thru)\s+({_DATE})"),
        ("since", rf"\b(?:from|between)\s+({_DATE})\s+(?:to|until|till|and)\s+(?:now|today)\b"),
        ("between", rf"\b(?:(?:in|during|from|for|throughout|over)\s+)?{_YEARS}"),
        ("since", rf"\bsince\s+the\s+(?:start|beginning)\s+of\s+({_DATE})"),
        ("ytd", r"\bsince\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+year\b"),
        ("recent", _RECENT),
        ("as_of_end", rf"\bas\s+(?:of|at)\s+({_AS_OF_END})\b"),
        ("as_of", rf"\bas\s+(?:of|at)\s+({_DATE})"),
        ("on", rf"\bon\s+({_DAY_DATE}|{_WEEKDAY})"),
        ("since", rf"\bsince\s+({_DATE})"),
        ("since_day", r"\bsince\s+(yesterday|today)\b"),
        ("after", rf"\bafter\s+({_DATE})"),
        ("before", rf"\b(?:before|prior\s+to|until|till|up\s+to)\s+({_DATE})"),
        ("ytd", r"\b(?:year\s+to\s+date|ytd)\b"),
        (
            "week_of",
            rf"\b(?:(?:in|during)\s+)?the\s+week\s+(?:of|starting|beginning)\s+({_DAY_DATE})",
        ),
        (
            "nth_week",
            rf"\b(?:(?:in|during)\s+)?the\s+(first|second|third|fourth|last)\s+week\s+of"
            rf"\s+({_MONTH}(?:\s+{_YEAR})?|{_YEAR})",
        ),
        ("in", rf"\b(?:in|during|for|throughout)\s+(?:(?:the\s+)?(?:calendar\s+)?year\s+)?"
               rf"({_DATE})"),
        ("in", rf"\b({_HALF}|{_SEASON}|{_MONTH}\s+{_YEAR}|{_QUARTER}|{_DAY_DATE})"),
        ("last_n", rf"{_PRE}{_N}\s+{_UNIT}\b"),
        ("last_n", rf"\b(?:last|past|previous)\s+{_N}\s+{_UNIT}\b"),
        ("past", rf"{_PRE}(week|fortnight|month|quarter|year)\b"),
        ("past", r"\bpast\s+(week|fortnight|month|quarter|year)\b"),
        ("past", r"\b(?:last|this)\s+(fortnight)\b"),
        ("ago", rf"\b{_N}\s+{_UNIT}\s+ago\b"),
        ("season", r"\b(last|this|previous|past)\s+(spring|summer|autumn|fall|winter)\b"),
        ("relative", r"\b(last|this|previous|current)\s+(week|month|quarter|year)\b"),
        ("day", r"\b(yesterday|today)\b"),
        ("in", rf"\b((?:last|this|past)\s+(?:{'|'.join(WEEKDAYS)}))\b"),
        *timespans.phrases(_DATE, _N, _UNIT, _YEAR, _MONTH),
    )
]
# What looks like time: any of these outside an understood phrase is reported, never ignored.
_TIME_LIKE = re.compile(
    rf"\b(?:since|between|ago|tomorrow|tonight|ytd|quarters?|q[1-4]|h[12]|{_YEAR}|\d{{4}}[-/.]\d{{1,2}}"
    r"|summer|winter|autumn|spring\s+\d|weekend|fortnights?|half\s+of|christmas|xmas"
    r"|fy\s?'?\d{2,4}|fiscal\s+(?:year|quarter)|week\s+\d{1,2}"
    r"|(?:couple|few|several)\s+(?:of\s+)?(?:hours|days|weeks|months|quarters|years)"
    r"|next\s+(?:week|month|quarter|year|sprint|release)"
    r"|(?:january|february|march|april|june|july|august|september|october|november|december)\b"
    r"|(?:jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\s+\d"
    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    rf"|(?:\d+|{'|'.join(NUMBERS)})\s+[a-z]+s\s+ago|\d+\s+sprints?)\b",
    re.IGNORECASE | re.ASCII,
)
# The words after a time-like word that belong to the phrase reported ("since the 8.0
# release"): two, a third naming an event; never a file name ("since parser.py last").
_FILE = r"[\w.-]*/|[\w-]+\.(?:py|pyi|js|ts|go|rs|java|rb|md|rst|toml|json|ya?ml|cfg|txt)\b"
_EVENT = (
    r"[ \t]+(?:release|outage|incident|launch|freeze|migration|rewrite|refactor|deploy"
    r"|deployment|merge|version|sprint|reorg)s?\b"
)
_CONTEXT = re.compile(rf"(?:[ \t]+(?!{_FILE})[\w.-]*\w){{0,2}}(?:{_EVENT})?", re.IGNORECASE)
# After a bare year only an event is part of the phrase ("2024 release"): "vs 2024 to
# core.py" took the module into the phrase, and the answer was the whole organisation's.
_YEAR_CONTEXT = re.compile(rf"(?:[ \t]+[\w.-]*\w){{0,1}}{_EVENT}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeMatch:
    start: int  # the span of the phrase in the text
    end: int
    as_of: datetime | None
    start_at: datetime | None
    end_at: datetime | None  # the first instant after the window (half-open); None = now
    note: str | None = None  # how a vague phrase was read ("lately": the last 90 days)
    # A point phrase's own period ("on 2026-08-18": that day; "2 weeks ago": the week that
    # began then): what a question counting things over time reads instead of the point.
    period: tuple[datetime, datetime] | None = None


@dataclass
class TimeReading:
    """The phrase used (the first one), and what else looked like time."""

    match: TimeMatch | None = None
    ignored: list[str] = field(default_factory=list)  # understood, but a later phrase
    not_understood: list[str] = field(default_factory=list)
    # Of not_understood, and of the phrases ignored: their words are no name, nor unread.
    unknown_spans: list[tuple[int, int]] = field(default_factory=list)
    not_a_date: list[str] = field(default_factory=list)  # "2026-02-30"
    which_day: dict[str, tuple[tc.Period, ...]] = field(default_factory=dict)  # "07/01/2026"


def _evaluate(
    name: str, g: tuple[str | None, ...], now: datetime
) -> tuple[datetime | None, datetime | None, datetime | None]:
    """(as_of, start, stop) of one phrase; ValueError when it names no real date."""
    a = (g[0] or "") if g else ""
    b = g[1] if len(g) > 1 else None
    if name in ("between", "both"):
        last = last_of(a, b or "", date_period(b or "", now), now)
        first = first_of(a, b or "", last, now)
        if first[0] >= last[1] and name == "both":  # "in 2025 and 2024": both, in order
            first, last = last, date_period(a, now)
        elif first[0] >= last[1]:
            raise ValueError("a range ending before it starts")  # "2020-2019": said
        return None, first[0], tc.bounded((first[0], last[1]), now)[1]
    if name == "as_of_end":
        return end_of(a, now), None, None
    if name in ("as_of", "on"):
        return date_period(a, now)[0], None, None
    if name == "since":
        return None, date_period(a, now)[0], None
    if name == "since_day":  # "since yesterday": from its start up to now
        today = tc.day_period(now.year, now.month, now.day)[0]
        return None, today - timedelta(days=1 if a.lower() == "yesterday" else 0), None
    if name == "after":
        return None, date_period(a, now)[1], None
    if name == "before":
        return None, EARLIEST, min(date_period(a, now)[0], now)
    if name == "recent":
        return None, now - timedelta(days=RECENT_DAYS), now
    if name == "last_n":
        return None, span_before(now, count_of(a), b or ""), now
    if name == "past":
        return None, span_before(now, 1, a), now
    if name == "ago":
        return span_before(now, count_of(a), b or ""), None, None
    if name in timespans.NAMES:
        period = timespans.period(name, g, now)
    elif name == "in":
        period = date_period(a, now)
    elif name == "week_of":
        period = tc.week_period(date_period(a, now)[0])
    elif name == "nth_week":
        period = nth_week(a.lower(), date_period(b or "", now))
    elif name == "ytd":
        period = tc.year_period(now.year)
    elif name == "season":
        period = recent_season((b or "").lower(), a.lower(), now)
    elif name == "relative":
        shift = -1 if a.lower() in ("last", "previous") else 0
        period = tc.period_of((b or "").lower(), now, shift)
    else:
        period = tc.day_period(now.year, now.month, now.day)
        if a.lower() == "yesterday":
            period = (period[0] - timedelta(days=1), period[0])
    start, stop = tc.bounded(period, now)
    return None, start, stop


def read_time(text: str, now: datetime) -> TimeReading:
    """The first understood phrase of `text`, and every other time-like phrase reported."""
    reading = TimeReading()
    found: list[TimeMatch] = []
    for name, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            try:
                as_of, start, stop = _evaluate(name, match.groups(), now)
            # "07/01/2026": asked which day (engine.reading.time.slashdates)
            except WhichDay as which:
                reading.which_day.setdefault(which.phrase, which.readings)
                reading.unknown_spans.append(match.span())
                continue
            except (ValueError, OverflowError):
                reading.not_a_date.append(match.group())
                continue
            note = timespans.note(name, match.group())
            period = point_period(name, match.groups(), as_of, now)
            found.append(TimeMatch(match.start(), match.end(), as_of, start, stop, note, period))
    covered: list[tuple[int, int]] = [(m.start, m.end) for m in found]
    covered += reading.unknown_spans
    covered += [m.span() for m in re.finditer(r"\d{4}-\d{2}-\d{2}", text) if reading.not_a_date]
    for match in _TIME_LIKE.finditer(text):
        if not any(a <= match.start() < b for a, b in covered + reading.unknown_spans):
            context = _YEAR_CONTEXT if match.group().isdigit() else _CONTEXT
            tail = context.match(text, match.end())
            lead = VERSUS.search(text, 0, match.start())  # "vs 2024": said as a comparison
            begin = lead.start() if lead else match.start()
            phrase = text[begin : match.end()] + (tail.group() if tail else "")
            reading.not_understood.append(phrase.strip())
            reading.unknown_spans.append((begin, begin + len(phrase.rstrip())))
    if not found and (ever := _EVER.search(text)):  # "in 2025" in "ever in 2025" is the time
        found.append(TimeMatch(ever.start(), ever.end(), None, EARLIEST, None))
    if found:
        first = min(found, key=lambda m: (m.start, -m.end))
        reading.match = first
        later = [m for m in found if m.start >= first.end]
        later = [m for m in later if not any(_inside(m, o) for o in later)]  # "2024" of "in 2024"
        reading.ignored = [text[m.start : m.end] for m in later]
        reading.unknown_spans += [(m.start, m.end) for m in later]  # said unused: no name
    return reading


def _inside(inner: TimeMatch, outer: TimeMatch) -> bool:
    """A phrase within a longer one ("2024" of "in 2024")."""
    longer = outer.end - outer.start > inner.end - inner.start
    return longer and outer.start <= inner.start and inner.end <= outer.end
