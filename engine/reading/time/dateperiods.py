"""The periods a date phrase names ("March 2026", "Q4", "H1 2025", "the summer of 2024", "last
Tuesday", "Easter 2025", "the first half of May"), all in UTC and relative to a reference
instant `now`; the seasons counted back ("last summer", "two summers ago"). The calendar's
words: engine/reading/time/calendar.py; the phrases: engine/reading/time/phrases.py."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.time import holidays, slashdates
from engine.reading.time.calendar import MONTHS, ORDINAL_DAYS, SEASONS, WEEKDAYS, count_of

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_ORDINALS |= {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
# A quarter as engine.reading.time.phrases reads it: "q3 2025", "q3 of 2025", "q3-2025", "2025 q3",
# "2025-q3", "third quarter of 2025", "q3".
_QUARTER = re.compile(
    r"(?:q(?P<q>[1-4])|(?P<nth>first|second|third|fourth|1st|2nd|3rd|4th) quarter)"
    r"(?: of|\s*[-/])?\s*(?P<year>\d{4})?|(?P<year2>\d{4})\s*-?\s*q(?P<q2>[1-4])"
)


_ORDINAL_DAY = re.compile(
    r"\b(?:" + "|".join(sorted(ORDINAL_DAYS, key=len, reverse=True)) + r")\b"
)


# A period counted from the current one, inside a date phrase ("Q3 of last year",
# "mid last month").
_COUNTED_FROM = frozenset({"this", "last", "previous", "prior"})
_UNITS = frozenset({"week", "month", "quarter", "year"})


# A month by its number and year ("03/2024", "2024-03", "2024/03"); patterns.MONTH_NUMBER
# finds it.
_MONTH_NUMBER = re.compile(r"(\d{1,2})/(\d{4})|(\d{4})[-/](\d{2})")


# A day written with dots ("31.12.2022"): day, month, year, as it is written wherever dots
# are (patterns.DOTTED finds it).
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


def _month_number(found: re.Match[str]) -> tc.Period:
    """ "03/2024", "2024-03", "2024/03": that month; "2011-12" may be two years (the 2011-12
    season) as well as December 2011: not read."""
    year, month = int(found[2] or found[3]), int(found[1] or found[4])
    if found[3] and month == (year + 1) % 100:
        raise ValueError("a month or a pair of years")
    return tc.month_period(year, month)


# A quarter or half written short ("3Q25", "Q3-25", "1H 2025"; patterns.QUARTER_SHORT): as
# "q3 2025", "h1 2025". An apostrophe year may have been written out already ("q32025").
_NUMBER_FIRST = re.compile(r"\b([1-4])([qh])(?=[\s\-'\u2019]|\d|$)")
_SHORT_YEAR = re.compile(r"\b([qh][1-4])\s*[-'\u2019]?\s*(\d{4}|\d{2})(?!\d)")
_YEAR_FIRST = re.compile(r"\b(\d{4})\s*-?\s*(h[12])\b")  # "2025 h2": "h2 2025"


def _written_short(text: str, now: datetime) -> str:
    def year(found: re.Match[str]) -> str:
        digits = int(found[2])
        if digits >= 100:
            return f"{found[1]} {digits}"
        return f"{found[1]} {2000 + digits if 2000 + digits <= now.year else 1900 + digits}"

    text = _YEAR_FIRST.sub(lambda m: f"{m[2]} {m[1]}", text)
    return _SHORT_YEAR.sub(year, _NUMBER_FIRST.sub(lambda m: f"{m[2]}{m[1]}", text))


def named_year(text: str, now: datetime) -> int | None:
    """The year a date phrase names: written ("May 2025"), or counted from now ("May of last
    year"); None when it names none."""
    text = _written_short(text.lower(), now)
    if found := re.search(r"\b(\d{4})\b", text):
        return int(found.group(1))
    words = text.lower().split()
    if words[-1:] == ["year"] and len(words) >= 2 and words[-2] in _COUNTED_FROM:
        return now.year - (1 if words[-2] != "this" else 0)
    return None


def date_period(text: str, now: datetime) -> tc.Period:
    """A date phrase (2026-03-01, 13/01/2026, 1 March 2026, March 1, March 2026, March, Q4
    2024, 2023, H1 2025, the first half of 2025, summer 2024)."""
    words = _words(text, now)
    if len(words) == 2 and words[0] in _COUNTED_FROM and words[1] in _UNITS:
        return tc.period_of(words[1], now, -1 if words[0] != "this" else 0)  # "last month"
    words = _year_counted(words, now)
    if holidays.which(words[:4]) is not None:  # "Easter 2025", "last Labor Day"
        return _holiday(words, now)
    if "half" in words or words[0] in ("h1", "h2"):
        return _half(words, now)
    if words[-1] in WEEKDAYS:
        return _weekday(words, now)
    if words[0] in SEASONS and len(words) == 1:  # "summer": the latest that has begun
        return tc.most_recent(lambda y: _season(words[0], y), now)
    if words[0] in SEASONS:
        return _season(words[0], _split_year(words[-1]) if words[0] == "winter" else int(words[-1]))
    if quarter := _QUARTER.fullmatch(" ".join(words)):
        which = int(quarter["q"] or quarter["q2"] or _ORDINALS[quarter["nth"]])
        year = quarter["year"] or quarter["year2"]
        if year:
            return tc.quarter_period(int(year), which)
        return tc.most_recent(lambda y: tc.quarter_period(y, which), now)
    if len(words) == 1 and (numeric := _numeric(words[0], now)) is not None:
        return numeric
    return _month_or_day(words, now)


def _words(text: str, now: datetime) -> list[str]:
    """The phrase's words, a quarter or half written short as written out ("3Q25": "q3
    2025"), "Sept." as "sept", without a leading "the"."""
    words = _written_short(text.lower(), now).replace(",", " ").replace("'s", "").split()
    words = [w[:-1] if w.endswith(".") and w[:-1] in MONTHS else w for w in words]  # "Sept."
    return words[1:] if words[0] == "the" else words


def _year_counted(words: list[str], now: datetime) -> list[str]:
    """A year counted from now as its number: "Q3 of last year", "Q3 of two years ago"."""
    if len(words) > 2 and words[-1] == "year" and words[-2] in _COUNTED_FROM:
        shifted = now.year - (1 if words[-2] != "this" else 0)  # "Q3 of last year"
        words = [*(w for w in words[:-2] if w not in ("of", "the")), str(shifted)]
    if len(words) > 3 and words[-1] == "ago" and words[-2] in ("year", "years"):
        shifted = now.year - count_of(words[-3])  # "Q3 of two years ago"
        words = [*(w for w in words[:-3] if w not in ("of", "the")), str(shifted)]
    return words


def _numeric(word: str, now: datetime) -> tc.Period | None:
    """A date written in digits alone ("03/2024", "31.12.2022", "2026/03/01", "07/01/2026",
    "2026-03-01", "2023"); None when the word starts with none."""
    if numbered := _MONTH_NUMBER.fullmatch(word):
        return _month_number(numbered)
    if dotted := _DOTTED.fullmatch(word):
        return tc.day_period(int(dotted[3]), int(dotted[2]), int(dotted[1]))
    if not word[:1].isdigit():
        return None
    if re.fullmatch(r"\d{4}/\d{1,2}/\d{1,2}", word):  # year first: one order
        return tc.day_period(*(int(p) for p in word.split("/")))
    if "/" in word:  # "07/01/2026": which order (engine/reading/time/slashdates.py)
        return slashdates.day_of(word, now)
    if "-" in word:
        return tc.day_period(*(int(p) for p in word.split("-")))
    return tc.year_period(int(word))


def _month_or_day(words: list[str], now: datetime) -> tc.Period:
    """A month named, or a day of it ("1 March 2026", "March 1", "the 5th of last month",
    "last November"); ValueError when no month is named."""
    if words[-1] == "month" and len(words) > 2 and words[-2] in {*_COUNTED_FROM, "the"}:
        # "the 5th of last month": that month, named ("the month": this one)
        at = tc.period_of("month", now, 0 if words[-2] in ("this", "the") else -1)[0]
        words = [*words[:-2], f"{at:%B}".lower(), str(at.year)]
    if len(words) == 2 and words[0] in _LAST and words[1] in MONTHS:  # "last November"
        return tc.most_recent(lambda y: tc.month_period(y, MONTHS[words[1]]), _ended(now))
    words = _ORDINAL_DAY.sub(lambda m: str(ORDINAL_DAYS[m.group()]), " ".join(words)).split()
    month = next((MONTHS[w] for w in words if w in MONTHS), None)
    if month is None:
        raise ValueError("no month named")
    numbers = [w.rstrip("stndrh") for w in words if w[:1].isdigit()]
    year = next((int(n) for n in numbers if len(n) == 4), None)
    day = next((int(n) for n in numbers if len(n) <= 2), None)
    if day is not None:
        if year is not None:
            return tc.day_period(year, month, day)
        return tc.most_recent(lambda y: tc.day_period(y, month, day), now)
    if year is not None:
        return tc.month_period(year, month)
    return tc.most_recent(lambda y: tc.month_period(y, month), now)


_LAST = frozenset({"last", "previous", "past"})


def _ended(now: datetime) -> datetime:
    """The instant before the current month: a month begun by then has ended by `now`."""
    return tc.month_period(now.year, now.month)[0] - timedelta(microseconds=1)


def _holiday(words: list[str], now: datetime) -> tc.Period:
    """A holiday's day (engine/reading/time/holidays.py) in the year named, else the most
    recent one that has begun ("last Easter": the most recent one that has ended; "this
    Christmas": this year's)."""
    which = words[0] if words[0] in ("last", "this") else None
    name = holidays.which(words)
    if name is None:
        raise ValueError("no holiday named")
    eve = "eve" in words

    def on(year: int) -> tc.Period:
        found = holidays.day(name, year, eve)
        return tc.day_period(found.year, found.month, found.day)

    year = next((int(w) for w in words if w.isdigit() and len(w) == 4), None)
    if year is not None:
        return on(year)
    if which == "this":
        return on(now.year)
    if which == "last":
        ended = on(now.year)
        return ended if ended[1] <= now else on(now.year - 1)
    return tc.most_recent(on, now)


def _half(words: list[str], now: datetime) -> tc.Period:
    """H1/H2 of a year, or the first/second half of a year (this year, last year) or of a
    month (days 1-15, and from the 16th to its end)."""
    second = words[0] in ("h2", "second", "2nd", "back", "latter", "later", "last", "final")
    named = [w for w in words[2:] if w != "of"]
    if named[-1:] == ["month"] or any(w in MONTHS for w in named):
        start, stop = date_period(" ".join(named), now)
        middle = start + timedelta(days=15)
        return (middle, stop) if second else (start, middle)

    def half(year: int) -> tc.Period:
        start = tc.month_period(year, 7 if second else 1)[0]
        return start, tc.month_period(year, 12 if second else 6)[1]

    if words == [words[0]]:  # "H2" alone: the most recent one that has started
        return tc.most_recent(half, now)
    year = int(words[-1]) if words[-1].isdigit() else now.year
    if words[-2:] == ["last", "year"]:
        year -= 1
    return half(year)


def _split_year(text: str) -> int:
    """ "2025/26", "2025-2026": the first year of two running on (a winter's: December 2025
    to February 2026); ValueError for any other pair ("2025/27" names no winter)."""
    first, second = re.split(r"\s*[/-]\s*", text)
    if int(second) not in (int(first) + 1, (int(first) + 1) % 100):
        raise ValueError("no winter spans those years")
    return int(first)


def _season(name: str, year: int) -> tc.Period:
    """The season of that name beginning in `year` (winter: December to February)."""
    start = tc.month_period(year, SEASONS[name])[0]
    return start, tc.month_period(year, SEASONS[name] + 2)[1]


def recent_season(name: str, which: str, now: datetime) -> tc.Period:
    """"last summer": the latest one that has ended by `now`; "this summer": the current
    year's (this winter: the latest one that has begun)."""
    if which == "this":
        if name == "winter":
            return _season(name, now.year if now.month == 12 else now.year - 1)
        return _season(name, now.year)
    year = now.year
    while _season(name, year)[1] > now:
        year -= 1
    return _season(name, year)


def season_before_last(name: str, now: datetime) -> tc.Period:
    """"the summer before last": the one before last summer (`recent_season`)."""
    return nth_last(name, 2, now)


def nth_last(name: str, count: int, now: datetime) -> tc.Period:
    """ "two Fridays ago", "two summers ago", "2 weekends ago": the `count`th latest, "last
    Friday" (the latest before today), "last summer" (the latest ended) or "last weekend"
    (the one before this week's) being the first."""
    if count < 1:
        raise ValueError("no such one")
    if name in SEASONS:
        start, stop = recent_season(name, "last", now)
        return start.replace(year=start.year - count + 1), stop.replace(year=stop.year - count + 1)
    if name == "weekend":  # Saturday 00:00 to Monday 00:00 before this week's Monday
        monday = tc.week_period(now)[0] - timedelta(weeks=count - 1)
        return monday - timedelta(days=2), monday
    start, stop = date_period(f"last {name}", now)
    back = timedelta(weeks=count - 1)
    return start - back, stop - back


def _weekday(words: list[str], now: datetime) -> tc.Period:
    """"Tuesday": the latest Tuesday that has begun; "last Tuesday": the latest one before
    today."""
    back = (now.weekday() - WEEKDAYS.index(words[-1])) % 7
    if back == 0 and words[0] in ("last", "past"):
        back = 7
    day = now - timedelta(days=back)
    return tc.day_period(day.year, day.month, day.day)
