"""How many people a ranking lists is one decision (engine.reading.meaning.few_only): ranked by
lines, or with the bots left out or asked, the facts rank the first five only, and "the top 10"
says so. click "top 10 non-bot contributors to click in 2025" listed five people and said
'"top 10": the top 10 are listed, ranked by commits.' (main 387e0d8: meaning.top read the bot
words of its tokens, which "non-bot" is not, while the answer left the bots out and listed
five). Guard: "the top 10 contributors" with no bots asked still lists ten. Figures from git
(tests/shared_history)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.bots import is_bot
from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import on
from tests.test_investigate import answer

CLOCK = on(2026, 9, 1, 12)
FIVE = '"top 10": an answer ranking people lists at most 5: only the top 5 are listed, not 10.'
TEN = '"top 10": the top 10 are listed, ranked by commits.'

pytestmark = shared_history.present("click", "requests")
(click_clone, click, requests_clone, requests) = shared_history.each("click", "requests")
histories = shared_history.histories("click", "requests")
ask = partial(answer, now=CLOCK)


def _people(clone: Path, start: datetime, end: datetime) -> list[tuple[str, int]]:
    """Each author's commits in [start, end) that is no bot, most first, by git."""
    rows = [name for at, _, name in shared_history.changes(clone)
            if start.timestamp() <= at < end.timestamp() and not is_bot(name)]  # fmt: skip
    return Counter(rows).most_common()


@pytest.mark.parametrize(
    ("history", "question", "start", "end"),
    [
        ("click", "top 10 non-bot contributors to click in 2025", on(2025), on(2026)),
        ("requests", "top 10 non-bot contributors to requests in 2024", on(2024), on(2025)),
    ],
)
async def test_top_ten_without_bots_says_five_are_listed(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    ranked = _people(clone, start, end)
    assert len(ranked) > 5 and ranked[0][1] > ranked[1][1], ranked  # more than five, one top
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert "bots left out" in judgment, judgment
    assert judgment.count(" commit(s), ") == 5, judgment  # five people, each "(n commit(s), m"
    assert f"{ranked[0][0]} ({ranked[0][1]} commit(s)," in judgment, judgment
    assert FIVE in result.limitations, result.limitations
    assert TEN not in result.limitations, result.limitations


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("click", "top 10 contributors to click in 2025"),
        ("requests", "top 10 contributors to requests in 2024"),
    ],
)
async def test_top_ten_with_no_bots_asked_lists_ten(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert TEN in result.limitations, result.limitations
    assert "bots left out" not in (result.direct_judgment or "")
