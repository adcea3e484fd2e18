"""A date written with slashes ("07/01/2026", "13/01/2026"): day/month order in most of the
world, month/day in the United States, so "07/01/2026" is 7 January or 1 July. A reading
that is no real date (13/01/2026: no 13th month) or lies in the future leaves the other
one; two possible readings are asked about (which day is meant), never guessed.

engine.reading.time.phrases reads the phrase as a day date; `day_of` gives its day, or raises
`WhichDay` naming both readings, which engine.resolving.questiontime turns into a clarification.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from engine.domain import timecontext as tc
from engine.domain.timecontext import EffectiveTime, resolve_time
from engine.reading.time.slots import Slot

PATTERN = r"\d{1,2}/\d{1,2}/\d{4}(?![\d/])"
_MONTHS = (
    *("January", "February", "March", "April", "May", "June", "July", "August"),
    *("September", "October", "November", "December"),
)


class WhichDay(ValueError):
    """Both readings of a slash date are possible days."""

    def __init__(self, phrase: str, readings: tuple[tc.Period, ...]) -> None:
        super().__init__(phrase)
        self.phrase = phrase
        self.readings = readings


def day_of(text: str, now: datetime) -> tc.Period:
    """The day a slash date names: the one reading that is a real date not in the future
    (the first real one when both are in the future: refused as any future time is);
    ValueError when neither is a date, WhichDay when both may be meant."""
    first, second, year = (int(p) for p in text.split("/"))
    real = []
    for day, month in ((first, second), (second, first)):  # day/month, then month/day
        try:
            real.append(tc.day_period(year, month, day))
        except ValueError:
            continue
    real = list(dict.fromkeys(real))
    if not real:
        raise ValueError("no real date")
    past = [p for p in real if p[0] <= now]
    if len(past) > 1:
        raise WhichDay(text, tuple(past))
    return past[0] if past else real[0]


def note(phrase: str) -> str | None:
    """How a slash date in a phrase was read (only one reading was possible), or None."""
    found = re.search(PATTERN, phrase)
    if found is None:
        return None
    first, second, _ = found.group().split("/")
    if int(first) == int(second):
        return None
    return (
        f'"{found.group()}" is read in the one order (day/month or month/day) that names a '
        "day not in the future"
    )


def spoken(period: tc.Period) -> str:
    day = period[0]
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


@dataclass(frozen=True)
class Ambiguous:
    """A slash date both of whose readings may be meant: the answer asks which day, offering
    the question with each written as an ISO date (the receipts are for the first)."""

    phrase: str
    readings: tuple[tc.Period, ...]
    anchor: datetime
    slot: Slot  # where the date stands in the question (engine/reading/time/slots.py)

    @property
    def suggested(self) -> EffectiveTime:
        return resolve_time(None, *self.readings[0], self.anchor)

    def question(self, which: int = 0) -> str:
        return self.slot.asked(self.readings[which][0].date().isoformat())

    def prompt(self) -> str:
        one, other = (spoken(p) for p in self.readings[:2])
        return (
            f'"{self.phrase}" could be {one} (day/month) or {other} (month/day). Which day is '
            f'meant? Ask "{self.question()}" or "{self.question(1)}" (the '
            "receipts given here are for the first)."
        )
