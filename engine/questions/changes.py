"""What changed ("what changed in X?", "what did X work on?"): the changes the `changes`
facts list, merged newest first, for the answer's headline and its typed `changes` list, with
their total and the lines they changed.

Each fact lists its subject's newest changes (engine/providers/changes.py); merging them
newest first and keeping the first `SHOWN` gives the newest changes across all the subjects,
because every fact lists at least `SHOWN` of its own when it has that many. The total is the
sum of the facts' counts, and each listed change names the claimed fact whose evidence
connection reads back all of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.domain.contract import Change
from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import Case, Question, number, when
from engine.reading.vocabulary import Intent

SHOWN = 10  # changes an answer lists; every fact lists at least this many (evidence_limit)
SHOWN_CHANGES = 5  # in the headline; the result's `changes` lists SHOWN


class WhatChanged(Question):
    """The changes themselves, newest first, with their total."""

    name = "what_changed"

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.WHAT_CHANGED:
            return None
        return _changes(case.facts, case.scope, case.window, case.people_only)

    def changes(self, case: Case) -> tuple[Sequence[Listed], int]:
        return listed(case.facts) if case.intent == Intent.WHAT_CHANGED else ([], 0)


@dataclass(frozen=True)
class Listed:
    ref: str
    title: str
    at: datetime
    subject_key: str
    by: str
    by_name: str
    where: str  # for a person's change, the repository it was made in; else ""
    fact_id: str


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def listed(facts: Sequence[Fact]) -> tuple[list[Listed], int]:
    """The newest SHOWN changes across the `changes` facts, and how many they count."""
    out: list[Listed] = []
    total = 0
    for fact in facts:
        if fact.kind is not FactKind.CHANGES:
            continue
        v = fact.value
        total += v.get("changes", 0) if isinstance(v.get("changes"), int) else 0
        refs, titles, times = _strings(v.get("latest")), _strings(v.get("latest_titles")),\
            _strings(v.get("latest_at"))  # fmt: skip
        by, names = _strings(v.get("latest_by")), _strings(v.get("latest_by_names"))
        where = _strings(v.get("latest_in")) or [""] * len(refs)
        for ref, title, at, who, name, place in zip(
            refs, titles, times, by, names, where, strict=False
        ):
            moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
            out.append(Listed(ref, title, moment, fact.subject_key, who, name, place, fact.id))
    out.sort(key=lambda c: (c.at, c.ref), reverse=True)
    return out[:SHOWN], total


def typed(changes: Sequence[Listed], claims: Mapping[str, str]) -> tuple[Change, ...]:
    """The result's `changes`; claims: claimed fact id by canonical fact id."""
    return tuple(
        Change(
            ref=c.ref,
            title=c.title,
            at=c.at,
            subject_key=c.subject_key,
            by=c.by or None,
            by_name=c.by_name or None,
            claimed_fact_id=claims[c.fact_id],
        )
        for c in changes
        if c.fact_id in claims
    )


def _changes(facts: Sequence[Fact], scope: str, window: Window, people_only: bool) -> str:
    """The changes themselves, newest first, with how many there are in all; the lines they
    changed when the churn facts count the same commits (whole UTC days)."""
    shown, total = listed(facts)
    if not total:
        return f"No changes to or by {scope} were recorded {when(window)}."
    items = "; ".join(_change(c) for c in shown[:SHOWN_CHANGES])
    more = total - min(len(shown), SHOWN_CHANGES)
    rest = f"; and {more} more (the evidence of the changes fact lists all {total})" if more else ""
    by = "by" if people_only else "to"
    text = f"{total} change(s) {by} {scope} {when(window)}, newest first: {items}{rest}."
    churn = [f for f in facts if f.kind is FactKind.CHURN]
    added = sum(number(f.value.get("lines_added")) for f in churn)
    removed = sum(number(f.value.get("lines_removed")) for f in churn)
    commits = sum(number(f.value.get("commits")) for f in churn)
    changed = sum(number(f.value.get("commits")) for f in facts if f.kind is FactKind.CHANGES)
    if churn and commits == changed:
        text += f" Lines changed: +{added} -{removed}."
    elif churn:
        text += (
            f" Lines changed on the whole UTC days of the window: +{added} -{removed} "
            f"in {commits} commit(s)."
        )
    return text


def _change(change: Listed) -> str:
    if change.where:  # a person's own change: where it was made
        return f'{change.at:%Y-%m-%d} "{change.title}" in {change.where.split(":", 1)[-1]}'
    by = f" by {change.by_name}" if change.by_name else ""
    return f'{change.at:%Y-%m-%d} "{change.title}"{by}'
