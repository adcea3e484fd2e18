"""A reference's candidates and what the gates make of them: the outcome types of
resolution (resolved, ambiguous, not found, with the stage that decided) and the pure
functions that score candidates by how the reference matches their handles (`rank`), say
who competes (`contenders`), commit one or offer several (`decide`), and find a genuine tie
that only the actor's recent references may break (`tied`). No reads: engine.resolving.resolution
reads the directory and calls these.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from engine.domain import gates
from engine.domain.models import StoredSubject, SubjectKind
from engine.resolving.matching import Match, match

__all__ = [
    "ASIDE", "Ambiguous", "Candidate", "Hit", "NotFound", "Resolution", "Resolved", "Stage",
    "aside_of", "contenders", "decide", "holds", "rank", "ruled", "tied",
]  # fmt: skip

Hit = tuple[StoredSubject, float]

class Stage(enum.StrEnum):
    INPUT = "input"
    ID = "id"
    RING = "ring"
    EXACT_NAME = "exact_name"
    HYBRID = "hybrid"


@dataclass(frozen=True, slots=True)
class Candidate:
    subject: StoredSubject
    score: float  # the confidence the gates judge
    lexical_rank: int | None = None
    lexical_score: float | None = None
    vector_similarity: float | None = None
    matched_handle: str | None = None
    exact: bool = False  # the reference is one of its handles (folded)
    how: Match | None = None
    every_token: bool = False  # every token of the reference is a token of a handle
    handle_score: float = 0.0  # how well its closest handle matches, whichever arm found it


@dataclass(frozen=True, slots=True)
class Resolved:
    subject: StoredSubject
    confidence: float
    stage: Stage
    matched_name: str | None = None  # the handle that matched, as the subject has it
    how: Match = Match.SEARCH
    runners_up: tuple[Candidate, ...] = ()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    candidates: list[Candidate]
    stage: Stage
    total: int | None = None  # how many matched, when known (the list may be a sample)


@dataclass(frozen=True, slots=True)
class NotFound:
    stage: Stage
    notes: tuple[str, ...] = field(default_factory=tuple)
    suggestions: tuple[Candidate, ...] = ()  # near misses below the bar, best first


Resolution = Resolved | Ambiguous | NotFound


def holds(repository: StoredSubject, module: StoredSubject) -> bool:
    """The module belongs to the repository (by the importer's key and attribute)."""
    slug = repository.key.partition(":")[2]
    return module.attributes.get("repository") == slug or module.key.startswith(
        f"module:{slug}/"
    )


# Directories holding what a repository keeps beside the code it ships, and what they are.
ASIDE = {
    "examples": "the examples",
    "example": "the examples",
    "tests": "the tests",
    "test": "the tests",
    "docs": "the docs",
    "doc": "the docs",
    "benchmarks": "the benchmarks",
}


def aside_of(subject: StoredSubject) -> str | None:
    """Which of ASIDE a module's path lies in ("module:click/examples/..."), or None."""
    if subject.kind is not SubjectKind.MODULE:
        return None
    path = subject.key.split(":", 1)[-1].split("/")[1:]  # the repository's name left out
    return next((ASIDE[part] for part in path[:-1] if part in ASIDE), None)


def ruled(candidates: list[Candidate]) -> bool:
    """A tie a rule decides, so no recent reference may: one repository and packages inside
    it, all of one name (engine.resolving.within: the name means the repository). After
    "the werkzeug package", a bare "werkzeug" was answered for the package "from your
    recent references"; fresh, the same question is the repository's."""
    repositories = [c.subject for c in candidates if c.subject.kind is SubjectKind.REPOSITORY]
    if len(repositories) != 1:
        return False
    rest = [c.subject for c in candidates if c.subject.key != repositories[0].key]
    return bool(rest) and all(
        s.kind is SubjectKind.MODULE and holds(repositories[0], s) for s in rest
    )


def rank(reference: str, lexical: list[Hit], vector: list[Hit] | None) -> list[Candidate]:
    """Candidates of both arms, scored by how the reference matches their handles, best
    first. A subject with every token of the reference always ranks above one that only
    matches with a typo; equals are ordered by reciprocal-rank fusion, then key."""
    rrf: dict[str, float] = {}
    subjects: dict[str, StoredSubject] = {}
    lexical_at: dict[str, tuple[int, float]] = {}
    vector_at: dict[str, float] = {}
    for n, (subject, score) in enumerate(lexical, 1):
        subjects[subject.key] = subject
        lexical_at[subject.key] = (n, score)
        rrf[subject.key] = rrf.get(subject.key, 0.0) + 1 / (gates.RRF_K + n)
    for n, (subject, similarity) in enumerate(vector or [], 1):
        subjects.setdefault(subject.key, subject)
        vector_at[subject.key] = similarity
        rrf[subject.key] = rrf.get(subject.key, 0.0) + 1 / (gates.RRF_K + n)
    out = []
    for key, subject in subjects.items():
        found, lex, sim = match(reference, subject), lexical_at.get(key), vector_at.get(key)
        score = found.score
        if lex is None:
            # Found by meaning alone: never enough to commit, whatever the similarity; its
            # handle may still make it a competitor (the gates never commit it).
            score = max(min(gates.VECTOR_CEILING, sim or 0.0), found.score)
        out.append(
            Candidate(
                subject, round(score, 4), lex[0] if lex else None, lex[1] if lex else None,
                sim, found.handle, found.how in (Match.EXACT, Match.FOLDED), found.how,
                found.every_token, found.score,
            )
        )  # fmt: skip
    with_tokens = [c.score for c in out if c.every_token and c.lexical_rank is not None]
    if with_tokens:
        cap = max(with_tokens)
        out = [c if c.every_token else replace(c, score=min(c.score, cap)) for c in out]
    out.sort(key=lambda c: (-c.score, not c.every_token, -rrf[c.subject.key], c.subject.key))
    return out


def contenders(ranked: list[Candidate]) -> list[Candidate]:
    """Who competes for the commit: candidates whose handles resemble the reference (at the
    floor or above), and every subject with every token of the reference whatever its score.
    A subject found by meaning alone, with no handle like the reference, is a suggestion,
    not a contender: it could never be what the reference names."""
    floor = gates.CANDIDATE_FLOOR
    return [c for c in ranked if c.every_token or (c.score >= floor and c.handle_score >= floor)]


def decide(
    ranked: list[Candidate], limit: int, stage: Stage = Stage.HYBRID, exhaustive: bool = True
) -> Resolution:
    """The gates: commit one candidate, or offer the best `limit` of them, or none.

    exhaustive: every subject with every token of the reference was seen. If not, a partial
    match cannot know its competitors and does not commit."""
    field_ = contenders(ranked)
    if not field_:
        near = tuple(c for c in ranked if c.score > 0)[: gates.RUNNERS_UP]
        return NotFound(stage, suggestions=near)
    top = field_[0]
    partial = top.how in (Match.PREFIX, Match.SEARCH)
    if top.lexical_rank is not None and (exhaustive or not partial):
        lone = len(field_) == 1 and top.score >= gates.LONE_COMMIT
        lead = len(field_) > 1 and top.score - field_[1].score >= gates.TOP_LEAD
        if lone or (lead and top.score >= gates.TOP_COMMIT):
            how = top.how or Match.SEARCH
            return Resolved(
                top.subject, top.score, stage, top.matched_handle, how,
                tuple(field_[1 : 1 + gates.RUNNERS_UP]),
            )  # fmt: skip
    return Ambiguous(field_[: max(limit, 1)], stage, total=len(field_) if exhaustive else None)


def tied(ranked: list[Candidate]) -> list[Candidate]:
    """The candidates of a genuine tie: lexical matches that would each commit alone, within
    the gates' lead of the best. Only among these may a recent reference choose."""
    field_ = contenders(ranked)
    if not field_ or field_[0].lexical_rank is None:
        return []
    bar = max(gates.LONE_COMMIT, field_[0].score - gates.TOP_LEAD)
    return [c for c in field_ if c.lexical_rank is not None and c.score >= bar]
