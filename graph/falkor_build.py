"""Where a bulk load goes on FalkorDB (`Target`): a build's graph key, emptied first; the
GRAPH.BULK calls into it (graph.falkor_bulk encodes them); the vectors set by node id; then
the indexes and the checkpoint that says the build is whole. `load` sends a whole graph made
first (graph.bulk.BulkGraph); graph.falkor_stream sends one batch by batch.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.ports import Checkpoint
from graph.bulk import BulkGraph
from graph.epochs import scope_of
from graph.falkor_bulk import send
from graph.falkor_executor import GraphExecutor
from graph.falkor_params import header
from graph.falkor_pipe import Pipe
from graph.indexes import falkor_new_graph, falkor_vector_index
from graph.search import as_parameter

if TYPE_CHECKING:
    from graph.falkor import FalkorStore


# Vectors by node id, before any index exists (graph.search writes them by key): the subjects
# with a vector have consecutive ids (one table), and a range of ids is read by FalkorDB's
# "Node By Label and ID Scan"; an id from each row of an UNWIND was a scan of every subject
# per row (8,011 vectors took 59.8 s).
SET_VECTORS = """
MATCH (s:Subject)
WHERE id(s) >= $lo AND id(s) < $hi
SET s.embedding = vecf32($vectors[id(s) - $lo])
"""
VECTOR_BATCH = 4_096


@dataclass
class Target:
    """Where a bulk load goes: the build's graph key and scope, the embedder's stamp and
    dimension (none without an embedder), and `bulk`, which sends one GRAPH.BULK call. Every
    call of the load goes through `pipe` (sent, not yet answered: `finish` waits for them);
    `vectors_indexed`: the vectors' index was made before any vector was set."""

    store: FalkorStore
    org_id: str
    epoch: int
    scope: str
    name: str
    stamp: str | None
    dimension: int
    step: _Steps
    pipe: Pipe
    vectors_indexed: bool = False

    @classmethod
    async def emptied(cls, store: FalkorStore, org_id: str, epoch: int) -> Target:
        """Build `epoch` of `org_id` (never epoch 0, which is served and holds the results),
        whatever a load cut short left there deleted."""
        from graph.falkor import GRAPH_PREFIX

        if epoch == 0:
            raise ValueError("a bulk load builds a new epoch, never epoch 0")
        scope = scope_of(org_id, epoch)
        await store.forget_graph(org_id, epoch)
        embedder = store.embedder
        stamp = embedder.identity.stamp() if embedder is not None else None
        dimension = embedder.identity.dimension if embedder is not None else 0
        name = GRAPH_PREFIX + scope
        pipe = Pipe(store.url, store.socket_timeout_s)
        return cls(store, org_id, epoch, scope, name, stamp, dimension, _Steps(name), pipe)

    async def bulk(self, args: list[Any]) -> None:
        await self.pipe.send("GRAPH.BULK", self.name, *args)

    async def change(self, statement: str, params: dict[str, Any]) -> None:
        """A statement on the build's graph, sent (its failure raised by the next call)."""
        await self.pipe.send("GRAPH.QUERY", self.name, header(params) + statement, "--compact")

    async def vectors(self, texts: dict[str, str], ids: dict[str, int]) -> None:
        """The vectors of the subjects whose search text is in `texts`, set by node id: they
        were sent as one table, so their ids are consecutive."""
        keys = sorted(texts, key=ids.__getitem__)
        for at in range(0, len(keys), VECTOR_BATCH):
            some = keys[at : at + VECTOR_BATCH]
            lo = ids[some[0]]
            assert ids[some[-1]] == lo + len(some) - 1  # one table: consecutive
            await self.set_vectors(lo, [texts[k] for k in some])

    async def set_vectors(self, lo: int, texts: list[str]) -> None:
        """The vectors of `texts`, of the subjects whose node ids run from `lo`, sent."""
        embedder = self.store.embedder
        if embedder is None or not texts:
            return
        vectors = as_parameter(await embedder.embed(texts))
        await self.change(SET_VECTORS, {"lo": lo, "hi": lo + len(texts), "vectors": vectors})

    async def index_vectors(self) -> None:
        """The vectors' index made now, before any vector is set: FalkorDB then indexes each
        as it is set, while the loader reads on, where made last its build was a third of a
        100k-subject load (20 s on one core, the loader waiting)."""
        if self.stamp is not None and not self.vectors_indexed:
            for statement in falkor_vector_index(self.dimension):
                await self.change(statement, {})
            self.vectors_indexed = True

    async def finish(self, done: Checkpoint) -> None:
        """The indexes built, then `done`, the checkpoint that says the build is whole."""
        await self.pipe.drain()
        await self.pipe.close()
        # Each label's index in one statement (graph.indexes.falkor_new_graph); the
        # bootstrap's statements below then find every field indexed already.
        schema = GraphExecutor(self.store, self.name)
        vector = falkor_vector_index(self.dimension) if self.stamp is not None else ()
        for statement in falkor_new_graph() + (() if self.vectors_indexed else vector):
            await schema.change(statement, {})
        scoped = self.store.org(self.org_id, self.epoch)
        await scoped.save_checkpoint(done)  # its first write: the bootstrap, indexes built
        self.step("indexes built, checkpoint finished")


async def load(
    store: FalkorStore, org_id: str, epoch: int, graph: BulkGraph, done: Checkpoint
) -> None:
    """`graph` as epoch `epoch` of `org_id` (a build): whatever a load cut short left there
    deleted, every node and relationship sent, the vectors set, the graph bootstrapped (its
    indexes built), and last `done`, the checkpoint that says the build is whole. A line on
    stderr after each step, with its time."""
    to = await Target.emptied(store, org_id, epoch)
    try:
        ids = await send(graph, to.scope, to.stamp, to.dimension, done, to.bulk)
        await to.pipe.drain()
        to.step(f"{ids.next:,} nodes and their relationships sent")
        if to.stamp is not None:
            await to.vectors(graph.vectors, ids.subjects)
            await to.pipe.drain()
            to.step(f"{len(graph.vectors):,} vectors set")
        await to.finish(done)
    finally:
        await to.pipe.close()


class _Steps:
    """Prints `fabric: GRAPH: bulk load: WHAT (N.N s)`, the seconds since the step before."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._at = time.monotonic()

    def __call__(self, what: str) -> None:
        now = time.monotonic()
        print(f"fabric: {self._name}: bulk load: {what} ({now - self._at:.1f} s)", file=sys.stderr)
        self._at = now
