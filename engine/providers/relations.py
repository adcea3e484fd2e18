"""Providers over relationships and subject records: ownership, and the current profile."""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.facts import Fact, FactKind, Grain, HistoryTier
from engine.domain.models import Direction, RelationshipType, StoredSubject, SubjectKind, to_ns
from engine.ports import FactSource, TimeSpan
from engine.providers.base import Provider, Window


class OwnershipProvider(Provider):
    """Who owned a subject at the effective time, from OWNS relationships admitted by their
    validity windows; the relationships themselves are the evidence."""

    name = "ownership"
    kinds = frozenset({FactKind.OWNERSHIP})
    subject_kinds = frozenset(
        {SubjectKind.REPOSITORY, SubjectKind.SERVICE, SubjectKind.PROJECT, SubjectKind.MODULE}
    )
    grain = Grain.INSTANT
    tier = HistoryTier.INTERVAL

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        at = TimeSpan.point(to_ns(window.end) or 0)
        found = await source.relationships_of(
            [s.key for s in subjects],
            types=[RelationshipType.OWNS],
            direction=Direction.INCOMING,
            at=at,
        )
        facts: list[Fact] = []
        for key, edges in found.items():
            if not edges:
                continue
            owners = sorted(e.other.key for e in edges)
            since = [e.relationship.valid_from for e in edges if e.relationship.valid_from]
            value: dict[str, object] = {
                "owners": owners,
                "since": max(since).isoformat() if since else None,
            }
            evidence = [e.relationship.rel_id for e in edges]
            facts.append(self.fact(FactKind.OWNERSHIP, key, value, window, evidence))
        return facts


class ProfileProvider(Provider):
    """A service's tier and on-call rotation as its record says now. Attributes are revised
    in place, so there is no history: for a past time this provider is not applicable."""

    name = "profile"
    kinds = frozenset({FactKind.SERVICE_PROFILE})
    subject_kinds = frozenset({SubjectKind.SERVICE})
    grain = Grain.INSTANT
    tier = HistoryTier.NONE

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        for subject in subjects:
            profile: dict[str, object] = {
                name: subject.attributes[name]
                for name in ("tier", "on_call", "runtime")
                if name in subject.attributes
            }
            if profile:
                facts.append(
                    self.fact(FactKind.SERVICE_PROFILE, subject.key, profile, window, [subject.key])
                )
        return facts
