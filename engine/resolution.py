"""Reference resolution: a natural-language reference to one subject, or an honest "which?".

Four ordered stages, never guessing among close candidates:

1. Id passthrough: a subject id (UUID), an 8+ hex-character id prefix, or a subject key
   resolves by id. A miss there is the answer (not found), not a reason to search.
2. The actor's recently-referenced ring: exact (case-insensitive) match, then substring.
3. Exact name in storage: case-sensitive equality, decided from the storage total, so many
   look-alikes can never page the exact one out, and several exact ones stay ambiguous.
4. Hybrid search: the lexical and vector arms, each searched at least MIN_SEARCH_DEPTH deep,
   fused by reciprocal rank; confidence gates (engine.gates) decide what commits.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import re
import uuid
from dataclasses import dataclass, field

from engine import gates
from engine.models import KEY_PATTERN, StoredSubject, SubjectKind, key_kind
from engine.ports import SubjectDirectory
from engine.ring import ReferenceRing, RingEntry
from engine.text import normalise

MAX_REFERENCE = 200
Hit = tuple[StoredSubject, float]
_HEX_PREFIX = re.compile(r"^[0-9a-fA-F-]{8,36}$")
_KEY = re.compile(KEY_PATTERN)


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
    exact: bool = False


@dataclass(frozen=True, slots=True)
class Resolved:
    subject: StoredSubject
    confidence: float
    stage: Stage


@dataclass(frozen=True, slots=True)
class Ambiguous:
    candidates: list[Candidate]
    stage: Stage
    total: int | None = None  # how many matched, when known (the list may be a sample)


@dataclass(frozen=True, slots=True)
class NotFound:
    stage: Stage
    notes: tuple[str, ...] = field(default_factory=tuple)


Resolution = Resolved | Ambiguous | NotFound


def handles(subject: StoredSubject) -> list[str]:
    return [subject.name, *subject.aliases, *subject.previous_names]


def _edits(a: str, b: str) -> int:
    """Optimal-string-alignment distance: a swap of neighbours is one edit, as in a typo."""
    previous, current = list(range(len(b) + 1)), [0] * (len(b) + 1)
    before: list[int] = []
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[-1]


@functools.lru_cache(maxsize=65_536)
def _token_similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    shorter = min(len(a), len(b))
    if shorter < 4 or abs(len(a) - len(b)) > 2:
        return 0.0
    edits = _edits(a, b)
    allowed = 1 if shorter < 7 else 2
    return 1.0 - edits / max(len(a), len(b)) if edits <= allowed else 0.0


def similarity(reference: str, handle: str) -> float:
    """How well a reference matches a handle: token overlap that forgives typos, an F-score of
    matched tokens either way (an extra token in the handle counts against it)."""
    ref_tokens, handle_tokens = reference.split(), handle.split()
    if not ref_tokens or not handle_tokens:
        return 0.0
    recall = sum(max(_token_similarity(r, h) for h in handle_tokens) for r in ref_tokens)
    precision = sum(max(_token_similarity(h, r) for r in ref_tokens) for h in handle_tokens)
    recall, precision = recall / len(ref_tokens), precision / len(handle_tokens)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def near_exact(reference: str, handle: str) -> bool:
    """Token for token the same handle, but for typo-sized edits in some tokens."""
    ref_tokens, handle_tokens = reference.split(), handle.split()
    return len(ref_tokens) == len(handle_tokens) and all(
        _token_similarity(r, h) > 0 for r, h in zip(ref_tokens, handle_tokens, strict=True)
    )


_KIND_SUFFIXES = {kind: (kind.value.replace("_", " "), "svc") for kind in SubjectKind}


def handle_forms(handle: str, kind: SubjectKind) -> list[str]:
    """A handle as written, and without a trailing word naming its kind: "Checkout Service"
    is the checkout service; the kind word types it, it does not tell it apart."""
    norm = normalise(handle)
    forms = [norm]
    for suffix in _KIND_SUFFIXES[kind]:
        if norm.endswith(" " + suffix):
            forms.append(norm[: -len(suffix) - 1])
    return forms


def best_handle(reference: str, subject: StoredSubject) -> tuple[str | None, float, bool]:
    """The subject's handle closest to the reference, its similarity, and exact equality."""
    ref = normalise(reference)
    best, best_score = None, 0.0
    for handle in handles(subject):
        for norm in handle_forms(handle, subject.kind):
            if norm and norm == ref:
                return handle, 1.0, True
            score = similarity(ref, norm) if norm else 0.0
            if norm and near_exact(ref, norm):
                score = max(score, gates.NEAR_EXACT_SIMILARITY)
            if score > best_score:
                best, best_score = handle, score
    return best, best_score, False


def confidence(lexical: bool, similarity: float | None, handle_score: float, exact: bool) -> float:
    if exact and lexical:
        return gates.EXACT_HANDLE
    if lexical and handle_score >= gates.NEAR_EXACT_SIMILARITY:
        return gates.NEAR_EXACT
    base = gates.LEXICAL_BASE + (gates.LEXICAL_CEILING - gates.LEXICAL_BASE) * handle_score
    if lexical and similarity is not None:
        # Both arms agreeing adds weight, but agreement on a shared generic word ("team",
        # "service") is weak: the handle must still look like the reference to commit alone.
        return min(gates.CORROBORATED_CEILING, base + gates.CORROBORATION_BONUS)
    if lexical:
        return base
    # Found by meaning alone: never enough to commit, whatever the similarity.
    return min(gates.VECTOR_CEILING, similarity or 0.0)


def decide(
    candidates: list[Candidate], limit: int, stage: Stage = Stage.HYBRID, exhaustive: bool = True
) -> Resolution:
    """The gates: commit one candidate, or offer the best `limit` of them, or none.

    exhaustive: every subject that could share an identical handle was seen. If not, an exact
    handle proves nothing about uniqueness, and the answer fails toward ambiguous."""
    ranked = [c for c in candidates if c.score >= gates.CANDIDATE_FLOOR]
    if not ranked:
        return NotFound(stage)
    exact = [c for c in ranked if c.exact]
    if exact and not exhaustive:
        return Ambiguous(ranked[: max(limit, 1)], stage, total=None)
    if len(exact) == 1:
        # String equality with a handle is not a ranking: no unseen row can outrank it, and
        # every row that could equal it was read.
        return Resolved(exact[0].subject, exact[0].score, stage)
    top = ranked[0]
    if len(ranked) == 1 and top.score >= gates.LONE_COMMIT:
        return Resolved(top.subject, top.score, stage)
    if len(ranked) > 1:
        lead = top.score - ranked[1].score
        if top.score >= gates.TOP_COMMIT and lead >= gates.TOP_LEAD:
            return Resolved(top.subject, top.score, stage)
    return Ambiguous(ranked[: max(limit, 1)], stage, total=len(ranked))


def fuse(reference: str, lexical: list[Hit], vector: list[Hit] | None) -> list[Candidate]:
    """Reciprocal-rank fusion of the two arms, with a confidence per candidate."""
    rrf: dict[str, float] = {}
    subjects: dict[str, StoredSubject] = {}
    lexical_at: dict[str, tuple[int, float]] = {}
    vector_at: dict[str, float] = {}
    for rank, (subject, score) in enumerate(lexical, 1):
        subjects[subject.key] = subject
        lexical_at[subject.key] = (rank, score)
        rrf[subject.key] = rrf.get(subject.key, 0.0) + 1 / (gates.RRF_K + rank)
    for rank, (subject, similarity) in enumerate(vector or [], 1):
        subjects.setdefault(subject.key, subject)
        vector_at[subject.key] = similarity
        rrf[subject.key] = rrf.get(subject.key, 0.0) + 1 / (gates.RRF_K + rank)
    out = []
    for key, subject in subjects.items():
        handle, handle_score, exact = best_handle(reference, subject)
        lex = lexical_at.get(key)
        sim = vector_at.get(key)
        out.append(
            Candidate(
                subject=subject,
                score=round(confidence(lex is not None, sim, handle_score, exact), 4),
                lexical_rank=lex[0] if lex else None,
                lexical_score=lex[1] if lex else None,
                vector_similarity=sim,
                matched_handle=handle,
                exact=exact and lex is not None,
            )
        )
    out.sort(key=lambda c: (-c.score, -rrf[c.subject.key], c.subject.key))
    return out


class Resolver:
    """Resolves references for one organisation's directory.

    ring: the process-local recently-referenced ring shared by every request.
    """

    def __init__(self, directory: SubjectDirectory, ring: ReferenceRing, org_id: str) -> None:
        self.directory = directory
        self.ring = ring
        self.org_id = org_id
        # Set when a hybrid search ran without its vector arm: an answer built on this
        # resolution must disclose that its retrieval was degraded.
        self.vector_arm_missed = False

    async def resolve(
        self, actor: str, reference: str, kind: SubjectKind | None = None, limit: int = 5
    ) -> Resolution:
        text = reference.strip()
        if not text or len(text) > MAX_REFERENCE or "\x00" in text:
            return NotFound(Stage.INPUT)
        result = await self._by_id(text)
        if result is None:
            result = await self._from_ring(actor, text, kind)
        if result is None:
            result = await self._by_name(text, kind, limit)
        if isinstance(result, Resolved):
            self.admit(actor, result.subject)
        return result

    def admit(self, actor: str, subject: StoredSubject) -> None:
        entry = RingEntry(subject.key, subject.name, subject.kind.value)
        self.ring.admit(self.org_id, actor, entry)

    async def _by_id(self, text: str) -> Resolution | None:
        if _KEY.match(text) and key_kind(text) in SubjectKind._value2member_map_:
            found = await self.directory.subjects_by_keys([text])
            return self._one(found.get(text), Stage.ID)
        try:
            as_uuid = str(uuid.UUID(text))
        except ValueError:
            as_uuid = None
        if as_uuid is not None:
            found = await self.directory.subjects_by_ids([as_uuid])
            return self._one(found.get(as_uuid), Stage.ID)
        if not _HEX_PREFIX.match(text) or sum(c != "-" for c in text) < 8:
            return None
        sample, total = await self.directory.subjects_by_id_prefix(text.lower(), 10)
        if total == 1 and sample:
            return Resolved(sample[0], gates.ID_CONFIDENCE, Stage.ID)
        if total > 1:
            candidates = [Candidate(s, gates.ID_CONFIDENCE) for s in sample]
            return Ambiguous(candidates, Stage.ID, total)
        return NotFound(Stage.ID)

    @staticmethod
    def _one(subject: StoredSubject | None, stage: Stage) -> Resolution:
        if subject is None:
            return NotFound(stage)
        return Resolved(subject, gates.ID_CONFIDENCE, stage)

    async def _from_ring(
        self, actor: str, text: str, kind: SubjectKind | None
    ) -> Resolution | None:
        entries = [
            e for e in self.ring.snapshot(self.org_id, actor) if kind is None or e.kind == kind
        ]
        needle = text.casefold()
        exact = [e for e in entries if e.name.casefold() == needle]
        if exact:
            return await self._ring_outcome(exact, gates.RING_EXACT_CONFIDENCE)
        partial = [e for e in entries if needle in e.name.casefold() or e.name.casefold() in needle]
        if partial:
            return await self._ring_outcome(partial, gates.RING_SUBSTRING_CONFIDENCE)
        return None

    async def _ring_outcome(self, entries: list[RingEntry], score: float) -> Resolution | None:
        # The ring remembers keys; what it points at is read now (it may have been retracted).
        found = await self.directory.subjects_by_keys([e.key for e in entries])
        subjects = [found[e.key] for e in entries if e.key in found]
        if not subjects:
            return None
        if len(subjects) == 1 and score >= gates.RING_COMMIT:
            return Resolved(subjects[0], score, Stage.RING)
        return Ambiguous([Candidate(s, score) for s in subjects], Stage.RING, len(subjects))

    async def _by_name(self, text: str, kind: SubjectKind | None, limit: int) -> Resolution:
        """Stage 3, then stage 4. The exact-name read and the every-token read of stage 4 are
        sent together (stage 3 still decides first): a miss then costs one wait, not two."""
        kinds = [kind] if kind else []
        (sample, total), (complete, exhaustive) = await asyncio.gather(
            self.directory.subjects_by_exact_name(text, kind, 10),
            self.directory.search_all_tokens(text, kinds, gates.ALL_TOKENS_DEPTH),
        )
        if total == 1 and sample:
            return Resolved(sample[0], gates.EXACT_NAME_CONFIDENCE, Stage.EXACT_NAME)
        if total > 1:
            candidates = [Candidate(s, gates.EXACT_NAME_CONFIDENCE, exact=True) for s in sample]
            return Ambiguous(candidates, Stage.EXACT_NAME, total)
        return await self._hybrid(text, kinds, limit, complete, exhaustive)

    async def _hybrid(
        self,
        text: str,
        kinds: list[SubjectKind],
        limit: int,
        complete: list[Hit],
        exhaustive: bool,
    ) -> Resolution:
        # The subjects with every token come first: an identical handle is among them, and
        # deciding on it needs neither fuzzy matching nor vectors.
        exact = [
            Candidate(subject, gates.EXACT_HANDLE, rank, score, None, handle, exact=True)
            for rank, (subject, score) in enumerate(complete, 1)
            for handle, _, is_exact in [best_handle(text, subject)]
            if is_exact
        ]
        if exact and exhaustive:
            if len(exact) == 1:
                return Resolved(exact[0].subject, gates.EXACT_HANDLE, Stage.HYBRID)
            return Ambiguous(exact[: max(limit, 1)], Stage.HYBRID, len(exact))
        depth = max(limit, gates.MIN_SEARCH_DEPTH)
        # The two arms are independent reads: asked together, they cost the slower one.
        lexical, vector = await asyncio.gather(
            self.directory.search_lexical(text, kinds, depth),
            self.directory.search_similar(text, kinds, depth, gates.SIMILARITY_FLOOR),
        )
        seen = {s.key for s, _ in complete}
        lexical = complete + [(s, score) for s, score in lexical if s.key not in seen]
        if vector is None:
            self.vector_arm_missed = True
        outcome = decide(fuse(text, lexical, vector), limit, exhaustive=exhaustive)
        if vector is None and isinstance(outcome, NotFound):
            return NotFound(Stage.HYBRID, ("vector_arm_disabled",))
        return outcome
