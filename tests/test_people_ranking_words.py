"""People ranked asked with a ranking noun, and the whole list of people asked (issue 32;
z39a A8), on the real histories (../shared/data), against `git log --no-merges
--full-history` (author time, people joined as the import joins them):

"contributor ranking for attrs in 2025" ended on "ranking" not understood: it is a "who"
answer, people ranked by commits (engine/reading/vocabulary.py, intents.py). "the full
contributor ranking", "a complete list of contributors", "all of them" ask for every person
where a "who" answer lists five: the question ends naming the word and the rule, never the
first five answered as if they were all (engine/reading/sizerows.py, "whole list of people").
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.test_investigate import answer
from tests.test_rankings_asked import authors

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))

pytestmark = shared_history.present("click", "requests", "attrs")
(click_clone, click, requests_clone, requests, attrs_clone, attrs) = shared_history.each(
    "click", "requests", "attrs"
)
histories = shared_history.histories("click", "requests", "attrs")
ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("history", "question"),
    [("attrs", "contributor ranking for attrs in 2025"),
     ("click", "the ranking of authors of click in 2025"),
     ("requests", "list the contributors to requests in 2025")],
)  # fmt: skip
async def test_a_ranking_of_people_is_a_who_answer(
    histories: dict[str, tuple[object, object]], history: str, question: str
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.interpretation.get("intent") == "who"
    counted = authors(clone, *Y2025)  # type: ignore[arg-type]
    most = max(counted.values())
    said = result.direct_judgment or ""
    assert "ranked by commits" in said, said
    assert f"({most} commit(s)" in said, said
    assert f"({len(counted)} people in all)" in said or len(counted) <= 5, said


@pytest.mark.parametrize(
    ("history", "question", "word"),
    [("requests", "Give me the complete list of contributors to requests in 2025", "complete"),
     ("click", "full contributor ranking for click in 2025", "full"),
     ("attrs", "who committed to attrs in 2025? list all of them", "all of them")],
)  # fmt: skip
async def test_the_whole_list_of_people_ends_naming_the_rule(
    histories: dict[str, tuple[object, object]], history: str, question: str, word: str
) -> None:
    graph, clone = histories[history]
    assert len(authors(clone, *Y2025)) > 5  # type: ignore[arg-type]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.NO_MATCH, result
    notes = [n for n in result.limitations if n.startswith(f'"{word}"')]
    assert notes and "lists the 5 with the most commits" in notes[0], result.limitations
