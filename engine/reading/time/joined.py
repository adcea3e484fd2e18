"""Periods joined into one window by a word saying so: "Jan and Feb 2024 combined", "Q1 and
Q2 2025 together", "June, July and August 2025 taken together", "2013 and 2014 in total".
Each was read as two times named and refused (or the last alone answered, the rest unsaid).

The periods must follow one another (each ends where the next starts, in any order written):
the window is then the first's start to the last's end, a period without a year taking the
last's ("Jan and Feb 2024": January 2024). Periods with a gap between ("Jan and March 2024
combined") are no one window: not understood, named, never the span over the gap. A window
wider than 400 days is refused by the seed rule afterwards, as any is ("2013 and 2014
combined": 730 days).
"""

from __future__ import annotations

import re
from datetime import datetime
from itertools import pairwise

from engine.domain import timecontext as tc
from engine.reading.time.calendar import date_period, named_year
from engine.reading.time.compositions import Groups, Reading

# The words joining periods into one window, as rows.
JOINING = (
    r"(?:combined|together|taken\s+together|put\s+together|in\s+total|altogether|jointly"
    r"|summed(?:\s+up)?|as\s+a\s+whole|as\s+one(?:\s+(?:period|window))?)\b"
)


class NotJoined(ValueError):
    """Periods named to be joined that do not follow one another: not understood."""


def _parts(g: Groups) -> list[str]:
    first, middle, last = g[0] or "", g[1] or "", g[2] or ""
    return [first, *(m.strip() for m in re.split(r"\s*,\s*", middle) if m.strip()), last]


def combined(g: Groups, now: datetime) -> Reading:
    """ "Jan and Feb 2024 combined": January 1 to March 1, 2024."""
    parts = _parts(g)
    year = named_year(parts[-1], now)
    periods = sorted(
        date_period(p if year is None or named_year(p, now) is not None else f"{p} {year}", now)
        for p in parts
    )
    if any(a[1] != b[0] for a, b in pairwise(periods)):
        raise NotJoined("periods with a gap between them are no one window")
    start, stop = periods[0][0], periods[-1][1]
    return None, start, tc.bounded((start, stop), now)[1]


def note(phrase: str) -> str:
    return f'"{phrase.strip()}" is read as one window: the periods joined, each whole'
