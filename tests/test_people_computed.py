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


# (history, question, window, the people left out as the history names them): "besides",
# "other than", "apart from" several people. It ended ("besides Nate Prewitt": leaving a
# subject out is computed only for a person's part) or answered about one of them left out.
SEVERAL_LEFT_OUT = [
    ("requests", "did anyone besides nate and dependabot commit to requests over the summer",
     datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 9, 1, tzinfo=UTC),
     ("Nate Prewitt", "dependabot[bot]")),
    ("attrs", "how many commits to attrs in 2025 other than hynek or dependabot",
     on(2025), on(2026), ("Hynek Schlawack", "dependabot[bot]")),
    ("click", "who committed to click in 2025 apart from David Lord, Kevin Deldycke",
     on(2025), on(2026), ("David Lord", "Kevin Deldycke")),
    ("werkzeug", "how many commits to werkzeug in 2024 besides David Lord and pgjones",
     on(2024), on(2025), ("David Lord", "pgjones")),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "out"), SEVERAL_LEFT_OUT)
async def test_besides_several_people_is_everyone_elses_part(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    out: tuple[str, ...],
) -> None:
    graph, clone = histories[history]
    gits = authors(clone, start, end)
    assert all(any(name in names for names in gits) for name in out), "each left out committed"
    rest = {names: c for names, c in gits.items() if not set(out) & names}
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    judgment = result.direct_judgment or ""
    assert f"(people other than {out[0]} and {out[1]})" in judgment, judgment
    if judgment.startswith("Most active"):
        assert f"({len(rest)} people in all)" in judgment, judgment
        top = max(rest.values())
        assert f"({top} commit(s)," in judgment
    else:
        assert judgment.startswith(f"{sum(rest.values())} commit(s) to "), judgment
    assert not any(f"{name} (" in judgment.split(":", 1)[-1] for name in out)
