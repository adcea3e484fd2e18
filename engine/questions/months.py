"""Months ranked by their commits ("which month in 2026 had the most commits in werkzeug?",
"busiest month this yr"): the window's calendar months (UTC), each one's commits read as a
fact of its own (the commit activity provider over that month: its records are the evidence),
listed the most first, equal counts in calendar order. A month the window cuts (the one under
way, or the first of a window not starting on the 1st) is counted over the part inside it,
said. It was refused ("a ranking of periods ... is not computed"); weeks, days and other
periods still are (engine/reading/wordrules.py), as is a ranking of months by lines or
people (engine/reading/rankedmonths.py reads what is asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.domain.timecontext import iso
from engine.providers import Window
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also, number, when

Month = tuple[datetime, datetime]


class BusiestMonth(Question):
    """The window's months ranked by commits, for each subject asked about."""

    name = "months"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if not asked.understood.months_ranked or not asked.subjects:
            return None
        months = calendar_months(asked.window.start, asked.window.end)
        results = []
        for start, end in months:
            window = Window(start, end, historical=True)
            found = await reader.facts(asked.subjects, [FactKind.COMMIT_ACTIVITY], window)
            results += [r for r in found if r.facts]  # a month with none: 0, in the judgment
        return Found(results=tuple(results), kept=tuple(months))

    def judgment(self, case: Case) -> str | None:
        months = case.inputs.kept.get(self.name)
        if not isinstance(months, tuple) or not months:
            return None
        window = case.window
        parts = [
            _ranked(name, _counts(case.facts, key, months), window)
            for key, name in case.names.items()
        ]
        return " ".join(parts)

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        months = case.inputs.kept.get(self.name)
        if not isinstance(months, tuple) or not months:
            return []
        return claim_also(
            (f for key in case.names for f in _monthly(case.facts, key, months).values()),
            claimed,
        )


def calendar_months(start: datetime, end: datetime) -> list[Month]:
    """The calendar months (UTC) [start, end) touches, each cut to it."""
    months: list[Month] = []
    at = start
    while at < end:
        year, month = (at.year + 1, 1) if at.month == 12 else (at.year, at.month + 1)
        following = at.replace(year=year, month=month, day=1, hour=0, minute=0, second=0,
                               microsecond=0)  # fmt: skip
        months.append((at, min(following, end)))
        at = following
    return months


def _monthly(facts: Sequence[Fact], key: str, months: Sequence[Month]) -> dict[Month, Fact]:
    """The commit activity fact of `key` read over each month."""
    wanted = set(months)
    return {
        (f.window_start, f.window_end): f
        for f in facts
        if f.kind is FactKind.COMMIT_ACTIVITY
        and f.subject_key == key
        and (f.window_start, f.window_end) in wanted
    }


def _counts(facts: Sequence[Fact], key: str, months: Sequence[Month]) -> list[tuple[Month, int]]:
    found = _monthly(facts, key, months)
    return [(m, number(found[m].value.get("commits")) if m in found else 0) for m in months]


def _ranked(name: str, counts: list[tuple[Month, int]], window: Window) -> str:
    """ "werkzeug's months ... : 2026-03 (25 commit(s)); ..."; a month cut by the window is
    said with the part counted."""
    order = sorted(counts, key=lambda c: (-c[1], c[0][0]))
    items = "; ".join(f"{_month(m)}: {n} commit(s)" for m, n in order)
    top = order[0][1]
    if top == 0:
        return f"{name} had no commit {when(window)}: no month leads."
    busiest = [_month(m) for m, n in order if n == top]
    lead = (
        f"the busiest was {busiest[0]}" if len(busiest) == 1 else f"{' and '.join(busiest)} tie"
    )
    return (
        f"{name}'s calendar months (UTC) from {iso(window.start)} to {iso(window.end)} ranked "
        f"by commits, the most first (equal counts in calendar order): {items}; {lead} with "
        f"{top} commit(s)."
    )


def _month(month: Month) -> str:
    start, end = month
    label = f"{start:%Y-%m}"
    whole = start.day == 1 and start.time() == datetime.min.time()
    following = end.day == 1 and end.time() == datetime.min.time()
    if whole and following:
        return label
    return f"{label} (its part from {iso(start)} to {iso(end)})"
