"""Calendar words of time phrases: month, weekday, season and number names, the leads and
words of time phrases, and counts of units back from `now` ("3 weeks", "1.5 years"). The
periods a date phrase names: engine/reading/time/dateperiods.py; the phrases themselves:
engine/reading/time/phrases.py."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from engine.domain import timecontext as tc
from engine.reading.numbers import NUMBER_WORDS
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
