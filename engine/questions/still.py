"""Whether something is still changed: "is shell_completion still maintained?", "is Armin
Ronacher still active?".

A git history records commits, not maintenance: the answer is the subject's changes over the
window (a year when the question names no time, and it says so), the newest one named, and,
when it had none there, its last change before the window, found in the store without reading
its records: the day of it (engine/questions/lastchange.py counts the changes per year before the
window, then per day in the newest year holding one), then that day's records. Whether that is
"maintained" or "active" is the reader's call: the answer says it judged by commits only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from engine.domain.commits import commit_of
from engine.domain.evidence import change_time, is_change
from engine.domain.facts import HEALTH_KINDS, Fact, FactKind
from engine.domain.models import (
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    to_ns,
)
from engine.domain.timecontext import iso
from engine.ports import OrgGraph, TimeSpan
from engine.providers import Window
from engine.questions import lastchange
from engine.questions.base import Asked, Case, Found, Question, Reader
from engine.questions.changes import listed
from engine.questions.compared import CHANGING
from engine.questions.lastchange import Last
from engine.reading.vocabulary import Intent

DAY = timedelta(days=1)
KINDS = (SourceRecordKind.COMMIT, SourceRecordKind.PULL_REQUEST)
BASIS = "Judged by commits only: no issue, review or release records are kept here."


CHANGED = (FactKind.CHANGES, FactKind.COMMIT_ACTIVITY)  # facts only made for some change


class Still(Question):
    """Whether something is still changed: its changes in the window, or its last before."""

    name = "still"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        """The last change before the window of each subject with none in it (not of one
        person's part: a count per day is every author's)."""
        if asked.part or not wanted(asked.intent, asked.facts):
            return None
        older = await last_before(reader.graph, asked.subjects, asked.facts, asked.window)
        return Found(kept=older)

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.STILL:
            return None
        return judgment(case.facts, case.names, case.window, older(case))


def older(case: Case) -> Mapping[str, Last | None]:
    """What this type's read kept: each subject's last change before the window."""
    kept = case.inputs.kept.get(Still.name)
    return kept if isinstance(kept, dict) else {}


def wanted(intent: Intent, facts: Sequence[Fact]) -> bool:
    """Asked whether it is still changed, or a status answered from no health fact (whose
    answer then says when it last changed): the last change before the window is looked
    for."""
    return intent == Intent.STILL or (
        intent == Intent.STATUS and not any(f.kind in HEALTH_KINDS for f in facts)
    )


async def last_before(
    graph: OrgGraph, subjects: Sequence[StoredSubject], facts: Sequence[Fact], window: Window
) -> dict[str, Last | None]:
    """Each subject that can change with no change in `window`: its last one before it (None:
    it never changed before it)."""
    changed = {f.subject_key for f in facts if _shows_change(f)}
    out: dict[str, Last | None] = {}
    for subject in subjects:
        if subject.key in changed or subject.kind not in CHANGING:
            continue
        out[subject.key] = await _last(graph, subject.key, window.start)
    return out


def _shows_change(fact: Fact) -> bool:
    """A fact made only for a change, or one counting commits in the window: a bus factor of
    20 commits (click.core in 2024) had its subject's last change before 2024 named, as if
    the year had none."""
    commits = fact.value.get("commits")
    return fact.kind in CHANGED or (isinstance(commits, int) and commits > 0)


async def _last(graph: OrgGraph, key: str, before: datetime) -> Last | None:
    """The newest change of `key` before `before`: the day of it (engine/questions/lastchange.py
    counts the changes per year, then per day, in the store), then that day's records."""
    day = await lastchange.last_change_day(graph, [key], before)
    if day is None:
        return None
    stop = min(day + DAY, before)
    found = await graph.source_records_of(
        [key], kinds=KINDS, span=TimeSpan(to_ns(day) or 0, (to_ns(stop) or 0) - 1)
    )
    timed = [(change_time(r), r) for r in found.get(key, []) if is_change(r, day, stop)]
    if not timed:
        return None
    at, newest = max(((t, r) for t, r in timed if t is not None), key=lambda p: (p[0], p[1].key))
    return Last(newest.title or newest.key, at, _ref(newest))


def _ref(record: SourceRecord) -> str:
    """A commit's short hash (engine/domain/commits.py reads it off the key), else its key."""
    sha = commit_of(record).sha
    return sha[:7] if sha else record.key


def judgment(
    facts: Sequence[Fact],
    names: Mapping[str, str],
    window: Window,
    older: Mapping[str, Last | None],
) -> str:
    """Each subject's changes in the window and the newest one, or its last one before."""
    parts = [
        _one(key, name, facts, window, key in older, older.get(key)) for key, name in names.items()
    ]
    return " ".join(parts) + " " + BASIS


def _one(
    key: str, name: str, facts: Sequence[Fact], window: Window, searched: bool, last: Last | None
) -> str:
    span = f"from {iso(window.start)} to {iso(window.end)}"
    kind = key.split(":", 1)[0]
    if kind not in CHANGING:  # no change of it is recorded: none read, none claimed
        return (
            f"{name}: changes are recorded for repositories, modules and people, not for a "
            f"{kind}, so whether it is still changed is not known here."
        )
    shown, total = listed([f for f in facts if f.subject_key == key])
    if shown:
        newest = shown[0]
        by = f" by {newest.by_name}" if newest.by_name and not key.startswith("person:") else ""
        return (
            f"{name}: {total} change(s) {span}, the latest on {newest.at:%Y-%m-%d} "
            f'("{newest.title}"{by}), {_before(newest.at, window)}.'
        )
    if last is None:  # searched: none at all; else not searched (one person's part of it)
        return f"{name}: no change {span}" + (", nor any before it." if searched else ".")
    return (
        f"{name}: no change {span}; the last one was on {last.at:%Y-%m-%d} "
        f'("{last.title}", {last.ref}), {_before(last.at, window)}.'
    )


def _before(at: datetime, window: Window) -> str:
    return f"{(window.end - at).days} day(s) before {iso(window.end)}"
