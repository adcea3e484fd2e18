"""What the phrases naming a part of a period, or a period counted from the current one,
span: "the first 3 months of 2026", "the last two weeks of 2025", "early / mid / late 2025",
"late August", "the month before last", "last weekend", "since last month", "since 2 weeks
ago", "next month" (the future: refused as any future time is, never read as the past year),
ISO weeks, weeks of a month; and the notes that state how a convention or a vague phrase was
read. The rules naming them are rows of engine/reading/time/rules.py.

Early, mid and late split a year into thirds of four months (January-April, May-August,
September-December) and a month into days 1-10, 11-20 and 21 to its end: a convention, so
the answer states it. A weekend is Saturday and Sunday, in UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import conventions, holidays, periods, slashdates
from engine.reading.time.calendar import MONTHS, SEASONS, amount_of, count_of, span_before
from engine.reading.time.dateperiods import date_period, recent_season

RECENT_DAYS = 90  # "lately", "recently", "these days": the last 90 days before `now`
SEASON_NOTE = (
    "Seasons are read as the northern hemisphere's meteorological ones (spring March to May, "
    "summer June to August, autumn September to November, winter December to February)"
)
THIRDS = {"early": 0, "mid": 1, "late": 2}
_COUNTED_SEASON = frozenset({"last", "this", "previous", "past"})  # as patterns.SEASON_NOW
_DAYS = {"early": "1-10", "mid": "11-20", "late": "21 to the end"}

Groups = tuple[str | None, ...]


def part_n(g: Groups, now: datetime) -> tc.Period:
    """ "the first 3 months of 2026", "the last quarter of 2025": a part at either end."""
    a, b = (g[0] or "").lower(), (g[1] or "").lower()
    whole = named(g[3] or "", now)
    count, unit = count_of(b) if b else 1, (g[2] or "").lower()
    if a == "first":
        part = whole[0], span_before(whole[0], -count, unit)
    else:
        part = span_before(whole[1], count, unit), whole[1]
    if count <= 0 or part[0] < whole[0] or part[1] > whole[1]:
        raise ValueError("a part longer than the period")
    return part


def part(g: Groups, now: datetime) -> tc.Period:
    """ "early 2025", "mid-2025", "late August": a third of the year or month."""
    return third(THIRDS[(g[0] or "").lower()], named(g[1] or "", now))


def parts(g: Groups, now: datetime) -> tc.Period:
    """ "mid-to-late 2024", "early and mid 2025": from the first third's start to the last's
    end (each was read as its last third alone, the first word unsaid)."""
    a, b = THIRDS[(g[0] or "").lower()], THIRDS[(g[1] or "").lower()]
    if a >= b:
        raise ValueError("a range of thirds ending before it starts")
    whole = named(g[2] or "", now)
    return third(a, whole)[0], third(b, whole)[1]


_NTH_THIRD = {"first": 0, "second": 1, "middle": 1, "third": 2, "last": 2, "final": 2}
_NTH_THIRD |= {"early": 0, "earlier": 0, "latter": 2, "later": 2}  # "the latter part of"


def nth_third(g: Groups, now: datetime) -> tc.Period:
    """ "the last third of 2023", "the first third of last year": a third of the period, as
    early, mid and late are."""
    return third(_NTH_THIRD[(g[0] or "").lower()], named(g[1] or "", now))


def nth_third_note(phrase: str) -> str:
    """The thirds of the period named, as `part_note` says them for early, mid and late."""
    which = next(w for w in phrase.lower().split() if w in _NTH_THIRD)
    return part_note(phrase, ("early", "mid", "late")[_NTH_THIRD[which]])


def following(g: Groups, now: datetime) -> tc.Period:
    """ "next month", "the coming week", "tomorrow": in the future (refused by the caller)."""
    a, b = (g[0] or "").lower(), (g[1] or "").lower() if len(g) > 1 else ""
    if a == "tomorrow":
        today = tc.day_period(now.year, now.month, now.day)
        return today[1], today[1] + timedelta(days=1)
    return tc.period_of(b, now, 1)


def before_last(g: Groups, now: datetime) -> tc.Period:
    """ "the month before last", "the day before yesterday", "the fortnight before last"."""
    a = (g[0] or "").lower()
    if a == "fortnight":  # the 14 days before the past fortnight (itself the last 14 days)
        return now - timedelta(days=28), now - timedelta(days=14)
    return tc.period_of(a, now, -2) if a != "day" else _day(now, -2)


def since_then(g: Groups, now: datetime) -> tc.Period:
    """ "since last month": from its start; "since 2 weeks ago": from then; up to now."""
    a, b = (g[0] or "").lower(), (g[1] or "").lower()
    if a in ("last", "this", "previous"):
        return tc.period_of(b, now, 0 if a == "this" else -1)[0], now
    return span_before(now, amount_of(a), b), now


def to_date(g: Groups, now: datetime) -> tc.Period:
    """ "month to date", "qtd": the calendar week, month, quarter or year under way."""
    which = (g[0] or g[1] or "").lower()
    unit = {"y": "year", "q": "quarter", "m": "month", "w": "week"}.get(which, which)
    return tc.period_of(unit, now)


def weekend(g: Groups, now: datetime) -> tc.Period:
    """ "last weekend", "this weekend": a Saturday and Sunday; "over the weekend": the latest
    begun; "the weekend before last": the one before last weekend."""
    a = " ".join((g[0] or "").lower().split()) if g else ""
    before_last = len(g) > 1 and bool(g[1])
    monday = tc.week_period(now)[0]
    if before_last or a in ("last", "past", "previous", "this past"):
        monday -= timedelta(days=14 if before_last else 7)
    elif not a and now.weekday() < 5:
        monday -= timedelta(days=7)
    return monday + timedelta(days=5), monday + timedelta(days=7)


def weekend_of(g: Groups, now: datetime) -> tc.Period:
    """ "the weekend of August 22": the Saturday and Sunday of the Monday-to-Sunday week
    holding that day."""
    monday = tc.week_period(date_period(g[0] or "", now)[0])[0]
    return monday + timedelta(days=5), monday + timedelta(days=7)


def iso_week(g: Groups, now: datetime) -> tc.Period:
    """ "week 32", "week 32 of 2025", "2025-W32": an ISO week."""
    a, b = (g[0] or "").lower(), (g[1] or "").lower()
    return _iso_week(int(a or (g[2] or "0")), _week_year(b, now), now)


def ymd(g: Groups, now: datetime) -> tc.Period:
    """ "on 2026/03/04": year, month, day."""
    return tc.day_period(int(g[0] or 0), int(g[2] or 0), int(g[3] or 0))


def month_week(g: Groups, now: datetime) -> tc.Period:
    """ "week 2 of March": days 1-7, 8-14, ... of the month."""
    start = date_period(g[1] or "", now)[0] + timedelta(days=7 * (int(g[0] or 1) - 1))
    return start, start + timedelta(days=7)


def decade(g: Groups, now: datetime) -> tc.Period:
    """ "the 2010s": 2010 to 2019."""
    first = int(g[0] or 0)
    return tc.year_period(first)[0], tc.year_period(first + 10)[0]


def decade_note(phrase: str) -> str:
    first = int(re.findall(r"\d{4}", phrase)[0])
    return f'"{phrase}" is read as the years {first} to {first + 9}'


def dotted_note(phrase: str) -> str | None:
    """ "31.12.2022": day, month, year."""
    found = re.search(r"\b\d{1,2}\.\d{1,2}\.\d{4}\b", phrase)
    return f'"{found.group()}" is read as day.month.year' if found else None


def holiday_week(g: Groups, now: datetime) -> tc.Period:
    """ "Thanksgiving week 2022": the Monday-to-Sunday week holding the holiday."""
    return tc.week_period(date_period(f"{g[0] or ''} {g[1] or ''}".strip(), now)[0])


def holiday_week_note(phrase: str) -> str:
    said = holidays.conventions(phrase)
    return f'"{phrase}" is read as the Monday-to-Sunday week holding the day' + (
        f", with {said} (UTC)" if said else ""
    )


def bare_year(g: Groups, now: datetime) -> tc.Period:
    return tc.year_period(int(g[0] or 0))


def part_note(phrase: str, which: str | None = None) -> str:
    """How a third was read (`which`: early, mid or late, when the phrase says it otherwise:
    "the last third of March")."""
    words = phrase.lower().replace("-", " ").split()
    if (
        "quarter" in words
        or any(re.fullmatch(r"q[1-4]|h[12]|half", w) for w in words)
        or any(w in ("spring", "summer", "autumn", "fall") for w in words)
    ):
        return (
            f'"{phrase}" is read as a third of the period (of a quarter or a season: its '
            "first, second or third month; of a half: two months)"
        )
    if any(w in MONTHS for w in words) or "month" in words:
        which = which or next(w for w in words if w in THIRDS)
        days = _DAYS[which]
        return f'"{phrase}" is read as days {days} of the month ({conventions.MONTH_THIRDS})'
    return f'"{phrase}" is read as a third of the year ({conventions.YEAR_THIRDS})'


def ymd_note(phrase: str) -> str:
    return f'"{phrase}" is read as year/month/day'


def month_week_note(phrase: str) -> str:
    n = int(re.findall(r"\d+", phrase)[0])
    return (
        f'"{phrase}" is read as the month\'s days {7 * n - 6}-{7 * n}, not a Monday-to-Sunday week'
    )


def weekend_note(phrase: str) -> str:
    return f'"{phrase}" is read as that Saturday and Sunday (UTC)'


def weekend_of_note(phrase: str) -> str:
    return (
        f'"{phrase}" is read as the Saturday and Sunday of the Monday-to-Sunday week holding '
        "that day (UTC)"
    )


def iso_week_note(phrase: str) -> str:
    named_year = re.search(r"\d{4}|\byear\b", phrase, re.IGNORECASE)
    year = "" if named_year else ", in the most recent year it has begun"
    return f'"{phrase}" is read as that ISO week (Monday to Sunday, UTC){year}'


def recent_note(phrase: str) -> str:
    return f'"{phrase}" is read as the last {RECENT_DAYS} days'


def week_of_note(phrase: str) -> str:
    return f'"{phrase}" is read as the Monday-to-Sunday week holding that day'


def nth_week_note(phrase: str) -> str:
    """ "the second week of March": the month's days 8-14; "the ninth week of 2023": the
    year's days 57-63 (week 9 of 2023 is the ISO week)."""
    found = re.search(r"the\s+(.+?)\s+week\s+of\s+(.+)$", phrase, re.IGNORECASE)
    which = found[1].lower() if found else "last"
    if which in ("last", "final"):
        span = "last 7 days"
    else:
        n = periods.week_number(which)
        span = f"days {7 * n - 6}-{7 * n}"
    whole = found[2].lower().split() if found else ["month"]
    of_year = not any(w in MONTHS or w == "month" for w in whole)
    iso = ' ("week N of a year" is the ISO week)' if of_year else ""
    return (
        f'"{phrase}" is read as the {"year" if of_year else "month"}\'s {span}, not a '
        f"Monday-to-Sunday week{iso}"
    )


def general_note(phrase: str, own: str | None) -> str | None:
    """How a phrase was read where a convention of its words applies (a slash date, a
    holiday, "a few"), else `own`, the note of its rule, else its season's convention."""
    if "/" in phrase and (slashed := slashdates.note(phrase)):
        return slashed
    if "." in phrase and (dotted := dotted_note(phrase)):
        return dotted
    if said := holidays.note(phrase):
        return said
    if own is not None:
        return own
    if half := conventions.half_month(phrase):
        return half
    words = phrase.lower().split()
    if "few" in words or "couple" in words:
        return f'"{phrase}" is read with "a couple" as 2 and "a few" as 3'
    if any(season in words for season in SEASONS):
        return SEASON_NOTE
    return None


def named(text: str, now: datetime) -> tc.Period:
    """A period named by a date phrase, or "the year", "this year", "last year", or a season
    counted from now ("last spring": dateperiods.recent_season)."""
    words = text.lower().split()
    if len(words) == 2 and words[-1] in ("year", "quarter", "month"):  # "the year", "last month"
        return tc.period_of(words[-1], now, -1 if words[0] in ("last", "previous") else 0)
    if len(words) == 2 and words[-1] in SEASONS and words[0] in _COUNTED_SEASON:
        return recent_season(words[-1], "this" if words[0] == "this" else "last", now)
    return date_period(text, now)


def third(which: int, whole: tc.Period) -> tc.Period:
    """The first, middle or last third of a year (four months each) or of a month (days
    1-10, 11-20, 21 to its end); of any other period, its thirds by days."""
    start = whole[0]
    days = (whole[1] - start).days
    if days > 92:  # a year, or a half (thirds of whole months)
        months = round(days / 30.4)
        size = max(months // 3, 1)
        first = tc.months_before(start, -size * which)
        return first, whole[1] if which == 2 else tc.months_before(first, -size)
    if days > 31:  # a quarter or a season: its months
        first = tc.months_before(start, -which)
        return first, tc.months_before(first, -1)
    if days >= 28:  # a month
        begin = start + timedelta(days=10 * which)
        return begin, whole[1] if which == 2 else begin + timedelta(days=10)
    size = max(days // 3, 1)  # a week: its days by thirds, the last third the rest
    begin = start + timedelta(days=size * which)
    return begin, whole[1] if which == 2 else begin + timedelta(days=size)


def _week_year(text: str, now: datetime) -> int | None:
    """The ISO year of "week N of ...": a year, "last year", "this year"; None: not said."""
    if not text:
        return None
    if text[0].isdigit():
        return int(text)
    return now.year - 1 if text.split()[0] in ("last", "previous") else now.year


def _iso_week(week: int, year: int | None, now: datetime) -> tc.Period:
    """ISO week `week` (Monday to Sunday) of the ISO year named, else the most recent one
    that has begun; ValueError for a week that year has not (week 53 of most years)."""
    if year is not None:
        monday = date.fromisocalendar(year, week, 1)
        start = datetime(monday.year, monday.month, monday.day, tzinfo=UTC)
        return start, start + timedelta(days=7)
    for back in (0, 1, 2):
        try:
            found = _iso_week(week, now.year - back, now)
        except ValueError:
            continue
        if found[0] <= now:
            return found
    raise ValueError("no such week")


def _day(now: datetime, shift: int) -> tc.Period:
    start = tc.day_period(now.year, now.month, now.day)[0] + timedelta(days=shift)
    return start, start + timedelta(days=1)
