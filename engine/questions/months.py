"""Months ranked by their commits ("which month in 2026 had the most commits in werkzeug?",
"busiest month this yr"), or quarters ("which quarter of 2025 was busiest"), or weeks
("busiest week in requests this yr"): the window's calendar months, quarters or weeks (UTC, a
week from Monday), each one's commits read as a fact of its own (the commit
activity provider over that period: its records are the evidence), listed the most first,
equal counts in calendar order. A period the window cuts (the one under way, or the first of
a window not starting on its first day) is counted over the part inside it, said. It was
refused ("a ranking of periods ... is not computed"); days and other periods still are
(engine/reading/wordrules.py), as is a ranking of months by lines or people
(engine/reading/rankedmonths.py reads what is asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.domain.timecontext import iso
from engine.providers import ProviderResult, Window
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also, number, when

Month = tuple[datetime, datetime]


class BusiestMonth(Question):
    """The window's months ranked by commits, for each subject asked about."""

    name = "months"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        understood = asked.understood
        ranked = understood.months_ranked or understood.quarters_ranked or understood.weeks_ranked
        if not ranked or not asked.subjects:
            return None
        start, end = asked.window.start, asked.window.end
        months = calendar_months(start, end)
        if understood.quarters_ranked:
            months = calendar_quarters(months)
        if understood.weeks_ranked:
            months = calendar_weeks(start, end)
        results = await read_each(asked, reader, months)
        unit = "quarter" if understood.quarters_ranked else "month"
        unit = "week" if understood.weeks_ranked else unit
        return Found(results=tuple(results), kept=(unit, *months))

    def judgment(self, case: Case) -> str | None:
        kept = case.inputs.kept.get(self.name)
        if not isinstance(kept, tuple) or len(kept) < 2:
            return None
        unit, months = kept[0], kept[1:]
        window = case.window
        parts = [
            _ranked(name, counts(case.facts, key, months), window, unit)
            for key, name in case.names.items()
        ]
        return " ".join(parts)

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        kept = case.inputs.kept.get(self.name)
        if not isinstance(kept, tuple) or len(kept) < 2:
            return []
        months = kept[1:]
        return claim_also(
            (f for key in case.names for f in monthly(case.facts, key, months).values()),
            claimed,
        )


async def read_each(
    asked: Asked, reader: Reader, periods: Sequence[Month]
) -> list[ProviderResult]:
    """Each period's commit activity for the subjects asked about, read as a window of its own
    (engine/questions/periods.py reads them so too)."""
    results: list[ProviderResult] = []
    for start, end in periods:
        window = Window(start, end, historical=True)
        found = await reader.facts(asked.subjects, [FactKind.COMMIT_ACTIVITY], window)
        results += [r for r in found if r.facts]  # a period with none: 0, in the judgment
    return results


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


def calendar_weeks(start: datetime, end: datetime) -> list[Month]:
    """The calendar weeks (UTC, Monday to Sunday) [start, end) touches, each cut to it."""
    weeks: list[Month] = []
    day = start.replace(hour=0, minute=0, second=0, microsecond=0)
    at = start
    while at < end:
        following = day + timedelta(days=7 - day.weekday())
        weeks.append((at, min(following, end)))
        at = day = following
    return weeks


def calendar_quarters(months: Sequence[Month]) -> list[Month]:
    """The calendar quarters (UTC) the months touch, each cut as its months are."""
    quarters: dict[tuple[int, int], Month] = {}
    for start, end in months:
        at = (start.year, (start.month - 1) // 3)
        quarters[at] = (quarters.get(at, (start, end))[0], end)
    return list(quarters.values())


def monthly(facts: Sequence[Fact], key: str, months: Sequence[Month]) -> dict[Month, Fact]:
    """The commit activity fact of `key` read over each month."""
    wanted = set(months)
    return {
        (f.window_start, f.window_end): f
        for f in facts
        if f.kind is FactKind.COMMIT_ACTIVITY
        and f.subject_key == key
        and (f.window_start, f.window_end) in wanted
    }


def counts(facts: Sequence[Fact], key: str, months: Sequence[Month]) -> list[tuple[Month, int]]:
    found = monthly(facts, key, months)
    return [(m, number(found[m].value.get("commits")) if m in found else 0) for m in months]


def _ranked(name: str, counts: list[tuple[Month, int]], window: Window, unit: str) -> str:
    """ "werkzeug's months ... : 2026-03 (25 commit(s)); ..."; a month (quarter) cut by the
    window is said with the part counted."""
    order = sorted(counts, key=lambda c: (-c[1], c[0][0]))
    items = "; ".join(f"{label(m, unit)}: {n} commit(s)" for m, n in order)
    top = order[0][1]
    if top == 0:
        return f"{name} had no commit {when(window)}: no {unit} leads."
    busiest = [label(m, unit) for m, n in order if n == top]
    lead = (
        f"the busiest was {busiest[0]}" if len(busiest) == 1 else f"{' and '.join(busiest)} tie"
    )
    utc = "(UTC, weeks from Monday)" if unit == "week" else "(UTC)"
    return (
        f"{name}'s calendar {unit}s {utc} from {iso(window.start)} to {iso(window.end)} ranked "
        f"by commits, the most first (equal counts in calendar order): {items}; {lead} with "
        f"{top} commit(s)."
    )


def label(period: Month, unit: str = "month") -> str:
    """ "2026-03", "2025-Q4", "the week of 2026-06-29" (its Monday); a period the window cuts
    with the part counted."""
    start, end = period
    midnight = datetime.min.time()
    if unit == "week":
        monday = start - timedelta(days=start.weekday())
        whole = start.weekday() == 0 and start.time() == midnight
        following = end.weekday() == 0 and end.time() == midnight
        name = f"the week of {monday:%Y-%m-%d}"
    else:
        quarter = f"{start.year}-Q{(start.month - 1) // 3 + 1}"
        name = f"{start:%Y-%m}" if unit == "month" else quarter
        first = unit == "month" or start.month % 3 == 1
        whole = first and start.day == 1 and start.time() == midnight
        following = end.day == 1 and end.time() == midnight
        following = following and (unit == "month" or end.month % 3 == 1)
    if whole and following:
        return name
    return f"{name} (its part from {iso(start)} to {iso(end)})"
