"""How a statement reaches a store (`Executor`), bound to one organisation's scope, and the
index schema every store applies through one when it starts.

Each adapter (graph.falkor, graph.neo4j_adapter) implements `Executor`; everything above it
(graph.scoped and the reads and writes it is made of, graph.activity's migrations, the key
store, the result archive) is written once over it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from engine.ports import GraphQueryError
from graph.dialect import Dialect

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder

Row = list[Any]
# A statement's rows, with $org bound to one scope (as `bound` makes, or ScopedGraph._read).
Run = Callable[..., Awaitable[list[Row]]]
MAX_KEYS = 10_000  # keys one statement carries at most (a lookup, a retraction)


class Executor(Protocol):
    async def run(
        self,
        statement: str,
        params: dict[str, Any],
        *,
        write: bool = False,
        control: bool = False,
        maintenance: bool = False,
    ) -> list[Row]:
        """Send one statement; raise only the port's errors. control: a lifecycle read that
        is not part of any request's data (counted apart, see RoundTrips). maintenance: a
        read of the store's own upkeep (a bootstrap's index status, a migration's counts),
        which no request waits for: like a write, it is not held to the read time limit,
        since a first open after an upgrade reads every record of a large graph once and a
        limit meant for requests would fail the start."""
        ...

    def prepare(
        self, statement: str, params: dict[str, Any], *, write: bool = False
    ) -> Callable[[], Awaitable[list[Row]]]:
        """The statement made ready to send (its parameters in the form sent), now; sent
        when the result is called. Raises now what `run` would raise before sending."""
        ...


def bound(executor: Executor, scope: str, write: bool, maintenance: bool = False) -> Run:
    """`executor`'s statements with $org bound to `scope` (graph.activity's read and write,
    for graphs opened before any ScopedGraph is made for them)."""

    async def run(statement: str, **params: Any) -> list[Row]:
        scoped = {"org": scope, **params}
        return await executor.run(statement, scoped, write=write, maintenance=maintenance)

    return run


async def apply_schema(
    executor: Executor, dialect: Dialect, embedder: Embedder | None, with_vectors: bool = True
) -> None:
    """Run the dialect's index DDL (and the vector index for the embedder's width); an index
    that already exists is not an error, so bootstrap can run on every start. Waiting for
    new indexes and the backfills are the adapter's (graph.neo4j_schema; FalkorDB has
    neither). Indexes of earlier versions are dropped apart (`retire_indexes`), after the
    migrations: format 7's reads the records' subject_key index one last time."""
    statements = list(dialect.bootstrap)
    if embedder is not None and with_vectors:
        statements += dialect.vector_index(embedder.identity.dimension)
    for statement in statements:
        try:
            await executor.run(statement, {}, write=True)
        except GraphQueryError as exc:
            if not dialect.is_already_exists(str(exc)):
                raise


async def retire_indexes(executor: Executor, dialect: Dialect) -> bool:
    """Drop the indexes earlier versions made (run once the graph's migrations are done);
    whether any was there to drop."""
    dropped = False
    for statement in dialect.retired:
        try:
            await executor.run(statement, {}, write=True)
            dropped = True
        except GraphQueryError as exc:
            if not any(marker in str(exc) for marker in dialect.no_such_index):
                raise
    return dropped
