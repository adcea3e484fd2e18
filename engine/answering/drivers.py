"""Drivers: the findings an answer gives, each closing to what it rests on. A driver from a
canonical fact cites it as a claimed fact (a copy of its value) with the evidence the fact
names; an ownership change cites the relationship; an episode, untrusted text, is withheld.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.answering.signals import signals_of
from engine.domain.contract import (
    ClaimedFact,
    Driver,
    DriverCategory,
    EvidenceKind,
    EvidenceRef,
    Standing,
)
from engine.domain.facts import Fact, FactKind
from engine.domain.models import Episode
from engine.ports import Edge
from engine.providers import Window
from engine.questions.base import claim


def fact_drivers(
    facts: Sequence[Fact], names: Mapping[str, str]
) -> tuple[list[Driver], list[ClaimedFact]]:
    """A driver for every fact that signals something, most telling first, each citing the
    fact as its own claim."""
    claims: list[ClaimedFact] = []
    drivers = []
    for rank, (signal, fact) in enumerate(signals_of(facts, names)):
        cited = claim(fact, len(claims) + 1)
        claims.append(cited)
        drivers.append(
            Driver(
                id=f"driver-{rank + 1}",
                standing=signal.standing,
                category=signal.category,
                statement=signal.statement,
                subject_keys=(fact.subject_key,),
                evidence=_evidence(fact),
                claimed_fact_ids=(cited.id,),
                rank=rank,
            )
        )
    return drivers, claims


_EVIDENCE_KIND = {
    FactKind.OWNERSHIP: EvidenceKind.RELATIONSHIP,
    FactKind.SERVICE_PROFILE: EvidenceKind.SUBJECT,
}


def _evidence(fact: Fact) -> tuple[EvidenceRef, ...]:
    kind = _EVIDENCE_KIND.get(fact.kind, EvidenceKind.SOURCE_RECORD)
    return tuple(EvidenceRef(ref=e, kind=kind, subject_key=fact.subject_key) for e in fact.evidence)


def relationship_drivers(
    edges: Sequence[Edge], window: Window, names: Mapping[str, str], start: int
) -> list[Driver]:
    """Ownership that changed within the window: closes to the relationship itself."""
    out: list[Driver] = []
    for edge in edges:
        rel = edge.relationship
        if rel.type.value != "OWNS" or rel.valid_from is None:
            continue
        if not window.start <= rel.valid_from <= window.end:
            continue
        owned = names.get(rel.to_key, rel.to_key)
        statement = f"Ownership of {owned} moved to {edge.other.name} on {rel.valid_from:%Y-%m-%d}."
        ref = EvidenceRef(ref=rel.rel_id, kind=EvidenceKind.RELATIONSHIP, subject_key=rel.to_key)
        out.append(
            Driver(
                id=f"driver-{start + len(out) + 1}",
                standing=Standing.CONTRIBUTING,
                category=DriverCategory.OWNERSHIP_CHANGE,
                statement=statement,
                subject_keys=(rel.to_key, rel.from_key),
                evidence=(ref,),
                relationship_path=(rel.rel_id,),
                rank=start + len(out),
            )
        )
    return out


def episode_drivers(episodes: Sequence[Episode], start: int) -> list[Driver]:
    """Episodes are untrusted text: one with a word of trouble (a rollback, an outage, a
    page) becomes a withheld driver citing it, at most three, whose statement is only its
    date. Withheld because a finding must rest on a canonical fact and anyone who can write an
    episode could otherwise write one: never the judgment (synthesis._judgment), left out of
    the answer projection and counted there, carried in the full result marked withheld."""
    out: list[Driver] = []
    for episode in episodes:
        text = episode.text.lower()
        if not any(word in text for word in ("rolled back", "rollback", "outage", "paged")):
            continue
        ref = EvidenceRef(ref=episode.key, kind=EvidenceKind.EPISODE)
        out.append(
            Driver(
                id=f"driver-{start + len(out) + 1}",
                standing=Standing.WITHHELD,
                category=DriverCategory.CONTEXT,
                statement=f"An episode on {episode.occurred_at:%Y-%m-%d} reports trouble.",
                subject_keys=tuple(episode.mentions[:3]),
                evidence=(ref,),
                rank=start + len(out),
            )
        )
        if len(out) >= 3:
            break
    return out
