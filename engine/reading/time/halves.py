"""Halves of the calendar year named without a year, as rows: "this half", "last half", "the
previous half", "this half-year", and "the first half" / "the second half" alone. They were
read as nothing and said as nothing: "How many commits did Hynek make this half compared
with last half?" was answered as if no time was named, and "commits in the first half vs the
second half of 2025" compared the second half alone (checker z40a A-T02, WS).

Convention (stated beside the answer, and once in tests/data/time_phrases.tsv): a half is a
half of the calendar year, January-June (H1) or July-December (H2); "this half" is the one
under way, "last half" / "the previous half" the one before it; "the first half" and "the
second half" alone are H1 and H2, the latest begun, as "H1" and "H2" read. "The last half
of 2025" is its second half (the HALF pattern of engine/reading/time/patterns.py); "the last
half year" is the six months back from now (a fraction, engine/reading/time/composed.py);
"last half year" without "the" is said not understood (a calendar half, or six months?).
"""

from __future__ import annotations

from datetime import datetime

from engine.domain import timecontext as tc
from engine.reading.time import compositions as c
from engine.reading.time import resolutions as rs
from engine.reading.time.periods import meant
from engine.reading.time.ruletype import Rule

# Not a half of something named ("the first half of May") nor of a unit ("last half hour",
# "this half-day"), nor the fraction "the last half year" (six months back from now), nor a
# word "half" begins ("this half-finished branch").
_NOT_OF = r"(?!\s+of\b)(?![\s-]+(?:an?\s+)?(?:hour|day|week|month|decade|century)s?\b)"
_BEFORE = ("last", "previous", "prior")
_CONVENTION = "a half of the calendar year (January-June or July-December)"


def _half_of(instant: datetime, shift: int) -> tc.Period:
    """The calendar half holding `instant`, moved `shift` halves."""
    start, _ = tc.month_period(instant.year, 1 if instant.month <= 6 else 7, 6 * shift)
    return start, tc.month_period(start.year, start.month, 6)[0]


def relative(g: c.Groups, now: datetime) -> tc.Period:
    """ "this half": the half under way; "last half": the one before it."""
    return _half_of(now, -1 if c.first(g).lower() in _BEFORE else 0)


def nth(g: c.Groups, now: datetime) -> tc.Period:
    """ "the first half" alone: H1, the latest begun (as "H1" reads)."""
    return meant("h1" if c.first(g).lower() in ("first", "1st", "front") else "h2", now)


def note(phrase: str) -> str:
    which = phrase.lower().split()
    if any(w in which for w in _BEFORE):
        said = "the one before the half under way"
    elif any(w in which for w in ("this", "current")):
        said = "the one under way"
    else:
        said = "the latest one begun"
    return f'"{phrase}" is read as {_CONVENTION}, {said}'


HALVES: list[Rule] = [
    Rule("half", rf"\b(?:(?:in|during|over|for)\s+)?(?:the\s+)?(this|last|previous|prior|current)"
                 rf"\s+half(?:-year)?(?![\w-])(?![\s-]+(?:an?\s+)?years?\b){_NOT_OF}",
         rs.span(relative), note=note, alone=True),
    Rule("half", rf"\b(?:(?:in|during|over|for)\s+)?(?:the\s+)?(first|second|1st|2nd|front|back)"
                 rf"\s+half(?:[\s-]+year)?(?![\w-]){_NOT_OF}",
         rs.span(nth), note=note, alone=True),
]  # fmt: skip
