"""A question whose time spans more than the 400 days one answer covers says so, the span and
a window allowed, even when another word ends it too (issue 32; z39a A8, A10), on the real
histories (../shared/data):

click "Please give me the full contributor ranking for click from January 2020 through the end
of June 2026." was refused naming only "full" and "ranking" not understood; asked again without
them it met the 400-day rule. engine.investigation.wholetime.also_too_wide now says the rule
first (engine.resolving.questiontime.TooWide.refused), then the other words. The day counts are
the calendar's between the dates each phrase names.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "werkzeug", "attrs")
(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(
    "click", "werkzeug", "attrs"
)
histories = shared_history.histories("click", "werkzeug", "attrs")
ask = partial(answer, now=CLOCK)

# (history, question, first day, day after the last, a word that also ends it, or None)
CASES = [
    ("click", "Please give me the full contributor ranking for click from January 2020 through "
     "the end of June 2026.", date(2020, 1, 1), date(2026, 7, 1), None),
    ("werkzeug", "frobnicate the commits to werkzeug between 2021 and 2024", date(2021, 1, 1),
     date(2025, 1, 1), '"frobnicate"'),
    ("attrs", "complete list of contributors to attrs from 2018 to 2024", date(2018, 1, 1),
     date(2025, 1, 1), None),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "first", "after", "word"), CASES)
async def test_the_400_day_rule_is_said_beside_other_words(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    first: date,
    after: date,
    word: str | None,
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    days = (after - first).days
    if word is None:  # "full", "complete": read since everyone is listed (people41): the
        # rule alone asks again, offering a narrower question
        assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result
        prompt = result.clarification_prompt or ""
        assert f"asks for {days} days ({first.isoformat()}T00:00:00Z" in prompt, prompt
        assert "Ask for at most 400 days" in prompt, prompt
        assert not any("not understood" in n for n in result.limitations), result.limitations
        return
    assert result.outcome is Outcome.NO_MATCH, result
    rule = result.limitations[0]
    assert f"asks for {days} days ({first.isoformat()}T00:00:00Z" in rule, rule
    assert "more than the 400 days one answer may cover" in rule, rule
    assert "ask for at most 400 days" in rule, rule
    assert any(note.startswith(word) for note in result.limitations[1:]), result.limitations


async def test_hotspots_over_two_years_meet_the_rule(
    histories: dict[str, tuple[object, object]],
) -> None:
    """werkzeug "top hotspots in the debug package during 2025 and 2026 combined" said "top
    hotspots not understood" (z39a A10): now the ranking is read and the rule asks again."""
    graph, _ = histories["werkzeug"]
    question = "What were the top hotspots in the debug package during 2024 and 2025 combined?"
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, result.limitations
    days = (date(2026, 1, 1) - date(2024, 1, 1)).days
    assert f"asks for {days} days" in (result.clarification_prompt or "")
