"""Time phrases naming a part of a period, or a period counted from the current one:
"the first 3 months of 2026", "the last two weeks of 2025", "early / mid / late 2025",
"late August", "the month before last", "last weekend", "since last month", "since 2 weeks
ago", "next month" (the future: refused
as any future time is, never read as the past year). engine.reading.time.phrases finds them with its
own phrases (`phrases` builds their patterns from its date, number and unit patterns); this
module computes the period each one spans and says how a vague one was read.

Early, mid and late split a year into thirds of four months (January-April, May-August,
September-December) and a month into days 1-10, 11-20 and 21 to its end: a convention, so
the answer states it. A weekend is Saturday and Sunday, in UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import slashdates
from engine.reading.time.calendar import MONTHS, SEASONS, count_of, date_period, span_before

RECENT_DAYS = 90  # "lately", "recently", "these days": the last 90 days before `now`
SEASON_NOTE = (
    "Seasons are read as the northern hemisphere's meteorological ones (spring March to May, "
    "summer June to August, autumn September to November, winter December to February)"
)
NAMES = frozenset(
    {"part_n", "part", "next", "before_last", "weekend", "since_then", "bare_year", "iso_week",
     "month_week", "ymd"}
)
# Units a number before them counts ("5 days"), so no week number.
_COUNTED = r"(?:minute|hour|day|week|fortnight|month|quarter|year)s?\b"
_EVENTS = r"(?:release|outage|incident|launch|freeze|migration|rewrite|version|sprint)s?\b"
_THIRDS = {"early": 0, "mid": 1, "late": 2}
# A number naming an issue, a pull request or a version is no year ("who fixed issue 2031?"
# was refused: '"2031": the range start is in the future').
NUMBERED = "".join(
    rf"(?<!\b{w}\s)"
    for w in ("issue", "issues", "pr", "prs", "request", "ticket", "bug", "version", "number")
)


def phrases(date: str, n: str, unit: str, year: str, month: str) -> list[tuple[str, str]]:
    """(name, pattern) of each phrase, from engine.reading.time.phrases' patterns of a date, a
    number (one group), a unit (one group), a year and a month name (no group)."""
    which_year = r"(?:the|this|last|previous)\s+year"
    lead = r"\b(?:(?:in|during|over|for|by)\s+)?"
    return [
        (
            "part_n",
            rf"\b(?:(?:in|during|over|for|within)\s+)?the\s+(first|last|final)\s+(?:{n}\s+)?{unit}"
            rf"\s+of\s+({which_year}|{date})",
        ),
        ("part", rf"{lead}(early|mid|late)[\s-]+({month}(?:\s+{year})?|{year})"),
        ("next", rf"{lead}(?:the\s+)?(next|coming)\s+(week|month|quarter|year)\b"),
        ("next", r"\b(tomorrow)\b"),
        ("before_last", r"\bthe\s+(day|week|month|quarter|year)\s+before\s+(last|yesterday)\b"),
        # A year alone ("core.py 2025 commits", "2024: commits to the tests?"): it was said
        # not understood and the default window answered. Not after a word comparing
        # periods ("vs 2024": engine.resolving.questiontime says so), nor naming an event ("the 2024
        # release"): those stay not understood. Nor the year of a date written another way
        # ("on 2026/03/04" read the whole of 2026, the day dropped unsaid).
        ("bare_year", rf"(?<![\w#./@-])(?<!vs\s)(?<!vs\.\s)(?<!versus\s)(?<!against\s)"
                      rf"(?<!to\s)(?<!with\s)(?<!fy\s)(?<!fiscal\syear\s){NUMBERED}({year})"
                      rf"(?![/.]\d)(?!\s+{_EVENTS})"),
        ("since_then", r"\bsince\s+(last|this|previous)\s+(week|month|quarter|year)\b"),
        ("since_then", rf"\bsince\s+{n}\s+{unit}\s+ago\b"),
        ("weekend", r"\b(?:(last|this|past|previous)\s+weekend|(?:over|on)\s+the\s+weekend)\b"),
        # An ISO week ("week 32", "in week 32 of 2025", "ISO week 1 2026", "week 32 of last
        # year", "2025-W32"); not a number that counts a unit ("the week 5 days ago") nor a
        # week of a month ("week 2 of March": its days, never ISO week 2 in January).
        ("iso_week", rf"{lead}(?:the\s+)?(?:iso\s+|calendar\s+)?week\s+(?:no\.?\s*|number\s+|#)?"
                     rf"(\d{{1,2}})(?!\d)(?!\s+(?:of\s+)?{month})(?!\s+{_COUNTED})"
                     rf"(?:,?\s+(?:of\s+)?({year}|{which_year}))?"),
        ("iso_week", rf"{lead}()(19[7-9]\d|2\d{{3}})-?w(\d{{2}})\b"),
        # A date written year first with slashes ("on 2026/03/04"): year, month, day in that
        # order wherever it is written (its year alone read the whole year). Not with dots:
        # "2025.1.2" may be a version (calendar versioning), said not understood.
        ("ymd", rf"\b(?:(?:on|for)\s+)?{NUMBERED}(19[7-9]\d|2\d{{3}})(/)(\d{{1,2}})/(\d{{1,2}})"
                r"(?!\d)(?![/.]\d)"),
        # A week of a month by its number ("week 2 of March 2026"), as "the second week of".
        ("month_week", rf"{lead}(?:the\s+)?week\s+([1-4])\s+of\s+({month}(?:\s+{year})?)"),
    ]  # fmt: skip


def period(name: str, g: tuple[str | None, ...], now: datetime) -> tc.Period:
    """The period one phrase names (it may lie in the future: the caller refuses it);
    ValueError when it names no real period."""
    a, b = (g[0] or "").lower(), (g[1] or "").lower() if len(g) > 1 else ""
    if name == "part_n":
        whole = _named(g[3] or "", now)
        count, unit = count_of(b) if b else 1, (g[2] or "").lower()  # "the last quarter of"
        if a == "first":
            part = whole[0], span_before(whole[0], -count, unit)
        else:
            part = span_before(whole[1], count, unit), whole[1]
        if count <= 0 or part[0] < whole[0] or part[1] > whole[1]:
            raise ValueError("a part longer than the period")
        return part
    if name == "part":
        return _third(_THIRDS[a], date_period(b, now))
    if name == "next":
        if a == "tomorrow":
            return tc.day_period(now.year, now.month, now.day)[1], tc.day_period(
                now.year, now.month, now.day
            )[1] + timedelta(days=1)
        return tc.period_of(b, now, 1)
    if name == "iso_week":
        return _iso_week(int(a or (g[2] or "0")), _week_year(b, now), now)
    if name == "ymd":
        return tc.day_period(int(a), int(g[2] or 0), int(g[3] or 0))
    if name == "month_week":  # days 1-7, 8-14, ... of the month
        start = date_period(b, now)[0] + timedelta(days=7 * (int(a) - 1))
        return start, start + timedelta(days=7)
    if name == "bare_year":
        return tc.year_period(int(a))
    if name == "since_then":  # "since last month": from its start; "since 2 weeks ago"
        if a in ("last", "this", "previous"):
            return tc.period_of(b, now, 0 if a == "this" else -1)[0], now
        return span_before(now, count_of(a), b), now
    if name == "before_last":
        return tc.period_of(a, now, -2) if a != "day" else _day(now, -2)
    monday = tc.week_period(now)[0]
    if a in ("last", "past", "previous") or (not a and now.weekday() < 5):
        monday -= timedelta(days=7)
    return monday + timedelta(days=5), monday + timedelta(days=7)


def _convention(name: str, phrase: str) -> str | None:
    """How a phrase of a convention was read, for the answer to state."""
    if name == "part":
        words = phrase.lower().replace("-", " ").split()
        if any(w in MONTHS for w in words):
            third = next(w for w in words if w in _THIRDS)
            return (
                f'"{phrase}" is read as days {_DAYS[third]} of the month (early: 1-10, mid: '
                "11-20, late: 21 to its end)"
            )
        return (
            f'"{phrase}" is read as a third of the year (early: January to April, mid: May '
            "to August, late: September to December)"
        )
    if name == "ymd":
        return f'"{phrase}" is read as year/month/day'
    if name == "month_week":
        n = int(re.findall(r"\d+", phrase)[0])
        return (
            f'"{phrase}" is read as the month\'s days {7 * n - 6}-{7 * n}, not a Monday-to-Sunday '
            "week"
        )
    if name == "weekend":
        return f'"{phrase}" is read as that Saturday and Sunday (UTC)'
    if name == "iso_week":
        named = re.search(r"\d{4}|\byear\b", phrase, re.IGNORECASE)
        year = "" if named else ", in the most recent year it has begun"
        return f'"{phrase}" is read as that ISO week (Monday to Sunday, UTC){year}'
    return None


_DAYS = {"early": "1-10", "mid": "11-20", "late": "21 to the end"}


def _named(text: str, now: datetime) -> tc.Period:
    words = text.lower().split()
    if words[-1:] == ["year"] and len(words) == 2:
        return tc.period_of("year", now, -1 if words[0] in ("last", "previous") else 0)
    return date_period(text, now)


def _third(third: int, whole: tc.Period) -> tc.Period:
    """The first, middle or last third of a year (four months each) or of a month (days
    1-10, 11-20, 21 to its end)."""
    start = whole[0]
    if (whole[1] - start).days > 31:  # a year
        return (
            tc.month_period(start.year, 1 + 4 * third)[0],
            tc.month_period(start.year, 4 + 4 * third)[1],
        )
    begin = start + timedelta(days=10 * third)
    return begin, whole[1] if third == 2 else begin + timedelta(days=10)


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


def note(name: str, phrase: str) -> str | None:
    """How a vague phrase was read, for the answer to state."""
    if name in NAMES:
        return _convention(name, phrase)
    if "/" in phrase and (slashed := slashdates.note(phrase)):
        return slashed
    if re.search(r"christmas|xmas|new\s+year", phrase, re.IGNORECASE):
        return f'"{phrase}" is read with Christmas as 25 December and New Year as 1 January (UTC)'
    if name == "recent":
        return f'"{phrase}" is read as the last {RECENT_DAYS} days'
    words = phrase.lower().split()
    if "few" in words or "couple" in words:
        return f'"{phrase}" is read with "a couple" as 2 and "a few" as 3'
    if name == "week_of":
        return f'"{phrase}" is read as the Monday-to-Sunday week holding that day'
    if name == "nth_week":
        days = {"first": "1-7", "second": "8-14", "third": "15-21", "fourth": "22-28"}
        which = next((w for w in phrase.lower().split() if w in days), None)
        span = f"days {days[which]}" if which else "last 7 days"
        whose = "year" if re.search(r"of\s+\d{4}", phrase) else "month"
        return f'"{phrase}" is read as the {whose}\'s {span}, not a Monday-to-Sunday week'
    if any(season in phrase.lower().split() for season in SEASONS):
        return SEASON_NOTE
    return None
