"""Periods of a window ranked or counted one by one (time38): "Rank the months of spring 2021
by number of commits" was not understood as a time ("the months of" no row read), then ended
on "Rank" as a subject; "how many commits per quarter in 2025?" ended on "quarter in 2025" not
understood as a time (a breakdown by quarter was not computed, by month and week were). Asked
through `investigate` on the real histories (../shared/data), in memory, at 2026-09-01T12:00
UTC, each period's commits as `git log --no-merges --full-history` counts them. A breakdown
by year over six years stays ended, saying what is computed and the 400 days one answer
covers.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
NAMES = ("click", "werkzeug", "attrs")

pytestmark = shared_history.present(*NAMES)

(click_clone, click, werkzeug_clone, werkzeug, attrs_clone, attrs) = shared_history.each(*NAMES)

ask = partial(answer, now=CLOCK)


graphs = shared_history.graphs(*NAMES)
clones = shared_history.clones(*NAMES)


def month(year: int, m: int) -> tuple[datetime, datetime]:
    return on(year, m), on(year + m // 12, m % 12 + 1)


def quarter(year: int, q: int) -> tuple[datetime, datetime]:
    return month(year, 3 * q - 2)[0], month(year, 3 * q)[1]


@pytest.mark.parametrize(
    ("history", "question", "year", "months"),
    [
        ("click", "Rank the months of spring 2021 by number of commits", 2021, (3, 4, 5)),
        ("attrs", "rank the months of the summer of 2024 by commits", 2024, (6, 7, 8)),
    ],
)
async def test_the_months_of_a_period_are_ranked(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    year: int,
    months: tuple[int, ...],
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    counted = [(m, commits(clones[history], *month(year, m))) for m in months]
    ranked = sorted(counted, key=lambda c: -c[1])  # equal counts in calendar order
    listed = "; ".join(f"{year}-{m:02d}: {n} commit(s)" for m, n in ranked)
    assert listed in (result.direct_judgment or ""), result.direct_judgment


@pytest.mark.parametrize(
    ("history", "question", "year"),
    [
        ("click", "how many commits per quarter in 2025?", 2025),
        ("werkzeug", "commits to werkzeug by quarter in 2024", 2024),
        ("attrs", "quarterly commits in 2023", 2023),
    ],
)
async def test_commits_are_counted_per_quarter(
    graphs: dict[str, OrgGraph], clones: dict[str, Path], history: str, question: str, year: int
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    each = "; ".join(
        f"{year}-Q{q}: {commits(clones[history], *quarter(year, q))} commit(s)" for q in (1, 2, 3, 4)
    )
    assert f"commits by calendar quarter (UTC) from {year}-01-01T00:00:00Z" in (
        result.direct_judgment or ""
    ), result.direct_judgment
    assert f"in calendar order: {each}." in (result.direct_judgment or ""), result.direct_judgment


async def test_a_breakdown_by_year_over_six_years_says_what_is_computed(click: OrgGraph) -> None:
    result = await ask(click, "Give me the number of commits per year from 2020 to 2025")
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    said = " ".join([*result.limitations, result.clarification_prompt or ""])
    assert "400 days" in said, said
