"""Demo time: whole minutes since a base day, formatted without datetime arithmetic, so
the generator never reads the wall clock and its dates move with the anchor."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

DEFAULT_ANCHOR = datetime(2026, 11, 15, tzinfo=UTC)
SOURCE = "demo"
SPAN_DAYS = 400  # every activity time lies in the SPAN_DAYS before the anchor

DAY = 1_440  # minutes
PAST_DAYS = 2_000  # how far back subject validity may start
HM = [f"T{m // 60:02d}:{m % 60:02d}:00Z" for m in range(DAY)]

# --- time -------------------------------------------------------------------------------


class Clock:
    """Times as whole minutes since a base day, formatted without datetime arithmetic."""

    def __init__(self, anchor: datetime) -> None:
        anchor = anchor.replace(tzinfo=UTC) if anchor.tzinfo is None else anchor.astimezone(UTC)
        if not 1980 <= anchor.year < 2190:
            raise ValueError("anchor must lie between 1980 and 2190")
        self.day0 = anchor.replace(hour=0, minute=0, second=0, microsecond=0)
        base = self.day0 - timedelta(days=SPAN_DAYS + 1)
        self._days = [(base + timedelta(days=i)).strftime("%Y-%m-%d") for i in range(SPAN_DAYS + 3)]
        self._past = [
            (self.day0 - timedelta(days=k)).strftime("%Y-%m-%dT00:00:00Z")
            for k in range(PAST_DAYS + 1)
        ]
        self.now = int((anchor - base).total_seconds()) // 60
        self.hi = self.now - 1  # latest usable minute, strictly before the anchor
        self.lo = self.now - SPAN_DAYS * DAY + 1  # earliest, inside the span
        self._shift = self.day0.date() - DEFAULT_ANCHOR.date()

    def at(self, minute: int) -> str:
        return self._days[minute // DAY] + HM[minute % DAY]

    def ago(self, days: float) -> str:
        return self.at(self.now - int(days * DAY))

    def day_ago(self, days: int) -> str:
        """Midnight `days` days before the anchor's day."""
        return self._past[days]

    def story(self, year: int, month: int, day: int) -> str:
        """A story date: exact for the default anchor, moved with any other anchor."""
        return (date(year, month, day) + self._shift).isoformat() + "T00:00:00Z"

    def rand(self, rng: random.Random, lo: int, hi: int) -> int:
        return lo + int(rng.random() * (hi - lo + 1))
