"""The first and the last change in one question, over a window it names: "first and last
change to src/click/types.py in 2025", "first and last commit to serving.py in the past
year". An independent check (z32a F5) had all four such questions end with "a first or
earliest that is not of a change is not computed", though each asked for changes.

The window's changes are read as "what changed" reads them (newest first: the last change is
the newest listed). The first is the oldest listed when every change of the window is listed;
otherwise the second of the oldest one is found in the store as engine/questions/firstchange.py
finds a first change (counts per year, day and second, from the window's start), and that
second's changes are read beside the window's. With no time named, the question ends, named
(engine/reading/wordrules.py, "first and last"): the first change ever and the last one are
two questions, with two windows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.domain.timecontext import iso
from engine.ports import TimeSpan
from engine.providers import Window
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also, when
from engine.questions.changes import Listed, listed
from engine.questions.firstchange import SECOND, first_change, short


@dataclass(frozen=True)
class Oldest:
    """The second the window's first change was made in, read apart (None: it is listed)."""

    at: datetime | None


class FirstAndLast(Question):
    """ "The first and last change to X in 2025": both, with their times, commits and
    authors, and the window's changes listed."""

    name = "first and last"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if not (asked.understood.asks_first and asked.understood.asks_last) or asked.part:
            return None
        shown, total = listed(_of_window(asked.facts, asked.window))
        if total <= len(shown):
            return Found(kept=Oldest(None))
        keys = [s.key for s in asked.subjects]
        span = TimeSpan(asked.window.start_ns, asked.window.end_ns - 1)
        at = await first_change(reader.graph, keys, span)
        if at is None:
            return Found(kept=Oldest(None))
        second = Window(at, at + SECOND, historical=True)
        results = await reader.facts(asked.subjects, [FactKind.CHANGES], second)
        return Found(results=tuple(results), kept=Oldest(at))

    def judgment(self, case: Case) -> str | None:
        oldest = case.inputs.kept.get(self.name)
        if not isinstance(oldest, Oldest):
            return None
        shown, total = listed(_of_window(case.facts, case.window))
        if not total:
            return f"No changes to {case.scope} were recorded {when(case.window)}."
        first = _first(case.facts, shown, oldest)
        last = f"the last {_change(shown[0])}"
        if total == 1:
            return f"1 change to {case.scope} {when(case.window)}: {_change(shown[0])}."
        said = f"the first {_change(first)}" if first is not None else _unlisted(oldest)
        return f"{total} change(s) to {case.scope} {when(case.window)}: {said}; {last}."

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if not isinstance(case.inputs.kept.get(self.name), Oldest):
            return []
        return claim_also([f for f in case.facts if f.kind is FactKind.CHANGES], claimed)

    def changes(self, case: Case) -> tuple[Sequence[Listed], int]:
        if not isinstance(case.inputs.kept.get(self.name), Oldest):
            return [], 0
        return listed(_of_window(case.facts, case.window))


def _of_window(facts: Sequence[Fact], window: Window) -> list[Fact]:
    """The changes facts of the window itself (not those of the first change's second)."""
    return [
        f
        for f in facts
        if f.kind is FactKind.CHANGES
        and (f.window_start, f.window_end) == (window.start, window.end)
    ]


def _first(facts: Sequence[Fact], shown: Sequence[Listed], oldest: Oldest) -> Listed | None:
    """The window's first change: the oldest listed, or the one read of its second."""
    if oldest.at is None:
        return shown[-1]
    second = [f for f in facts if f.kind is FactKind.CHANGES and f.window_start == oldest.at]
    apart, _ = listed(second)
    return min(apart, key=lambda c: (c.at, c.ref)) if apart else None


def _unlisted(oldest: Oldest) -> str:
    return f"the first at {iso(oldest.at)}" if oldest.at is not None else "the first unknown"


def _change(change: Listed) -> str:
    by = f" by {change.by_name}" if change.by_name else ""
    return f'at {iso(change.at)}: "{change.title}" ({short(change.ref, change.subject_key)}){by}'
