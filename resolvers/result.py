"""GraphQL types of an investigation result: the immutable answer as stored, with what it
covered, the candidates it offers, how it ran and the changes it lists, and its page.

What the answer rests on (drivers, claimed facts, evidence) is resolvers/findings.py; the
bounded view of a result is resolvers/answer.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from engine.domain import contract
from resolvers.findings import ClaimedFact, Driver, Grain, claimed, driver
from resolvers.relay import to_global_id
from resolvers.subject import Subject, current_subjects
from resolvers.types import Ctx, Node

Outcome = strawberry.enum(contract.Outcome, name="Outcome")
Axis = strawberry.enum(contract.Axis, name="TimeAxis")
CoverageState = strawberry.enum(contract.CoverageState, name="CoverageState")
CoverageReason = strawberry.enum(contract.CoverageReason, name="CoverageReason")
FailureStage = strawberry.enum(contract.FailureStage, name="FailureStage")
FailureClassification = strawberry.enum(
    contract.FailureClassification, name="FailureClassification"
)


@strawberry.type(description="Which time an answer covers; composed by the engine, never a model.")
class TemporalLabel:
    axis: Axis  # type: ignore[valid-type]
    effective_from: datetime | None
    effective_to: datetime | None
    grain: Grain | None  # type: ignore[valid-type]
    note: str | None


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
    label: str | None = strawberry.field(
        default=None,
        description="What tells this candidate apart from the others offered: its kind, "
        "where it is, its commits in the question's window and in all.",
    )

    @strawberry.field
    async def subject(self, info: Ctx) -> Subject | None:
        found = await current_subjects(info, [self.subject_key])
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
        return await current_subjects(info, self.subject_keys)

    @classmethod
    def of(cls, r: contract.InvestigationResult) -> InvestigationResult:
        claims = {c.id: claimed(c) for c in r.claimed_facts}
        return cls(
            id=strawberry.ID(to_global_id("InvestigationResult", r.id)),
            question=r.question,
            outcome=r.outcome,
            direct_judgment=r.direct_judgment,
            current_state=r.current_state,
            drivers=[driver(d, claims) for d in r.drivers],
            claimed_facts=list(claims.values()),
            coverage=[
                CoverageObservation(source=o.source, state=o.state, reason=o.reason, count=o.count)
                for o in r.coverage
            ],
            limitations=list(r.limitations),
            limitations_displaced=r.limitations_displaced,
            temporal_label=_label(r.temporal_label) if r.temporal_label else None,
            candidates=[
                Candidate(
                    name=c.name,
                    score=c.score,
                    receipt=c.receipt,
                    label=c.label,
                    subject_key=c.subject_key,
                )
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
