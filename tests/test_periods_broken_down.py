"""Commits by calendar month or week, and weeks ranked, are answered with git's counts.

"attrs activity by month past 6 mo", "commits to attrs broken down by week in 2025",
"monthly commits to werkzeug in 2025" ended: "a breakdown by period is not computed, only
one total for the whole window"; "busiest week in werkzeug this yr", "which week had the
most commits in 2025": "a ranking of periods other than months ... is not computed". Each
calendar month's or week's (UTC, from Monday) commits are now read over it and listed in
calendar order (engine/questions/periods.py), or ranked as months are
(engine/questions/months.py); each figure is a claimed fact over its period, equal to `git
log --no-merges --full-history` by author time. Days, lines or people by period, and rates
("commits a week") still end, said. On attrs' and werkzeug's real histories (../shared/data),
in memory, asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.facts import FactKind
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on, stamp
from tests.test_periods_compared import CLOCK, ask

pytestmark = shared_history.present("attrs", "werkzeug")

(attrs_clone, attrs, werkzeug_clone, werkzeug) = shared_history.each("attrs", "werkzeug")
histories = shared_history.histories("attrs", "werkzeug")

Period = tuple[datetime, datetime]


def periods(start: datetime, end: datetime, unit: str) -> list[Period]:
    """The calendar months, or weeks from Monday (UTC), [start, end) touches, cut to it."""
    bounds, at = [start], start
    while at < end:
        if unit == "month":
            at = on(at.year + at.month // 12, at.month % 12 + 1)
        else:
            day = datetime(at.year, at.month, at.day, tzinfo=UTC)
            at = day + timedelta(days=7 - day.weekday())
        bounds.append(min(at, end))
    return list(pairwise(bounds))


def label(period: Period, unit: str) -> str:
    start, end = period
    if unit == "month":
        whole, name = start.day == 1 and end.day == 1, f"{start:%Y-%m}"
    else:
        whole = start.weekday() == 0 and end.weekday() == 0
        name = f"the week of {start - timedelta(days=start.weekday()):%Y-%m-%d}"
    whole = whole and start.time() == end.time() == datetime.min.time()
    return name if whole else f"{name} (its part from {stamp(start)} to {stamp(end)})"


def as_git(clone: Path, start: datetime, end: datetime, unit: str) -> list[tuple[Period, int]]:
    return [(p, commits(clone, *p)) for p in periods(start, end, unit)]


BROKEN_DOWN = [
    ("attrs", "attrs activity by month past 6 mo", "month", CLOCK - timedelta(days=184), CLOCK),
    ("attrs", "commits to attrs broken down by week in 2025", "week", on(2025, 1), on(2026, 1)),
    ("werkzeug", "monthly commits to werkzeug in 2025", "month", on(2025, 1), on(2026, 1)),
    ("werkzeug", "commits to werkzeug per week in Feb 2026", "week", on(2026, 2), on(2026, 3)),
    # time42: "counts" ended the question (not understood); each month's count is asked
    ("werkzeug", "monthly commit counts for werkzeug in 2025", "month", on(2025, 1), on(2026, 1)),
    ("attrs", "commit counts per month for attrs in 2025", "month", on(2025, 1), on(2026, 1)),
    ("attrs", "commits per month to attrs this year", "month", on(2026, 1), CLOCK),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "unit", "start", "end"), BROKEN_DOWN)
async def test_commits_by_month_or_week_are_each_periods_count(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    unit: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = as_git(clone, start, end, unit)
    assert sum(n for _, n in counted) > 0  # the histories have commits in these windows
    items = "; ".join(f"{label(p, unit)}: {n} commit(s)" for p, n in counted)
    said = result.direct_judgment or ""
    assert f"in calendar order: {items}." in said, said
    # every period with commits is a claimed fact over that period, of its count
    claimed = {
        (c.window_start, c.window_end): c.value.get("commits")
        for c in result.claimed_facts
        if c.kind is FactKind.COMMIT_ACTIVITY
    }
    assert all(claimed.get(p) == n for p, n in counted if n), (claimed, counted)


RANKED_WEEKS = [
    ("werkzeug", "busiest week in werkzeug this yr", on(2026, 1), CLOCK),
    ("attrs", "which week had the most commits in 2025", on(2025, 1), on(2026, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end"), RANKED_WEEKS)
async def test_weeks_ranked_by_commits_are_each_weeks_count(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    order = sorted(as_git(clone, start, end, "week"), key=lambda c: (-c[1], c[0][0]))
    items = "; ".join(f"{label(p, 'week')}: {n} commit(s)" for p, n in order)
    said = result.direct_judgment or ""
    assert f"the most first (equal counts in calendar order): {items}; " in said, said
    assert f"the busiest was {label(order[0][0], 'week')} with {order[0][1]} commit(s)" in said


STILL_ENDED = [
    ("attrs", "commits per day in July 2026", "per day"),
    ("werkzeug", "lines changed per month in werkzeug in 2026", "per month"),
    ("werkzeug", "who committed by month in 2026", "by month"),
    ("attrs", "how many commits a week in attrs in 2025", "a week"),
    # two periods compared: their totals were answered, "by month" dropped
    ("attrs", "commits by month in 2024 vs 2025", "by month"),
    ("werkzeug", "commits to werkzeug by week, 2025 vs 2024", "by week"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "named"), STILL_ENDED)
async def test_other_breakdowns_still_end_said(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, named: str
) -> None:
    """The controls: days, lines or people by period, a rate, two periods compared: not
    computed, said."""
    result = await ask(histories[history][0], question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(n.startswith(f'"{named}": ') for n in result.limitations), result.limitations


async def test_counts_with_no_unit_counted_by_stay_not_understood(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """ "counts" is read as each period's figure only beside a unit counted by: "commit counts
    for attrs in 2025" names none, and ends on it as before (time42)."""
    result = await ask(histories["attrs"][0], "commit counts for attrs in 2025")
    assert result.outcome is not Outcome.ANSWERED, result.direct_judgment
    assert any('"counts"' in n for n in result.limitations), result.limitations
