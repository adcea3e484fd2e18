"""People and what is computed about them, asked as the unseen-question checks of session 36
asked them (issue 32): a count of people says how commit authors are grouped (requests' 2019
has 39 people here, 40 by `git shortlog -s`, and nothing said why). On the real histories
(../shared/data), in memory; each truth from `git log --no-merges --full-history` (author
time; people as the import joins them: names sharing an address are one person)."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.answering.people import GROUPED
from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer
from tests.test_rankings_asked import authors

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "requests", "werkzeug", "attrs")

click_clone, click, requests_clone, requests, werkzeug_clone, werkzeug, attrs_clone, attrs = (
    shared_history.each("click", "requests", "werkzeug", "attrs")
)
ask = partial(answer, now=CLOCK)
histories = shared_history.histories("click", "requests", "werkzeug", "attrs")


def on(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def names(clone: Path, start: datetime, end: datetime) -> int:
    """The people `git shortlog -s --no-merges` counts in [start, end) by author time: one
    per name."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %aN"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    rows = [line.split(" ", 1) for line in out.splitlines()]
    return len({n for at, n in rows if start <= datetime.fromtimestamp(int(at), UTC) < end})


# Windows where one person committed under two names from one address: shortlog counts more.
GROUPED_COUNTS = [
    ("requests", "how many people committed to requests in 2019", 2019, "{n} people changed"),
    ("click", "who committed to click in 2020", 2020, "({n} people in all)"),
]


@pytest.mark.parametrize(("history", "question", "year", "said"), GROUPED_COUNTS)
async def test_a_count_of_people_says_how_authors_are_grouped(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, year: int, said: str
) -> None:
    graph, clone = histories[history]
    people = len(authors(clone, on(year), on(year + 1)))
    assert names(clone, on(year), on(year + 1)) > people, "shortlog counts more: else no case"
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert said.format(n=people) in (result.direct_judgment or "")
    assert GROUPED in result.limitations


async def test_a_count_of_commits_says_nothing_of_grouping(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    graph, _ = histories["werkzeug"]
    result = await ask(graph, "how many commits to werkzeug in 2025")
    assert result.outcome is Outcome.ANSWERED
    assert GROUPED not in result.limitations
