"""Calendar words of time phrases: month, weekday, season and number names, and the
periods a date phrase names ("March 2026", "Q4", "H1 2025", "the summer of 2024",
"last Tuesday"), all in UTC and relative to a reference instant `now` (see
engine/reading/time/phrases.py for the phrases themselves)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.numbers import NUMBER_WORDS
from engine.reading.time import holidays, slashdates
from engine.reading.time.spellings import unit_of

MONTH_NAMES = (
    "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug|"
    "september sept sep|october oct|november nov|december dec"
)
MONTHS = {n: i for i, names in enumerate(MONTH_NAMES.split("|"), 1) for n in names.split()}


def _typos(name: str) -> set[str]:
    """A long month name with one letter left out or two swapped ("febuary", "ocotber")."""
    dropped = {name[:i] + name[i + 1 :] for i in range(len(name))}
    swapped = {name[:i] + name[i + 1] + name[i] + name[i + 2 :] for i in range(len(name) - 1)}
    return dropped | swapped


# Month names misspelt by one letter: read as the month, and said (a misspelt month was taken
# for a name nobody has, and the year around it answered). Only names of 6 letters or more:
# a shorter one's ("marh", "arch") are other words.
MONTH_TYPOS = {
    typo: name
    for names in MONTH_NAMES.split("|")
    for name in names.split()[:1]
    if len(name) >= 6
    for typo in _typos(name)
    if typo not in MONTHS and typo != name
}
MONTHS |= {typo: MONTHS[name] for typo, name in MONTH_TYPOS.items()}
# Counts written as words (engine/reading/numbers.py, the one table), and "a" ("a week ago").
NUMBERS = {**NUMBER_WORDS, "a": 1}
# Days of a month named by ordinal words ("the first of October", "the twenty-first of March"):
# the word and the day, as "1st" and "21st" are read; "twenty-first" also written "twenty first".
_ORDINAL_WORDS = [
    *("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"),
    *("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth"),
    *("seventeenth", "eighteenth", "nineteenth", "twentieth"),
]
ORDINAL_DAYS = {word: n for n, word in enumerate(_ORDINAL_WORDS, 1)}
ORDINAL_DAYS |= {f"twenty-{w}": 20 + n for w, n in list(ORDINAL_DAYS.items())[:9]}
ORDINAL_DAYS |= {"thirtieth": 30, "thirty-first": 31}
ORDINAL_DAYS |= {w.replace("-", " "): n for w, n in ORDINAL_DAYS.items() if "-" in w}
# Ordinals of a week of a year ("the ninth week of 2023", "the fifty-second week"): 1-53.
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
WEEK_ORDINALS = {w: n for w, n in ORDINAL_DAYS.items() if n < 20 and " " not in w}
WEEK_ORDINALS |= {f"{t[:-1]}ieth": n for t, n in _TENS.items()}
WEEK_ORDINALS |= {
    f"{t}{sep}{w}": n + m
    for t, n in _TENS.items()
    for w, m in list(ORDINAL_DAYS.items())[:9]
    for sep in ("-", " ")
    if n + m <= 53
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month


# The prepositions a time phrase may start with ("in 2024", "since March"): such a phrase
# is apart from the words before it (engine.reading.time.phrases, engine.reading.time.beside).
LEADS = frozenset(
    {"in", "during", "since", "for", "from", "between", "before", "after", "until", "till"}
    | {"over", "on", "at", "by", "through", "throughout", "within", "as", "prior", "up"}
    | {"til", "upto", "thru", "btwn", "b w"}
)


# Words of time phrases: never read as names (engine.reading.vocabulary, engine.reading.meaning).
TIME_WORDS = frozenset(
    {n for n in MONTHS if len(n) > 3}
    | {"q1", "q2", "q3", "q4", "h1", "h2", "since", "between", "ago", "ytd", "lately"}
    | {"recently", "fortnight", "fortnights", "half", *SEASONS}
    | set(
        [
            "today",
            "yesterday",
            "last",
            "this",
            "previous",
            "past",
            "current",
            "hour",
            "hours",
            "day",
            "days",
            "week",
            "weeks",
            "month",
            "months",
            "quarter",
            "quarters",
            "year",
            "years",
        ]
    )
)

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
    words = _written_short(text.lower(), now).replace(",", " ").replace("'s", "").split()
    words = [w[:-1] if w.endswith(".") and w[:-1] in MONTHS else w for w in words]  # "Sept."
    if words[0] == "the":
        words = words[1:]
    if len(words) == 2 and words[0] in _COUNTED_FROM and words[1] in _UNITS:
        return tc.period_of(words[1], now, -1 if words[0] != "this" else 0)  # "last month"
    if len(words) > 2 and words[-1] == "year" and words[-2] in _COUNTED_FROM:
        shifted = now.year - (1 if words[-2] != "this" else 0)  # "Q3 of last year"
        words = [*(w for w in words[:-2] if w not in ("of", "the")), str(shifted)]
    if len(words) > 3 and words[-1] == "ago" and words[-2] in ("year", "years"):
        shifted = now.year - count_of(words[-3])  # "Q3 of two years ago"
        words = [*(w for w in words[:-3] if w not in ("of", "the")), str(shifted)]
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
    if len(words) == 1 and (numbered := _MONTH_NUMBER.fullmatch(words[0])):
        return _month_number(numbered)
    if len(words) == 1 and (dotted := _DOTTED.fullmatch(words[0])):
        return tc.day_period(int(dotted[3]), int(dotted[2]), int(dotted[1]))
    if len(words) == 1 and words[0][:1].isdigit():
        if re.fullmatch(r"\d{4}/\d{1,2}/\d{1,2}", words[0]):  # year first: one order
            return tc.day_period(*(int(p) for p in words[0].split("/")))
        if "/" in words[0]:  # "07/01/2026": which order (engine/reading/time/slashdates.py)
            return slashdates.day_of(words[0], now)
        if "-" in words[0]:
            return tc.day_period(*(int(p) for p in words[0].split("-")))
        return tc.year_period(int(words[0]))
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
    second = words[0] in ("h2", "second", "2nd", "back", "latter", "later")
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


def count_of(n: str) -> int:
    """A count in digits or words ("3", "three", "a couple": 2, "a few": 3); a decimal
    ("1.5") is no count here: ValueError (it was read as 0)."""
    if "." in n:
        raise ValueError("a decimal count")
    words = n.lower().split()
    if "couple" in words:
        return 2
    if "few" in words:
        return 3
    return int(n) if n.isdigit() else NUMBERS.get(n.lower(), 0)


def _weekday(words: list[str], now: datetime) -> tc.Period:
    """"Tuesday": the latest Tuesday that has begun; "last Tuesday": the latest one before
    today."""
    back = (now.weekday() - WEEKDAYS.index(words[-1])) % 7
    if back == 0 and words[0] in ("last", "past"):
        back = 7
    day = now - timedelta(days=back)
    return tc.day_period(day.year, day.month, day.day)


def amount_of(n: str) -> float:
    """A count that may be a decimal ("1.5 years", "2.5 weeks"), else `count_of`."""
    return float(n) if re.fullmatch(r"\d+\.\d+", n.strip()) else count_of(n)


def span_before(now: datetime, count: float, unit: str) -> datetime:
    """`count` units before `now` (after it, negative). Months, quarters, years and decades
    are calendar months: a decimal count of them must make whole months ("1.5 years": 18;
    "1.5 months" has no half a reader agrees on: ValueError, not understood)."""
    unit = unit_of(unit)
    if unit in ("month", "quarter", "year", "decade"):
        months = count * {"month": 1, "quarter": 3, "year": 12, "decade": 120}[unit]
        if not float(months).is_integer():
            raise ValueError("not a whole number of months")
        return tc.months_before(now, int(months))
    if unit == "fortnight":
        return now - timedelta(days=14 * count)
    return now - timedelta(**{unit + "s": count})
