"""A volume of commits asked with "what was" or "how much" is their count (issue 32; z39a
werkzeug A4), on the real histories (../shared/data), against `git log --no-merges
--full-history` (author time in UTC):

"What was the commit throughput in Werkzeug last month?" was a status whose answer opened with
"The health of werkzeug is not judged: no incident, deploy, pull-request or work-item facts
were found" before the count. The volume nouns are rows of engine/reading/intentnouns.py: the
answer is the count itself.
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

pytestmark = shared_history.present("click", "werkzeug", "requests")
(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests) = shared_history.each(
    "click", "werkzeug", "requests"
)
histories = shared_history.histories("click", "werkzeug", "requests")
ask = partial(answer, now=CLOCK)

CASES = [
    ("requests", "What was the commit throughput in requests in May 2026?",
     datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)),
    ("werkzeug", "How much activity was there in werkzeug in Q1 2026?",
     datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
    ("click", "what was the commit volume on click in 2025", datetime(2025, 1, 1, tzinfo=UTC),
     datetime(2026, 1, 1, tzinfo=UTC)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), CASES)
async def test_a_volume_of_commits_is_their_count(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = commits(clone, start, end)  # type: ignore[arg-type]
    said = result.direct_judgment or ""
    assert said.startswith(f"{counted} commit(s) to {history} from"), said


@pytest.mark.parametrize(
    ("history", "question", "instead", "start", "end"),
    [("werkzeug", "what was the throughput of werkzeug in March 2026?",
      "what was the commit throughput of werkzeug in March 2026?",
      datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)),
     ("click", "what was click's throughput in Q2 2026?",
      "what was click's commit throughput in Q2 2026?",
      datetime(2026, 4, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC))],
)  # fmt: skip
async def test_throughput_not_recorded_says_the_way_forward(
    histories: dict[str, tuple[object, object]],
    history: str,
    question: str,
    instead: str,
    start: datetime,
    end: datetime,
) -> None:
    """ "throughput" alone is pull requests merged, which a git history does not record: the
    answer said so and stopped; it now names the question a history of commits answers."""
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert 'Ask for "the commit throughput"' in (result.direct_judgment or ""), result
    counted = commits(clone, start, end)  # type: ignore[arg-type]
    asked = await ask(graph, instead)  # type: ignore[arg-type]
    assert (asked.direct_judgment or "").startswith(f"{counted} commit(s) to {history} from")
