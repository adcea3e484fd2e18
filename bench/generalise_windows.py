"""Time phrases of bench/generalise.py and the half-open window each one means at a fixed
clock, as docs/graphql.md states the reading (standard library only).

A year, quarter, half or month still under way ends at the clock. "Lately", "recently",
"these days", "of late" are the last 90 days; "the last N months" counts calendar months back
to the same time of day; "last summer" is the latest June to August that has ended, and
"since last summer" runs from its start to the clock; "between" and "from ... to" include
their last day or month. A question naming no time covers the last 365 days.
"""

from __future__ import annotations

import calendar
import random
from datetime import UTC, datetime, timedelta

MONTHS = list(calendar.month_name)[1:]
NTH = ["first", "second", "third", "fourth"]
DAY = timedelta(days=1)
Window = tuple[str, datetime, datetime]


def months_back(t: datetime, n: int) -> datetime:
    month = t.month - 1 - n
    year, month = t.year + month // 12, month % 12 + 1
    return t.replace(year=year, month=month, day=min(t.day, calendar.monthrange(year, month)[1]))


def _month(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


def relative(phrase: str, now: datetime) -> tuple[datetime, datetime]:
    """The window of a phrase of the 'relative' group at NOW."""
    summer = datetime(now.year if now.month >= 9 else now.year - 1, 6, 1, tzinfo=UTC)
    quarter = _month(now.year, (now.month - 1) // 3 * 3 + 1)
    fixed = {
        "in the last 3 months": (months_back(now, 3), now),
        "in the last 6 months": (months_back(now, 6), now),
        "over the last couple of months": (months_back(now, 2), now),
        "over the past 6 weeks": (now - 42 * DAY, now),
        "in the last 90 days": (now - 90 * DAY, now),
        "in the past fortnight": (now - 14 * DAY, now),
        "in the last few weeks": (now - 21 * DAY, now),
        "this year": (datetime(now.year, 1, 1, tzinfo=UTC), now),
        "last month": (
            months_back(now.replace(day=1, hour=0, minute=0, second=0), 1),
            now.replace(day=1, hour=0, minute=0, second=0),
        ),
        "last quarter": (months_back(quarter, 3), quarter),
        "last summer": (summer, summer.replace(month=9)),
        "since last summer": (summer, now),
    }
    if phrase in ("lately", "recently", "these days", "of late"):
        return now - 90 * DAY, now
    return fixed[phrase]


def anchored(
    group: str, phrase: str, at: datetime, now: datetime, rng: random.Random
) -> Window | None:
    """PHRASE of GROUP made about the time AT (a commit's): its text and window, or None
    when it would start after NOW or span more than 400 days."""
    y = at.year
    if group == "year":
        start, end = datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)
        text = phrase.format(Y=y)
    elif group == "quarter":
        q = (at.month - 1) // 3 + 1
        start, end = _month(y, 3 * q - 2), _month(y, 3 * q + 1)
        text = phrase.format(Y=y, q=q, nth=NTH[q - 1])
    elif group == "half":
        h = 1 if at.month <= 6 else 2
        start, end = _month(y, 6 * h - 5), _month(y, 6 * h + 1)
        text = phrase.format(Y=y, h=h, half=NTH[h - 1])
    elif group == "month":
        start, end = _month(y, at.month), _month(y, at.month + 1)
        text = phrase.format(Y=y, Month=MONTHS[at.month - 1])
    elif group == "summer":
        start, end = datetime(y, 6, 1, tzinfo=UTC), datetime(y, 9, 1, tzinfo=UTC)
        text = phrase.format(Y=y)
    elif group == "months":
        first = rng.randint(max(1, at.month - 3), at.month)
        last = rng.randint(at.month, min(12, at.month + 3))
        if first == last:
            return None
        start, end = _month(y, first), _month(y, last + 1)
        text = phrase.format(Y=y, Month=MONTHS[first - 1], Month2=MONTHS[last - 1])
    elif group == "dates":
        day = at.replace(hour=0, minute=0, second=0, microsecond=0)
        start = day - rng.randint(0, 40) * DAY
        final = day + rng.randint(0, 40) * DAY
        end = final + DAY
        text = phrase.format(d1=f"{start:%Y-%m-%d}", d2=f"{final:%Y-%m-%d}")
    elif group == "since":
        if "{Month}" in phrase:
            start = _month(y, at.month)
            text = phrase.format(Y=y, Month=MONTHS[at.month - 1])
        else:
            start = at.replace(hour=0, minute=0, second=0, microsecond=0)
            text = phrase.format(d1=f"{start:%Y-%m-%d}")
        end = now
    else:
        raise ValueError(group)
    end = min(end, now)
    if start >= now or end - start > 400 * DAY or end > now:
        return None
    return text, start, end


def refused(group: str, phrase: str, now: datetime, rng: random.Random) -> str:
    """A phrase the reader must not answer as asked: too wide, in the future, not a time it
    knows."""
    old = rng.randint(2012, now.year - 3)
    return phrase.format(Yold=old, Y1=old + 1, Yfuture=now.year + rng.randint(2, 5))
