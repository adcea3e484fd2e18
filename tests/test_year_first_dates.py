"""A date written year first with slashes ("on 2026/03/04") is that day (engine/reading/time/spans.py):
its year alone was read, the whole of 2026 answered, the month and day dropped unsaid. With
dots ("2025.1.2", perhaps a version) it is said not understood, never read as its year."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.reading.interpreter import interpret

NOW = datetime(2026, 9, 1, 12, tzinfo=UTC)


def test_a_year_first_date_is_that_day() -> None:
    for written in ("2026/03/04", "2026/3/4"):
        i = interpret(f"how many commits to checkout on {written}?", NOW)
        assert (i.start, i.end) == (
            datetime(2026, 3, 4, tzinfo=UTC),
            datetime(2026, 3, 5, tzinfo=UTC),
        ), written
        assert i.time_note == f'"on {written}" is read as year/month/day'
        assert i.references == ("checkout",)


def test_a_year_first_date_that_is_no_day_is_never_its_year() -> None:
    for written in ("2026/13/04", "2026/03/04/05", "2026.03.04"):
        i = interpret(f"how many commits to checkout on {written}?", NOW)
        assert (i.start, i.end) != (datetime(2026, 1, 1, tzinfo=UTC), NOW), written
        assert i.time_not_understood, written


def test_a_version_number_written_as_a_date_is_no_date() -> None:
    i = interpret("what changed in checkout for version 2025/1/2?", NOW)
    assert i.start is None and i.as_of is None


def test_since_a_year_first_date_is_from_that_day() -> None:
    # 'since 2026/03/04' read 'since 2026' (from 1 January), the day dropped unsaid: on click
    # 34 commits to core.py where git counts 29 from 4 March.
    i = interpret("how many commits to checkout since 2026/03/04?", NOW)
    assert i.start == datetime(2026, 3, 4, tzinfo=UTC) and not i.time_not_understood
    i = interpret("how many commits to checkout between 2026/01/02 and 2026/03/04?", NOW)
    assert (i.start, i.end) == (datetime(2026, 1, 2, tzinfo=UTC), datetime(2026, 3, 5, tzinfo=UTC))


def test_between_a_date_with_a_year_and_one_without_ends_after_it() -> None:
    # The second date without a year was its most recent occurrence before now: 'between
    # August 2025 and September' ran to this September (327 commits on click; git 95 for
    # August-September 2025), 'between Christmas 2024 and New Year' to 2026 (251; git 0).
    i = interpret("how many commits to checkout between August 2025 and September?", NOW)
    assert (i.start, i.end) == (datetime(2025, 8, 1, tzinfo=UTC), datetime(2025, 10, 1, tzinfo=UTC))
    i = interpret("how many commits to checkout between Christmas 2024 and New Year?", NOW)
    assert (i.start, i.end) == (datetime(2024, 12, 25, tzinfo=UTC), datetime(2025, 1, 2, tzinfo=UTC))
    i = interpret("how many commits to checkout between May and July 2025?", NOW)  # as before
    assert (i.start, i.end) == (datetime(2025, 5, 1, tzinfo=UTC), datetime(2025, 8, 1, tzinfo=UTC))
