"""A follow-up asking about the period before the one just answered: "and in the quarter
before that?", "and the month before?", "what about the 2 weeks before that?".

Why here: "before that" names no date, so the time reader reads no time in it (z42
b-requests-07: "quarter before that" was not understood as a time). In a session it has one
meaning: the unit ending where the previous answer's window started, over the same subject.
The window is exact (`Earlier.start`, `Earlier.end`); the question is written with the days it
covers, so it reads as a time of its own, and the answer says how the phrase was read. With
no previous answer (a first question) nothing is read: the phrase stays named not understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.domain.timecontext import months_before

# "in the quarter before that", "the month before", "the 2 weeks before then": the whole of
# what a fragment says after its opener ("and", "what about").
_BEFORE = re.compile(
    r"^(?:(?:in|during|over|for)\s+)?(?:the\s+)?(?:(?P<count>\d{1,2}|a|one)\s+)?"
    r"(?P<unit>day|week|month|quarter|year)s?\s+before(?:\s+(?:that|then|it))?$",
    re.IGNORECASE,
)
_MONTHS = {"month": 1, "quarter": 3, "year": 12}
_DAYS = {"day": 1, "week": 7}
_MOST = 12  # units counted back: a longer span is no follow-up's "before that"


@dataclass(frozen=True, slots=True)
class Earlier:
    """The period before the previous window: [start, end), the phrase as asked, the time
    phrase the question is written with, and what the answer says of it."""

    start: datetime
    end: datetime
    phrase: str
    written: str
    note: str


def earlier(rest: str, previous_start: datetime) -> Earlier | None:
    """The period `rest` names, ending at `previous_start` (the previous answer's window
    start), or None when `rest` is not such a phrase or counts more than _MOST units."""
    found = _BEFORE.match(rest.strip())
    if found is None:
        return None
    count_word = (found.group("count") or "1").lower()
    count = 1 if count_word in ("a", "one") else int(count_word)
    unit = found.group("unit").lower()
    if not 0 < count <= _MOST:
        return None
    if unit in _MONTHS:
        start = months_before(previous_start, _MONTHS[unit] * count)
    else:
        start = previous_start - timedelta(days=_DAYS[unit] * count)
    # The days written are read whole and inclusive ("from 2025-10-01 to 2025-12-31"); the
    # exact window replaces what they read, so a window starting at noon stays at noon.
    last = (previous_start - timedelta(microseconds=1)).date()
    written = f"from {start.date().isoformat()} to {last.isoformat()}"
    note = (
        f'"{found.group(0)}" is read as the {_span(count, unit)} ending where the previous '
        f"answer's window started, {_iso(previous_start)}"
    )
    return Earlier(start, previous_start, found.group(0), written, note)


def _span(count: int, unit: str) -> str:
    return unit if count == 1 else f"{count} {unit}s"


def _iso(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")
