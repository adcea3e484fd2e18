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
from dataclasses import dataclass, field, replace
from datetime import datetime

from engine.domain import timecontext as tc
from engine.reading.time import conventions
from engine.reading.time.anchored import anchored, part_in
from engine.reading.time.calendar import LEADS, NUMBERS
from engine.reading.time.compositions import EARLIEST
from engine.reading.time.holidays import NAMES as HOLIDAY_NAMES
from engine.reading.time.patterns import ORDINAL
from engine.reading.time.patterns import YEAR as _YEAR
from engine.reading.time.rules import RULES
from engine.reading.time.slashdates import WhichDay
from engine.reading.time.spellings import written_out
from engine.reading.time.unions import NotJoined, Window
from engine.reading.time.versus import VERSUS  # "2025 vs 2024": the words, as rows

__all__ = ["EARLIEST", "VERSUS", "TimeMatch", "TimeReading", "read_time"]

# "ever", "of all time": everything before now (wider than an answer may cover: said, and the
# widest window offered), when the question names no other time. So are a subject's whole
# history and its beginning ("over its entire history", "in the history of click", "since
# inception", "from the very start", "over its whole life"): they were answered over the
# default year, "No time was named", or ended on "its" as a pronoun ("life" was not
# understood), and "since it was created" (its coming into being). Not the beginning of
# something named ("since the beginning of the sprint" stays not understood). "first-ever"
# is one word asking the first change (engine.reading.asked), no time: its "ever" was read as
# the whole history and asked again for 400 days.
_EVER = re.compile(
    r"\b(?:(?<![-\u2010])ever|(?:of\s+)?all[\s-]+time|since\s+forever"
    r"|(?:over|across|in|throughout|during|for)\s+(?:(?:its|their|the|this|that)\s+)?"
    r"(?:(?:entire|whole|full|complete)\s+)?(?:history|life(?:time|span)?|existence)"
    r"|(?:since|from)\s+(?:the\s+(?:very\s+)?(?:beginning|start|outset|first\s+commit)"
    r"|(?:its|the\s+project['\u2019]?s|the\s+repo(?:sitory)?['\u2019]?s)\s+(?:creation|inception|start"
    r"|beginning|first\s+commit)|inception|day\s+(?:one|1))(?!\s+of\b)"
    # "since it was created", "since it first appeared": from its first change (its coming into
    # being, engine/reading/origins.py), the whole history; "since it was" was not a time.
    r"|since\s+(?:it|they|this|that)\s+(?:(?:was|were|got|has\s+been)\s+(?:first\s+)?"
    r"(?:created|added|introduced|made|born|written|started|committed)"
    r"|(?:first\s+)?(?:appeared|showed\s+up|came\s+(?:in|about|along)|arrived|existed|started|began)))\b",
    re.IGNORECASE,
)
# What looks like time: any of these outside an understood phrase is reported, never ignored
# ("how long since X last changed?" asks when X last changed: its "since" is no phrase).
# A quarter ranked ("which quarter of 2025 was busiest", "the busiest quarter", "the quarter
# with the most commits"): the periods ranked (engine/reading/rankedmonths.py), no time phrase
# unread, where the question ranks ("which quarter did X change" stays not understood).
_QUARTER_ASKED = re.compile(
    r"\b(?:which|what|busiest|quietest|hottest|liveliest|most\s+active)\s+$", re.IGNORECASE
)
_QUARTER_WITH = re.compile(r"\s+with\s+(?:the\s+)?(?:most|highest)\b", re.IGNORECASE)
# A quarter counted by ("commits per quarter in 2025", "by quarter"): the unit of a breakdown
# (engine/reading/periodcounts.py), no time phrase unread.
_QUARTER_PER = re.compile(r"\b(?:by|per|each)\s+$", re.IGNORECASE)
# ... or compared with the one before ("Q2 2025 quarter over quarter": periodpairs.OVER).
_QUARTER_OVER = re.compile(r"quarter[\s-]+(?:over|on)[\s-]+quarter\b", re.IGNORECASE)
# A two-digit year after an apostrophe stands first, outside the word boundaries: "'25"
# after a space starts with no word boundary, so "vs '25" was never seen and "25" was read as
# a name ("commits in '24 vs '25" ended on "25" naming nothing known).
_TIME_LIKE = re.compile(
    r"(?<![\w'\u2019])['\u2019]\d{2}(?![\w'\u2019])|"
    rf"\b(?:(?<!\blong\s)since|between|ago|tomorrow|tonight|ytd|quarters?|q[1-4]|h[12]|{_YEAR}|\d{{4}}[-/.]\d{{1,2}}"
    # a month's number no row reads before a year ("13/2025": its year is no year alone)
    r"|\d{1,2}/(?:19[7-9]\d|2\d{3})(?!\d)"
    r"|summer|winter|autumn|spring\s+\d|weekend|fortnights?|half\s+of|christmas|xmas"
    # spring and fall after a word placing a time ("by the spring" was answered over the
    # default year, "spring" unsaid); alone they may be names (the Spring framework)
    r"|(?:since|after|before|until|till|by|from|between)\s+(?:the\s+)?(?:spring|fall)"
    r"|(?:19|20)\d0'?s"
    r"|fy\s?'?\d{2,4}|fiscal\s+(?:year|quarter)|week\s+\d{1,2}"
    r"|(?:couple|few|several)\s+(?:of\s+)?(?:hours|days|weeks|months|quarters|years)"
    r"|next\s+(?:week|month|quarter|year|sprint|release)"
    r"|(?:january|february|march|april|june|july|august|september|october|november|december)\b"
    r"|(?:jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\s+\d"
    # a month written short alone, where no row reads it ("http.py feb changes": "feb" was
    # said unused and "No time was named"); not jan, jun (names) nor mar, may, dec (words)
    r"|(?:feb|apr|aug|sept|oct|nov)"
    # a day of a month by an ordinal no row reads ("the fortieth of May": May is no time alone)
    r"|(?:\d+|[a-z]+)(?:st|nd|rd|th)\s+of\s+(?:may|(?:the|this|last|next)\s+month)"
    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    rf"|(?:\d+|{'|'.join(NUMBERS)})\s+[a-z]+s?\s+(?:ago|back)|\d+\s+sprints?"
    r"|half[\s-]+(?:an?\s+)?(?:year|month|week|day|hour)"
    rf"|(?:\d+|an?|{'|'.join(NUMBERS)})\s+(?:[a-z]+\s+)?and\s+a\s+half(?:\s+[a-z]+)?"
    r"|during\s+(?:the\s+|a\s+|an\s+|our\s+|this\s+|that\s+)?[\w.-]+"
    # an event's time ("around the time of PyCon 2019" answered all of 2019)
    r"|(?:around|about|near|roughly|at|by|from|since|until|till|before|after)\s+the\s+time\s+of"
    r"|(?:the\s+)?run[\s-]up\s+to"
    r"|(?:holidays?|vacations?|hackathons?|offsites?)"
    r"|(?:before|after|until|around|about|near|circa)\s+the\s+(?:[\w.-]+\s+)?(?:release|outage|incident|launch|freeze"
    r"|migration|rewrite|refactor|deploy|deployment|merge|version|sprint|reorg)s?"
    # A bound before any named thing is a time nothing here knows ("before the pandemic"
    # was answered over the default year): an article or possessive, then a noun; a verb
    # ("before changing core.py") or a pronoun ("after that") bounds no time.
    r"|(?:before|after|until|till|prior\s+to)\s+(?:the|our|their|his|her|its)\s+(?![\w-]+ing\b)[a-z][\w-]*"
    r"|(?:before|after|prior\s+to)\s+(?:covid|corona(?:virus)?|lockdown|brexit|y2k|pycon)"
    # Vague spans with no window to read: "back in the day" was answered over the default.
    r"|back\s+in\s+the\s+days?|(?:in\s+)?the\s+(?:old|early|good\s+old)\s+days|way\s+back"
    # A part of a day: which hours is a time zone's (none is known here), not read
    r"|(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening)|last\s+night|overnight"
    r"|back\s+(?:then|when)|long\s+ago|ages\s+ago|once\s+upon\s+a\s+time"
    r"|(?:beginning|middle|end)\s+of\s+(?:the\s+)?(?:year|month|quarter|week|sprint|release))\b",
    re.IGNORECASE | re.ASCII,
)
# A read phrase that a following word widens into days no row reads: "over the Christmas
# break 2022" was answered over Christmas Day 2025 with "break" unsaid.
# ... "over the Easter weekend", "Labor Day weekend" (any holiday of
# engine/reading/time/holidays.py).
_WIDENED = re.compile(
    rf"\b(?:{HOLIDAY_NAMES}|new\s+year'?s?)(?:\s+(?:day|eve))?"
    r"\s+(?:break|holidays?|vacation|period|season|shutdown|rush|weekend)s?\b"
    r"(?:\s+\d{4}\b)?",
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
    # Of not_understood, periods named together with a gap: their windows (a union).
    unions: dict[str, tuple[Window, ...]] = field(default_factory=dict)


_APOSTROPHE_YEAR = re.compile(r"'(\d{2})\b")


def _years(groups: tuple[str | None, ...], now: datetime) -> tuple[str | None, ...]:
    """A year written "'22" as its four digits: the latest such year not after now."""

    def year(found: re.Match[str]) -> str:
        late = 2000 + int(found[1])
        return str(late if late <= now.year else late - 100)

    return tuple(g if g is None else _APOSTROPHE_YEAR.sub(year, g) for g in groups)


def read_time(text: str, now: datetime) -> TimeReading:
    """The first understood phrase of `text`, and every other time-like phrase reported; a
    word written short is read written out ("this wk": engine/reading/time/spellings.py),
    the phrases and spans reported as the question wrote them."""
    written = written_out(text)
    reading = _read(written.text, now)
    if written.text == text:
        return reading
    if (m := reading.match) is not None:
        start, end = written.span(m.start, m.end)
        note = m.note and m.note.replace(written.text[m.start : m.end], text[start:end])
        reading.match = replace(m, start=start, end=end, note=note)
    reading.ignored = [written.said(p) for p in reading.ignored]
    reading.not_understood = [written.said(p) for p in reading.not_understood]
    reading.not_a_date = [written.said(p) for p in reading.not_a_date]
    reading.unknown_spans = [written.span(a, b) for a, b in reading.unknown_spans]
    return reading


def _read(text: str, now: datetime, anchor: bool = True) -> TimeReading:
    """`anchor`: a year after the first phrase may bind to it (not when read again so)."""
    reading = TimeReading()
    found: list[TimeMatch] = []
    apart: list[tuple[tuple[int, int], tuple[Window, ...]]] = []  # periods with a gap
    bad: list[tuple[int, int]] = []  # phrases naming no real date ("2020-2019")
    for rule in RULES:
        for match in rule.compiled.finditer(text):
            groups = _years(match.groups(), now)
            try:
                as_of, start, stop = rule.resolve(groups, now)
            # "07/01/2026": asked which day (engine.reading.time.slashdates)
            except NotJoined as gap:  # "Jan and March 2024 combined": no one window
                apart.append((match.span(), gap.windows))
                continue
            except WhichDay as which:
                reading.which_day.setdefault(which.phrase, which.readings)
                reading.unknown_spans.append(match.span())
                continue
            except (ValueError, OverflowError):
                reading.not_a_date.append(match.group())
                bad.append(match.span())
                continue
            note = rule.stated(match.group())
            note = conventions.joined(
                match.group(), note, conventions.yearless(match.group(), start or as_of, now),
                conventions.misspelt(match.group()), conventions.two_digit_year(match.group(), now),
                conventions.just_begun(match.group(), start, now),
            )  # fmt: skip
            period = None
            if rule.period is not None and as_of is not None:
                period = rule.period(groups, as_of, now)
            found.append(TimeMatch(match.start(), match.end(), as_of, start, stop, note, period))
    # A phrase one rule read is no bad date because another rule could not read it, nor is a
    # part of it ("In 2022, between March and May", asked in March 2023: the range alone ends
    # before it starts, and was said to name no real date beside the right reading).
    read_spans = [(m.start, m.end) for m in found]
    _unjoined(text, reading, apart, read_spans)
    bad = [(a, b) for a, b in bad if not any(c <= a and b <= d for c, d in read_spans)]
    # ... nor is a part of a longer phrase naming no date ("past 1.5 months" of "in the past
    # 1.5 months": said once, whole).
    bad = [s for s in dict.fromkeys(bad) if not any(_within(s, o) for o in bad)]
    reading.not_a_date = [text[a:b] for a, b in bad]
    covered: list[tuple[int, int]] = [(m.start, m.end) for m in found]
    covered += reading.unknown_spans + bad
    covered += [m.span() for m in _EVER.finditer(text)]  # "since inception": no "since" unread
    covered += [m.span() for m in re.finditer(r"\d{4}-\d{2}-\d{2}", text) if reading.not_a_date]
    for match in _WIDENED.finditer(text):
        whole = any(m.start <= match.start() and match.end() <= m.end for m in found)
        if not whole and any(match.start() <= m.start and m.end < match.end() for m in found):
            reading.not_understood.append(match.group())
            reading.unknown_spans.append(match.span())
    for match in _TIME_LIKE.finditer(text):
        if _quarter_ranked(text, match):
            continue
        if not any(a <= match.start() < b for a, b in covered + reading.unknown_spans):
            year = match.group().lstrip("'\u2019").isdigit()  # "'24" as "2024"
            context = _YEAR_CONTEXT if year else _CONTEXT
            tail = context.match(text, match.end())
            lead = VERSUS.search(text, 0, match.start())  # "vs 2024": said as a comparison
            begin = lead.start() if lead else match.start()
            phrase = text[begin : match.end()] + (tail.group() if tail else "")
            reading.not_understood.append(phrase.strip())
            reading.unknown_spans.append((begin, begin + len(phrase.rstrip())))
    # A reading inside a phrase not understood, or naming no date, is no reading of it: "in
    # winter 2024" read the whole of 2024, "between 2020 and 2019" the year 2020.
    unread = reading.unknown_spans + bad
    found = [m for m in found if not any(a <= m.start and m.end <= b for a, b in unread)]
    if not found and (ever := _EVER.search(text)):  # "in 2025" in "ever in 2025" is the time
        found.append(TimeMatch(ever.start(), ever.end(), None, EARLIEST, None))
    if found:
        first = min(found, key=lambda m: (m.start, -m.end))
        bound = anchored(text, first, now, _read_unanchored) if anchor else None
        if bound is not None:  # "the Easter weekend in 2008"
            if bound.match is None:
                reading.not_understood.append(text[bound.span[0] : bound.span[1]].strip())
                reading.unknown_spans.append(bound.span)
                return reading
            first = bound.match
            found = [m for m in found if not _within((m.start, m.end), bound.span)] + [first]
        elif anchor and (part := part_in(text, first, now, _read_unanchored)) is not None:
            first = part  # "the first half in 2024": of 2024
            found = [m for m in found if not _within((m.start, m.end), (part.start, part.end))]
            found.append(first)
        if qualified := _qualified(text, first, found):  # "the second week of last month"
            reading.not_understood.append(text[qualified[0] : qualified[1]].strip())
            reading.unknown_spans.append(qualified)
            return reading
        reading.match = first
        later = [m for m in found if m.start >= first.end]
        later = [m for m in later if not any(_inside(m, o) for o in later)]  # "2024" of "in 2024"
        later = _anchored_later(text, later, now) if anchor else later
        reading.ignored = [text[m.start : m.end] for m in later]
        reading.unknown_spans += [(m.start, m.end) for m in later]  # said unused: no name
    return reading


def _unjoined(
    text: str,
    reading: TimeReading,
    apart: list[tuple[tuple[int, int], tuple[Window, ...]]],
    read_spans: list[tuple[int, int]],
) -> None:
    """Periods named together with a gap are not understood as one window, and a union when
    their windows were read (engine/reading/time/unions.py); not inside a phrase another
    rule read ("march and august" of "between march and august")."""
    for (a, b), windows in apart:
        if any(c <= a and b <= d and (c, d) != (a, b) for c, d in read_spans):
            continue
        reading.not_understood.append(text[a:b].strip())
        reading.unknown_spans.append((a, b))
        if windows:
            reading.unions[text[a:b].strip()] = windows


def _anchored_later(text: str, later: list[TimeMatch], now: datetime) -> list[TimeMatch]:
    """A year after a later phrase binds to it too, as to the first ("Q2 2026 versus the
    second quarter in 2014": the second quarter of 2014, compared; it was this year's and "in
    2014" a third time named, the comparison refused). One no row reads with its year stays
    as it was (said unused)."""
    out: list[TimeMatch] = []
    bound: list[tuple[int, int]] = []
    for match in sorted(later, key=lambda m: (m.start, -m.end)):
        if any(a <= match.start and match.end <= b for a, b in bound):
            continue  # the year bound to the phrase before it
        found = anchored(text, match, now, _read_unanchored)
        if found is not None and found.match is not None:
            bound.append(found.span)
            match = found.match
        out.append(match)
    return out


def _read_unanchored(text: str, now: datetime) -> TimeReading:
    return _read(text, now, anchor=False)


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
_RANKS = re.compile(
    r"\b(?:most|busiest|hottest|liveliest|quietest|fewest|least|highest|lowest)\b",
    re.IGNORECASE | re.ASCII,
)


# ... or which of two quarters named was busier ("which quarter was quieter, Q1 2025 or Q2
# 2025?": engine/reading/twoperiods.py compares them; "quarter was quieter" was not a time).
# Without a choice ("which quarter was busier in 2025?") it stays not understood.
_CHOICE = re.compile(r"\b(?:busier|quieter|livelier)\b.*\bor\b", re.IGNORECASE | re.ASCII)


def _qualified(text: str, first: TimeMatch, found: list[TimeMatch]) -> tuple[int, int] | None:
    """The span of a time phrase that a part of a period qualifies, or that a period right
    after it qualifies, where no row reads the whole ("the second week of last month" read
    all of last month, "the last week of last month" the last 7 days with "last month" said
    unused, "Q4 of the previous year" this year's Q4): not understood, never the part read
    alone. A period ranked within it is no part of it (`_RANKED_UNIT`)."""
    before = _PART_OF.search(text, 0, first.start)
    ranked = _RANKED_UNIT.search(text, 0, first.start)
    if ranked is not None and ranked.end() == first.start and _RANKS.search(text):
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


def _quarter_ranked(text: str, match: re.Match[str]) -> bool:
    """ "quarter" of "which quarter ... the most", "the busiest quarter" (`_QUARTER_ASKED`)."""
    if match.group().lower() not in ("quarter", "quarters"):
        return False
    over = any(o.start() <= match.start() < o.end() for o in _QUARTER_OVER.finditer(text))
    if over or _QUARTER_PER.search(text, 0, match.start()):
        return True
    if not _RANKS.search(text) and not _CHOICE.search(text):
        return False
    before = _QUARTER_ASKED.search(text, 0, match.start())
    return before is not None or _QUARTER_WITH.match(text, match.end()) is not None


def _within(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    """A span within a longer one."""
    return outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer


def _inside(inner: TimeMatch, outer: TimeMatch) -> bool:
    """A phrase within a longer one ("2024" of "in 2024")."""
    longer = outer.end - outer.start > inner.end - inner.start
    return longer and outer.start <= inner.start and inner.end <= outer.end
