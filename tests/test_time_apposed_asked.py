"""An explicit range written beside a label is that range; "from the first commit ... until
today" is the whole history (issue 32; z39a A8, A10), on the real histories (../shared/data),
each count against `git log --no-merges --full-history` (author time in UTC):

attrs "How busy was attrs over the 2025 Christmas holidays, from December 20th to January
5th?" was refused as two times named ("2025" and the range) with "Christmas holidays" not
understood; git has 2 commits in the range. The label is now said as an aside of the range
(engine/reading/time/apposed.py), never widening it; a range written without a year takes
the label's ("the 2024 Christmas holidays, ..." is 2024's); a label whose year misses a range
dated on its own stays refused as two times. "from the initial commit in 2015 until today"
was "in 2015" and "until today", two times: it is the whole history
(engine/reading/time/timelike.EVER), refused by the 400-day rule with the span.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "attrs", "requests")
(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs, requests_clone, requests) = (
    shared_history.each("click", "werkzeug", "attrs", "requests")
)
histories = shared_history.histories("click", "werkzeug", "attrs", "requests")
ask = partial(answer, now=CLOCK)

CASES = [
    ("attrs", "how many commits did attrs get over the 2025 Christmas holidays, from December "
     "20th to January 5th?", datetime(2025, 12, 20, tzinfo=UTC), datetime(2026, 1, 6, tzinfo=UTC),
     "2025 Christmas holidays"),
    ("click", "commits to click during the summer break, from July 1 to August 15 2025",
     datetime(2025, 7, 1, tzinfo=UTC), datetime(2025, 8, 16, tzinfo=UTC),
     "during the summer break"),
    ("werkzeug", "how many commits to werkzeug over the Easter holidays (between April 2 and "
     "April 9 2026)?", datetime(2026, 4, 2, tzinfo=UTC), datetime(2026, 4, 10, tzinfo=UTC),
     "Easter holidays"),
    # time42: a range in brackets, no "from": "over the holidays (Dec 24 - Jan 2)" was refused
    # as two times named ("over the holidays" and "Dec 24 - Jan 2").
    ("click", "how many commits to click over the holidays (Dec 24 - Jan 2)?",
     datetime(2025, 12, 24, tzinfo=UTC), datetime(2026, 1, 3, tzinfo=UTC), "over the holidays"),
    ("werkzeug", "commits to werkzeug over the christmas break (dec 20th to jan 5th)",
     datetime(2025, 12, 20, tzinfo=UTC), datetime(2026, 1, 6, tzinfo=UTC),
     "christmas break"),
    ("requests", "how many commits to requests during the summer break (July 1 - August 15 "
     "2025)?", datetime(2025, 7, 1, tzinfo=UTC), datetime(2025, 8, 16, tzinfo=UTC),
     "during the summer break"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "label"), CASES)
async def test_a_range_beside_a_label_is_the_range(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    label: str,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = commits(clone, start, end)  # type: ignore[arg-type]
    said = result.direct_judgment or ""
    assert said.startswith(f"{counted} commit(s) to {history} from {start:%Y-%m-%d}T"), said
    assert any(f'"{label}" is read as the dates written beside it' in n
               for n in result.limitations), result.limitations  # fmt: skip


async def test_a_label_s_year_is_the_year_of_a_range_written_without_one(
    histories: dict[str, tuple[object, object]],
) -> None:
    """ "the 2024 Christmas holidays, from December 20th to January 5th" is 20 December 2024
    to 5 January 2025 (the range alone is the most recent such: 2025's)."""
    graph, clone = histories["attrs"]
    question = (
        "how many commits to attrs over the 2024 Christmas holidays, from December 20th to "
        "January 5th?"
    )
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start, end = datetime(2024, 12, 20, tzinfo=UTC), datetime(2025, 1, 6, tzinfo=UTC)
    counted = commits(clone, start, end)  # type: ignore[arg-type]
    said = result.direct_judgment or ""
    assert said.startswith(f"{counted} commit(s) to attrs from 2024-12-20T"), said
    assert any("in 2024, the label's year" in n for n in result.limitations)


async def test_a_label_whose_year_misses_a_dated_range_stays_two_times(
    histories: dict[str, tuple[object, object]],
) -> None:
    graph, _ = histories["attrs"]
    question = (
        "how many commits to attrs over the 2024 holidays, from December 20th 2025 to "
        "January 5th 2026?"
    )
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is not Outcome.ANSWERED
    assert any("two times named" in n for n in result.limitations), result.limitations


@pytest.mark.parametrize(
    ("history", "question", "outcome"),
    [("attrs", "Please show the full ownership breakdown for attrs from the initial commit in "
      "2015 until today.", Outcome.NO_MATCH),
     ("requests", "how many commits did requests get from the very first commit in 2011 to now?",
      Outcome.CLARIFICATION_REQUIRED)],
)  # fmt: skip
async def test_from_the_first_commit_until_today_is_the_whole_history(
    histories: dict[str, tuple[object, object]], history: str, question: str, outcome: Outcome
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is outcome, result
    said = " ".join([result.clarification_prompt or "", *result.limitations])
    assert "more than the 400 days one answer may cover" in said, said
    assert "two times named" not in said, said


RELATIVE_YEAR_CASES = [
    ("click", "commits to click last year, from March to May", 2025),
    ("requests", "how many commits did requests get last year, from March to May?", 2025),
    ("attrs", "attrs commits last year, from March to May", 2025),
    ("click", "commits to click two years ago, from March to May", 2024),
    ("werkzeug", "how many commits to werkzeug two years ago, from March to May?", 2024),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "year"), RELATIVE_YEAR_CASES)
async def test_a_relative_year_label_is_the_year_of_a_range_written_without_one(
    histories: dict[str, tuple[object, object]], history: str, question: str, year: int
) -> None:
    """ "last year, from March to May" is March to May of last year (2025 on this clock),
    "two years ago, ..." of 2024: the label reads as one calendar year, as "the 2024
    Christmas holidays" does. They were answered over March to May 2026 (click 140 commits),
    the label said "read as the dates written beside it"."""
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start, end = datetime(year, 3, 1, tzinfo=UTC), datetime(year, 6, 1, tzinfo=UTC)
    counted = commits(clone, start, end)  # type: ignore[arg-type]
    said = result.direct_judgment or ""
    assert said.startswith(f"{counted} commit(s) to {history} from {year}-03-01T"), said
    assert f"{year}-06-01T" in said, said
    assert any(f"in {year}, the label's year" in n for n in result.limitations), result


@pytest.mark.parametrize(
    ("history", "question"),
    [("click", "commits to click last month, from March to May"),
     ("attrs", "how many commits to attrs last year, from March 2024 to May 2024?")],
)  # fmt: skip
async def test_a_relative_label_whose_period_misses_the_range_stays_two_times(
    histories: dict[str, tuple[object, object]], history: str, question: str
) -> None:
    """A range beside a label must meet the label's period: "last month" (August 2026) beside
    March to May, "last year" (2025) beside a range dated 2024, are two times named (they
    were answered over the range)."""
    graph, _ = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    assert any("two times named" in n for n in result.limitations), result.limitations


@pytest.mark.parametrize(
    ("history", "question"),
    [("attrs", "how many commits to attrs over the holidays (Dec 24)?"),
     ("click", "how many commits to click last month (Dec 24 - Jan 2)?")],
)  # fmt: skip
async def test_a_bracket_that_is_no_range_of_the_label_stays_two_times(
    histories: dict[str, tuple[object, object]], history: str, question: str
) -> None:
    """A day alone in brackets is no range restating the label, and a bracketed range the
    label's period misses ("last month", August 2026, beside December to January) is two
    times named, as before (time42)."""
    graph, _ = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    assert any("two times named" in n for n in result.limitations), result.limitations
