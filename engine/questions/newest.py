"""The one last change, at any age: "when was the last commit to src/click/testing.py?",
"latest attrs commit?", "last werkzeug commit, who and when?", "when was the last commit
ever to click?". They were answered over the default year, listing every change in it newest
first ("266 change(s) to click from 2025-09-01 ...", "No time was named"), so a subject
changed lately answered a year of changes and the last one only as the first listed
(z36b click-7); with "ever" they were asked again for the last 400 days (werkzeug-9,
requests-12, attrs-12). The last change is one change: it needs no window.

Asked of one subject (or one person's part of one: engine.questions.lastchange.one_last),
the newest change before the request's time (in the time named, when one is) is found
in the store as the first one is (engine/questions/firstchange.py, the other way): the
subject's changes counted per year, day and second (a part per year, day, hour, minute and
second, among its records whose author is that person), and the changes of that second read
and listed; the judgment states it with its author. Several subjects, "the
latest changes" (a list): engine/questions/lastchange.py, over the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.domain.contract import ClaimedFact
from engine.domain.facts import FactKind
from engine.domain.models import from_ns
from engine.domain.timecontext import iso
from engine.ports import OrgGraph, TimeSpan
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also
from engine.questions.firstchange import PART_WIDTHS, SECOND, SECOND_NS, one_change
from engine.questions.lastchange import DAY_NS, YEAR_NS, Actor, changed_buckets, one_last


@dataclass(frozen=True)
class Newest:
    """The second the last change was made in."""

    at: datetime


class NewestChange(Question):
    """ "When was X last changed?" with no time named: the answer reads the second of the
    newest change recorded, lists it, and states it with its author."""

    name = "newest change"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if not one_last(asked):
            return None
        by = Actor(asked.actor, asked.others, asked.also) if asked.actor else None
        keys = [s.key for s in asked.subjects]
        window = asked.window
        low = window.start_ns if asked.ranged else 0
        at = await last_change(reader.graph, keys, TimeSpan(low, window.end_ns - 1), by)
        used = f"from {iso(window.start)} to" if asked.ranged else "at any age before"
        if at is None:
            return Found(notes=(f"Asked for the last change: none is recorded {used} "
                                f"{iso(window.end)}.",))  # fmt: skip
        units = "year, day, hour, minute" if by else "year, day"
        note = (
            f"Asked for the last change: the newest one recorded {used} {iso(window.end)} is "
            f"at {iso(at)}, found by counting the changes per {units} and second (the last "
            f"change is one change); the answer covers {iso(at)} to {iso(at + SECOND)}, that "
            "second."
        )
        return Found(start=at, end=at + SECOND, notes=(note,), kept=Newest(at))

    def judgment(self, case: Case) -> str | None:
        newest = case.inputs.kept.get(self.name)
        if not isinstance(newest, Newest):
            return None
        return one_change(case, "last")

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if not isinstance(case.inputs.kept.get(self.name), Newest):
            return []
        return claim_also([f for f in case.facts if f.kind is FactKind.CHANGES], claimed)


async def last_change(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, by: Actor | None = None
) -> datetime | None:
    """The start of the second in `span` holding the newest change of any of `keys` (`by`:
    of that person's part of them); None when none of them changed in it."""
    low, high = span.start_ns, span.end_ns
    for width in PART_WIDTHS if by else (YEAR_NS, DAY_NS, SECOND_NS):
        found = await changed_buckets(graph, keys, TimeSpan(low, high), width, by)
        starts = [s for each in found for s in each]
        if not starts:
            return None
        top = max(starts)
        low, high = max(top, low), min(top + width - 1, high)
    return from_ns(low)
