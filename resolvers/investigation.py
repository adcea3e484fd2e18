"""Investigations in GraphQL: the `investigate` and `project` mutations, result queries,
the answer projection and canonical facts.

The types these fields answer have modules of their own: result.py (a stored result),
findings.py (its drivers and claimed facts, and canonical facts) and answer.py (the bounded
view of a result)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from engine.answering.planning import plan, read_facts
from engine.domain import contract
from engine.domain.errors import BadUserInput, Forbidden, PublicError
from engine.domain.facts import FactKind as FactKindValue
from engine.investigation.investigate import InvestigationFailed, InvestigationRequest, Investigator
from engine.investigation.observer import NULL_OBSERVER
from engine.ports import EpochConflict, OrgGraph
from engine.providers import Window
from engine.resolving.resolution import Resolver
from engine.resolving.together import PartSource
from resolvers.answer import AnswerProjection, ProjectionBudgetInput, projection
from resolvers.args import TimeWindowInput, clean_text, page_size, time_position, window
from resolvers.findings import Fact, FactKind
from resolvers.parts import part_of
from resolvers.relay import encode_cursor, from_global_id
from resolvers.result import (
    InvestigatePayload,
    InvestigationResult,
    InvestigationResultConnection,
    InvestigationResultEdge,
)
from resolvers.types import Ctx

MAX_QUESTION = 2_000
MAX_RECEIPTS = 10
INVESTIGATIONS_PAGE = 20  # `investigations` without `first`


@strawberry.input
class InvestigateInput:
    question: str
    as_of: datetime | None = None
    range: TimeWindowInput | None = None
    allow_clarification: bool = True
    prior_subject_receipts: list[str] | None = None


@strawberry.type
class ProjectionReport:
    accepted: int
    invalid: int
    invalid_lines: list[str]


def _investigator(info: Ctx) -> Investigator:
    context = info.context
    services = context.services
    if services is None:
        raise PublicError("Investigations are not available here.", code="UNAVAILABLE")
    org = context.principal.org_id
    return Investigator(
        context.graph,
        Resolver(context.graph, context.ring, org),
        services.providers,
        services.synthesizer,
        services.signer,
        services.versions,
        now=lambda: datetime.now(UTC),
        round_trips=services.round_trips,
        reuse_max_age=services.reuse_max_age,
        observer=services.observer or NULL_OBSERVER,
    )


def checked_question(text: str) -> str:
    """The question as asked, refused (BadUserInput) when it cannot be one: empty or blank,
    too long, or not storable. `fabric investigate` refuses with the same rule, so the CLI
    never saves a NO_MATCH for a question nobody asked."""
    question = clean_text(text, "question", MAX_QUESTION) or ""
    if not question.strip():
        raise BadUserInput("question must not be empty")
    return question


def _request(data: InvestigateInput) -> InvestigationRequest:
    question = checked_question(data.question)
    receipts = tuple(data.prior_subject_receipts or ())
    if len(receipts) > MAX_RECEIPTS or any(len(r) > 1_200 or "\x00" in r for r in receipts):
        raise BadUserInput(f"at most {MAX_RECEIPTS} receipts, each at most 1,200 characters")
    start = data.range.from_ if data.range else None
    end = data.range.to if data.range else None
    return InvestigationRequest(
        question, data.as_of, start, end, data.allow_clarification, receipts
    )


async def stored_result(info: Ctx, global_id: str) -> contract.InvestigationResult | None:
    parsed = from_global_id(global_id)
    local = parsed[1] if parsed and parsed[0] == "InvestigationResult" else global_id
    return await result_by_id(info.context.graph, local)


async def result_by_id(graph: OrgGraph, local: str) -> contract.InvestigationResult | None:
    """The stored result of id `local` (Query.investigation, Query.node and the node plan:
    resolvers/node_plan.py). Unknown, malformed and another organisation's ids answer the
    same: null."""
    if len(local) > 64 or not local.isprintable():  # result ids are UUIDs
        return None
    found = await graph.results.by_ids([local])
    payload = found.get(local)
    return contract.InvestigationResult.model_validate_json(payload) if payload else None


@strawberry.type
class InvestigationQuery:
    @strawberry.field(description="An investigation result by id; null when unknown or not yours.")
    async def investigation(self, info: Ctx, id: strawberry.ID) -> InvestigationResult | None:
        found = await stored_result(info, id)
        return InvestigationResult.of(found) if found else None

    @strawberry.field(description="Investigation results, newest first.")
    async def investigations(
        self,
        info: Ctx,
        first: int | None = None,
        after: str | None = None,
        subject_key: str | None = None,
    ) -> InvestigationResultConnection:
        size = page_size(first, info.context.limits.max_page_size, default=INVESTIGATIONS_PAGE)
        position = time_position(after) if after else None
        subject = clean_text(subject_key, "subjectKey", 256)
        page = await info.context.graph.results.page(size + 1, position, subject)
        edges = [
            InvestigationResultEdge(
                cursor=encode_cursor(str(r.created_ns), r.id),
                node=InvestigationResult.of(
                    contract.InvestigationResult.model_validate_json(r.payload)
                ),
            )
            for r in page[:size]
        ]
        return InvestigationResultConnection(
            edges=edges,
            has_next_page=len(page) > size,
            end_cursor=edges[-1].cursor if edges else None,
        )

    @strawberry.field(description="The bounded consumer view of a result.")
    async def answer_projection(
        self, info: Ctx, result_id: strawberry.ID, budget: ProjectionBudgetInput | None = None
    ) -> AnswerProjection | None:
        found = await stored_result(info, result_id)
        if found is None:
            return None
        return projection(found, result_id, budget)

    @strawberry.field(
        description="Canonical facts about a subject over a window (default: 30 days)."
    )
    async def facts(
        self,
        info: Ctx,
        subject_key: str,
        kinds: list[FactKind] | None = None,  # type: ignore[valid-type]
        window_: Annotated[TimeWindowInput | None, strawberry.argument(name="window")] = None,
        person_key: Annotated[
            str | None,
            strawberry.argument(
                description="One person's part of the subject (a module or repository): "
                "its records whose author is that person, as an investigation claims it."
            ),
        ] = None,
        others: Annotated[
            bool, strawberry.argument(description="With personKey: everyone's part but theirs.")
        ] = False,
    ) -> list[Fact]:
        key = clean_text(subject_key, "subjectKey", 256) or ""
        subject = await info.context.loaders.subject(key, None)
        if subject is None:
            return []
        services = info.context.services
        if services is None:
            raise PublicError("Facts are not available here.", code="UNAVAILABLE")
        span = window(window_, info.context.now.end_ns)
        from engine.domain.models import from_ns

        start, end = from_ns(span.start_ns), from_ns(span.end_ns)
        assert start is not None and end is not None
        historical = window_ is not None
        asked = [FactKindValue(k) for k in kinds or []]
        part, asked = await part_of(info, subject, person_key, others, asked)
        chosen = plan(services.providers, [subject], asked)
        graph = info.context.graph
        source = graph if part is None else PartSource(graph, part)
        results = await read_facts(chosen, source, Window(start, end, historical))
        found = [f for r in results for f in r.facts]
        return [Fact.of(f if part is None else part.fact(f)) for f in found]


async def _building(info: Ctx, epoch: int) -> OrgGraph:
    """The graph of the open build `epoch`; loading into any other epoch is refused."""
    context = info.context
    if not context.principal.can("admin"):
        raise Forbidden("Only an admin key may load into a projection epoch.")
    if context.epochs is None or context.epoch_graph is None:
        raise PublicError("Projection epochs are not available here.", code="UNAVAILABLE")
    building = await context.epochs.building()
    if building is None or building.id != epoch:
        raise EpochConflict(f"epoch {epoch} is not the open build")
    return context.epoch_graph(epoch)


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Investigate a natural-language question; no model needed.")
    async def investigate(self, info: Ctx, input: InvestigateInput) -> InvestigatePayload:
        request = _request(input)
        try:
            result, reused = await _investigator(info).investigate(
                info.context.principal.actor, request
            )
        except InvestigationFailed as failed:
            stage = failed.result.failure_stage
            kind = failed.result.failure_classification
            codes = {
                contract.FailureClassification.TIMEOUT: "TIMEOUT",
                contract.FailureClassification.INTERNAL: "INTERNAL_SERVER_ERROR",
            }
            raise PublicError(
                "The investigation could not complete; try again shortly.",
                code=codes.get(kind, "GRAPH_UNAVAILABLE") if kind else "GRAPH_UNAVAILABLE",
                extensions={
                    "failureStage": stage.value if stage else "unknown",
                    "failureClassification": kind.value if kind else "unknown",
                },
            ) from None
        return InvestigatePayload(result=InvestigationResult.of(result), reused=reused)

    @strawberry.mutation(description="Load projection records (the NDJSON record format, as JSON).")
    async def project(
        self,
        info: Ctx,
        records: list[JSON],
        source: str | None = None,
        epoch: Annotated[
            int | None,
            strawberry.argument(description="Load into this open build (admin); default: serving."),
        ] = None,
    ) -> ProjectionReport:
        import json

        from graph.projection import Projector

        if not info.context.principal.can("write"):
            raise Forbidden("This key may not write.")
        if len(records) > 5_000:
            raise BadUserInput("at most 5,000 records per call")
        name = clean_text(source, "source", 200) or "graphql"
        lines = [json.dumps(r) for r in records]
        graph = info.context.graph if epoch is None else await _building(info, epoch)
        report = await Projector(graph, source=name, resume=False).run(lines)
        return ProjectionReport(
            accepted=report.accepted,
            invalid=report.invalid_count,
            invalid_lines=[f"{bad.line}: {bad.reason}" for bad in report.invalid[:50]],
        )


__all__ = ["InvestigationQuery", "Mutation"]
