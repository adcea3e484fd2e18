"""THE membership test of a time window, half-open [start, stop), shared by every count over a
window (providers, evidence selection, calendar periods): a record at a boundary falls in
exactly one of two windows that meet there (a month and the month before it, a window and
its prior: `preceding`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


def admits(start: datetime, stop: datetime, moment: datetime) -> bool:
    """`moment` lies in [start, stop)."""
    return start <= moment < stop


def preceding(start: datetime, stop: datetime) -> tuple[datetime, datetime]:
    """The period as long as [start, stop) just before it: [start - length, start), so a
    moment at `start` counts in the period and not in the one before (a provider window's
    prior, engine/providers/base.py; the period a direction of change is compared with,
    engine/reading/asked.py)."""
    return start - (stop - start), start


def whole_in(start: datetime, stop: datetime, span_start: datetime, span_stop: datetime) -> bool:
    """A span [span_start, span_stop) lies wholly inside the window [start, stop): a daily
    rollup whose day runs past the window's end holds changes made after it."""
    return start <= span_start and span_stop <= stop


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A closed query interval in epoch nanoseconds; a point in time is (T, T)."""

    start_ns: int
    end_ns: int

    @classmethod
    def point(cls, at_ns: int) -> TimeSpan:
        return cls(at_ns, at_ns)
