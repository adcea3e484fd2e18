"""Calendar units written short where a question ranks periods (time40): "busiest wk in 2026"
ended on "wk" not understood (z39b B8, click), and on attrs "busiest wk this yr" asked
whether "wk" meant a person whose address starts so; "which mo had the most commits in 2025"
and "which qtr of 2025 was the busiest" ended on "mo"/"qtr", where "busiest week", "which
month" and "which quarter" are answered. Asked through `investigate` on the real histories
(../shared/data), in memory, at 2026-09-01T12:00 UTC: the busiest period and its commits as
`git log --no-merges --full-history` gives them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
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
graphs = shared_history.graphs(*NAMES)
clones = shared_history.clones(*NAMES)

ask = partial(answer, now=CLOCK)


def _weeks(start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The Monday-to-Sunday weeks starting in [start, end)."""
    monday = start - timedelta(days=start.weekday())
    found = []
    while monday < end:
        found.append((monday, monday + timedelta(days=7)))
        monday += timedelta(days=7)
    return found


def _months(year: int) -> list[tuple[datetime, datetime]]:
    return [(on(year, m), on(year + (m == 12), m % 12 + 1)) for m in range(1, 13)]


def _quarters(year: int) -> list[tuple[datetime, datetime]]:
    return [(on(year, m), on(year + (m == 10), (m + 2) % 12 + 1)) for m in (1, 4, 7, 10)]


def _label(unit: str, start: datetime) -> str:
    if unit == "week":
        return f"the week of {start:%Y-%m-%d}"
    if unit == "quarter":
        return f"{start:%Y}-Q{(start.month - 1) // 3 + 1}"
    return f"{start:%Y-%m}"


SHORT = [
    ("click", "busiest wk in 2026", "week", "wk", _weeks(on(2026, 1, 5), CLOCK)),
    ("attrs", "busiest wk this yr", "week", "wk", _weeks(on(2026, 1, 5), CLOCK)),
    ("werkzeug", "which mo had the most commits in 2025", "month", "mo", _months(2025)),
    ("attrs", "which qtr of 2025 was the busiest", "quarter", "qtr", _quarters(2025)),
    ("click", "which mth in 2025 saw the most commits?", "month", "mth", _months(2025)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "unit", "written", "periods"), SHORT)
async def test_a_unit_written_short_is_ranked_as_written_out(
    graphs: dict[str, OrgGraph],
    clones: dict[str, Path],
    history: str,
    question: str,
    unit: str,
    written: str,
    periods: list[tuple[datetime, datetime]],
) -> None:
    result = await ask(graphs[history], question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.limitations)
    judgment = result.direct_judgment or ""
    counted = [(commits(clones[history], s, e), s) for s, e in periods]
    most = max(n for n, _ in counted)
    busiest = min(s for n, s in counted if n == most)  # equal counts: the first in the calendar
    assert "ranked by commits, the most first" in judgment, judgment
    first = judgment.split("the most first (equal counts in calendar order): ", 1)[1]
    assert first.startswith(f"{_label(unit, busiest)}: {most} commit(s)"), judgment
    assert f'"{written}": read as "{unit}" (written short).' in result.limitations
