"""Commits broken down by calendar month, quarter or week ("commits by month in 2025", "attrs
activity by month past 6 mo", "commits per quarter in 2025", "commits to werkzeug per week in
July 2026"): the window's calendar months, quarters or weeks (UTC; a week runs from
Monday), each one's commits read as a fact of its own
(the commit activity provider over that period: its records are the evidence), listed in
calendar order. A period the window cuts (the one under way, or the first of a window not
starting on its first day) is counted over the part inside it, said. It was refused ("a
breakdown by period is not computed"); engine/reading/periodcounts.py reads what is asked,
engine/questions/months.py ranks months and quarters the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.contract import ClaimedFact
from engine.domain.timecontext import iso
from engine.providers import Window
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also, when
from engine.questions.months import (
    Month,
    calendar_months,
    calendar_quarters,
    calendar_weeks,
    counts,
    label,
    monthly,
    read_each,
)


class PerPeriod(Question):
    """Each calendar month's or week's commits over the window, for each subject asked
    about."""

    name = "periods"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        unit = asked.understood.per_period
        if unit is None or not asked.subjects:
            return None
        start, end = asked.window.start, asked.window.end
        periods = calendar_weeks(start, end) if unit == "week" else calendar_months(start, end)
        if unit == "quarter":  # "commits per quarter in 2025"
            periods = calendar_quarters(periods)
        results = await read_each(asked, reader, periods)
        return Found(results=tuple(results), kept=(unit, *periods))

    def judgment(self, case: Case) -> str | None:
        kept = case.inputs.kept.get(self.name)
        if not isinstance(kept, tuple) or len(kept) < 2:
            return None
        unit, periods = kept[0], kept[1:]
        return " ".join(
            _listed(name, counts(case.facts, key, periods), case.window, unit)
            for key, name in case.names.items()
        )

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        kept = case.inputs.kept.get(self.name)
        if not isinstance(kept, tuple) or len(kept) < 2:
            return []
        periods = kept[1:]
        return claim_also(
            (f for key in case.names for f in monthly(case.facts, key, periods).values()),
            claimed,
        )


def _listed(name: str, counts: list[tuple[Month, int]], window: Window, unit: str) -> str:
    """ "werkzeug's commits by calendar week (UTC, from Monday) ...: the week of 2026-06-29
    (its part from ...): 3; ..."; a period cut by the window is said with the part counted."""
    if not any(n for _, n in counts):
        return f"{name} had no commit {when(window)}: 0 in every {unit}."
    items = "; ".join(f"{label(p, unit)}: {n} commit(s)" for p, n in counts)
    weeks = " (UTC, weeks from Monday)" if unit == "week" else " (UTC)"
    return (
        f"{name}'s commits by calendar {unit}{weeks} from {iso(window.start)} to "
        f"{iso(window.end)}, in calendar order: {items}."
    )
