"""The values a composition rule reads (a slot's words: "the end of last year", "mid-2025",
"3 weeks back", "last month", any date), one row per kind of value in `VALUES`, and the
resolutions and notes of the composition rules of engine/reading/time/rules.py: "since",
"after", "before / until", "from X to Y", "between X and Y", ranges of months with a dash
and of days with "to", fractions of a unit ("the past half year"), the beginning, middle or
end of a period.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import conventions as cv
from engine.reading.time import patterns as p
from engine.reading.time import spans
from engine.reading.time.calendar import MONTHS, amount_of, count_of, span_before
from engine.reading.time.dateperiods import date_period, named_year, nth_last, recent_season
from engine.reading.time.periods import nth_week

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # the open start of "before X"

Groups = tuple[str | None, ...]
Reading = tuple[datetime | None, datetime | None, datetime | None]  # as_of, start, stop
Resolve = Callable[[Groups, datetime], Reading]



def first(g: Groups) -> str:
    return (g[0] or "") if g else ""


def second(g: Groups) -> str:
    return (g[1] or "") if len(g) > 1 else ""


# --- the values a composition reads (a slot's words): one row per kind of value ----------


def _boundary(which: str, whole: tc.Period) -> tc.Period:
    """"the beginning / middle / end of P" alone: P's first, middle or last third; of a year
    or a half, its first or last month ("at the end of last year" read September to December:
    no reader takes September for the end of a year). The middle stays the middle third."""
    if which != "middle" and whole[1] - whole[0] > _QUARTER:
        first = whole[0] if which in ("beginning", "start") else tc.months_before(whole[1], 1)
        return first, tc.months_before(first, -1)
    return spans.third({"beginning": 0, "start": 0, "middle": 1, "end": 2}[which], whole)


_QUARTER = timedelta(days=92)


def _edge(which: str, whole: tc.Period) -> datetime:
    """The instant "the beginning / middle / end of P" names after since, until, from..."""
    if which in ("beginning", "start"):
        return whole[0]
    return whole[1] if which == "end" else _boundary("middle", whole)[0]


def _relative(text: str, now: datetime) -> tc.Period:
    which, unit = text.lower().split()[-2:]  # "the year" is this one; "the previous year"
    return tc.period_of(unit, now, -1 if which in ("last", "previous", "prior") else 0)


def _season_now(text: str, now: datetime) -> tc.Period:
    which, season = text.lower().split()
    return recent_season(season, which, now)


_WEEKEND = re.compile(
    rf"(?:{p.WHICH_WEEKEND}\s+)?(?:the\s+)?weekend(\s+before\s+last)?", re.I | re.A
)


def _weekend(text: str, now: datetime) -> tc.Period:
    found = _WEEKEND.fullmatch(text)
    return spans.weekend(found.groups() if found else (), now)


def _ago(text: str, now: datetime) -> tc.Period:
    words = text.lower().split()
    at = span_before(now, amount_of(" ".join(words[:-2])), words[-2].rstrip("s"))
    return at, at


def half_ago(text: str, now: datetime) -> tc.Period:
    """ "a year and a half ago": 18 months back; "2 weeks and a half back", "two and a half
    weeks ago": 17.5 days."""
    words = [w for w in text.lower().split()[:-1] if w not in ("and", "a", "half")]
    unit = words[-1].rstrip("s")
    at = _and_a_half(count_of(" ".join(words[:-1]) or "a"), unit, now)
    return at, at


def _and_a_half(count: int, unit: str, now: datetime) -> datetime:
    """`count` and a half `unit`s before now (a year's half: 6 months)."""
    if unit == "year":
        return tc.months_before(now, 12 * count + 6)
    return span_before(now, count, unit) - (now - span_before(now, 1, unit)) / 2


def and_a_half(g: Groups, now: datetime) -> Reading:
    """ "the last one and a half years": the last 18 months."""
    return None, _and_a_half(count_of(first(g)), second(g).lower(), now), now


def day_of(text: str, now: datetime) -> tc.Period:
    today = tc.day_period(now.year, now.month, now.day)
    if text.lower() == "yesterday":
        return today[0] - timedelta(days=1), today[0]
    return today


_BOUNDED = re.compile(rf"{p.BOUNDARY}(.+)", re.IGNORECASE | re.ASCII)
_PART = re.compile(r"(early|mid|late)[\s-]+(.+)", re.IGNORECASE | re.ASCII)


def _part(text: str, now: datetime) -> tc.Period:
    found = _PART.fullmatch(text)
    return spans.part(found.groups() if found else (), now)


_NTH_WEEK = re.compile(r"the\s+(\w+(?:[\s-]\w+)?)\s+week\s+of\s+(.+)", re.IGNORECASE | re.ASCII)


def _nth_week(text: str, now: datetime) -> tc.Period:
    found = _NTH_WEEK.fullmatch(text)
    if found is None:
        raise ValueError(f"no week of a period in {text!r}")
    return nth_week(found[1].lower(), spans.named(found[2], now))


_PART_N = re.compile(
    rf"the\s+(first|last|final)\s+{p.NOT_UNITS}(?:{p.N}\s+)?{p.UNIT}\s+of\s+(.+)",
    re.IGNORECASE | re.ASCII,
)


def _part_n(text: str, now: datetime) -> tc.Period:
    found = _PART_N.fullmatch(text)
    if found is None:
        raise ValueError(f"no part of a period in {text!r}")
    return spans.part_n(found.groups(), now)


_THIRD_PART = re.compile(p.THIRDS, re.IGNORECASE | re.ASCII)


def _nth_third(text: str, now: datetime) -> tc.Period:
    found = _THIRD_PART.fullmatch(text)
    return spans.nth_third(found.groups() if found else (), now)


_PARTS = re.compile(rf"(early|mid|late){p.JOINED_THIRDS}(early|mid|late)[\s-]+(.+)", re.I | re.A)


def _parts(text: str, now: datetime) -> tc.Period:
    found = _PARTS.fullmatch(text)
    return spans.parts(found.groups() if found else (), now)


def _nth_last(text: str, now: datetime) -> tc.Period:
    """ "two Fridays ago", "the Friday before last" (two), "2 weekends ago"."""
    words = text.lower().split()
    if words[0] == "the":
        return nth_last(words[1], 2, now)
    return nth_last(words[-2].rstrip("s"), count_of(" ".join(words[:-2])), now)


VALUES: list[tuple[re.Pattern[str], Callable[[str, datetime], tc.Period]]] = [
    (re.compile(p.NTH_WEEK, re.I | re.A), _nth_week),
    (re.compile(p.PART_N, re.I | re.A), _part_n),
    (re.compile(p.THIRD_PART, re.I | re.A), _nth_third),
    (re.compile(p.NTH_LAST, re.I | re.A), _nth_last),
    (re.compile(p.AGO, re.I | re.A), _ago),
    (re.compile(p.HALF_AGO, re.I | re.A), half_ago),
    (re.compile(r"yesterday|today", re.I | re.A), day_of),
    (re.compile(p.WEEKEND, re.I | re.A), _weekend),
    (re.compile(p.RELATIVE, re.I | re.A), _relative),
    (re.compile(p.SEASON_NOW, re.I | re.A), _season_now),
    (re.compile(p.THE_SEASON, re.I | re.A), date_period),  # "the summer": the latest begun
    # a season alone where the slot's pattern placed it after a bound ("since the end of
    # spring"; patterns.SEASON): the latest begun, as "the spring"
    (re.compile(r"spring|summer|autumn|fall|winter", re.I | re.A), date_period),
    (re.compile(p.PARTS, re.I | re.A), _parts),
    (re.compile(p.PART, re.I | re.A), _part),
    (re.compile(p.DATE, re.I | re.A), date_period),
]


def period_of(text: str, now: datetime) -> tc.Period:
    """The period a slot's words name ("last year", "mid-2025", "the end of Q3": its last
    third, "2 weeks ago": that instant); ValueError when no value row reads them."""
    text = text.strip()
    if bounded := _BOUNDED.fullmatch(text):
        return _boundary(bounded[1].lower(), period_of(bounded[2], now))
    for pattern, read in VALUES:
        if pattern.fullmatch(text):
            return read(text, now)
    raise ValueError(f"no value reads {text!r}")


def point_of(text: str, now: datetime, end: bool = False) -> datetime:
    """The instant a slot names where a point is wanted: a boundary's instant ("the end of
    last year": its end), else the period's start (`end`: its end, as "to Y" includes Y)."""
    if bounded := _BOUNDED.fullmatch(text.strip()):
        return _edge(bounded[1].lower(), period_of(bounded[2], now))
    whole = period_of(text, now)
    return whole[1] if end else whole[0]


def _last_end(a: str, b: str, now: datetime) -> datetime:
    """The end of a range's last end; one without a year takes the first end's year, or the
    next ("March 2025 to May" ends with May 2025: it read the last May before now, 2026)."""
    year = named_year(a, now)
    if year is None or named_year(b, now) is not None:
        return point_of(b, now, end=True)
    start = point_of(a, now)
    for y in (year, year + 1):
        try:
            stop = point_of(f"{b} {y}", now, end=True)
        except (ValueError, IndexError):
            break
        if stop > start:
            return stop
    return point_of(b, now, end=True)


def _inherit(a: str, b: str, now: datetime, shift: int = 0) -> str:
    """A range's first end without a year takes its last end's, written or counted from now
    ("from the start of March to the end of May 2025": March 2025; "June to August of last
    year": June 2025), or the year before (`shift` -1)."""
    year = named_year(b, now)
    if year is None or named_year(a, now) is not None:
        return a
    return f"{a} {year + shift}"


_BEFORE_IT = frozenset({"before", "prior", "preceding", "leading", "running"})
_AFTER_IT = frozenset({"after", "following"})
_FROM_IT = frozenset({"from", "starting"})


def span_of(g: Groups, now: datetime) -> Reading:
    """ "the 12 months to March 2026": the 12 months ending with March (whole); "the 3 months
    before March": ending where March starts; "the week after Christmas": from Christmas's end;
    "the 2 weeks from May 3": from its start. One unit when no count is said."""
    count, unit = (count_of(g[0]) if g[0] else 1), (g[1] or "").lower()
    word, point = (g[2] or "").lower().split()[0], g[3] or ""
    if word in _AFTER_IT or word in _FROM_IT:
        start = point_of(point, now, end=word in _AFTER_IT)
        stop = span_before(start, -count, unit)  # counted forward
    else:
        stop = point_of(point, now, end=word not in _BEFORE_IT)
        start = span_before(stop, count, unit)
    if start >= now:
        raise ValueError("a span starting after now")
    return None, start, min(stop, now)


def since_point(g: Groups, now: datetime) -> Reading:
    """"since the end of last year", "since mid-2025", "since 3 weeks back"."""
    return None, point_of(first(g), now), None


def as_of_point(g: Groups, now: datetime) -> Reading:
    """"as of the end of 2023": that instant (never after now)."""
    return min(point_of(first(g), now), now), None, None


def after_point(g: Groups, now: datetime) -> Reading:
    """"after the middle of 2025": from that instant; "after last month": from its end."""
    return None, point_of(first(g), now, end=True), None


def before_point(g: Groups, now: datetime) -> Reading:
    """"before the end of last year", "until mid-2025": everything up to that instant."""
    return None, EARLIEST, min(point_of(first(g), now), now)


def through_point(g: Groups, now: datetime) -> Reading:
    """"through May 2026", "thru Q1": everything up to its end, itself included (as "from X
    through Y" includes Y)."""
    return None, EARLIEST, min(point_of(first(g), now, end=True), now)


def point_range(g: Groups, now: datetime) -> Reading:
    """"from the start of 2025 to the end of Q1 2026", "October through December 2025":
    the first's start (or instant) to the last's end (or instant)."""
    a, b = first(g), second(g)
    stop = _last_end(a, b, now)
    start = point_of(_inherit(a, b, now), now)
    if start >= stop:  # "from November to the end of February 2026": November 2025
        start = point_of(_inherit(a, b, now, -1), now)
    if start >= stop:
        start = point_of(a, now)
    if start >= stop:
        raise ValueError("a range ending before it starts")
    return None, start, min(stop, now)


def day_range(month_first: bool) -> Resolve:
    """"May 3 to 10", "3-10 May 2025", "between March 3 and 10": those days, both whole."""

    def resolve(g: Groups, now: datetime) -> Reading:
        if month_first:
            month, first, last, year = g[0] or "", g[1] or "", g[2] or "", g[3] or ""
        else:
            first, last, month, year = g[0] or "", g[1] or "", g[2] or "", g[3] or ""
        if not year and (named := named_year(month, now)) is not None:  # "of last month"
            month, year = f"{date_period(month, now)[0]:%B}", str(named)
        elif not year and month.lower().split()[-1:] == ["month"]:
            at = date_period(month, now)[0]
            month, year = f"{at:%B}", str(at.year)
        begin = date_period(f"{month} {first} {year}".strip(), now)
        end = date_period(f"{month} {last} {begin[0].year}", now)
        if begin[0] >= end[1]:
            raise ValueError("a range ending before it starts")
        return None, begin[0], min(end[1], now)

    return resolve




def fraction(g: Groups, now: datetime) -> Reading:
    """"the past half year": the last 6 months; "the past half hour", "half a day"."""
    part, unit = first(g).lower(), second(g).lower()
    share = {"half": 2, "quarter": 4}[part]
    if unit == "year":
        return None, tc.months_before(now, 12 // share), now
    whole = timedelta(days=1) if unit == "day" else timedelta(hours=1)
    return None, now - whole / share, now


def year_and_a_half(g: Groups, now: datetime) -> Reading:
    return None, tc.months_before(now, 18), now


def boundary_span(g: Groups, now: datetime) -> tc.Period:
    return _boundary(first(g).lower(), period_of(second(g), now))


def boundary_note(phrase: str) -> str | None:
    words = phrase.lower().split()
    which = next((w for w in ("beginning", "start", "middle", "end") if w in words), None)
    if which is None:
        return None
    third = {"beginning": "first", "start": "first", "middle": "middle", "end": "last"}[which]
    if any(w in MONTHS or w == "month" for w in words[words.index(which) :]):
        return f'"{phrase}" is read as the {third} third of the month ({cv.MONTH_THIRDS})'
    if which != "middle":
        return (f'"{phrase}" is read as the {third} month of the period (of a quarter, a year '
                "or a half; early, mid and late are its thirds)")
    return (f'"{phrase}" is read as the {third} third of the period (as early, mid and late '
            "are: of a year, four months)")


def fraction_note(phrase: str) -> str:
    return f'"{phrase}" is read back from now ("half a year": 6 months)'
