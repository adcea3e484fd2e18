"""Time phrases of bench/generalise.py, drawn from the project's corpus of time phrasings
(tests/data/time_phrases.tsv: each phrase with its reading at the corpus's instant, each
convention stated once), and the half-open window each one means at the bench's clock.
Standard library only: the corpus is read as data, the project is never imported.

Groups, by what the corpus says of a row:
- calendar rows (a phrase naming its years, read as whole days, no word counted from now):
  grouped by the shape of their window (year, quarter, half, season, month, months, dates);
  moved to the year of a commit by adding the same number of years to the phrase's years and
  to its reading ("in Q3 2025" read 2025-07-01..10-01 becomes "in Q3 2019", 2019-07-01..10-01);
- since: "since X" rows naming their year, moved the same way, up to the clock;
- relative: rows counted from now ("in the last 3 months", "lately", "last quarter") that
  `relative` below reads at the corpus's instant exactly as the corpus does; it then reads them
  at the bench's clock;
- refuse_wide: rows whose window is wider than 400 days at the bench's clock (a clarification
  is due); refuse_future: rows counted from now that start after it (refused); unknown: rows
  the corpus marks not understood (a no match naming them is due).
A window still under way ends at the clock; a question naming no time covers the last 365 days,
except a count, ranking or list of people (bench/generalise_cases.asks_whole): the whole history
of what it names, from its first change (a clarification is due when that is over 400 days).
"""

from __future__ import annotations

import calendar
import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "time_phrases.tsv"
DAY = timedelta(days=1)
WIDEST = 400 * DAY
Window = tuple[str, datetime, datetime]
SHAPES = ("year", "quarter", "half", "season", "month", "months", "dates")

_YEAR = re.compile(r"\b(?:19[7-9]\d|2\d{3})\b")
# A winter named by its two years ("2024-25", "2024/25") moves both: the second, written
# short, is the year after the first. Any other digits after a year (a date's month) stay.
_YEAR_OR_SPLIT = re.compile(r"\b(?:19[7-9]\d|2\d{3})(?:[/-]\d{2}\b(?![/-]\d))?")

# Words that count from now, or whose window moved to another year is not the same days (a
# week starts on a Monday, a slash date may be read either way, Easter and the holidays on a
# weekday of a month move): no calendar row.
_NOT_CALENDAR = re.compile(
    r"\b(?:now|today|yesterday|tomorrow|ago|back|last|this|past|previous|prior|current|next"
    r"|coming|recent\w*|lately|late|weeks?|weekend|fortnight|iso|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday|as|on|before|until|till|up|by|through|thru"
    r"|easter|thanksgiving|labor|memorial)\b|/|w\d",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Row:
    """A corpus line: the phrase and its reading (`start`/`end` None: not a window; `end`
    None with a start: up to the corpus's instant)."""

    phrase: str
    reading: str
    start: datetime | None
    end: datetime | None


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@cache
def corpus() -> tuple[datetime, tuple[Row, ...]]:
    """The corpus's instant (from its header) and its rows."""
    text = CORPUS.read_text(encoding="utf-8")
    found = re.search(r"fixed instant, (\d{4}-\d\d-\d\dT\d\d:\d\d)", text)
    assert found is not None, "the corpus names its instant in its header"
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        phrase, reading = line.split("\t")
        start = end = None
        # a union of windows ("A .. B + C .. D": engine/reading/time/unions.py) is in no group
        if ".." in reading and " + " not in reading:
            first, last = (part.strip() for part in reading.split(".."))
            start, end = _instant(first), None if last == "now" else _instant(last)
        rows.append(Row(phrase, reading, start, end))
    return _instant(found[1]), tuple(rows)


def _midnight(t: datetime) -> bool:
    return (t.hour, t.minute, t.second, t.microsecond) == (0, 0, 0, 0)


def _months(start: datetime, end: datetime) -> int | None:
    """Whole calendar months from start to end, None when not whole months."""
    if start.day != 1 or end.day != 1 or not (_midnight(start) and _midnight(end)):
        return None
    return (end.year - start.year) * 12 + end.month - start.month


def shape(start: datetime, end: datetime) -> str:
    n = _months(start, end)
    if n == 12 and start.month == 1:
        return "year"
    if n == 6 and start.month in (1, 7):
        return "half"
    if n == 3 and start.month in (1, 4, 7, 10):
        return "quarter"
    if n == 3:
        return "season"
    if n == 1:
        return "month"
    return "months" if n else "dates"


@cache
def bank() -> dict[str, tuple[Row, ...]]:
    """The corpus's rows by group (refuse_wide and refuse_future as at the corpus's instant:
    `refused` checks them at the bench's clock)."""
    now, rows = corpus()
    groups: dict[str, list[Row]] = {}
    for row in rows:
        for group in _groups(row, now):
            groups.setdefault(group, []).append(row)
    return {group: tuple(found) for group, found in groups.items()}


def _groups(row: Row, now: datetime) -> list[str]:
    if row.reading == "not understood":
        return ["unknown"]
    if row.start is None:
        return []  # a point in time, or no date
    named = bool(_YEAR.search(row.phrase))
    if row.start >= now:
        return ["refuse_future"]
    if (row.end or now) - row.start > WIDEST + 10 * DAY:  # months vary by days
        return ["refuse_wide"]
    since = row.phrase.lower().startswith("since ") and "/" not in row.phrase
    if named and row.end is None and since:
        return ["since"]
    if named and row.end is not None and not _NOT_CALENDAR.search(row.phrase):
        whole = _midnight(row.start) and _midnight(row.end)
        return [shape(row.start, row.end)] if whole else []
    if not named and relative(row.phrase, now) == (row.start, row.end or now):
        return ["relative"]
    return []


def wide(row: Row, now: datetime) -> bool:
    """A row of refuse_wide still wider than 400 days at NOW: one naming its years and up to
    now may not be, nor one counted from now whose width moves with now ("since late last
    year": 443 days at the corpus's instant, 365 on 2026-09-01); one the bench reads (the last
    500 days) is measured, one it cannot read is left out."""
    assert row.start is not None
    if _YEAR.search(row.phrase):
        return (row.end or now) - row.start > WIDEST
    read = relative(row.phrase, now)
    return read is not None and read[1] - read[0] > WIDEST


def future(row: Row, now: datetime) -> bool:
    """A row of refuse_future still after NOW: one counted from now always is."""
    named = bool(_YEAR.search(row.phrase))
    return not named or (row.start is not None and row.start > now)


def _year_moved(match: re.Match[str], years: int) -> str:
    """A year moved by YEARS; a split year ("2024-25") moved whole, else only its year."""
    year, sep, short = int(match[0][:4]), match[0][4:5], match[0][5:]
    if short and int(short) == (year + 1) % 100:
        return f"{year + years}{sep}{(year + years + 1) % 100:02d}"
    return f"{year + years}{match[0][4:]}"


def _moved(row: Row, years: int) -> tuple[str, datetime, datetime | None] | None:
    """The row with its years moved by YEARS: its phrase and its reading (None: a day that
    year lacks, 29 February)."""
    assert row.start is not None
    text = _YEAR_OR_SPLIT.sub(lambda m: _year_moved(m, years), row.phrase)
    try:
        start = row.start.replace(year=row.start.year + years)
        end = row.end.replace(year=row.end.year + years) if row.end else None
    except ValueError:
        return None
    return text, start, end


def anchored(group: str, at: datetime, now: datetime, rng: random.Random) -> Window | None:
    """A phrase of GROUP about the time AT (a commit's): a row moved to AT's year whose window
    holds AT (any such row when none does), None when it would start after NOW or span more
    than 400 days."""
    rows = bank().get(group, ())
    moved = [m for r in rows if r.start and (m := _moved(r, at.year - r.start.year))]
    holding = [m for m in moved if m[1] <= at < (m[2] or now)]
    if not (holding or moved):
        return None
    text, start, end = rng.choice(holding or moved)
    end = min(end or now, now)
    if start >= now or end - start > WIDEST:
        return None
    return text, start, end


def refused(group: str, now: datetime, rng: random.Random) -> str:
    """A phrase the reader must not answer as asked: too wide, in the future, or not a time
    it knows (the corpus's rows of that group, as they stand at NOW)."""
    keep = {"refuse_wide": wide, "refuse_future": future}.get(group, lambda r, t: True)
    return rng.choice([r for r in bank().get(group, ()) if keep(r, now)]).phrase


def relative_phrase(now: datetime, rng: random.Random) -> Window:
    row = rng.choice(bank()["relative"])
    start, end = relative(row.phrase, now) or (now, now)
    return row.phrase, start, end


# --- the windows of phrases counted from now, as the corpus's header states them ----------

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUMBER = {w: n for n, w in enumerate((*_WORDS, "eleven", "twelve"))}
_COUNTS = r"(\d+|a couple of|couple of|a few|few|" + "|".join(_NUMBER) + ")"
_UNITS = r"(hour|day|week|fortnight|month|quarter|year)s?"
_LEAD = r"(?:(?:in|over|during|within|for)\s+)?"
_LAST_N = re.compile(rf"{_LEAD}the\s+(?:last|past)\s+{_COUNTS}\s+{_UNITS}")
_LAST_ONE = re.compile(rf"{_LEAD}the\s+(?:last|past)\s+{_UNITS}")
_PERIOD = re.compile(rf"{_LEAD}(?:the\s+)?(this|last|previous|current)\s+(week|month|quarter|year)")
_VAGUE = re.compile(
    r"lately|recently|of late|as of late|these days|nowadays|in recent (?:days|weeks|months|times)"
)
_SUMMER = re.compile(r"(since\s+)?last\s+summer")


def months_back(t: datetime, n: int) -> datetime:
    month = t.month - 1 - n
    year, month = t.year + month // 12, month % 12 + 1
    return t.replace(year=year, month=month, day=min(t.day, calendar.monthrange(year, month)[1]))


def _month(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def _count(word: str) -> int:
    if "couple" in word:
        return 2
    if "few" in word:
        return 3
    return int(word) if word.isdigit() else _NUMBER[word]


def _back(now: datetime, n: int, unit: str) -> datetime:
    if unit in ("month", "quarter", "year"):
        return months_back(now, n * {"month": 1, "quarter": 3, "year": 12}[unit])
    hours = {"hour": 1, "day": 24, "week": 168, "fortnight": 336}[unit]
    return now - n * timedelta(hours=hours)


def _period(which: str, unit: str, now: datetime) -> tuple[datetime, datetime]:
    day = datetime(now.year, now.month, now.day, tzinfo=UTC)
    if unit == "week":
        start = day - now.weekday() * DAY
        length = 7 * DAY
        return (start - length, start) if which in ("last", "previous") else (start, now)
    if unit == "year":
        start = datetime(now.year, 1, 1, tzinfo=UTC)
        months = 12
    elif unit == "quarter":
        start, months = _month(now.year, (now.month - 1) // 3 * 3 + 1), 3
    else:
        start, months = _month(now.year, now.month), 1
    if which in ("last", "previous"):
        return months_back(start, months), start
    return start, now


def relative(phrase: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The window of a phrase counted from NOW, None for a phrase of another kind: "the
    last N units" (months counted back to the same time of day), "the past month", "this /
    last week, month, quarter, year" (weeks Monday to Sunday), "lately" and its kin (90
    days), "last summer" (the latest June to August ended) and "since last summer"."""
    text = phrase.lower().strip()
    if _VAGUE.fullmatch(text):
        return now - 90 * DAY, now
    if found := _LAST_N.fullmatch(text):
        return _back(now, _count(found[1]), found[2]), now
    if found := _LAST_ONE.fullmatch(text):
        return _back(now, 1, found[1]), now
    if found := _PERIOD.fullmatch(text):
        return _period(found[1], found[2], now)
    if found := _SUMMER.fullmatch(text):
        summer = datetime(now.year if now.month >= 9 else now.year - 1, 6, 1, tzinfo=UTC)
        return (summer, now) if found[1] else (summer, summer.replace(month=9))
    return None
