"""Periods joined into one window by a word saying so: "Jan and Feb 2024 combined", "Q1 and
Q2 2025 together", "June, July and August 2025 taken together", "2013 and 2014 in total".
Each was read as two times named and refused (or the last alone answered, the rest unsaid).

The periods must follow one another, in the order written (each ends where the next starts):
the window is then the first's start to the last's end, a period without a year taking the
year that makes it end where the next starts ("Dec and Jan 2024": December 2023). Periods
with a gap between ("Jan and March 2024 combined") are no one window, never the span over the
gap: a union of windows, each answered (engine/reading/time/unions.py), or, when they do not
read so, not understood, named. A window wider than 400 days is refused by the seed rule
afterwards, as any is ("2013 and 2014 combined": 730 days).
"""

from __future__ import annotations

import re
from datetime import datetime

from engine.domain import timecontext as tc
from engine.reading.time import unions
from engine.reading.time.compositions import Groups, Reading
from engine.reading.time.dateperiods import date_period, named_year
from engine.reading.time.periods import latest_span
from engine.reading.time.unions import NotJoined, windows

# The words joining periods into one window, as rows.
JOINING = (
    r"(?:combined|together|taken\s+together|put\s+together|in\s+total|altogether|jointly"
    r"|summed(?:\s+up)?|as\s+a\s+whole|as\s+one(?:\s+(?:period|window))?)\b"
)


def _parts(g: Groups) -> list[str]:
    first, middle, last = g[0] or "", g[1] or "", g[2] or ""
    return [first, *(m.strip() for m in re.split(r"\s*,\s*", middle) if m.strip()), last]


def combined(g: Groups, now: datetime) -> Reading:
    """ "Jan and Feb 2024 combined": January 1 to March 1, 2024. Read from the last period
    back, each earlier one ending where the next starts ("Dec and Jan 2024": December 2023);
    with no year at all, the latest such span begun ("November and December together" asked
    in November: November to now)."""
    parts = _parts(g)
    if not any(named_year(p, now) is not None for p in parts):
        latest = latest_span(parts[0], parts[-1], now)
        if latest is None:
            raise NotJoined("no span of these periods has begun")
        parts[-1] = f"{parts[-1]} {latest[1][0].year}"
    last = date_period(parts[-1], now)
    start = last[0]
    try:
        for part in reversed(parts[:-1]):
            start = _ending(part, start, now)
    except NotJoined as gap:  # "Jan and March 2024 combined": a union (unions.py)
        raise NotJoined(str(gap), _union(parts, now)) from None
    return None, start, tc.bounded((start, last[1]), now)[1]


def _union(parts: list[str], now: datetime) -> tuple[unions.Window, ...]:
    """The periods apart, when they read so (none: not understood, as before)."""
    try:
        return windows(parts, now)
    except (ValueError, IndexError):
        return ()


def _ending(part: str, at: datetime, now: datetime) -> datetime:
    """The start of `part`'s occurrence ending at `at` (its own year, or `at`'s or the one
    before); NotJoined when it ends elsewhere: a gap, or periods written out of order."""
    years = [None] if named_year(part, now) is not None else [at.year, at.year - 1]
    for year in years:
        try:
            period = date_period(part if year is None else f"{part} {year}", now)
        except (ValueError, IndexError):
            continue
        if period[1] == at:
            return period[0]
    raise NotJoined("periods with a gap between them are no one window")

def note(phrase: str) -> str:
    return f'"{phrase.strip()}" is read as one window: the periods joined, each whole'
