"""When something last changed, older than the window an answer reads: "when was
click/_winconsole.py last changed?" asked a year after its last commit.

The window of a "what changed" question reaches back 365 days, and one answer covers at most
400 (engine/resolving/questiontime.py). A last change before it is found in the store without
reading the subject's records: its changes counted per year before the window (commits at their
time, pull requests when merged: OrgGraph.series adds them up in the store), then per day in
the newest year holding one. The answer then reads the changes from the start of that day,
which lists the last change first and nothing after it (none was made before the window).

`LastChange.read` does it, for a question asking for the last change (Interpretation.asks_last);
`last_change_day` serves "is X still maintained?" too (engine/questions/still.py). One person's
part of a module or repository (engine/resolving/together.py: "when did Kenneth Reitz last
touch requests?") is counted per bucket among the subject's records whose author is that
person (OrgGraph.evidence_counts, the CHANGES rule with the actor: the records the part's
facts read), since a count per day of the subject is every author's: it was searched in the
window only, and answered "no changes" where git's last is 2019-09-23. A time the question
named is searched alone: the answer then says that the search covered that window only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.domain.evidence import EvidenceRule
from engine.domain.facts import Fact, FactKind
from engine.domain.models import SourceRecordKind, StoredSubject, from_ns, to_ns
from engine.domain.timecontext import iso
from engine.ports import EvidenceRequest, OrgGraph, SeriesRequest, TimeSpan
from engine.providers import Window
from engine.questions.base import Asked, Found, Question, Reader


class LastChange(Question):
    """ "When did X last change?": with no change in the window, the answer reads from the
    day of the last one before it, or says the search covered the window only. It judges
    nothing of its own: the changes listed answer it (engine/questions/changes.py)."""

    name = "last change"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if not asked.understood.asks_last or one_last(asked):
            return None  # the one last change at any age: engine/questions/newest.py
        by = Actor(asked.actor, asked.others, asked.also) if asked.actor else None
        start, note = await older(
            reader.graph, asked.subjects, asked.facts, asked.window,
            part=asked.part and by is None, ranged=asked.ranged, by=by,
        )  # fmt: skip
        return Found(start=start, notes=(LISTED, *((note,) if note else ())))


LISTED = "Asked for the last change: it is the newest change listed."


def one_last(asked: Asked) -> bool:
    """The one last change is asked (engine/questions/newest.py finds it at any age, or in
    the time named): of one subject or one person's part of one (counted by author), not the
    first one too (engine/questions/firstlast.py)."""
    understood = asked.understood
    counted = not asked.part or asked.actor is not None
    one = len(asked.subjects) == 1 and counted
    return understood.asks_last and not understood.asks_first and one


@dataclass(frozen=True)
class Last:
    """A subject's last change before a window: its title, time and reference (a commit's
    short hash, else its record's key)."""

    title: str
    at: datetime
    ref: str


@dataclass(frozen=True)
class Actor:
    """Whose part of the subjects' changes is counted: the person's key (`others`: everyone
    else's, and with `also` everyone's but those people's too)."""

    key: str
    others: bool = False
    also: tuple[str, ...] = ()


DAY_NS = 86_400 * 10**9
YEAR_NS = 366 * DAY_NS  # a bucket of the first read: at most one per year since 1970


async def last_change_day(
    graph: OrgGraph, keys: Sequence[str], before: datetime, by: Actor | None = None
) -> datetime | None:
    """The start (UTC midnight) of the newest day before `before` on which any of `keys`
    changed (`by`: that person's part of them), for each key its own; the earliest of those,
    so each one's last change is on or after it. None when one of them never changed before
    `before`."""
    end = to_ns(before)
    assert end is not None
    if end <= 0:
        return None
    years = await _newest(graph, keys, TimeSpan(0, end - 1), YEAR_NS, by)
    if years is None:
        return None
    days = [
        await _newest(graph, [key], TimeSpan(year, min(year + YEAR_NS, end) - 1), DAY_NS, by)
        for key, year in zip(keys, years, strict=True)
    ]
    if any(d is None for d in days):
        return None
    return from_ns(min(d[0] for d in days if d is not None))


async def _newest(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, width: int, by: Actor | None
) -> list[int] | None:
    """Per key, the start of the newest bucket of `width` in `span` holding a change of it;
    None when one key has none."""
    found = await changed_buckets(graph, keys, span, width, by)
    return None if any(not starts for starts in found) else [max(s) for s in found]


async def changed_buckets(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, width: int, by: Actor | None = None
) -> list[list[int]]:
    """Per key, the starts of the buckets of `width` in `span` holding a change of it: its
    commits at their time, its pull requests when merged (engine/questions/firstchange.py
    reads them too); `by`: only those whose author is that person (or, `others`, anyone
    else), counted per bucket."""
    if by is not None:
        return await _part_buckets(graph, keys, span, width, by)
    requests = [
        request
        for key in keys
        for request in (
            SeriesRequest(key, SourceRecordKind.COMMIT, span, width),
            SeriesRequest(
                key, SourceRecordKind.PULL_REQUEST, span, width, at_end=True, statuses=("merged",)
            ),
        )
    ]
    found = await graph.series(requests)
    return [
        [b[0] for buckets in found[2 * n : 2 * n + 2] for b in buckets if b[2] > 0]
        for n in range(len(keys))
    ]


async def _part_buckets(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, width: int, by: Actor
) -> list[list[int]]:
    """`changed_buckets` of one person's part: each bucket's changes counted among the
    records the part's facts read (the CHANGES rule, with the actor), one request per bucket
    (a search narrows to at most 366 buckets a round)."""
    starts = range(span.start_ns - span.start_ns % width, span.end_ns + 1, width)
    kinds = (SourceRecordKind.COMMIT, SourceRecordKind.PULL_REQUEST)
    requests = [
        EvidenceRequest(
            key,
            kinds,
            EvidenceRule.CHANGES,
            max(start, span.start_ns),
            min(start + width, span.end_ns + 1),
            actor=by.key,
            others=by.others,
            also=by.also,
        )
        for key in keys
        for start in starts
    ]
    counts = await graph.evidence_counts(requests)
    per = len(starts)
    return [
        [start for start, n in zip(starts, counts[k * per : (k + 1) * per], strict=True) if n]
        for k in range(len(keys))
    ]


def found_older(start: datetime, used: str) -> str:
    return (
        f"None was made from {used}: the last one is older, found by counting the changes "
        f"before that window; the answer covers {iso(start)} on, the day of the last change, "
        "and lists it first."
    )


def none_older(used: str) -> str:
    return f"None was made from {used} nor at any time before it: no change is recorded."


def window_only(used: str, why: str) -> str:
    return (
        f"None was made from {used}; the search covered only that window ({why}): the last "
        'one is older, and is found by asking about an earlier period ("what changed in '
        '2020?").'
    )


async def older(
    graph: OrgGraph,
    subjects: Sequence[StoredSubject],
    facts: Sequence[Fact],
    window: Window,
    *,
    part: bool,
    ranged: bool,
    by: Actor | None = None,
) -> tuple[datetime | None, str | None]:
    """Asked for the last change, with none listed in `window` for some subject: the start to
    read the changes from instead (None: keep the window), and what the answer must say.
    part: one person's part of the subjects is asked and cannot be counted; by: the person
    whose part is asked, counted; ranged: the question named its time."""
    why_not = None
    if part:
        why_not = "one person's part of a subject is searched in it only"
    elif ranged:
        why_not = "the time asked"
    changed = {f.subject_key for f in facts if f.kind is FactKind.CHANGES}
    lacking = [s.key for s in subjects if s.key not in changed]
    used = f"{iso(window.start)} to {iso(window.end)}"
    if not lacking:
        return None, None
    if len(lacking) < len(subjects):
        why_not = why_not or "changes of the others are listed in it"
    if why_not is not None:
        return None, window_only(used, why_not)
    start = await last_change_day(graph, lacking, window.start, by)
    if start is None and len(lacking) == 1:
        return None, none_older(used)
    if start is None:
        return None, window_only(used, "one of them has no change before it")
    return start, found_older(start, used)
