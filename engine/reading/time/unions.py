"""Periods named together with a gap between them ("in March and July 2026", "validators.py
lines march and august", "Q1 and Q3 2025 combined"): a union of windows, each answered as a
question of its own and the figures added (engine/investigation/unions.py).

Why: "in Jan and March 2024" was answered over January to April, February counted (a silent
other window); then it was refused as "not understood", though the question is clear: the two
months, not the months between. One window cannot hold them, so each period is asked in the
question's place ("in March 2026", then "in July 2026") and the answers are joined, with the
sum over both said.

The periods are read as joined.py reads them: from the last back, a period without a year
taking the latest one ending before the next begins ("Dec and Feb 2024": December 2023, the
year before only across a year's end, under half a year before the next); with no year at
all, the latest such span begun. The seed rule (one answer covers at most 400 days)
is a bound on the days an answer reads, so it is applied to the days the windows cover
together, not to the span from the first's start to the last's end: "March and August" (two
narrow months, 62 days) is answered; "2023 and 2025" (730 days) stays refused by the rule, as
"2023 to 2024" is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.domain import timecontext as tc
from engine.reading.time.dateperiods import date_period, named_year
from engine.reading.time.periods import latest_span

if TYPE_CHECKING:
    from engine.reading.time.phrases import TimeReading

# The leading words a union phrase may start with: kept in each window's question.
_LEAD = re.compile(r"^(?:in|during|across|over|for|throughout)\s+(?:the\s+)?", re.IGNORECASE)


# A period without a year takes the year before the next's only across a year's end ("Nov
# and Feb 2026": November 2025, a gap of two months): "Feb and Jan 2024 combined" is written
# out of order, not February 2023, ten months before.
_WRAP = timedelta(days=183)


class NotJoined(ValueError):
    """Periods named together that do not follow one another: no one window. `windows` are
    the periods when they were read (each with the words asking it), for a union."""

    def __init__(self, why: str, windows: tuple[Window, ...] = ()) -> None:
        super().__init__(why)
        self.windows = windows


@dataclass(frozen=True, slots=True)
class Window:
    """One period of a union: the words asking it ("March 2026") and its dates, [start, end)."""

    words: str
    start: datetime
    end: datetime


@dataclass(frozen=True, slots=True)
class Union:
    """A union of windows read from `phrase`, and the question asked once per window, in
    order (`questions[i]` asks `windows[i]`)."""

    phrase: str
    windows: tuple[Window, ...]
    questions: tuple[str, ...]

    @property
    def days(self) -> int:
        return sum((w.end - w.start).days for w in self.windows)

    # The phrases inside `phrase` said not understood with it ("in March and July 2026" of
    # "in March and July 2026 combined").
    inner: tuple[str, ...] = ()

    def read(self) -> str:
        """How the union was read."""
        each = " and ".join(f'"{w.words}" ({tc.iso(w.start)} to {tc.iso(w.end)})'
                            for w in self.windows)  # fmt: skip
        count = len(self.windows)
        return f'"{self.phrase}" is read as {count} windows with a gap between them, {each}.'

    def said(self) -> str:
        """How the union was read, said beside the answer."""
        added = "each answered, and the figures added; the time between them is not counted"
        return f"{self.read()[:-1]}: {added}."


def windows(parts: list[str], now: datetime) -> tuple[Window, ...]:
    """The periods of `parts`, read from the last back, each earlier one the latest of its
    name ending no later than the next starts; a name without a year is asked with it."""
    if not any(named_year(p, now) is not None for p in parts):
        latest = latest_span(parts[0], parts[-1], now)
        if latest is None:
            raise ValueError("no span of these periods has begun")
        parts = [*parts[:-1], f"{parts[-1]} {latest[1][0].year}"]
    last = date_period(parts[-1], now)
    found = [Window(parts[-1], *last)]
    for part in reversed(parts[:-1]):
        found.insert(0, _before(part, found[0].start, now))
    return tuple(found)


def _before(part: str, at: datetime, now: datetime) -> Window:
    """`part`'s latest occurrence ending no later than `at` (its own year, or `at`'s or the
    one before), with the words asking it."""
    if named_year(part, now) is not None:
        period = date_period(part, now)
        if period[1] > at:
            raise ValueError("periods written out of order")
        return Window(part, *period)
    for year in (at.year, at.year - 1):
        try:
            period = date_period(f"{part} {year}", now)
        except (ValueError, IndexError):
            continue
        if period[1] <= at and (year == at.year or at - period[1] < _WRAP):
            return Window(f"{part} {year}", *period)
    raise ValueError("no period of this name before the next")


def union(question: str, phrase: str, found: tuple[Window, ...], now: datetime) -> Union | None:
    """The union read from `phrase` of `question`, or None: the phrase is not in the
    question, a window has not begun, or together they cover more than one answer may."""
    at = question.find(phrase)
    if at < 0 or len(found) < 2 or any(w.start >= now for w in found):
        return None
    if sum((w.end - w.start for w in found), timedelta()) > tc.MAX_RANGE:
        return None
    lead = _LEAD.match(phrase)
    words = f"{lead.group(0).split()[0]} " if lead else "in "
    before, after = question[:at], question[at + len(phrase) :]
    asked = tuple(f"{before}{words}{w.words}{after}" for w in found)
    return Union(phrase, found, asked)


def asked(question: str, reading: TimeReading, now: datetime) -> Union | None:
    """The union a question asks over: its one time phrase is periods named together with a
    gap (the longest such, which holds the others), no other time read."""
    if reading.match is not None or not reading.unions:
        return None
    phrase = max(reading.unions, key=len)
    if any(p not in phrase for p in [*reading.not_understood, *reading.not_a_date]):
        return None
    found = union(question, phrase, reading.unions[phrase], now)
    inner = tuple(p for p in reading.not_understood if p in phrase)
    return None if found is None else replace(found, inner=inner)
