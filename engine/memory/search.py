"""Search arms of the in-memory graph: lexical over the search text's tokens, and vector.

Lexical: a query token matches a stored token when equal, or, for tokens of four letters or
more, one edit away (insert, delete, substitute, or swap of neighbours), for three letters a
swap of neighbours: what the Cypher adapters ask of their full-text engines. Unlike them it
has no stemming and no stop words, and its score is its own (matched tokens, exact ones
counting double, over the square root of the text's length): only the order of hits means
anything, on every backend.
Vector: exact cosine similarity over every subject, where the adapters ask an approximate
k-NN index and filter afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from engine.domain.embedding import Embedder
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import query_tokens, spacing_variants, telling_tokens
from engine.memory.data import OrgData, SubjectNode

Hit = tuple[StoredSubject, float]
VECTOR_DECIMALS = 3  # as the Cypher adapters store vectors
REEMBED_BATCH = 2_000


def one_edit(a: str, b: str) -> bool:
    """True when b is a at most one edit away (Damerau: a swap of neighbours is one)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _swapped(a: str, b: str) -> bool:
    diff = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else []
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]


def _weight(token: str, node: SubjectNode, fuzzy: bool) -> float:
    """2 for an exact match, 1 for a match one edit away (a swap only in three letters),
    0 for none."""
    if token in node.tokens:
        return 2.0
    if fuzzy and len(token) >= 4 and any(one_edit(token, t) for t in node.tokens):
        return 1.0
    if fuzzy and len(token) == 3 and any(_swapped(token, t) for t in node.tokens):
        return 1.0
    return 0.0


def _ranked(
    nodes: Iterable[SubjectNode], tokens: list[str], every: bool, fuzzy: bool, limit: int
) -> list[Hit]:
    hits = []
    for node in nodes:
        weights = [_weight(t, node, fuzzy) for t in tokens]
        if all(weights) if every else any(weights):
            score = sum(weights) / max(len(node.tokens), 1) ** 0.5
            hits.append((node.subject, score))
    hits.sort(key=lambda hit: (-hit[1], hit[0].key))
    return hits[:limit]


def _searchable(data: OrgData, kinds: Sequence[SubjectKind]) -> list[SubjectNode]:
    return [
        n
        for n in data.subjects.values()
        if not n.subject.stub and (not kinds or n.subject.kind in kinds)
    ]


def lexical(data: OrgData, text: str, kinds: Sequence[SubjectKind], limit: int) -> list[Hit]:
    """Subjects with every telling token (typos forgiven), or with every token of the text
    with its spacing mended (engine.domain.text.spacing_variants), if any; else those with any."""
    tokens = telling_tokens(text)
    if not tokens:
        return []
    nodes = _searchable(data, kinds)
    best: dict[str, Hit] = {}
    mended = spacing_variants(query_tokens(text))
    hits = _ranked(nodes, tokens, True, True, limit)
    for hit in hits + [h for v in mended for h in _ranked(nodes, v, True, False, limit)]:
        if hit[0].key not in best or best[hit[0].key][1] < hit[1]:
            best[hit[0].key] = hit
    if best:
        return sorted(best.values(), key=lambda hit: (-hit[1], hit[0].key))[:limit]
    return _ranked(nodes, tokens, False, True, limit)


def all_tokens(
    data: OrgData, text: str, kinds: Sequence[SubjectKind], limit: int
) -> tuple[list[Hit], bool]:
    tokens = query_tokens(text)
    if not tokens:
        return [], True
    hits = _ranked(_searchable(data, kinds), tokens, True, False, limit + 1)
    return hits[:limit], len(hits) <= limit


def _rows(vectors: np.ndarray) -> np.ndarray:
    return np.round(vectors.astype(np.float64), VECTOR_DECIMALS)


async def write_vectors(data: OrgData, embedder: Embedder | None, keys: list[str]) -> None:
    """Vectors for subjects just written, unless the organisation's vectors are another
    embedder's (then they wait for reembed); the first vectors claim the organisation."""
    if embedder is None or not keys:
        return
    stamp = embedder.identity.stamp()
    if data.vector_stamp not in (None, stamp):
        return
    data.vector_stamp = stamp
    vectors = _rows(await embedder.embed([data.subjects[k].text for k in keys]))
    for key, vector in zip(keys, vectors, strict=True):
        data.subjects[key].vector, data.subjects[key].stamp = vector, stamp


async def reembed(
    data: OrgData, embedder: Embedder | None, progress: Callable[[int], None] | None
) -> int:
    if embedder is None:
        return 0
    data.vector_stamp = "rebuilding"  # the vector arm is off until every vector is remade
    keys = sorted(data.subjects)
    for start in range(0, len(keys), REEMBED_BATCH):
        batch = keys[start : start + REEMBED_BATCH]
        data.vector_stamp = None
        await write_vectors(data, embedder, batch)
        data.vector_stamp = "rebuilding"
        if progress:
            progress(start + len(batch))
    data.vector_stamp = embedder.identity.stamp()
    return len(keys)


async def similar(
    data: OrgData, embedder: Embedder | None, text: str, kinds: Sequence[SubjectKind],
    limit: int, floor: float,
) -> list[Hit] | None:  # fmt: skip
    """Cosine similarity >= floor, best first; None when the vector arm is off (no embedder,
    no vectors yet, or vectors of another embedder)."""
    if embedder is None or data.vector_stamp != embedder.identity.stamp():
        return None
    query = (await embedder.embed([text]))[0].astype(np.float64)
    if not np.any(query):
        return []
    query = query / np.linalg.norm(query)
    hits = []
    for node in _searchable(data, kinds):
        if node.stamp != data.vector_stamp or node.vector is None:
            continue
        norm = float(np.linalg.norm(node.vector))
        similarity = float(node.vector @ query) / norm if norm else 0.0
        if similarity >= floor:
            hits.append((node.subject, similarity))
    hits.sort(key=lambda hit: (-hit[1], hit[0].key))
    return hits[:limit]
