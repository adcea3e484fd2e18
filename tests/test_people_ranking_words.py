"""People ranked asked with a ranking noun, and the whole list of people asked (issue 32;
z39a A8), on the real histories (../shared/data), against `git log --no-merges
--full-history` (author time, people joined as the import joins them):

"contributor ranking for attrs in 2025" ended on "ranking" not understood: it is a "who"
answer, people ranked by commits (engine/reading/vocabulary.py, intents.py). "the full
contributor ranking", "a complete list of contributors", "all of them" ask for every person:
they ended naming the word (a "who" answer listed five); since a "who" answer lists everyone
up to PEOPLE_LISTED (engine/questions/who.py), they are answered, the list's reach said
(engine/reading/sizerows.py, "whole list of people"): their commits add up to git's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import partial

import pytest

from engine.domain.contract import Outcome
from tests import shared_history
from tests.shared_history import commits
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
async def test_the_whole_list_of_people_is_everyone(
    histories: dict[str, tuple[object, object]], history: str, question: str, word: str
) -> None:
    """Ended NO_MATCH before the who answer listed everyone (people41)."""
    graph, clone = histories[history]
    assert len(authors(clone, *Y2025)) > 5  # type: ignore[arg-type]
    result = await ask(graph, question)  # type: ignore[arg-type]
    assert result.outcome is Outcome.ANSWERED, result
    notes = [n for n in result.limitations if n.startswith(f'"{word}"')]
    assert notes and "everyone who committed is listed" in notes[0], result.limitations
    said = result.direct_judgment or ""
    listed = [int(n) for n in re.findall(r"\((\d+) commit\(s\), \d+ line", said)]
    people = re.search(r"\((\d+) people in all\)", said)
    assert people is not None and len(listed) == int(people.group(1)), said
    assert sum(listed) == commits(clone, *Y2025), said  # type: ignore[arg-type]
