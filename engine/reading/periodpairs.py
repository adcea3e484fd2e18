"""Two periods as a pair (`Named`), and the second one read from the first: a period written
without the first's year ("in march 2025 vs april": April 2025), "last summer" beside "this
summer" (the one before), the same span a unit earlier ("this yr vs same time last yr"), the
calendar unit before ("Q1 2025 vs the previous quarter"), "year over year", and "this yr vs
last" with its unit left out. engine/reading/comparisons.py finds the periods a question
names with these; engine/reading/uncompared.py names the ones no answer computes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import phrases as tp
from engine.reading.time.calendar import NUMBERS, count_of, span_before
from engine.reading.time.spellings import unit_of
from engine.reading.time.versus import RESTATED


@dataclass(frozen=True, slots=True)
class Named:
    """Two periods a question names to compare, each as written with its window [start,
    end), in the question's order (engine/reading/periods.py answers or refuses them)."""

    phrases: tuple[str, str]
    windows: tuple[tuple[datetime, datetime | None], tuple[datetime, datetime | None]]
    # Where the second period stands when no time rule read it alone ("than the first half"
    # of 2025): its words are the comparison's.
    span: tuple[int, int] | None = None


# Each period against the one a unit before ("year over year", "yoy", "quarter on quarter").
OVER = re.compile(
    r"\b(?:(?P<unit>year|quarter|month)[\s-]+(?:over|on)[\s-]+(?P=unit)|yoy|y/y|qoq)\b", re.I
)
ABBREVIATED = {"yoy": "year", "y/y": "year", "qoq": "quarter"}


# The first period's own span a unit earlier ("this yr vs same time last yr": 1 January to
# now, against 1 January to the same instant a year before; "march vs the same month last
# year"), or in a year named ("Q1 2026 compared to the same quarter of 2025", "July and August
# 2026 vs the same two months of 2025"; "a year earlier"): one group, the unit, or the year.
# Before it, a word joining periods compared, a comparing verb before that ("compare with",
# z39a: "the second quarter of 2026 compare with the same quarter last year" ended on "same")
# and the measure said again ("with commits in the same ..."). It ended on "two times
# named", "same time" garbled into the questions offered.
_SAME_UNITS = (
    r"time|period|span|stretch|point|days?|weeks?|months?|quarters?|half|halves|years?"
    r"|seasons?"
)
SAME = re.compile(
    r"\s*,?\s*(?:(?:compare[sd]?|stack(?:s|ed)?\s+up|measured?)\s+)?"
    r"(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or|with|to|relative\s+to"
    r"|(?:in\s+)?comparison\s+(?:to|with))\s+"
    rf"(?:{RESTATED})?(?:in\s+|during\s+|over\s+)?"
    r"(?P<phrase>(?:(?:the|that)\s+)?same\s+(?:(?P<count>\d{1,2}|[a-z]+)\s+)??"
    rf"(?P<same>{_SAME_UNITS})\s+(?:(?:of|in)\s+)?(?:(?:last|the\s+previous|the\s+prior)\s+"
    r"(?P<unit>[a-z]+)|(?:a|one|the)\s+(?P<before>[a-z]+)\s+(?:before|earlier|ago|prior)"
    r"|(?P<year>(?:19|20)\d\d)))\b",
    re.IGNORECASE,
)
_MONTHS_IN = {"month": 1, "quarter": 3, "half": 6, "year": 12}


def same_time(first: str, time: tp.TimeMatch, same: re.Match[str]) -> Named | None:
    """The first period's span moved back one unit (a year, a quarter, a month) or to the
    year named, with the words naming it as the comparison's (`Named.span`); None for a unit
    no calendar has, the year of the first period itself, or a count of units the first
    period does not span ("Q1 2026 vs the same two months of 2025": which two?), or a week or
    day ("the same week last year") a longer first period holds more of."""
    lead = len(same.group()) - len(same.group().lstrip(" ,"))
    span, phrase = (same.start() + lead, same.end()), same.group("phrase")
    if not _spans(time, same.group("count"), unit_of(same.group("same"))):
        return None
    if same.group("count") is None and _longer(time, same.group("same").lower()):
        return None  # "May 2026 vs the same week last year": which week of May?
    if same.group("year") is not None and time.start_at is not None:
        years = time.start_at.year - int(same.group("year"))
        return None if years == 0 else moved(first, time, 12 * years, phrase, span)
    unit = unit_of(same.group("unit") or same.group("before"))
    if unit == "year" and unit_of(same.group("same")) == "week" and time.start_at is not None:
        # "this week vs the same week last year": the same ISO week, 52 weeks back (Monday
        # to Monday), not the same dates (a year back from Monday 31 August is a Sunday)
        end, back = time.end_at, timedelta(weeks=52)
        earlier = (time.start_at - back, None if end is None else end - back)
        return Named((first, phrase), ((time.start_at, end), earlier), span=span)
    return shifted(first, time, unit, phrase, span)


def _longer(time: tp.TimeMatch, unit: str) -> bool:
    """Whether the first period is longer than the one week or day "the same week/day" names
    ("in May 2026 vs the same week last year" names no week of May; "the same days" are the
    first period's, any length)."""
    if unit not in ("week", "day") or time.start_at is None or time.end_at is None:
        return False
    return (time.end_at - time.start_at).days > (7 if unit == "week" else 1)


def _spans(time: tp.TimeMatch, count: str | None, unit: str) -> bool:
    """Whether the first period spans `count` units (when a count is written: "the same two
    months"); months, weeks and days are counted, any other unit is taken as written."""
    if count is None:
        return True
    n = int(count) if count.isdigit() else NUMBERS.get(count.lower(), 0)
    if time.start_at is None or time.end_at is None or n == 0:
        return False
    start, end = time.start_at, time.end_at
    if unit == "month":
        return tc.months_before(end, n) == start
    if unit in ("week", "day"):
        return (end - start).days == n * (7 if unit == "week" else 1)
    return unit in _MONTHS_IN and tc.months_before(end, n * _MONTHS_IN[unit]) == start


def shifted(
    first: str, time: tp.TimeMatch, unit: str | None, phrase: str, span: tuple[int, int]
) -> Named | None:
    """The first period and its span `unit` earlier, `phrase` (at `span`) naming it."""
    if unit not in _MONTHS_IN:
        return None
    return moved(first, time, _MONTHS_IN[unit], phrase, span)


def moved(
    first: str, time: tp.TimeMatch, months: int, phrase: str, span: tuple[int, int]
) -> Named | None:
    """The first period and its span `months` calendar months earlier (later when < 0)."""
    if time.start_at is None:
        return None
    end = time.end_at
    back = (tc.months_before(time.start_at, months),
            None if end is None else tc.months_before(end, months))  # fmt: skip
    return Named((first, phrase), ((time.start_at, end), back), span=span)


# The calendar unit before the first period ("more commits in 2025 than the year before",
# "Q1 2025 compared with the previous quarter": Q4 2024, where "the previous quarter" was
# read back from now, Q2 2026, and answered against Q1 2025). One group, the unit.
PRIOR = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?:in\s+|during\s+)?"
    r"(?P<phrase>(?:the\s+)?(?:(?:previous|prior|preceding)\s+(?P<unit>week|month|quarter|year)"
    r"|(?P<before>week|month|quarter|year)\s+(?:before|prior|earlier)(?:\s+(?:that|it|then))?))"
    r"(?!\s*[\w'])",
    re.IGNORECASE,
)


def previous(first: str, time: tp.TimeMatch, prior: re.Match[str]) -> Named | None:
    """The whole calendar unit before the one the first period starts in; before a span
    counted back from now, the unit-long span right before it."""
    if time.start_at is None:
        return None
    unit = (prior.group("unit") or prior.group("before")).lower()
    start, end = tc.period_of(unit, time.start_at, -1)
    if tc.period_of(unit, time.start_at)[0] != time.start_at:
        # a span back from now ("the past year vs the year before that"): the unit right
        # before it, never the calendar one (2024 beside 2025-09-01..2026-09-01)
        start, end = span_before(time.start_at, 1, unit), time.start_at
    span = (prior.start("phrase"), prior.end("phrase"))
    return Named((first, prior.group("phrase")), ((time.start_at, time.end_at), (start, end)),
                 span=span)  # fmt: skip


# N units right before the first period ("compare the last six weeks with the six weeks
# before that", "the last 30 days vs the previous 30 days", "the last two months and the two
# months before"): "six" was taken for a subject and "before" not understood (z40a A-C07).
# The joining words as SAME's, and "and" ("how many commits in the last six weeks and the
# six weeks before that?": both figures are given); after "before" only "that", "it", "then"
# or the clause's end, never a time ("the six weeks before March" is a span_of row's).
_COUNT = rf"\d{{1,3}}|a\s+couple(?:\s+of)?|couple(?:\s+of)?|a\s+few|few|{'|'.join(NUMBERS)}"
_COUNTED_UNITS = r"days?|weeks?|fortnights?|months?|quarters?|years?"
COUNTED = re.compile(
    r"\s*,?\s*(?:(?:compare[sd]?)\s+)?(?:than|vs\.?|versus|compared\s+(?:to|with)|against"
    r"|or|with|to|and)\s+"
    rf"(?:{RESTATED})?(?:in\s+|during\s+|over\s+|for\s+)?"
    rf"(?P<phrase>(?:the\s+)?(?:(?:previous|prior|preceding)\s+(?:(?P<n1>{_COUNT})\s+)?"
    rf"(?P<u1>{_COUNTED_UNITS})|(?:(?P<n2>{_COUNT})\s+)?(?P<u2>{_COUNTED_UNITS})\s+"
    r"(?:before|prior|earlier|preceding)(?:\s+(?:that|it|then|those|them|this))?))"
    r"(?=\s*(?:$|[?.!,;:)\-\u2013\u2014]|(?:in|for|on|by|and|how|with|at|each)\b))",
    re.IGNORECASE,
)


def counted(first: str, time: tp.TimeMatch, found: re.Match[str]) -> Named | None:
    """The first period and the N units right before it, the words naming them the
    comparison's (`Named.span`)."""
    if time.start_at is None:
        return None
    if uncounted(found):
        return None  # engine/reading/uncompared.py names it
    # no count: one ("the last fortnight vs the fortnight before that")
    n = found.group("n1") or found.group("n2") or "1"
    unit = found.group("u1") or found.group("u2")
    try:
        start = span_before(time.start_at, count_of(n), unit)
    except ValueError:
        return None
    if start >= time.start_at:
        return None
    span = (found.start("phrase"), found.end("phrase"))
    return Named((first, found.group("phrase")), ((time.start_at, time.end_at),
                 (start, time.start_at)), span=span)  # fmt: skip


def uncounted(found: re.Match[str]) -> bool:
    """Whether COUNTED found units written plural with no count: how many is not said ("the
    last 30 days vs the days before", "2025 vs the years before" were answered against one
    day, 2024 alone); a unit written singular is one ("the fortnight before that")."""
    unit = found.group("u1") or found.group("u2")
    return found.group("n1") is None and found.group("n2") is None and unit.lower().endswith("s")


# A year written, or named as a part's ("the second half of last year compared with the first
# half": the first half of last year, not this year's, answered beside it).
_WRITTEN_YEAR = re.compile(
    r"\b(?:19|20)\d\d\b|'\d\d\b|\bof\s+(?:last|this|the\s+previous)\s+year\b", re.I
)
# Words placing a period from now, and a number ("3 months", "march 5"); not the number of a
# quarter or half ("in Q3 2024 vs Q2" compared Q2 2026, said, with Q3 2024).
_RELATIVE = re.compile(
    r"\b(?:this|last|next|previous|prior|past|current|ago)\b|(?<![qh])\d", re.I
)


def inherited(
    period: str, first: str, time: tp.TimeMatch, now: datetime
) -> tp.TimeMatch | None:
    """A second period written without the year the first one names reads in that year
    ("in march 2025 vs april": April 2025; "the second half of 2025 than the first half":
    the first half of 2025), when it reads so whole. None otherwise, and None when the year
    makes it the first period itself ("in May vs May 2025" compares May 2026, the latest May,
    with May 2025: May 2025 twice was refused as two periods overlapping)."""
    if time.start_at is None or not _WRITTEN_YEAR.search(first) or _RELATIVE.search(period):
        return None
    year = time.start_at.year
    for written in (f"{period} of {year}", f"{period} {year}"):
        found = tp.read_time(written, now).match
        if found is not None and found.start == 0 and found.end == len(written):
            if (found.start_at, found.end_at) == (time.start_at, time.end_at):
                return None
            return found if found.start_at is not None else None
    return None


def again(period: str, time: tp.TimeMatch, now: datetime) -> tp.TimeMatch | None:
    """The second period as written; "last summer" beside "this summer", read as the same
    (the latest summer wholly past), is the one before it."""
    second = read_alone(period, now)
    season = _LAST_SEASON.match(period)
    if second is not None and season and (second.start_at, second.end_at) == (
        time.start_at, time.end_at
    ):
        return read_alone(f"the {season.group(1)} before last", now)
    return second


_LAST_SEASON = re.compile(r"^(?:last|previous)\s+(spring|summer|autumn|fall|winter)$", re.I)


def read_alone(period: str, now: datetime) -> tp.TimeMatch | None:
    """A period as written alone; a bare month after a preposition ("versus august")."""
    found = tp.read_time(period, now).match or tp.read_time(f"in {period}", now).match
    return found if found is not None and found.start_at is not None else None


def pair(first: str, one: tp.TimeMatch, second: str, two: tp.TimeMatch) -> Named:
    assert one.start_at is not None and two.start_at is not None
    return Named((first, second), ((one.start_at, one.end_at), (two.start_at, two.end_at)))


# A period compared with the one before, its unit left out ("this yr vs last", "this month
# compared to the previous one", "last quarter compared with the one before"): the count of
# the first was answered, the rest unsaid. `one`: the words say "one", so the unit is the
# first period's own (the one just named), whatever words name it ("Q2 2025 vs the one
# before"); a bare "last" takes the unit written ("in 2025 vs last": which is not said).
ELIDED = re.compile(
    r"\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against|or)\s+(?P<phrase>(?:the\s+)?"
    r"(?:(?P<one>(?:last|previous|prior|preceding)\s+one|one\s+(?:before|prior|earlier"
    r"|preceding)(?:\s+(?:that|it))?)|last|previous|prior|one\s+before))\b"
    r"(?!\s+(?!(?:in|for|on|at|to)\b)[a-z0-9])",
    re.IGNORECASE,
)


def elided(
    first: str, time: tp.TimeMatch, found: re.Match[str], now: datetime
) -> tuple[str, tuple[datetime, datetime]] | None:
    """The period ELIDED names and its window: the calendar unit before the first period
    when the words say "one" and the first is one whole unit (the quarter before last
    quarter: "the one before" was read as last quarter again, two periods overlapping, not
    answered), else last <unit> of the unit written last ("this yr vs last": last year)."""
    unit = _unit_held(first, time, now) if found.group("one") else None
    if unit is not None and time.start_at is not None:
        window = tc.period_of(unit, time.start_at, -1)
        last = tp.read_time(f"last {unit}", now).match
        same = last is not None and (last.start_at, last.end_at) == window
        return (f"last {unit}" if same else f"the {unit} before"), window
    unit = unit_of(first.split()[-1])
    second = tp.read_time(f"last {unit}", now).match if unit in UNITS else None
    if second is None or second.start_at is None or second.end_at is None:
        return None
    return f"last {unit}", (second.start_at, second.end_at)


def _unit_held(first: str, time: tp.TimeMatch, now: datetime) -> str | None:
    """The calendar unit the first period is one whole of ("last quarter", "Q2 2025" a
    quarter, "2025" a year), or the one under way up to now that its words name ("this
    month", "so far this year"); None for a span that is no calendar unit ("the last 30
    days"). A period under way is one of its written unit only: "this year" starts on a
    month's first day too, and was compared with the month before it ("this year vs the
    previous one": 2026 to date against December 2025); "since January vs the one before"
    names no unit, so no period is taken for it."""
    if time.start_at is None:
        return None
    words = first.split()
    written = unit_of(words[-1]) if words else ""
    for unit in ("week", "month", "quarter", "year"):
        start, end = tc.period_of(unit, time.start_at)
        if start != time.start_at:
            continue
        if time.end_at == end or (time.end_at in (now, None) and written == unit):
            return unit
    return None


UNITS = frozenset({"week", "month", "quarter", "year"})


def dates(start: datetime | None, end: datetime | None) -> str:
    if start is None:
        return ""
    return f" ({tc.iso(start)} to {tc.iso(end) if end else 'now'})"
