"""Reference resolution and search as GraphQL: `resolveReference` and `search`."""

from __future__ import annotations

from typing import Annotated

import strawberry

from engine import resolution as engine
from engine.gates import MIN_SEARCH_DEPTH, SIMILARITY_FLOOR
from engine.models import SubjectKind as SubjectKindValue
from resolvers.args import clean_text
from resolvers.relay import from_global_id
from resolvers.types import Ctx, Subject, SubjectKind

ResolutionStage = strawberry.enum(
    engine.Stage, name="ResolutionStage", description="Which stage of resolution decided."
)
MAX_LIMIT = 50


@strawberry.type(description="A subject a reference may mean, with the evidence for it.")
class ReferenceCandidate:
    subject: Subject
    score: float = strawberry.field(description="Confidence in [0, 1] the gates judged.")
    lexical_rank: int | None = strawberry.field(description="Rank in the full-text arm.")
    lexical_score: float | None
    vector_similarity: float | None = strawberry.field(description="Cosine similarity.")
    matched_handle: str | None = strawberry.field(
        description="The name, alias or previous name closest to the reference."
    )

    @classmethod
    def of(cls, candidate: engine.Candidate, info: Ctx) -> ReferenceCandidate:
        return cls(
            subject=Subject.from_model(candidate.subject, info.context.now),
            score=candidate.score,
            lexical_rank=candidate.lexical_rank,
            lexical_score=candidate.lexical_score,
            vector_similarity=candidate.vector_similarity,
            matched_handle=candidate.matched_handle,
        )


@strawberry.type(description="The reference means exactly this subject.")
class Resolved:
    subject: Subject
    confidence: float
    stage: ResolutionStage  # type: ignore[valid-type]


@strawberry.type(description="Several subjects fit and none clearly: the caller must choose.")
class Ambiguous:
    candidates: list[ReferenceCandidate]
    stage: ResolutionStage  # type: ignore[valid-type]
    total: int | None = strawberry.field(description="How many fit (candidates may be fewer).")


@strawberry.type(description="Nothing this organisation has fits the reference.")
class NotFound:
    stage: ResolutionStage  # type: ignore[valid-type]
    notes: list[str] = strawberry.field(description="e.g. vector_arm_disabled.")


ReferenceResolution = Annotated[
    Resolved | Ambiguous | NotFound, strawberry.union("ReferenceResolution")
]


@strawberry.type(description="A ranked search result with the score of each arm.")
class SearchHit(ReferenceCandidate):
    pass


def _resolver(info: Ctx) -> engine.Resolver:
    context = info.context
    return engine.Resolver(context.graph, context.ring, context.principal.org_id)


def _limit(value: int, what: str) -> int:
    if not 1 <= value <= MAX_LIMIT:
        from engine.errors import BadUserInput

        raise BadUserInput(f"{what} must be between 1 and {MAX_LIMIT}")
    return value


async def resolve_reference(
    info: Ctx, ref: str, kind: SubjectKindValue | None, limit: int
) -> Resolved | Ambiguous | NotFound:
    text = clean_text(ref, "ref") or ""
    parsed = from_global_id(text) if len(text) >= 8 else None
    if parsed is not None and parsed[0] == "Subject":
        text = parsed[1]
    outcome = await _resolver(info).resolve(
        info.context.principal.actor, text, kind, _limit(limit, "limit")
    )
    now = info.context.now
    if isinstance(outcome, engine.Resolved):
        subject = Subject.from_model(outcome.subject, now)
        return Resolved(subject=subject, confidence=outcome.confidence, stage=outcome.stage)
    if isinstance(outcome, engine.Ambiguous):
        candidates = [ReferenceCandidate.of(c, info) for c in outcome.candidates]
        return Ambiguous(candidates=candidates, stage=outcome.stage, total=outcome.total)
    return NotFound(stage=outcome.stage, notes=list(outcome.notes))


async def search(
    info: Ctx, query: str, kinds: list[SubjectKindValue] | None, first: int
) -> list[SearchHit]:
    text = clean_text(query, "query") or ""
    size = _limit(first, "first")
    depth = max(size, MIN_SEARCH_DEPTH)
    graph, kind_list = info.context.graph, list(kinds or [])
    lexical = await graph.search_lexical(text, kind_list, depth) if text.strip() else []
    vector = await graph.search_similar(text, kind_list, depth, SIMILARITY_FLOOR)
    ranked = engine.fuse(text, lexical, vector)[:size]
    return [SearchHit(**vars(ReferenceCandidate.of(c, info))) for c in ranked]


@strawberry.type
class ResolutionQuery:
    @strawberry.field(description="What a natural-language reference means, never a guess.")
    async def resolve_reference(
        self,
        info: Ctx,
        ref: str,
        kind: SubjectKind | None = None,  # type: ignore[valid-type]
        limit: int = 5,
    ) -> ReferenceResolution:
        return await resolve_reference(info, ref, kind, limit)

    @strawberry.field(description="Subjects ranked by text and meaning, with per-arm scores.")
    async def search(
        self,
        info: Ctx,
        query: str,
        kinds: list[SubjectKind] | None = None,  # type: ignore[valid-type]
        first: int = 20,
    ) -> list[SearchHit]:
        return await search(info, query, kinds, first)
