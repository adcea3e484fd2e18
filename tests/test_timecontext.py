"""Effective time: axes, refusals, clamping, the reuse key's time dimension, the label."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.domain.errors import BadUserInput
from engine.domain.facts import Grain
from engine.domain.timecontext import (
    CURRENT_AXIS_KEY,
    MAX_RANGE,
    SKEW_TOLERANCE,
    Axis,
    bounded,
    compose_label,
    month_period,
    most_recent,
    quarter_period,
    resolve_time,
    time_axis_key,
    week_period,
)

NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)
US = timedelta(microseconds=1)


def test_no_times_is_the_current_axis_at_now() -> None:
    t = resolve_time(None, None, None, NOW)
    assert (t.axis, t.start, t.end, t.clamped) == (Axis.CURRENT, NOW, NOW, False)


def test_current_axis_key_is_a_fixed_literal_whatever_the_clock() -> None:
    keys = {time_axis_key(resolve_time(None, None, None, NOW + timedelta(hours=h))) for h in (0, 5)}
    assert keys == {CURRENT_AXIS_KEY}


def test_as_of_in_the_past_is_a_point_and_never_clamped() -> None:
    t = resolve_time(datetime(2026, 3, 1, tzinfo=UTC), None, None, NOW)
    assert (t.axis, t.start, t.end, t.clamped) == (Axis.AS_OF, t.start, t.start, False)
    assert t.start == datetime(2026, 3, 1, tzinfo=UTC)
    assert time_axis_key(t) == "as_of:2026-03-01T00:00:00Z"


def test_naive_times_are_utc_and_offsets_are_converted() -> None:
    naive = resolve_time(datetime(2026, 3, 1), None, None, NOW.replace(tzinfo=None))
    shifted = resolve_time(
        datetime(2026, 3, 1, 2, tzinfo=timezone(timedelta(hours=2))), None, None, NOW
    )
    assert naive.start == shifted.start == datetime(2026, 3, 1, tzinfo=UTC)
    assert time_axis_key(naive) == time_axis_key(shifted)


def test_a_time_before_any_data_is_not_refused() -> None:
    t = resolve_time(datetime(1900, 1, 1, tzinfo=UTC), None, None, NOW)
    assert t.start.year == 1900


@pytest.mark.parametrize("ahead", [timedelta(seconds=1), SKEW_TOLERANCE])
def test_a_future_time_within_the_skew_is_clamped_to_now(ahead: timedelta) -> None:
    t = resolve_time(NOW + ahead, None, None, NOW)
    assert (t.start, t.end, t.clamped) == (NOW, NOW, True)
    assert compose_label(t, []).note == "clamped to now"


@pytest.mark.parametrize(
    ("as_of", "start", "end"),
    [
        (NOW + SKEW_TOLERANCE + US, None, None),
        (NOW + timedelta(days=30), None, None),
        (None, NOW + timedelta(hours=1), None),
        (None, NOW - timedelta(days=1), NOW + timedelta(hours=1)),
    ],
)
def test_a_future_time_beyond_the_skew_is_refused(
    as_of: datetime | None, start: datetime | None, end: datetime | None
) -> None:
    with pytest.raises(BadUserInput, match="future"):
        resolve_time(as_of, start, end, NOW)


def test_range_end_may_be_omitted_and_is_now() -> None:
    t = resolve_time(None, datetime(2026, 1, 1, tzinfo=UTC), None, NOW)
    assert (t.axis, t.start, t.end, t.clamped) == (Axis.RANGE, t.start, NOW, False)
    assert t.wire_key == "range:2026-01-01T00:00:00Z|now"


def test_range_end_in_the_tolerated_future_is_clamped() -> None:
    start = NOW - timedelta(days=7)
    t = resolve_time(None, start, NOW + timedelta(minutes=2), NOW)
    assert (t.start, t.end, t.clamped) == (start, NOW, True)
    assert time_axis_key(t) == "range:2026-11-11T12:00:00Z|2026-11-18T12:00:00Z"


def test_range_of_exactly_400_days_is_accepted_and_wider_is_refused() -> None:
    end = datetime(2026, 6, 1, tzinfo=UTC)
    assert resolve_time(None, end - MAX_RANGE, end, NOW).axis is Axis.RANGE
    with pytest.raises(BadUserInput, match="400 days"):
        resolve_time(None, end - MAX_RANGE - US, end, NOW)
    with pytest.raises(BadUserInput, match="400 days"):
        resolve_time(None, end - timedelta(days=401), end, NOW)
    with pytest.raises(BadUserInput, match="400 days"):
        resolve_time(None, NOW - timedelta(days=401), None, NOW)


def test_an_inverted_range_is_refused() -> None:
    with pytest.raises(BadUserInput, match="ends before it starts"):
        resolve_time(None, datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC), NOW)


def test_as_of_with_a_range_and_a_range_without_a_start_are_refused() -> None:
    with pytest.raises(BadUserInput, match="not both"):
        resolve_time(NOW, NOW - timedelta(days=1), None, NOW)
    with pytest.raises(BadUserInput, match="needs a start"):
        resolve_time(None, None, NOW, NOW)


def test_time_axis_key_is_equal_for_equal_clamped_contexts() -> None:
    # Two different wire requests, both clamped to the same now: the same question.
    a = resolve_time(NOW + timedelta(minutes=1), None, None, NOW)
    b = resolve_time(NOW + timedelta(minutes=3), None, None, NOW)
    assert a.wire_key != b.wire_key
    assert time_axis_key(a) == time_axis_key(b) == "as_of:2026-11-18T12:00:00Z"
    # The same wire request clamped at two arrival times answers two different questions.
    later = resolve_time(NOW + timedelta(minutes=1), None, None, NOW + timedelta(seconds=30))
    assert time_axis_key(later) != time_axis_key(a)
    # Different axes never share a key.
    point = resolve_time(NOW - timedelta(days=1), None, None, NOW)
    span = resolve_time(None, NOW - timedelta(days=1), NOW - timedelta(days=1), NOW)
    assert time_axis_key(point) != time_axis_key(span)


def test_label_grain_is_the_coarsest_kept_and_current_states_its_instant() -> None:
    t = resolve_time(None, None, None, NOW)
    label = compose_label(t, [Grain.INSTANT, Grain.DAY, Grain.INSTANT])
    assert (label.axis, label.effective_from, label.effective_to) == (Axis.CURRENT, NOW, NOW)
    assert (label.grain, label.note) == (Grain.DAY, None)
    assert compose_label(t, [Grain.WEEK, Grain.DAY]).grain is Grain.WEEK
    assert compose_label(t, []).grain is None
    assert "2026-11-18T12:00:00Z" in label.text() and "day grain" in label.text()


def test_calendar_periods() -> None:
    sunday = datetime(2026, 11, 15, 23, 0, tzinfo=UTC)
    assert week_period(sunday)[0] == datetime(2026, 11, 9, tzinfo=UTC)
    assert week_period(NOW, -1) == (
        datetime(2026, 11, 9, tzinfo=UTC),
        datetime(2026, 11, 16, tzinfo=UTC),
    )
    assert month_period(2026, 12, 1)[0] == datetime(2027, 1, 1, tzinfo=UTC)
    assert month_period(2026, 1, -1) == (
        datetime(2025, 12, 1, tzinfo=UTC),
        datetime(2026, 1, 1, tzinfo=UTC),
    )
    assert quarter_period(2026, 4)[1] == datetime(2027, 1, 1, tzinfo=UTC)
    assert bounded(quarter_period(2026, 4), NOW) == (datetime(2026, 10, 1, tzinfo=UTC), NOW)
    feb29 = most_recent(lambda y: (datetime(y, 2, 29, tzinfo=UTC),) * 2, NOW)
    assert feb29[0] == datetime(2024, 2, 29, tzinfo=UTC)


_times = st.datetimes(
    min_value=datetime(1950, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


@given(st.one_of(st.none(), _times), st.one_of(st.none(), _times), st.one_of(st.none(), _times))
def test_effective_time_only_narrows(
    as_of: datetime | None, start: datetime | None, end: datetime | None
) -> None:
    try:
        t = resolve_time(as_of, start, end, NOW)
    except BadUserInput:
        return
    assert t.start <= t.end <= NOW
    if t.axis is Axis.RANGE:
        assert start is not None and t.start >= start
        assert t.end - t.start <= MAX_RANGE
        assert end is None or t.end <= end
    if t.axis is Axis.AS_OF:
        assert as_of is not None and t.start <= as_of
