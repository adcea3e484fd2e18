"""The search arms of an organisation's graph: lexical (full-text) and vector (k-NN).

Both arms index one text per subject (its search text). Vectors carry the stamp of the
embedder that made them; the vector arm answers only when the organisation's vectors were all
made by the embedder configured now, so a query never mixes identities. After an embedder
change it stays off, and says so, until `fabric reembed` has rebuilt the vectors.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import GraphQueryError
from graph import rows
from graph.cypher import search as search_cypher
from graph.dialect import Dialect
from graph.indexes import FULLTEXT_LABEL, VECTOR_LABEL

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder
    from graph.executor import Executor

KIND_TEXTS = frozenset(normalise(k.value) for k in SubjectKind)  # the second place of a text
VECTOR_DECIMALS = 3  # vectors travel as text to FalkorDB; more digits only cost parse time
REEMBED_BATCH = 2_000
STATUS_TTL = 30.0
# Awaited with a label before a search of its index: returns once the index is built
# (graph.falkor_ready.IndexGate).
IndexReady = Callable[[str], Awaitable[None]]
FULLTEXT_CANDIDATES = 10_000  # the full-text index's best matches a lexical read ranks


@dataclass(frozen=True, slots=True)
class VectorStatus:
    enabled: bool
    reason: str  # closed vocabulary: ok, no_embedder, no_vectors, identity_changed


Hit = tuple[StoredSubject, float]


class Route(Enum):
    """How a vector search reaches an organisation's nearest subjects."""

    INDEX = "index"  # an index of this organisation's alone (FalkorDB)
    EXACT = "exact"  # every vector of the organisation compared (vector.similarity.cosine)
    IN_INDEX = "in_index"  # a shared index filtered inside by organisation (Neo4j 2026.01)


def as_parameter(vectors: np.ndarray) -> Any:
    """Vectors as parameter values: plain floats, rounded (they travel as text)."""
    return np.round(vectors.astype(np.float64), VECTOR_DECIMALS).tolist()


def vector_rows(keys: Sequence[str], vectors: np.ndarray, stamp: str) -> list[list[Any]]:
    rounded = as_parameter(vectors)
    return [[k, v, stamp] for k, v in zip(keys, rounded, strict=True)]


class SearchArms:
    """Lexical and vector search over one organisation's subjects."""

    def __init__(
        self,
        org_id: str,
        executor: Executor,
        dialect: Dialect,
        embedder: Embedder | None,
        exact_limit: int | None = None,
        index_gate: IndexReady | None = None,
    ) -> None:
        self._org = org_id
        self._gate = index_gate
        self._x = executor
        self._dialect = dialect
        self.embedder = embedder
        self._exact_limit = dialect.exact_limit if exact_limit is None else exact_limit
        self._route: tuple[float, Route] | None = None  # (read at, route)
        # Process-local and re-read every STATUS_TTL seconds, so a reembed run elsewhere is
        # noticed; until then the stamp filter in every vector query keeps identities apart.
        self._status: VectorStatus | None = None
        self._status_at = 0.0

    async def _read(self, statement: str, **params: Any) -> list[list[Any]]:
        return await self._x.run(statement, {"org": self._org, **params})

    async def _write(self, statement: str, **params: Any) -> list[list[Any]]:
        return await self._x.run(statement, {"org": self._org, **params}, write=True)

    async def _built(self, label: str) -> None:
        # A search of an index still being built would find nothing: it waits instead.
        if self._gate is not None:
            await self._gate(label)

    async def _fulltext(self, query: str, kinds: Sequence[SubjectKind], limit: int) -> list[Hit]:
        # The index's best candidates: enough for the page after the statement's filters
        # (stubs, and kinds, which the query already requires by their words).
        candidates = max(limit * 4, FULLTEXT_CANDIDATES)
        params: dict[str, Any] = {"query": query, "limit": limit, "candidates": candidates}
        if kinds:
            params["kinds"] = [k.value for k in kinds]
        await self._built(FULLTEXT_LABEL)
        found = await self._read(search_cypher.lexical_search(self._dialect, bool(kinds)), **params)
        return [(rows.subject_from(values), float(score)) for values, score in found]

    async def lexical(self, text: str, kinds: Sequence[SubjectKind], limit: int) -> list[Hit]:
        """The best matches, forgiving typos: the subjects with every token if there are any
        (at 100k subjects a fiftieth of the any-token read's time), else those with any."""
        every = self._dialect.fulltext_every(text)
        if every is None:
            return []
        hits = await self._fulltext(every, kinds, limit)
        if hits:
            return hits
        query = self._dialect.fulltext_query(text)
        return await self._fulltext(query, kinds, limit) if query else []

    async def all_tokens(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> tuple[list[Hit], bool]:
        """Subjects containing every token as written; and whether that is all of them."""
        query = self._dialect.fulltext_all(text)
        if query is None:
            return [], True
        hits = await self._fulltext(query, kinds, limit + 1)
        return hits[:limit], len(hits) <= limit

    async def by_handle(
        self, text: str, kinds: Sequence[SubjectKind], limit: int
    ) -> tuple[list[StoredSubject], int]:
        """Subjects known by `text` (name, alias, previous name or identifying attribute),
        folded: a sample of `limit` by key and how many there are in all."""
        query, handle = self._dialect.fulltext_all(text), normalise(text)
        if query is None or not handle:
            return [], 0
        params: dict[str, Any] = {
            "query": query, "handle": handle, "raw": text.strip(), "limit": limit
        }
        if kinds:
            params["kinds"] = [k.value for k in kinds]
        kind_text = handle in KIND_TEXTS
        statement = search_cypher.subjects_by_handle(self._dialect, bool(kinds), kind_text)
        await self._built(FULLTEXT_LABEL)
        found = await self._read(statement, **params)
        if not found:
            return [], 0
        total, sample = found[0]
        return [rows.subject_from(p) for p in sample], int(total)

    async def vector_status(self) -> VectorStatus:
        if self.embedder is None:
            return VectorStatus(False, "no_embedder")
        if self._status is None or time.monotonic() - self._status_at > STATUS_TTL:
            self._status_at = time.monotonic()
            found = await self._read(search_cypher.GET_EMBEDDING_META)
            stamp = self.embedder.identity.stamp()
            if not found:
                self._status = VectorStatus(False, "no_vectors")
            elif found[0][0] != stamp:
                self._status = VectorStatus(False, "identity_changed")
            else:
                self._status = VectorStatus(True, "ok")
        return self._status

    async def similar(
        self, text: str, kinds: Sequence[SubjectKind], limit: int, floor: float
    ) -> list[Hit] | None:
        """Nearest subjects by meaning, at or above the similarity floor; None when the
        vector arm is off (see vector_status)."""
        status = await self.vector_status()
        if not status.enabled or self.embedder is None:
            return None
        vector = await self.embedder.embed([text])
        if not np.any(vector[0]):
            return []
        stamp = self.embedder.identity.stamp()
        route = await self.vector_route(stamp)
        # k-NN returns k rows whatever their distance; over-fetch for the floor and the
        # order, then let the floor turn "nothing similar" into no candidate at all. Every
        # filter (organisation, epoch, embedder, kind) is applied before the top k is taken:
        # inside the index (IN_INDEX), by the statement's own match (EXACT), or by an index
        # holding one organisation (INDEX, whose kinds are filtered after: FalkorDB's index
        # has none, and holds this organisation's subjects only).
        params: dict[str, Any] = {
            "vector": as_parameter(vector[0]),
            "k": max(limit * 4, 40),
            "limit": limit,
            "floor": floor,
            "stamp": stamp,
        }
        if kinds:
            params["kinds"] = [k.value for k in kinds]
        build = {
            Route.INDEX: search_cypher.vector_search,
            Route.EXACT: search_cypher.exact_vector_search,
            Route.IN_INDEX: search_cypher.filtered_vector_search,
        }[route]
        if route is not Route.EXACT:
            await self._built(VECTOR_LABEL)
        found = await self._read(build(self._dialect, bool(kinds)), **params)
        return [(rows.subject_from(values), float(sim)) for values, sim in found]

    async def vector_route(self, stamp: str) -> Route:
        """INDEX where the index is this organisation's; where it is shared, EXACT unless
        the index filters by organisation inside it and the organisation has more vectors
        than the exact limit (counted up to it once per STATUS_TTL): a shared index's nearest
        neighbours filtered afterwards could all be another organisation's, or another
        epoch's copies of this one's, so it is never read that way."""
        if not self._dialect.shared_indexes:
            return Route.INDEX
        if not self._dialect.vector_filters:
            return Route.EXACT
        now = time.monotonic()
        if self._route is None or now - self._route[0] > STATUS_TTL:
            cap = self._exact_limit + 1
            found = await self._read(search_cypher.VECTOR_COUNT, stamp=stamp, cap=cap)
            mine = int(found[0][0]) if found else 0
            self._route = (now, Route.EXACT if mine <= self._exact_limit else Route.IN_INDEX)
        return self._route[1]

    async def prepare_vectors(
        self, keys: Sequence[str], texts: Sequence[str]
    ) -> Callable[[], Awaitable[None]] | None:
        """A step that stores the vectors of subjects about to be written, if this
        organisation's vectors are this embedder's (or it has none yet), and otherwise
        leaves them to `reembed`; decided when the step runs, after the writes before it.
        The vectors are made now, unless this process already knows the identity changed."""
        embedder = self.embedder
        if embedder is None or not keys:
            return None
        known = self._status
        send = None
        if known is None or known.reason != "identity_changed":
            send = await self._vectors(embedder, keys, texts)

        async def store() -> None:
            status = await self.vector_status()
            if status.reason == "identity_changed":
                return
            if status.reason == "no_vectors":
                await self._claim()
            await (send or await self._vectors(embedder, keys, texts))()

        return store

    async def stores_vectors(self) -> bool:
        """Whether the step `prepare_vectors` makes would store vectors if sent now."""
        if self.embedder is None:
            return False
        return (await self.vector_status()).reason != "identity_changed"

    async def _vectors(
        self, embedder: Embedder, keys: Sequence[str], texts: Sequence[str]
    ) -> Callable[[], Awaitable[Any]]:
        vectors = await embedder.embed(list(texts))
        rows_ = vector_rows(keys, vectors, embedder.identity.stamp())
        statement = search_cypher.merge_subject_vectors(self._dialect)
        return self._x.prepare(statement, {"org": self._org, "rows": rows_}, write=True)

    async def _rebuild_index(self, dimension: int) -> None:
        # A new embedder may have another width: the old index cannot hold its vectors. An
        # index every organisation shares is left alone (docs/operations.md, "Neo4j").
        if not self._dialect.shared_indexes:
            with contextlib.suppress(GraphQueryError):  # there was none
                await self._write(self._dialect.drop_vector_index)
        for statement in self._dialect.vector_index(dimension):
            await self._write(statement)

    async def _claim(self) -> None:
        assert self.embedder is not None
        identity = self.embedder.identity
        await self._write(
            search_cypher.SET_EMBEDDING_META, stamp=identity.stamp(), dimension=identity.dimension
        )
        self._status = VectorStatus(True, "ok")
        self._route = None  # how many vectors are this embedder's has just changed

    async def reembed(self, progress: Callable[[int], None] | None = None) -> int:
        """Rebuild every subject's vector with the configured embedder; returns the count."""
        if self.embedder is None:
            return 0
        await self._write(search_cypher.SET_EMBEDDING_META, stamp="rebuilding", dimension=0)
        self._status = VectorStatus(False, "identity_changed")
        await self._rebuild_index(self.embedder.identity.dimension)
        done, after = 0, ""
        while True:
            page = await self._read(search_cypher.SEARCH_TEXTS, after=after, limit=REEMBED_BATCH)
            if not page:
                break
            keys = [k for k, _ in page]
            vectors = await self.embedder.embed([t or "" for _, t in page])
            await self._write(
                search_cypher.merge_subject_vectors(self._dialect),
                rows=vector_rows(keys, vectors, self.embedder.identity.stamp()),
            )
            done += len(page)
            after = keys[-1]
            if progress:
                progress(done)
        await self._claim()
        return done
