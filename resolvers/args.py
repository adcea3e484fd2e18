"""Argument handling shared by resolvers: times, windows, page sizes, cursors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import strawberry

from engine.domain.errors import BadUserInput
from engine.domain.models import to_ns
from engine.ports import TimeSpan
from resolvers.relay import decode_cursor, storable

DEFAULT_PAGE = 50
MAX_WINDOW = timedelta(days=400)
DEFAULT_WINDOW_DAYS = 30  # a window when none is given (series, activity)
_MIN = datetime(1970, 1, 1, tzinfo=UTC)
_MAX = datetime(2200, 1, 1, tzinfo=UTC)


@strawberry.input(description="A closed time window [from, to].")
class TimeWindowInput:
    from_: datetime = strawberry.field(name="from")
    to: datetime


def instant(value: datetime, what: str = "time") -> int:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    if not _MIN <= value < _MAX:
        raise BadUserInput(f"{what} must lie between 1970 and 2200")
    ns = to_ns(value)
    assert ns is not None
    return ns


def point(as_of: datetime | None, inherited: TimeSpan) -> TimeSpan:
    """The time a field reads at: its own `asOf` if given, else what its parent read at."""
    return inherited if as_of is None else TimeSpan.point(instant(as_of, "asOf"))


def window(
    value: TimeWindowInput | None, default_end_ns: int, default_days: int = DEFAULT_WINDOW_DAYS
) -> TimeSpan:
    """A validated window; absent, the `default_days` days up to `default_end_ns`."""
    if value is None:
        return TimeSpan(default_end_ns - default_days * 86_400 * 10**9, default_end_ns)
    start, end = instant(value.from_, "from"), instant(value.to, "to")
    if end < start:
        raise BadUserInput("window.to must not be earlier than window.from")
    if value.to - value.from_ > MAX_WINDOW:
        raise BadUserInput("a window may span at most 400 days")
    return TimeSpan(start, end)


def page_size(first: int | None, limit: int, default: int = DEFAULT_PAGE) -> int:
    size = default if first is None else first
    if not 0 <= size <= limit:
        raise BadUserInput(f"first must be between 0 and {limit}")
    return size


def time_position(after: str | None) -> tuple[int, str] | None:
    """Decode a (time, key) keyset cursor."""
    if after is None:
        return None
    ns, key = decode_cursor(after, 2)
    if not ns.lstrip("-").isdigit() or len(ns) > 20 or not -(2**63) <= int(ns) < 2**63:
        raise BadUserInput("invalid cursor")
    return int(ns), key


def clean_text(value: str | None, what: str, max_length: int = 200) -> str | None:
    if value is not None and (len(value) > max_length or not storable(value)):
        raise BadUserInput(
            f"{what} must be at most {max_length} characters, without NUL or unpaired surrogates"
        )
    return value
