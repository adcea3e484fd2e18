"""Reference resolution and search as GraphQL: `resolveReference` and `search`."""

from __future__ import annotations

from typing import Annotated

import strawberry

from engine.domain.gates import MIN_SEARCH_DEPTH, SIMILARITY_FLOOR
from engine.domain.models import SubjectKind as SubjectKindValue
from engine.resolving import resolution as engine
from resolvers.args import clean_text
from resolvers.relay import from_global_id
from resolvers.subject import Subject
from resolvers.types import Ctx, SubjectKind

ResolutionStage = strawberry.enum(
    engine.Stage, name="ResolutionStage", description="Which stage of resolution decided."
)
MatchedBy = strawberry.enum(
    engine.Match,
    name="MatchedBy",
    description="How a reference matched a subject: ID (by key or id), EXACT (a handle as "
    "written), FOLDED (a handle once case, accents and punctuation are set aside), TYPO (one "
    "edit from a handle), PREFIX (the leading words of a handle), RECENT (a tie the caller's "
    "recent references decided), SEARCH (ranked by the search arms).",
)
MAX_LIMIT = 50
DEFAULT_LIMIT = 5
MAX_GLOBAL_ID = 400


@strawberry.type(description="A subject a reference may mean, with the evidence for it.")
class ReferenceCandidate:
    subject: Subject
    score: float = strawberry.field(description="Confidence in [0, 1] the gates judged.")
    lexical_rank: int | None = strawberry.field(description="Rank in the full-text arm.")
    lexical_score: float | None
    vector_similarity: float | None = strawberry.field(description="Cosine similarity.")
    matched_handle: str | None = strawberry.field(
        description="The name, alias, previous name or identifying attribute closest to the "
        "reference."
    )
    matched_by: MatchedBy | None = strawberry.field(  # type: ignore[valid-type]
        description="How the reference matched it (null: found by meaning alone)."
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
            matched_by=candidate.how,
        )


@strawberry.type(description="The reference means exactly this subject.")
class Resolved:
    subject: Subject
    confidence: float = strawberry.field(
        description="How sure the gates are, in [0, 1]: 1.0 by id or key, 0.98 a handle as "
        "written, 0.95 folded, 0.92 one typo away, 0.72-0.80 the leading words of a handle "
        "with no competitor. A committed answer is never below 0.72; the number ranks "
        "evidence, it is not a probability."
    )
    stage: ResolutionStage  # type: ignore[valid-type]
    matched_name: str | None = strawberry.field(
        description="The handle that matched (name, alias, previous name, e-mail, login...), "
        "as the subject has it; the key for ID."
    )
    matched_by: MatchedBy = strawberry.field(  # type: ignore[valid-type]
        description="How the reference matched."
    )
    runners_up: list[ReferenceCandidate] = strawberry.field(
        description="Up to 3 other subjects that competed, best first, with their scores."
    )


@strawberry.type(description="Several subjects fit and none clearly: the caller must choose.")
class Ambiguous:
    candidates: list[ReferenceCandidate]
    stage: ResolutionStage  # type: ignore[valid-type]
    total: int | None = strawberry.field(description="How many fit (candidates may be fewer).")


@strawberry.type(description="Nothing this organisation has fits the reference.")
class NotFound:
    stage: ResolutionStage  # type: ignore[valid-type]
    notes: list[str] = strawberry.field(
        description="Why, when known: empty, too_long, unreadable or nothing_comparable (stage "
        "INPUT: the reference can name nothing), vector_arm_disabled (search ran without "
        "its vector arm)."
    )
    suggestions: list[ReferenceCandidate] = strawberry.field(
        description="Near misses below the bar, best first (did you mean...?); up to 3."
    )


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
        from engine.domain.errors import BadUserInput

        raise BadUserInput(f"{what} must be between 1 and {MAX_LIMIT}")
    return value


async def resolve_reference(
    info: Ctx,
    ref: str,
    kinds: list[SubjectKindValue] | None,
    limit: int | None,
    use_recent: bool | None,
) -> Resolved | Ambiguous | NotFound:
    """An unusable reference (empty, too long, unreadable) is not an error: the engine
    answers NotFound at stage INPUT, saying why, like any other reference that names
    nothing. A global id of a subject is taken as its key."""
    text = ref
    parsed = from_global_id(ref.strip()) if 8 <= len(ref.strip()) <= MAX_GLOBAL_ID else None
    if parsed is not None and parsed[0] == "Subject":
        text = parsed[1]
    outcome = await _resolver(info).resolve(
        info.context.principal.actor,
        text,
        kinds,
        _limit(DEFAULT_LIMIT if limit is None else limit, "limit"),
        use_recent=use_recent is not False,
    )
    now = info.context.now
    if isinstance(outcome, engine.Resolved):
        return Resolved(
            subject=Subject.from_model(outcome.subject, now),
            confidence=outcome.confidence,
            stage=outcome.stage,
            matched_name=outcome.matched_name,
            matched_by=outcome.how,
            runners_up=[ReferenceCandidate.of(c, info) for c in outcome.runners_up],
        )
    if isinstance(outcome, engine.Ambiguous):
        candidates = [ReferenceCandidate.of(c, info) for c in outcome.candidates]
        return Ambiguous(candidates=candidates, stage=outcome.stage, total=outcome.total)
    return NotFound(
        stage=outcome.stage,
        notes=list(outcome.notes),
        suggestions=[ReferenceCandidate.of(c, info) for c in outcome.suggestions],
    )


async def search(
    info: Ctx, query: str, kinds: list[SubjectKindValue] | None, first: int
) -> list[SearchHit]:
    text = clean_text(query, "query") or ""
    size = _limit(first, "first")
    depth = max(size, MIN_SEARCH_DEPTH)
    graph, kind_list = info.context.graph, list(kinds or [])
    lexical = await graph.search_lexical(text, kind_list, depth) if text.strip() else []
    vector = await graph.search_similar(text, kind_list, depth, SIMILARITY_FLOOR)
    ranked = engine.rank(text, lexical, vector)[:size]
    return [SearchHit(**vars(ReferenceCandidate.of(c, info))) for c in ranked]


@strawberry.type
class ResolutionQuery:
    @strawberry.field(
        description="What a natural-language reference means, never a guess: Resolved, "
        "Ambiguous or NotFound (docs/graphql.md, Resolution)."
    )
    async def resolve_reference(
        self,
        info: Ctx,
        ref: str,
        kinds: list[SubjectKind] | None = None,  # type: ignore[valid-type]
        limit: int | None = DEFAULT_LIMIT,
        use_recent: Annotated[
            bool | None,
            strawberry.argument(
                description="Let this caller's recent references (subjects it resolved or "
                "investigated) break a genuine tie, and remember what this call resolves. "
                "false: neither."
            ),
        ] = True,
    ) -> ReferenceResolution:
        return await resolve_reference(info, ref, kinds, limit, use_recent)

    @strawberry.field(description="Subjects ranked by text and meaning, with per-arm scores.")
    async def search(
        self,
        info: Ctx,
        query: str,
        kinds: list[SubjectKind] | None = None,  # type: ignore[valid-type]
        first: int = 20,
    ) -> list[SearchHit]:
        return await search(info, query, kinds, first)
