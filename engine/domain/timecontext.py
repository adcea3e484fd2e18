"""The effective time of a question: which axis, which instants, and what the answer may claim.

Three axes: `current` (now), `as_of` (one instant, the degenerate interval [T, T]) and
`range` (a half-open interval [start, end): `end` is the first instant NOT covered). The rules:

* The axis is historical, not speculative: a time later than `now` by more than
  SKEW_TOLERANCE is refused; a time in the future within the tolerance is CLAMPED to `now`
  (never passed on: it would reach the read predicates and the label unchanged).
* A range wider than MAX_RANGE (400 days) is refused, as is one that ends before it starts.
* A time earlier than any retained data is NOT refused: "nothing retained that far back" is a
  real answer, for the reads to give.
* Effective time only ever narrows what was asked for (clamping moves a bound back to `now`).

Naive datetimes are read as UTC; every instant here is UTC. Nothing in this module reads the
clock: `now` is always a parameter.
"""

from __future__ import annotations

import calendar
import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine.domain.errors import BadUserInput
from engine.domain.facts import Grain

SKEW_TOLERANCE = timedelta(minutes=5)
MAX_RANGE = timedelta(days=400)

# The reuse key of every current-axis question. Fixed on purpose: a key derived from the clock
# would differ for every request, so current-axis answers would silently never be reused.
CURRENT_AXIS_KEY = "current"
CLAMPED_NOTE = "clamped to now"
MICROSECOND = timedelta(microseconds=1)

# A calendar period [start, stop): stop is the first instant after it.
Period = tuple[datetime, datetime]


class Axis(enum.StrEnum):
    CURRENT = "current"
    AS_OF = "as_of"
    RANGE = "range"


@dataclass(frozen=True, slots=True)
class EffectiveTime:
    """The time a question is answered for, after validation and clamping.

    start/end: the effective (clamped) instants, UTC; a point in time has start == end (the
    current axis is the point `now`).
    clamped: some requested instant lay in the tolerated future and was moved back to `now`.
    wire_key: what the client asked for, normalised to UTC but NOT clamped. For receipts and
    diagnostics only; answer reuse keys on `time_axis_key` (the clamped context), see there.
    """

    axis: Axis
    start: datetime
    end: datetime
    clamped: bool
    wire_key: str


@dataclass(frozen=True, slots=True)
class TemporalLabelParts:
    """The engine-composed temporal label: what time the answer covers and at what grain.

    Field for field the contract's temporal label, so it converts without interpretation."""

    axis: Axis
    effective_from: datetime
    effective_to: datetime
    grain: Grain | None
    note: str | None

    def text(self) -> str:
        if self.axis is Axis.RANGE:
            when = f"from {iso(self.effective_from)} to {iso(self.effective_to)}"
        elif self.axis is Axis.AS_OF:
            when = f"as of {iso(self.effective_from)}"
        else:
            when = f"current, at {iso(self.effective_from)}"
        extras = [f"{self.grain.value} grain"] if self.grain else []
        extras += [self.note] if self.note else []
        return f"{when} ({'; '.join(extras)})" if extras else when


def to_utc(value: datetime) -> datetime:
    """A naive datetime is UTC; an aware one is converted to UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise BadUserInput("a time lies outside the representable range") from exc


def iso(value: datetime) -> str:
    """A canonical UTC rendering: equal instants render identically, whatever their offset."""
    return to_utc(value).isoformat().replace("+00:00", "Z")


def _not_future(value: datetime, now: datetime, name: str) -> tuple[datetime, bool]:
    """The instant, or `now` when it lies in the tolerated future; refused beyond it."""
    if value <= now:
        return value, False
    if value - now > SKEW_TOLERANCE:
        raise BadUserInput(
            f"{name} is in the future; only times up to now can be answered "
            f"(a clock skew of up to {int(SKEW_TOLERANCE.total_seconds() // 60)} minutes "
            "is tolerated)"
        )
    return now, True


def resolve_time(
    as_of: datetime | None, start: datetime | None, end: datetime | None, now: datetime
) -> EffectiveTime:
    """Validate a requested time context and return the effective one.

    No times: the current axis at `now`. `as_of`: the as_of axis (a point). `start` (with an
    optional `end`, which defaults to `now`): the range axis. Raises BadUserInput for a time
    beyond the skew tolerance, a range wider than MAX_RANGE or ending before it starts, a range
    without a start, and for as_of given together with a range.
    """
    now = to_utc(now)
    if as_of is not None and (start is not None or end is not None):
        raise BadUserInput("give either as_of or a range (start/end), not both")
    if as_of is not None:
        wire = to_utc(as_of)
        point, clamped = _not_future(wire, now, "as_of")
        return EffectiveTime(Axis.AS_OF, point, point, clamped, f"as_of:{iso(wire)}")
    if start is None and end is None:
        return EffectiveTime(Axis.CURRENT, now, now, False, CURRENT_AXIS_KEY)
    if start is None:
        raise BadUserInput("a range needs a start time (its end may be omitted: it is now)")
    wire_start = to_utc(start)
    wire_end = to_utc(end) if end is not None else None
    effective_start, start_clamped = _not_future(wire_start, now, "the range start")
    effective_end, end_clamped = now, False
    if wire_end is not None:
        effective_end, end_clamped = _not_future(wire_end, now, "the range end")
        if wire_end < wire_start:
            raise BadUserInput("the range ends before it starts")
    # The width is judged on what was asked for: clamping must not make a refusal depend on
    # the arrival time of an otherwise identical request.
    if (wire_end if wire_end is not None else now) - wire_start > MAX_RANGE:
        raise BadUserInput(f"the range is wider than {MAX_RANGE.days} days")
    wire_key = f"range:{iso(wire_start)}|{iso(wire_end) if wire_end is not None else 'now'}"
    return EffectiveTime(
        Axis.RANGE, effective_start, effective_end, start_clamped or end_clamped, wire_key
    )


def time_axis_key(t: EffectiveTime) -> str:
    """The time dimension of an answer-reuse key.

    The current axis maps to one fixed literal: a clock-derived key would be unique per
    request and silently drop the reuse rate to zero. Every other axis keys on the CLAMPED
    effective instants, not the wire request: once clamping depends on the arrival time, the
    same wire request can mean two different questions (as_of 12:00:30 arriving at 12:00:00 is
    answered for 12:00:00; arriving at 12:00:45, for 12:00:30), and the key must mean what the
    answer means. Lookup and save must both use this function. Accepted cost: a request
    clamped within the skew tolerance keys per arrival and so is rarely reused; such requests
    are rare (questions about now use the current axis; real historical ones never clamp).
    """
    if t.axis is Axis.CURRENT:
        return CURRENT_AXIS_KEY
    if t.axis is Axis.AS_OF:
        return f"as_of:{iso(t.start)}"
    return f"range:{iso(t.start)}|{iso(t.end)}"


def compose_label(t: EffectiveTime, grains: list[Grain]) -> TemporalLabelParts:
    """The temporal label, composed by the engine from the reads that ran (never by a
    synthesizer). `grains`: the grain of each provider whose facts were KEPT; the label
    carries the coarsest of them (None when no provider's facts were kept). The current axis
    still states the instant it was answered at."""
    note = CLAMPED_NOTE if t.clamped else None
    return TemporalLabelParts(t.axis, t.start, t.end, Grain.coarsest(list(grains)), note)


# --- calendar periods (UTC), for time expressions ----------------------------------------


def day_period(year: int, month: int, day: int) -> Period:
    start = datetime(year, month, day, tzinfo=UTC)
    return start, start + timedelta(days=1)


def month_period(year: int, month: int, shift: int = 0) -> Period:
    """The calendar month `shift` months after (year, month)."""
    index = year * 12 + month - 1 + shift
    start = datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)
    after = index + 1
    return start, datetime(after // 12, after % 12 + 1, 1, tzinfo=UTC)


def quarter_period(year: int, quarter: int, shift: int = 0) -> Period:
    start, _ = month_period(year, 3 * (quarter - 1) + 1, 3 * shift)
    return start, month_period(start.year, start.month, 3)[0]


def year_period(year: int, shift: int = 0) -> Period:
    return datetime(year + shift, 1, 1, tzinfo=UTC), datetime(year + shift + 1, 1, 1, tzinfo=UTC)


def week_period(instant: datetime, shift: int = 0) -> Period:
    """The ISO week (Monday 00:00 to the next Monday) holding `instant`, shifted by weeks."""
    monday = datetime(instant.year, instant.month, instant.day, tzinfo=UTC) - timedelta(
        days=instant.weekday() - 7 * shift
    )
    return monday, monday + timedelta(days=7)


def period_of(unit: str, now: datetime, shift: int = 0) -> Period:
    """The calendar week, month, quarter or year holding `now`, shifted by that unit."""
    if unit == "week":
        return week_period(now, shift)
    if unit == "month":
        return month_period(now.year, now.month, shift)
    if unit == "quarter":
        return quarter_period(now.year, (now.month - 1) // 3 + 1, shift)
    return year_period(now.year, shift)


def recent_quarter(quarter: int, now: datetime) -> Period:
    return most_recent(lambda year: quarter_period(year, quarter), now)


def months_before(instant: datetime, months: int) -> datetime:
    """The same day and time `months` calendar months earlier (the day clamped to the month)."""
    start, _ = month_period(instant.year, instant.month, -months)
    day = min(instant.day, calendar.monthrange(start.year, start.month)[1])
    return instant.replace(year=start.year, month=start.month, day=day)


def most_recent(make: Callable[[int], Period], now: datetime) -> Period:
    """The latest period `make(year)` that has started by `now` ("in March": the most recent
    March). Years without such a period (29 February) are skipped."""
    for year in range(now.year, now.year - 9, -1):
        try:
            period = make(year)
        except ValueError:
            continue
        if period[0] <= now:
            return period
    raise ValueError("no such period")


def bounded(period: Period, now: datetime) -> tuple[datetime, datetime]:
    """The period as the half-open window [start, stop); a period already under way stops
    at `now` instead (effective time never reaches into the future)."""
    start, stop = period
    return (start, min(stop, now)) if start <= now else (start, stop)
