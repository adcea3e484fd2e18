"""Two time phrases where the second is no repeat of the first end the question, naming both
with their dates and the question to ask about each (engine.reading.uncompared.two_times):
an independent check (z32a) had "all of 2024 and 2025, who changed _make.py" answered over
2024, 'Only the first time phrase is used: "2025" was not.' beside it. Each question
suggested is answered, with git's count (author time, --no-merges). A time said twice, a
time for each subject and a comparison keep their own rules (tests/test_one_time_twice.py,
tests/test_click_history.py, tests/test_two_periods.py). On attrs' and werkzeug's real
histories (../shared/data), in memory. A question ended on a time phrase carries no part of a
window.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.errors import BadUserInput
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer
from tests.test_two_periods import on

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "attrs")

werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each("werkzeug", "attrs")

ask = partial(answer, now=CLOCK)
MAKE, SERVING = "src/attr/_make.py", "src/werkzeug/serving.py"

CASES = [
    ("attrs", "all of 2024 and 2025, how many commits to _make.py", ("2024", "2025"),
     (on(2024, 1), on(2025, 1)), (on(2025, 1), on(2026, 1)), MAKE),
    ("attrs", "how many commits to _make.py in 2025 in 2024?", ("in 2025", "in 2024"),
     (on(2025, 1), on(2026, 1)), (on(2024, 1), on(2025, 1)), MAKE),
    ("werkzeug", "how many commits to serving.py this year and last year",
     ("this year", "last year"), (on(2026, 1), CLOCK), (on(2025, 1), on(2026, 1)), SERVING),
    # c33b F1: '"april" was not understood as a time', a month the reader knows
    ("werkzeug", "how many commits to serving.py in march or april",
     ("in march", "april"), (on(2026, 3), on(2026, 4)), (on(2026, 4), on(2026, 5)), SERVING),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "phrases", "first", "second", "path"), CASES)
async def test_a_second_time_named_ends_the_question_naming_both(
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
    history: str,
    question: str,
    phrases: tuple[str, str],
    first: tuple[datetime, datetime],
    second: tuple[datetime, datetime],
    path: str,
) -> None:
    graph, clone = (werkzeug, werkzeug_clone) if history == "werkzeug" else (attrs, attrs_clone)
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert result.time_context.start is None, result.time_context  # no part of a window
    said = next(n for n in result.limitations if "are two times named" in n)
    for phrase, (start, end) in zip(phrases, (first, second), strict=True):
        assert f'"{phrase}" ({start:%Y-%m-%dT%H:%M:%SZ} to {end:%Y-%m-%dT%H:%M:%SZ})' in said
    asked = said.split("Ask about each period in turn: ")[1].split('"')[1::2]
    assert len(asked) == 2
    for again, (start, end) in zip(asked, (first, second), strict=True):
        alone = await ask(graph, again)
        assert alone.outcome is Outcome.ANSWERED, (again, alone.limitations)
        counted = commits(clone, start, end, path)
        assert (alone.direct_judgment or "").startswith(f"{counted} commit(s) to "), again


async def test_a_time_alone_after_and_asks_the_question_again(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """", and in the last 3 months?" after a count is the same question asked again over that
    time (engine/reading/againparts.py, 6553d99): both counts, each with git's figure, where
    the question used to end naming the two times."""
    question = "how many commits to serving.py in 2025, and in the last 3 months?"
    result = await ask(werkzeug, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    last = datetime(2026, 6, 1, 12, tzinfo=UTC)
    first = commits(werkzeug_clone, on(2025, 1), on(2026, 1), SERVING)
    then = commits(werkzeug_clone, last, CLOCK, SERVING)
    assert result.direct_judgment == (
        f"{first} commit(s) to werkzeug.serving from 2025-01-01T00:00:00Z to "
        f"2026-01-01T00:00:00Z. {then} commit(s) to werkzeug.serving from "
        "2026-06-01T12:00:00Z to 2026-09-01T12:00:00Z."
    )
    assert any(n.startswith('"in the last 3 months?" answered as') for n in result.limitations)


async def test_who_changed_over_two_years_named_apart_is_not_answered_over_the_first(
    attrs: OrgGraph,
) -> None:
    """z32a's phrasing: answered over 2024 with the people of 2024."""
    result = await ask(attrs, "all of 2024 and 2025, who changed _make.py")
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert any('"2024" (' in n and '"2025" (' in n for n in result.limitations)


async def test_the_same_time_twice_and_one_span_are_still_answered(werkzeug: OrgGraph) -> None:
    """Controls: one time said twice is that time; "in March 2026 and April 2026" is one
    span, both months."""
    twice = await ask(werkzeug, "how many commits to serving.py in 2025, in 2025?")
    assert twice.outcome is Outcome.ANSWERED, twice.limitations
    both = await ask(werkzeug, "how many commits to serving.py in march 2026 and april 2026")
    assert both.outcome is Outcome.ANSWERED, both.limitations


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("werkzeug", "who changed serving.py in 2025 before the outage"),
        ("attrs", "how many commits to _make.py since march, around the freeze"),
    ],
)
async def test_a_question_ended_on_a_time_phrase_carries_no_part_of_a_window(
    werkzeug: OrgGraph, attrs: OrgGraph, history: str, question: str
) -> None:
    """Its no match carried the window of the phrase read ("in 2025") in time_context, as
    if that part were answered: it carries the request's own time, none of the question's
    (engine.resolving.questiontime.asked_time)."""
    result = await ask(werkzeug if history == "werkzeug" else attrs, question)
    assert result.outcome is Outcome.NO_MATCH and not result.direct_judgment
    assert any("no other window is answered" in n for n in result.limitations)
    assert result.time_context.start is None and result.time_context.end is None


@pytest.mark.parametrize(
    "question",
    ["how is _make.py doing next year in 2031?", "who changed _make.py next month, in 2030?"],
)
async def test_a_time_in_the_future_is_refused_before_a_second_time_ends_the_question(
    attrs: OrgGraph, question: str
) -> None:
    """bench/investigate.py's "how is X doing next year in 2031?" was refused as a time in
    the future; once a second time ended questions it came back as no match, offering to
    ask about each future year. The future is refused first, as when asked alone."""
    with pytest.raises(BadUserInput, match="in the future"):
        await ask(attrs, question)
