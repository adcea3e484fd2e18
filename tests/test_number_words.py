"""A count written as a word reads as its digits do, in every reading that takes a count: the
size of a ranking ("the top twelve files"), people ranked ("the top eleven contributors"), a
time counted back ("the last fifteen days", "twenty months ago"). The words were three tables
(engine/reading/time/calendar.py to twelve, engine/reading/ranking.py one to ten,
engine/reading/intents.py two to twenty, "one" left out), so "the top twelve files" ranked
ten by default and said "twelve" not understood, where "the top 12 files" ranked twelve.
Now one table, engine/reading/numbers.py. The words are written here, not imported from it:
the test says what a user may write."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.interpreter import interpret
from tests import shared_history
from tests.shared_history import commits, stamp
from tests.test_investigate import answer

NOW = datetime(2026, 9, 1, 12, tzinfo=UTC)
WORDS = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    "twenty",
]  # fmt: skip
SPELT = {word: n for n, word in enumerate(WORDS, start=1)}


def _same(asked: str, word: str) -> None:
    """The question with the word reads as the one with its digits: what it asks, over
    which time, with nothing more left unread, and the same said (the word as written)."""
    worded, digits = asked.format(word), asked.format(SPELT[word])
    one, two = interpret(worded, NOW), interpret(digits, NOW)
    assert (one.intent, one.fact_kinds, one.references) == (two.intent, two.fact_kinds,
                                                           two.references), worded  # fmt: skip
    assert (one.start, one.end) == (two.start, two.end), worded
    assert (one.unread, one.time_not_understood) == (two.unread, two.time_not_understood), worded
    said = [re.sub(rf"\b{word}\b", str(SPELT[word]), repr(u)) for u in one.unasked]
    assert said == [repr(u) for u in two.unasked], worded


@pytest.mark.parametrize("word", WORDS)
def test_the_size_of_a_ranking_reads_as_its_digits(word: str) -> None:
    n = SPELT[word]
    for asked in ("which are the top {} files in click by commits?",
                  "what were the {} most changed modules in werkzeug in 2024?"):  # fmt: skip
        worded = interpret(asked.format(word), NOW)
        assert worded.ranking is not None and worded.ranking.size == n, (word, worded.ranking)
        assert worded.unread == (), worded.unread


@pytest.mark.parametrize("word", WORDS)
def test_people_ranked_read_as_with_digits(word: str) -> None:
    asked = "who are the top {} contributors to attrs in 2025?"
    _same(asked, word)


@pytest.mark.parametrize("word", WORDS)
def test_a_time_counted_back_reads_as_its_digits(word: str) -> None:
    for asked in ("how many commits were made to click in the last {} days?",
                  "who committed to requests {} weeks ago?"):  # fmt: skip
        _same(asked, word)


# Through `investigate` on two real histories (../shared/data), at 2026-09-01T12:00 UTC, the
# figures as `git log --no-merges --full-history` counts them.
CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "attrs")
(click_clone, click, attrs_clone, attrs) = shared_history.each(*NAMES)
histories = shared_history.histories(*NAMES)


@shared_history.present(*NAMES)
@pytest.mark.parametrize("name", NAMES)
async def test_counts_written_as_words_are_answered_as_gits(
    histories: dict[str, tuple[OrgGraph, Path]], name: str
) -> None:
    """The commits of the last fifteen weeks are git's; the top twelve files are twelve,
    "twelve" never said not understood."""
    graph, clone = histories[name]
    result = await answer(graph, "how many commits were made in the last fifteen weeks?",
                          now=CLOCK)  # fmt: skip
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start = CLOCK - timedelta(weeks=15)
    said = f"{commits(clone, start, CLOCK)} commit(s) to the whole organisation from "
    assert f"{said}{stamp(start)} to {stamp(CLOCK)}." in (result.direct_judgment or "")
    result = await answer(graph, "which were the top twelve files by commits in 2025?", now=CLOCK)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    ranked = result.direct_judgment or ""
    assert "; 12. " in ranked and "; 13. " not in ranked, ranked
    assert not any("twelve" in note for note in result.limitations), result.limitations
