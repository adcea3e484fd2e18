"""GraphQL types of investigation results, drivers, claimed facts and the answer projection."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from engine import contract
from engine.evidence import EvidenceSelector
from engine.facts import Fact as FactModel
from engine.facts import FactKind as FactKindValue
from engine.facts import Grain as GrainValue
from resolvers.evidence import EvidenceConnection, evidence_page
from resolvers.relay import to_global_id
from resolvers.subject import Subject
from resolvers.types import Ctx, Node

Outcome = strawberry.enum(contract.Outcome, name="Outcome")
Standing = strawberry.enum(contract.Standing, name="Standing")
DriverCategory = strawberry.enum(contract.DriverCategory, name="DriverCategory")
Axis = strawberry.enum(contract.Axis, name="TimeAxis")
CoverageState = strawberry.enum(contract.CoverageState, name="CoverageState")
CoverageReason = strawberry.enum(contract.CoverageReason, name="CoverageReason")
FailureStage = strawberry.enum(contract.FailureStage, name="FailureStage")
FailureClassification = strawberry.enum(
    contract.FailureClassification, name="FailureClassification"
)
FactKind = strawberry.enum(FactKindValue, name="FactKind")
Grain = strawberry.enum(GrainValue, name="Grain")


async def _subjects(info: Ctx, keys: tuple[str, ...] | list[str]) -> list[Subject]:
    at = info.context.now
    found = await asyncio.gather(*(info.context.loaders.subject(k, None) for k in keys))
    return [Subject.from_model(s, at) for s in found if s is not None]


@strawberry.type(description="Which time an answer covers; composed by the engine, never a model.")
class TemporalLabel:
    axis: Axis  # type: ignore[valid-type]
    effective_from: datetime | None
    effective_to: datetime | None
    grain: Grain | None  # type: ignore[valid-type]
    note: str | None


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
    selector: strawberry.Private[EvidenceSelector | None]

    @strawberry.field(description="Every source record the fact rests on, by key.")
    async def evidence(
        self, info: Ctx, first: int | None = None, after: str | None = None
    ) -> EvidenceConnection:
        return await evidence_page(info, self.selector, first, after)


def _claimed(c: contract.ClaimedFact) -> ClaimedFact:
    return ClaimedFact(
        id=c.id,
        fact_id=c.fact_id,
        kind=c.kind,
        subject_key=c.subject_key,
        value=cast(JSON, c.value),
        window_start=c.window_start,
        window_end=c.window_end,
        evidence_total=c.evidence_total,
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
        found = await _subjects(info, [self.subject_key])
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
        return await _subjects(info, self.subject_keys)


@strawberry.type(description="How one source of facts or context fared.")
class CoverageObservation:
    source: str
    state: CoverageState  # type: ignore[valid-type]
    reason: CoverageReason  # type: ignore[valid-type]
    count: int | None


@strawberry.type(description="A subject the question may mean, with the receipt to choose it.")
class Candidate:
    name: str
    score: float
    receipt: str
    subject_key: strawberry.Private[str]

    @strawberry.field
    async def subject(self, info: Ctx) -> Subject | None:
        found = await _subjects(info, [self.subject_key])
        return found[0] if found else None


@strawberry.type
class StageTiming:
    name: str
    milliseconds: float


@strawberry.type
class PrunedProvider:
    provider: str
    reason: CoverageReason  # type: ignore[valid-type]


@strawberry.type(description="How the investigation ran: stages, round trips, providers.")
class Trace:
    stages: list[StageTiming]
    graph_round_trips: int
    providers_chosen: list[str]
    providers_pruned: list[PrunedProvider]


@strawberry.type(
    description="A change an answer lists (a commit, a merged pull request): its source "
    "record, closed to the claimed fact that counts it (whose `evidence` reads back all)."
)
class Change:
    ref: str = strawberry.field(description="The key of the change's source record.")
    title: str = strawberry.field(description="Untrusted text, as recorded.")
    at: datetime = strawberry.field(description="When it was made (or merged).")
    subject_key: str = strawberry.field(description="What it changed.")
    by_key: str | None = strawberry.field(description="Who made it (a person's key).")
    by_name: str | None
    claimed_fact_id: str


@strawberry.type(description="An immutable investigation result.")
class InvestigationResult(Node):
    question: str
    outcome: Outcome  # type: ignore[valid-type]
    direct_judgment: str | None
    current_state: str | None
    drivers: list[Driver]
    claimed_facts: list[ClaimedFact]
    coverage: list[CoverageObservation]
    limitations: list[str]
    limitations_displaced: int
    temporal_label: TemporalLabel | None
    candidates: list[Candidate]
    clarification_prompt: str | None
    failure_stage: FailureStage | None  # type: ignore[valid-type]
    failure_classification: FailureClassification | None  # type: ignore[valid-type]
    created_at: datetime
    versions: JSON
    interpretation: JSON
    trace: Trace | None
    changes: list[Change] = strawberry.field(
        description='"What changed": the newest changes, newest first (at most 10).'
    )
    changes_total: int = strawberry.field(
        description="How many changes the answer counts; the claimed facts' `evidence` "
        "connections read back every one."
    )
    subject_keys: strawberry.Private[tuple[str, ...]]

    @strawberry.field(description="The subjects the answer is about.")
    async def subjects(self, info: Ctx) -> list[Subject]:
        return await _subjects(info, self.subject_keys)

    @classmethod
    def of(cls, r: contract.InvestigationResult) -> InvestigationResult:
        claims = {c.id: _claimed(c) for c in r.claimed_facts}
        return cls(
            id=strawberry.ID(to_global_id("InvestigationResult", r.id)),
            question=r.question,
            outcome=r.outcome,
            direct_judgment=r.direct_judgment,
            current_state=r.current_state,
            drivers=[_driver(d, claims) for d in r.drivers],
            claimed_facts=list(claims.values()),
            coverage=[
                CoverageObservation(source=o.source, state=o.state, reason=o.reason, count=o.count)
                for o in r.coverage
            ],
            limitations=list(r.limitations),
            limitations_displaced=r.limitations_displaced,
            temporal_label=_label(r.temporal_label) if r.temporal_label else None,
            candidates=[
                Candidate(name=c.name, score=c.score, receipt=c.receipt, subject_key=c.subject_key)
                for c in r.candidates
            ],
            clarification_prompt=r.clarification_prompt,
            failure_stage=r.failure_stage,
            failure_classification=r.failure_classification,
            created_at=r.created_at,
            versions=cast(JSON, r.versions.model_dump(mode="json")),
            interpretation=cast(JSON, r.interpretation),
            trace=_trace(r.trace) if r.trace else None,
            changes=[_change(c) for c in r.changes],
            changes_total=r.changes_total,
            subject_keys=r.subject_keys,
        )


def _label(label: contract.TemporalLabel) -> TemporalLabel:
    return TemporalLabel(
        axis=label.axis,
        effective_from=label.effective_from,
        effective_to=label.effective_to,
        grain=label.grain,
        note=label.note,
    )


def _trace(trace: contract.Trace) -> Trace:
    return Trace(
        stages=[StageTiming(name=n, milliseconds=ms) for n, ms in trace.stages],
        graph_round_trips=trace.graph_round_trips,
        providers_chosen=list(trace.providers_chosen),
        providers_pruned=[
            PrunedProvider(provider=p, reason=why) for p, why in trace.providers_pruned
        ],
    )


def _change(c: contract.Change) -> Change:
    return Change(
        ref=c.ref,
        title=c.title,
        at=c.at,
        subject_key=c.subject_key,
        by_key=c.by,
        by_name=c.by_name,
        claimed_fact_id=c.claimed_fact_id,
    )


def _driver(d: contract.Driver, claims: dict[str, ClaimedFact]) -> Driver:
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


@strawberry.type
class InvestigationResultEdge:
    cursor: str
    node: InvestigationResult


@strawberry.type(description="A page of investigation results, newest first.")
class InvestigationResultConnection:
    edges: list[InvestigationResultEdge]
    has_next_page: bool
    end_cursor: str | None


@strawberry.type
class InvestigatePayload:
    result: InvestigationResult
    reused: bool = strawberry.field(description="True when a saved answer was reused.")
