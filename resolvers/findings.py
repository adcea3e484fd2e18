"""What an investigation's answer rests on, as GraphQL types: its drivers (the findings),
the canonical facts they claim, and the evidence each claim closes to.

`Query.facts` answers canonical facts directly; a result (resolvers/result.py) lists its
drivers and claimed facts, built by `driver` and `claimed` from the engine's contract.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from engine.domain import contract
from engine.domain.evidence import EvidenceSelector
from engine.domain.facts import Fact as FactModel
from engine.domain.facts import FactKind as FactKindValue
from engine.domain.facts import Grain as GrainValue
from resolvers.evidence import EvidenceConnection, evidence_page
from resolvers.subject import Subject, current_subjects
from resolvers.types import Ctx

Standing = strawberry.enum(contract.Standing, name="Standing")
DriverCategory = strawberry.enum(contract.DriverCategory, name="DriverCategory")
FactKind = strawberry.enum(FactKindValue, name="FactKind")
Grain = strawberry.enum(GrainValue, name="Grain")


@strawberry.type(description="A canonical fact: a typed value about a subject over a window.")
class Fact:
    id: str
    kind: FactKind  # type: ignore[valid-type]
    subject_key: str
    value: JSON
    window_start: datetime
    window_end: datetime
    grain: Grain  # type: ignore[valid-type]
    provider: str
    evidence: list[str]
    actor_key: str | None = strawberry.field(
        description="One person's part of the subject: whose (`others`: everyone's but "
        "theirs); null: everyone's."
    )
    others: bool

    @classmethod
    def of(cls, fact: FactModel) -> Fact:
        return cls(
            id=fact.id,
            kind=fact.kind,
            subject_key=fact.subject_key,
            value=cast(JSON, fact.value),
            window_start=fact.window_start,
            window_end=fact.window_end,
            grain=fact.grain,
            provider=fact.provider,
            evidence=list(fact.evidence),
            actor_key=fact.actor_key,
            others=fact.others,
        )


@strawberry.type(description="A canonical fact as a driver claims it (the value deep-equals it).")
class ClaimedFact:
    id: str
    fact_id: str
    kind: FactKind  # type: ignore[valid-type]
    subject_key: str
    value: JSON
    window_start: datetime
    window_end: datetime
    evidence_total: int | None = strawberry.field(
        description="How many source records the fact rests on (all of them; `evidence` "
        "reads them back)."
    )
    actor_key: str | None = strawberry.field(
        description="One person's part of the subject: whose (`others`: everyone's but "
        "theirs); null: everyone's. facts(subjectKey, personKey) reads it back."
    )
    others: bool
    selector: strawberry.Private[EvidenceSelector | None]

    @strawberry.field(description="Every source record the fact rests on, by key.")
    async def evidence(
        self, info: Ctx, first: int | None = None, after: str | None = None
    ) -> EvidenceConnection:
        return await evidence_page(info, self.selector, first, after)


def claimed(c: contract.ClaimedFact) -> ClaimedFact:
    """One claimed fact, shared by every driver that cites it (see `driver`)."""
    return ClaimedFact(
        id=c.id,
        fact_id=c.fact_id,
        kind=c.kind,
        subject_key=c.subject_key,
        value=cast(JSON, c.value),
        window_start=c.window_start,
        window_end=c.window_end,
        evidence_total=c.evidence_total,
        actor_key=c.actor_key,
        others=c.others,
        selector=c.evidence_selector,
    )


@strawberry.type(description="What a driver's claim rests on.")
class EvidenceRef:
    ref: str
    kind: str
    subject_key: strawberry.Private[str | None]

    @strawberry.field
    async def subject(self, info: Ctx) -> Subject | None:
        if self.subject_key is None:
            return None
        found = await current_subjects(info, [self.subject_key])
        return found[0] if found else None


@strawberry.type(description="A finding: why the answer is what it is, closed to evidence.")
class Driver:
    standing: Standing  # type: ignore[valid-type]
    category: DriverCategory  # type: ignore[valid-type]
    statement: str
    evidence: list[EvidenceRef]
    claimed_facts: list[ClaimedFact]
    relationship_path: list[str]
    rank: int
    subject_keys: strawberry.Private[tuple[str, ...]]

    @strawberry.field
    async def subjects(self, info: Ctx) -> list[Subject]:
        return await current_subjects(info, self.subject_keys)


def driver(d: contract.Driver, claims: dict[str, ClaimedFact]) -> Driver:
    """`d`, citing the claimed facts of `claims` by id; one `claims` does not hold (a
    projection's budget cut it) is left out rather than shown without its value."""
    return Driver(
        standing=d.standing,
        category=d.category,
        statement=d.statement,
        evidence=[
            EvidenceRef(ref=e.ref, kind=e.kind.value, subject_key=e.subject_key) for e in d.evidence
        ],
        claimed_facts=[claims[c] for c in d.claimed_fact_ids if c in claims],
        relationship_path=list(d.relationship_path),
        rank=d.rank,
        subject_keys=d.subject_keys,
    )
