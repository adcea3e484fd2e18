"""Words naming what the whole repository is, or now (issue 32). Checkers asking as users do
(z36a A9) had "How many lines were added and deleted across the project in 2025?" end "No
project subject qualified for this question" (a git history records repositories, no
projects), and "who is currently working on attrs?" ask about attrs' whole history
("currently" was a stop word) while "these days" read the last 90 days; "at the moment"
ended on "moment". Now "the project" with no project recorded is the organisation's
repositories (said), and "currently", "at the moment", "right now" read as "these days"
does (the last 90 days, said). On two real histories (../shared/data), in memory; each truth
from `git log --no-merges --full-history` (author time)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
Y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))

pytestmark = shared_history.present("requests", "attrs")

requests_clone, requests, attrs_clone, attrs = shared_history.each("requests", "attrs")
ask = partial(answer, now=CLOCK)
histories = shared_history.histories("requests", "attrs")


@pytest.mark.parametrize("history", ["attrs", "requests"])
async def test_the_project_is_the_repository_where_no_project_is_recorded(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, clone = histories[history]
    question = "How many lines were added and deleted across the project in 2025?"
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    added, removed = shared_history.lines(clone, *Y2025)
    assert f"(+{added} -{removed})" in (result.direct_judgment or ""), result.direct_judgment
    assert result.subject_keys == (f"repository:{history}",)
    said = '"project": no subject of kind project is recorded here'
    assert any(n.startswith(said) for n in result.limitations), result.limitations
    result = await ask(graph, "how many commits across the whole project in 2025?")
    assert (result.direct_judgment or "").startswith(
        f"{shared_history.commits(clone, *Y2025)} commit(s) to {history} "
    ), result.direct_judgment


NOW_WORDS = [
    ("attrs", "how many commits to attrs at the moment?", "at the moment"),
    ("attrs", "how many commits has attrs had right now?", "right now"),
    ("requests", "how many commits to requests currently?", "currently"),
    ("requests", "how many commits are presently landing in requests?", "presently"),
]


@pytest.mark.parametrize(("history", "question", "phrase"), NOW_WORDS)
async def test_words_about_now_read_as_these_days(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, phrase: str
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt or result.limitations
    start = CLOCK - timedelta(days=90)
    count = shared_history.commits(clone, start, CLOCK)
    assert (result.direct_judgment or "").startswith(f"{count} commit(s) to {history} ")
    said = (
        f'"{phrase}" is read as the last 90 days: the answer covers 2026-06-03T12:00:00Z to '
        "2026-09-01T12:00:00Z."
    )
    assert said in result.limitations, result.limitations


@pytest.mark.parametrize("history", ["attrs", "requests"])
async def test_who_is_currently_working_on_a_repository_is_asked_about_now(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    """It asked again about the repository's whole history (since 2011, 2015)."""
    graph, _ = histories[history]
    result = await ask(graph, f"who is currently working on {history}?")
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    label = result.temporal_label
    assert label is not None and label.effective_from == CLOCK - timedelta(days=90)
