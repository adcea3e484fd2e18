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
Calendar words and the periods of date phrases: engine/reading/time/calendar.py. What looks
like time and is reported unread: engine/reading/time/timelike.py; a phrase a part of a period
qualifies: engine/reading/time/qualifiers.py.

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
from engine.reading.time import apposed, conventions
from engine.reading.time.anchored import anchored, part_in
from engine.reading.time.compositions import EARLIEST
from engine.reading.time.qualifiers import qualified
from engine.reading.time.rules import RULES
from engine.reading.time.slashdates import WhichDay
from engine.reading.time.spellings import written_out
from engine.reading.time.timelike import EVER, reported
from engine.reading.time.unions import NotJoined, Window
from engine.reading.time.versus import VERSUS  # "2025 vs 2024": the words, as rows

__all__ = ["EARLIEST", "VERSUS", "TimeMatch", "TimeReading", "read_time"]


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
    _matched(text, now, reading, found, apart, bad)
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
    reported(text, reading, found, covered)
    # A reading inside a phrase not understood, or naming no date, is no reading of it: "in
    # winter 2024" read the whole of 2024, "between 2020 and 2019" the year 2020.
    unread = reading.unknown_spans + bad
    found = [m for m in found if not any(a <= m.start and m.end <= b for a, b in unread)]
    # "from the initial commit in 2015 until today": its year and end are the whole history's
    whole = [e.span() for e in EVER.finditer(text)]
    found = [m for m in found if not any(_within((m.start, m.end), w) for w in whole)]
    if not found and (ever := EVER.search(text)):  # "in 2025" in "ever in 2025" is the time
        found.append(TimeMatch(ever.start(), ever.end(), None, EARLIEST, None))
    found = apposed.read(text, found, reading, now)  # "the holidays, from Dec 20 to Jan 5"
    if found:
        _chosen(text, now, reading, found, anchor)
    return reading


def _matched(
    text: str,
    now: datetime,
    reading: TimeReading,
    found: list[TimeMatch],
    apart: list[tuple[tuple[int, int], tuple[Window, ...]]],
    bad: list[tuple[int, int]],
) -> None:
    """Every rule's matches (RULES): read into `found`, or periods with a gap (`apart`), a
    slash date asked which day, or phrases naming no real date (`bad`)."""
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


def _chosen(
    text: str, now: datetime, reading: TimeReading, found: list[TimeMatch], anchor: bool
) -> None:
    """The one ranker: the first phrase (then the longest) is used, with a year after it bound
    to it; later ones are said unused; one a part of a period qualifies is not understood."""
    first = min(found, key=lambda m: (m.start, -m.end))
    bound = anchored(text, first, now, _read_unanchored) if anchor else None
    if bound is not None:  # "the Easter weekend in 2008"
        if bound.match is None:
            reading.not_understood.append(text[bound.span[0] : bound.span[1]].strip())
            reading.unknown_spans.append(bound.span)
            return
        first = bound.match
        found = [m for m in found if not _within((m.start, m.end), bound.span)] + [first]
    elif anchor and (part := part_in(text, first, now, _read_unanchored)) is not None:
        first = part  # "the first half in 2024": of 2024
        found = [m for m in found if not _within((m.start, m.end), (part.start, part.end))]
        found.append(first)
    if qualifying := qualified(text, first, found):  # "the second week of last month"
        reading.not_understood.append(text[qualifying[0] : qualifying[1]].strip())
        reading.unknown_spans.append(qualifying)
        return
    reading.match = first
    later = [m for m in found if m.start >= first.end]
    later = [m for m in later if not any(_inside(m, o) for o in later)]  # "2024" of "in 2024"
    later = _anchored_later(text, later, now) if anchor else later
    reading.ignored = [text[m.start : m.end] for m in later]
    reading.unknown_spans += [(m.start, m.end) for m in later]  # said unused: no name


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


def _within(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    """A span within a longer one."""
    return outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer


def _inside(inner: TimeMatch, outer: TimeMatch) -> bool:
    """A phrase within a longer one ("2024" of "in 2024")."""
    longer = outer.end - outer.start > inner.end - inner.start
    return longer and outer.start <= inner.start and inner.end <= outer.end
