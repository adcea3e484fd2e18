"""A number after "week" is an ISO week only when nothing else says what it counts
(engine/reading/time/spans.py): "week 2 of March" is a week of March, "week 32 of last year" is last
year's week 32, "the week 5 days ago" counts days. Each was read as an ISO week of the most
recent year it had begun, the words after it said unused or dropped."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.reading.interpreter import interpret

NOW = datetime(2026, 9, 1, 12, tzinfo=UTC)


def utc(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


def test_a_week_of_a_month_by_its_number_is_that_week_of_the_month() -> None:
    # It read ISO week 2 of 2026 (5 to 11 January), "2026" said unused, "of March" dropped.
    i = interpret("how many commits to checkout in week 2 of March 2026?", NOW)
    assert (i.start, i.end) == (utc(2026, 3, 8), utc(2026, 3, 15))
    assert i.time_expression == "in week 2 of March 2026"
    assert i.time_note == (
        '"in week 2 of March 2026" is read as the month\'s days 8-14, not a Monday-to-Sunday week'
    )
    # Without a year: the most recent May that has begun.
    i = interpret("how many commits to checkout in week 4 of May?", NOW)
    assert (i.start, i.end) == (utc(2026, 5, 22), utc(2026, 5, 29))


def test_an_iso_week_of_last_year_or_this_year_is_of_that_year() -> None:
    # It read week 32 of 2026 (the most recent one), "last year" said unused.
    i = interpret("how many commits to checkout in week 32 of last year?", NOW)
    assert (i.start, i.end) == (utc(2025, 8, 4), utc(2025, 8, 11))
    assert i.time_expression == "in week 32 of last year"
    assert i.time_ignored == ()
    assert "most recent year" not in (i.time_note or "")
    i = interpret("how many commits to checkout in week 32 of this year?", NOW)
    assert (i.start, i.end) == (utc(2026, 8, 3), utc(2026, 8, 10))


def test_a_number_counting_a_unit_after_week_is_no_iso_week() -> None:
    # "the week 5 days ago" read ISO week 5 (26 January to 1 February 2026), said as such.
    for question in (
        "how many commits to checkout in the week 5 days ago?",
        "how many commits to checkout in week 10 hours ago?",
    ):
        i = interpret(question, NOW)
        assert "ISO week" not in (i.time_note or ""), question
        assert i.start != utc(2026, 1, 26) and i.start != utc(2026, 3, 2), question
