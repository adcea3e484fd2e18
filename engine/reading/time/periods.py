"""The periods some time phrases name beyond a plain date (engine.reading.time.calendar): a week of
a month ("the first week of May"), the start of a range whose first end has no year ("between
May and July 2025"), and the period a point phrase carries ("on 2026-08-18", "2 weeks ago").
engine.reading.time.phrases reads the phrases; these compute what they span."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.domain import timecontext as tc
from engine.reading.time.calendar import WEEK_ORDINALS
from engine.reading.time.dateperiods import date_period, named_year

if TYPE_CHECKING:
    from engine.reading.time.phrases import TimeMatch

# A period named without its year is the latest begun, unless under this share of it has
# passed: then the one before ("in fall", asked on 1 September, was the 12 hours of this
# fall). Only for periods of a month or longer: a day or a weekday named is the latest begun.
JUST_BEGUN = 10  # under a tenth
_COUNTED = frozenset({"this", "last", "previous", "past", "current", "next", "prior"})


def meant(text: str, now: datetime) -> tc.Period:
    """The period a date phrase names (dateperiods.date_period), or, when it names no year and
    under a tenth of the latest such period has passed, the one before it."""
    start, stop = date_period(text, now)
    if not just_begun(text, (start, stop), now):
        return start, stop
    return date_period(text, start - tc.MICROSECOND)


def just_begun(text: str, period: tc.Period, now: datetime) -> bool:
    """A period named without its year, of a month or longer, under a tenth passed."""
    start, stop = period
    words = set(text.lower().replace(",", " ").split())
    if named_year(text, now) is not None or words & _COUNTED or re.search(r"\d", text):
        return False
    return stop - start >= timedelta(days=28) and (now - start) * JUST_BEGUN < stop - start


def nth_week(which: str, whole: tc.Period) -> tc.Period:
    """"The first week of May": May 1 to 7 (the second 8 to 14, ...); "the last week of
    May": its last seven days; "the ninth week of 2023": its days 57-63. Stated
    (spans.nth_week_note): a week here is not a Monday-to-Sunday one. A week past the
    period's end ("the fifth week of February") is no date (ValueError)."""
    if which in ("last", "final"):
        return whole[1] - timedelta(days=7), whole[1]
    start = whole[0] + timedelta(days=7 * (week_number(which) - 1))
    if start + timedelta(days=7) > whole[1]:
        raise ValueError("a week past the period's end")
    return start, start + timedelta(days=7)


def week_number(which: str) -> int:
    """ "ninth", "9th", "twenty-first": 9, 9, 21."""
    which = which.lower()
    if which[:1].isdigit():
        return int(which.rstrip("stndrh"))
    return WEEK_ORDINALS[re.sub(r"\s+", " ", which)]


def first_of(a: str, b: str, last: tc.Period, now: datetime) -> tc.Period:
    """The start of "between A and B": A without a year takes B's ("between May and July
    2025" is May 2025, not the last May before now, which ended the range before it began),
    or the year before when that falls after B ("between November and February 2026")."""
    year = named_year(b, now)
    if year is None or named_year(a, now) is not None:
        return date_period(a, now)
    for y in (year, year - 1):
        try:
            first = date_period(f"{a} {y}", now)
        except ValueError:
            return date_period(a, now)
        if first[0] < last[1]:
            return first
    return date_period(a, now)


def last_of(a: str, b: str, last: tc.Period, now: datetime) -> tc.Period:
    """The end of "between A and B" when A names a year and B does not: B's first occurrence
    ending after A began, in A's year or the next ("between August 2025 and September" is
    September 2025, not the last September before now; "between Christmas 2024 and New Year"
    ends on 1 January 2025). Otherwise `last`, B as read alone."""
    year = named_year(a, now)
    if year is None or named_year(b, now) is not None:
        return last
    start = date_period(a, now)[0]
    for y in (year, year + 1):
        try:
            found = date_period(f"{b} {y}", now)
        except (ValueError, IndexError):
            return last
        if found[1] > start:
            return found
    return last


def latest_span(a: str, b: str, now: datetime) -> tuple[tc.Period, tc.Period] | None:
    """ "between Easter and Labor Day", "between March and May", neither end with a year:
    the most recent such span that has begun, A's latest start not after now to B's first
    occurrence ending after it (a span under way stops at now, as any period does). None when
    an end names a year, or B takes none ("last month", a weekday)."""
    if named_year(a, now) is not None or named_year(b, now) is not None:
        return None
    first = date_period(a, now)
    for year in (first[0].year, first[0].year + 1):
        try:
            last = date_period(f"{b} {year}", now)
        except (ValueError, IndexError):
            return None
        if last[1] > first[0]:
            return first, last
    return None


def own_period(text: str, time: TimeMatch) -> TimeMatch:
    """A point phrase in a question counting over time reads its own period ("how many
    commits on 2026-08-18?" counts that day, not the year before it)."""
    if time.period is None:
        return time
    phrase = text[time.start : time.end]
    note = time.note  # how a slash date was read ("on 03/09/2026")
    if not phrase.lower().startswith("on"):
        note = f'"{phrase}" is read as the {_length(time.period)} that began then'
    return replace(time, as_of=None, start_at=time.period[0], end_at=time.period[1], note=note)


def _length(period: tuple[datetime, datetime]) -> str:
    days = (period[1] - period[0]).days
    return "day" if days <= 1 else f"{days} days"


def end_of(phrase: str, now: datetime) -> datetime:
    """The instant "as of PHRASE" names: the end of the day or period named (as of = up to
    and including it: "as of yesterday" read only that day, "as" left unused), `now` for
    one still under way ("as of today", "as of this month")."""
    words = phrase.lower().split()
    if words == ["yesterday"]:
        return tc.day_period(now.year, now.month, now.day)[0]
    if words[0] in ("last", "previous"):
        return tc.period_of(words[-1], now, -1)[1]
    return now
