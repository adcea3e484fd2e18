"""What changed: the changes the `changes` facts list, merged newest first, for the answer's
headline and its typed `changes` list.

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

SHOWN = 10  # changes an answer lists; every fact lists at least this many (evidence_limit)


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
