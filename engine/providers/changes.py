"""The changes themselves: "what changed in click's parser last month?" is answered by the
commits made and the pull requests merged in the window, newest first, not by a count.

A commit record (the git import writes one per commit for the repository, each module it
touched and its author) is a change at its author time; a pull request is one when merged, at
its merge time. Both are instants, so the answer is exact to the instant: nothing at or after
the window's end is listed or counted. The fact lists the newest `evidence_limit` changes
with their titles, times and authors, counts all of them, and its evidence selector
(engine/domain/evidence.py, rule `changes`) reads every one of them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine.domain.evidence import EvidenceRule, EvidenceSelector, change_time, is_change
from engine.domain.facts import Fact, FactKind, Grain, HistoryTier, fact_id
from engine.domain.models import SourceRecord, SourceRecordKind, StoredSubject, SubjectKind
from engine.domain.timecontext import iso
from engine.ports import FactSource
from engine.providers.base import Provider, Window


def _newest_first(records: Sequence[SourceRecord]) -> list[tuple[datetime, SourceRecord]]:
    timed = [(change_time(r), r) for r in records]
    return sorted(
        ((at, r) for at, r in timed if at is not None), key=lambda p: (p[0], p[1].key), reverse=True
    )


class ChangesProvider(Provider):
    """The commits and merged pull requests of a repository, module or person."""

    name = "changes"
    kinds = frozenset({FactKind.CHANGES})
    subject_kinds = frozenset({SubjectKind.REPOSITORY, SubjectKind.MODULE, SubjectKind.PERSON})
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL
    record_kinds = (SourceRecordKind.COMMIT, SourceRecordKind.PULL_REQUEST)
    # The list of changes answers "what changed" (whose interpretation asks for it); a
    # status question's activity is told by commit activity and churn, without reading and
    # naming every change of the window.
    on_request = True

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        found = await self.records(source, subjects, window)
        kinds = {s.key: s.kind for s in subjects}
        chosen = {
            key: _newest_first([r for r in records if is_change(r, window.start, window.end)])
            for key, records in found.items()
        }
        shown = {key: changes[: self.evidence_limit] for key, changes in chosen.items()}
        people = {
            r.actor if kinds.get(key) is not SubjectKind.PERSON else key
            for key, changes in shown.items()
            for _, r in changes
        }
        names = {
            k: s.name
            for k, s in (await source.subjects_by_keys(sorted(p for p in people if p))).items()
        }
        facts = []
        for key, changes in chosen.items():
            if changes:
                person = kinds.get(key) is SubjectKind.PERSON
                facts.append(self._fact(key, changes, shown[key], names, person, window))
        return facts

    def _fact(
        self,
        key: str,
        changes: list[tuple[datetime, SourceRecord]],
        shown: list[tuple[datetime, SourceRecord]],
        names: dict[str, str],
        person: bool,
        window: Window,
    ) -> Fact:
        selector = EvidenceSelector(
            subject_key=key,
            record_kinds=self.record_kinds,
            start=window.start,
            end=window.end,
            rule=EvidenceRule.CHANGES,
        )
        # The evidence listed is the changes shown (newest first), so each one closes to its
        # record; the selector reads back all of them.
        return Fact(
            id=fact_id(self.name, FactKind.CHANGES, key, window.start, window.end),
            kind=FactKind.CHANGES,
            subject_key=key,
            value=_value(key, changes, shown, names, person),
            window_start=window.start,
            window_end=window.end,
            grain=self.grain,
            provider=self.name,
            evidence=tuple(r.key for _, r in shown),
            evidence_total=len(changes),
            evidence_selector=selector,
        )


def _value(
    key: str,
    changes: list[tuple[datetime, SourceRecord]],
    shown: list[tuple[datetime, SourceRecord]],
    names: dict[str, str],
    person: bool,
) -> dict[str, Any]:
    """All the changes counted, the shown ones listed (key, title, time, author). A person's
    changes are all by the person; each one's record names where it was made instead."""
    commits = sum(1 for _, r in changes if r.record_kind is SourceRecordKind.COMMIT)
    authors = [key if person else (r.actor or "") for _, r in shown]
    value: dict[str, Any] = {
        "changes": len(changes),
        "commits": commits,
        "merged_pull_requests": len(changes) - commits,
        "latest": [r.key for _, r in shown],
        "latest_titles": [r.title for _, r in shown],
        "latest_at": [iso(at) for at, _ in shown],
        "latest_by": authors,
        "latest_by_names": [names.get(a, a) for a in authors],
    }
    if person:  # where each change was made: the repository (the record's actor)
        value["latest_in"] = [r.actor or "" for _, r in shown]
    return value
