"""The resolutions of the time rules (engine/reading/time/rules.py): each turns a rule's
match groups into instants at a reference instant `now` (as_of, start, stop), or names the
period a point phrase counts over. One function per kind of row; the rows say which.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import compositions as c
from engine.reading.time import holidays, spans
from engine.reading.time.calendar import SEASONS, WEEKDAYS, amount_of, count_of, span_before
from engine.reading.time.compositions import EARLIEST, Groups, Reading, Resolve
from engine.reading.time.dateperiods import date_period, named_year, recent_season
from engine.reading.time.dateperiods import nth_last as calendar_nth_last
from engine.reading.time.periods import end_of, first_of, last_of, latest_span, meant, nth_week
from engine.reading.time.spellings import unit_of
from engine.reading.time.unions import NotJoined, Window, windows


def span(make: Callable[[Groups, datetime], tc.Period]) -> Resolve:
    """A rule naming a period: it is bounded by `now` (a period under way stops at now)."""

    def resolve(g: Groups, now: datetime) -> Reading:
        start, stop = tc.bounded(make(g, now), now)
        return None, start, stop

    return resolve


# --- resolutions of the rows -------------------------------------------------------------


def ranged(both: bool) -> Resolve:
    """"between A and B", "from A to B", "2019-2020": A's start to B's end, a year or month
    missing on one end taken from the other; "in A and B" (both): the two, in either order."""

    def resolve(g: Groups, now: datetime) -> Reading:
        a, b = c.first(g), c.second(g)
        if not both and (latest := latest_span(a, b, now)) is not None:
            first, last = latest  # neither end with a year: the latest begun
        else:
            last = last_of(a, b, date_period(b, now), now)
            first = first_of(a, b, last, now)
        if first[0] >= last[1] and both:  # "in 2025 and 2024": both, in order
            first, last = last, date_period(a, now)
        elif first[0] >= last[1]:
            raise ValueError("a range ending before it starts")  # "2020-2019": said
        covered = (first[1] - first[0]) + (last[1] - last[0])
        if both and first[1] < last[0] and covered <= tc.MAX_RANGE:
            # "in Jan and March 2024" was answered over January to March, February counted:
            # two periods with a gap are no one window but a union (unions.py); wider
            # together ("in 2023 and 2025") stay refused by the 400-day rule, as before
            raise NotJoined("periods with a gap between them are no one window", _apart(a, b, now))
        return None, first[0], tc.bounded((first[0], last[1]), now)[1]

    return resolve


def _apart(a: str, b: str, now: datetime) -> tuple[Window, ...]:
    """ "in Jan and March 2024": the two periods, a union (engine/reading/time/unions.py)."""
    try:
        return windows([a, b], now)
    except (ValueError, IndexError):
        return ()


def year_first(g: Groups, now: datetime) -> Reading:
    """"in 2022, between March and May": March to May of that year."""
    year, a, b = g[0] or "", g[1] or "", g[2] or ""
    return ranged(both=False)((a, f"{b} {year}"), now)


def year_after(g: Groups, now: datetime) -> Reading:
    """"between May and July in 2025": May to July of that year."""
    return year_first((g[2], g[0], g[1]), now)


def since(g: Groups, now: datetime) -> Reading:
    return None, date_period(c.first(g), now)[0], None


def since_day(g: Groups, now: datetime) -> Reading:
    """"since yesterday": from its start up to now."""
    today = tc.day_period(now.year, now.month, now.day)[0]
    return None, today - timedelta(days=1 if c.first(g).lower() == "yesterday" else 0), None


def after(g: Groups, now: datetime) -> Reading:
    return None, date_period(c.first(g), now)[1], None


def before(g: Groups, now: datetime) -> Reading:
    return None, EARLIEST, min(date_period(c.first(g), now)[0], now)


def as_of(g: Groups, now: datetime) -> Reading:
    return date_period(c.first(g), now)[0], None, None


def as_of_end(g: Groups, now: datetime) -> Reading:
    return end_of(c.first(g), now), None, None


def recent(g: Groups, now: datetime) -> Reading:
    return None, now - timedelta(days=spans.RECENT_DAYS), now


def last_n(g: Groups, now: datetime) -> Reading:
    return None, span_before(now, amount_of(c.first(g)), c.second(g)), now


def past(g: Groups, now: datetime) -> Reading:
    return None, span_before(now, 1, c.first(g)), now


def ago_point(g: Groups, now: datetime) -> Reading:
    return span_before(now, amount_of(c.first(g)), c.second(g)), None, None


def ago_period(g: Groups, as_of: datetime, now: datetime) -> tc.Period | None:
    """"2 weeks ago" counted over: the unit-long window that began then."""
    count, unit = amount_of(c.first(g)), c.second(g).lower()
    stop = span_before(now, count - 1, unit) if count > 1 else now
    return tc.bounded((as_of, stop), now)


def half_ago_period(g: Groups, as_of: datetime, now: datetime) -> tc.Period | None:
    """"a year and a half ago" counted over: the year that began then (as "2 years ago")."""
    words = [w for w in c.first(g).lower().split()[:-1] if w not in ("and", "a", "half")]
    unit = words[-1].rstrip("s")
    return tc.bounded((as_of, span_before(as_of, -1, unit)), now)


def day_period(g: Groups, as_of: datetime, now: datetime) -> tc.Period | None:
    """"on 2026-08-18" counted over: that day."""
    return tc.bounded((as_of, as_of + timedelta(days=1)), now)


def week_of(g: Groups, now: datetime) -> tc.Period:
    return tc.week_period(date_period(c.first(g), now)[0])


def nth_week_of(g: Groups, now: datetime) -> tc.Period:
    return nth_week(c.first(g).lower(), spans.named(c.second(g), now))


def year_to_date(g: Groups, now: datetime) -> tc.Period:
    return tc.year_period(now.year)


def season(g: Groups, now: datetime) -> tc.Period:
    return recent_season(c.second(g).lower(), c.first(g).lower(), now)


def nth_last(g: Groups, now: datetime) -> tc.Period:
    """ "two Fridays ago", "the Friday before last" (no count: two), "two summers ago", "2
    weekends ago": counted back from "last Friday", "last summer", "last weekend"."""
    count = count_of(c.first(g)) if c.first(g) else 2
    return calendar_nth_last(c.second(g).lower().rstrip("s"), count, now)


def nth_last_note(phrase: str) -> str:
    """What "two Fridays ago" and "two summers ago" count back from, said."""
    words = phrase.lower().split()
    vague = ' ("a couple" as 2, "a few" as 3)' if {"couple", "few"} & set(words) else ""
    if any(w.rstrip("s") in SEASONS for w in words):
        return (f'"{phrase}" is counted back from the latest such season that has ended'
                f"{vague}. {spans.SEASON_NOTE}")
    if any(w.startswith("weekend") for w in words):
        return f'"{phrase}" is counted back from last weekend, a Saturday and Sunday (UTC){vague}'
    return f'"{phrase}" is counted back from the latest such day before today{vague}'


def relative_period(g: Groups, now: datetime) -> tc.Period:
    shift = -1 if c.first(g).lower() in ("last", "previous", "prior") else 0
    return tc.period_of(unit_of(c.second(g)), now, shift)


def day(g: Groups, now: datetime) -> tc.Period:
    return c.day_of(c.first(g), now)


def dated(g: Groups, now: datetime) -> tc.Period:
    """ "in March", "in fall", "Q3": the latest begun, unless it has just begun
    (periods.meant)."""
    return meant(c.first(g), now)


def season_of_year(g: Groups, now: datetime) -> tc.Period:
    """ "spring in 2021", "the summer months of 2023": as "spring 2021"."""
    return date_period(f"{c.first(g)} {c.second(g)}", now)


def holiday_around(g: Groups, now: datetime) -> tc.Period:
    """ "over Christmas 2025": the days around it (holidays.AROUND), whole; without a year
    the latest begun."""
    return _days_around(g, now, holidays.AROUND)


def holiday_weekend(g: Groups, now: datetime) -> tc.Period:
    """ "Easter weekend 2025": the long weekend it makes (holidays.WEEKEND), as `holiday_around`
    reads the days around it."""
    return _days_around(g, now, holidays.WEEKEND)


def _days_around(g: Groups, now: datetime, table: dict[str, tuple[int, int, str]]) -> tc.Period:
    name = holidays.which((g[0] or "").lower().replace("'s", "").replace("\u2019s", "").split())
    if name is None or (name not in table and table is not holidays.AROUND):
        raise ValueError("no holiday named")

    def days(year: int) -> tc.Period:
        first, last = holidays.around(name, year, table)
        start = tc.day_period(first.year, first.month, first.day)[0]
        return start, tc.day_period(last.year, last.month, last.day)[1]

    which = (g[0] or "").lower().split()[0]
    if g[1]:
        return days(year_of(g[1], now))
    if which == "this":  # "around this Easter": this year's
        return days(now.year)
    if which == "last":  # "around last Thanksgiving": the latest wholly past
        return days(now.year) if days(now.year)[1] <= now else days(now.year - 1)
    return tc.most_recent(days, now)


def holiday_around_note(phrase: str) -> str | None:
    name = holidays.which(phrase.lower().replace("'s", "").replace("\u2019s", "").split())
    if name is None or name not in holidays.AROUND:
        return None
    return f'"{phrase}" is read with {holidays.AROUND[name][2]} (UTC)'


def holiday_weekend_note(phrase: str) -> str | None:
    name = holidays.which(phrase.lower().replace("'s", "").replace("\u2019s", "").split())
    if name is None or name not in holidays.WEEKEND:
        return None
    return f'"{phrase}" is read with {holidays.WEEKEND[name][2]} (UTC)'


def _weekday(word: str) -> int:
    """ "Monday", "mon", "Tues": 0, 0, 1."""
    word = word.lower()
    return next(i for i, day in enumerate(WEEKDAYS) if day.startswith(word[:3]))


def weekdays(g: Groups, now: datetime) -> tc.Period:
    """ "Monday through Friday last week": those days of that week, both whole; without a
    week, the latest such span begun ("mon-fri" on a Wednesday: this Monday to now)."""
    first, last, week = _weekday(g[0] or ""), _weekday(g[1] or ""), (g[2] or "").lower()
    if week:
        which = week.split()
        back = which[0] in ("last", "previous", "prior") or "previous" in which
        shift = -2 if "before" in which else (-1 if back else 0)
        monday = tc.week_period(now, shift)[0]
        if last < first:
            raise ValueError("a range ending before it starts")
        return monday + timedelta(days=first), monday + timedelta(days=last + 1)
    today = tc.day_period(now.year, now.month, now.day)[0]
    start = today - timedelta(days=(now.weekday() - first) % 7)
    return start, start + timedelta(days=(last - first) % 7 + 1)


def years_part(g: Groups, now: datetime) -> tc.Period:
    """ "last year's Q4": Q4 of last year."""
    return date_period(f"{c.second(g)} of {c.first(g)}", now)


def _days(first: date, last: date) -> tc.Period:
    """From the first day's start to the last day's end."""
    return tc.day_period(first.year, first.month, first.day)[0], tc.day_period(
        last.year, last.month, last.day
    )[1]


def holiday_season(g: Groups, now: datetime) -> tc.Period:
    """ "over the holidays", "the Christmas break 2025": holidays.SEASON of that year, else
    the latest begun."""

    def days(year: int) -> tc.Period:
        return _days(*holidays.season(year))

    return days(year_of(g[0], now)) if g and g[0] else tc.most_recent(days, now)


def year_of(text: str, now: datetime) -> int:
    """The year a holiday's days are of: "2025", "'25", "last year", "this year", "two years
    ago"."""
    words = text.lower().split()
    if words[-1:] == ["ago"]:
        return now.year - count_of(words[0])
    year = named_year(text, now)
    if year is None:
        raise ValueError(f"no year in {text!r}")
    return year


def holiday_season_note(phrase: str) -> str:
    return f'"{phrase}" is read with {holidays.SEASON[2]} (UTC)'


def christmas_to_new_year(g: Groups, now: datetime) -> tc.Period:
    """ "between Christmas and New Year 2025": the holidays the year names, 25 December 2025
    to 1 January 2026 (it read 2024-12-25 to 2025-01-01: the year taken as New Year's)."""
    year = int(g[1] or 0)
    eve = (g[0] or "").lower() == "eve"
    return _days(date(year, 12, 25), date(year, 12, 31) if eve else date(year + 1, 1, 1))


def christmas_to_new_year_note(phrase: str) -> str:
    return (
        f'"{phrase}" is read as the holidays of the year named: from Christmas Day of that year '
        "to New Year's Day after it, both whole (UTC)"
    )
