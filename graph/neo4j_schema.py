"""Neo4j's start: the server's version (which decides the dialect), the schema, the waits
for new indexes and the backfills, in the order an upgrade of a live database needs.

* The backfills (the dialect's migrations and graph.activity's) run only while the database's
  format record (the system scope's Format node) is below the current format: a database at
  the current format is not scanned at every start.
* A wait for new indexes that times out does not fail the start before the backfills run:
  they are resumable and need none of the indexes still populating. The wait is made again
  after them, and fails the start then.
* Indexes of earlier versions (the full-text index before the organisation term, say) are
  dropped last, once their replacements are online: lexical search never goes without one.
* `CREATE VECTOR INDEX ... IF NOT EXISTS` keeps an index of the same name whatever its
  options, so the vector index's are read first (`SHOW VECTOR INDEXES`): one made with other
  options (another dimension, quantised, without the properties this server's dialect
  filters by) is dropped and made again, and the start waits for it.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from engine.ports import GraphQueryError
from graph import activity
from graph.cypher import formats as formats_cypher
from graph.dialect import Dialect
from graph.executor import Executor, apply_schema, bound, retire_indexes
from graph.keystore import SYSTEM_SCOPE
from graph.neo4j_dialect import neo4j_dialect

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder

log = logging.getLogger("fabric.neo4j")

OLDEST = (5, 23)  # vector.quantization.enabled (5.23), vector.similarity.cosine (5.18)
VERSION = "CALL dbms.components() YIELD name, versions RETURN name, versions[0]"
VECTOR_INDEX = """
SHOW VECTOR INDEXES YIELD name, properties, options
WHERE name = 'subject_embedding'
RETURN properties, options
"""


def server_version(text: str) -> tuple[int, int] | None:
    """(major, minor) of "5.26.1", "5.27-aura" or "2025.01.0"; None if unreadable."""
    match = re.match(r"(\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2])) if match else None


async def kernel_version(executor: Executor) -> tuple[int, int]:
    """The server's (major, minor); refuses one older than OLDEST. An unreadable version
    is taken as the oldest accepted (the dialect then uses nothing newer)."""
    for name, version in await executor.run(VERSION, {}, maintenance=True):
        parsed = server_version(str(version))
        if name != "Neo4j Kernel" or parsed is None:
            continue
        if parsed < OLDEST:
            raise GraphQueryError(
                f"Neo4j {version} is too old: the gateway needs {OLDEST[0]}.{OLDEST[1]} or newer"
            )
        return parsed
    return OLDEST


async def prepare(executor: Executor, embedder: Embedder | None) -> Dialect:
    """Bring the database's schema and data to the current format; the dialect for the
    server's version (graph.dialect.neo4j_dialect)."""
    dialect = neo4j_dialect(await kernel_version(executor))
    if embedder is not None:
        await _drop_stale_vector_index(executor, dialect, embedder.identity.dimension)
    await apply_schema(executor, dialect, embedder)
    settled = await _settle(executor, dialect, tolerate=True)
    if await _format(executor) < activity.FORMAT_VERSION:
        for statement in dialect.migrations:
            await executor.run(statement, {}, write=True)
        await _migrate_activity(executor, dialect)
    if not settled:
        await _settle(executor, dialect, tolerate=False)
    # After the migrations, which may read an index that goes, and once the indexes that
    # replace the old ones are online (graph.executor).
    await retire_indexes(executor, dialect)
    return dialect


def vector_index_differs(
    properties: list[str] | None,
    options: dict[str, Any] | None,
    dimension: int,
    filters: tuple[str, ...],
) -> bool:
    """Whether an existing vector index (as SHOW VECTOR INDEXES reports it) was made with
    options other than the ones wanted. An option the server does not report is taken as
    made as wanted (nothing is rebuilt for what cannot be seen)."""
    config = (options or {}).get("indexConfig") or {}
    wanted: dict[str, object] = {
        "vector.dimensions": dimension,
        "vector.similarity_function": "cosine",
        "vector.quantization.enabled": False,
    }
    for key, value in wanted.items():
        have = config.get(key)
        if have is None:
            continue
        if isinstance(value, str) and str(have).lower() != value:
            return True
        if isinstance(value, bool) and bool(have) is not value:
            return True
        if isinstance(value, int) and not isinstance(value, bool) and int(have) != value:
            return True
    return not set(filters) <= set(properties or ())


async def _drop_stale_vector_index(executor: Executor, dialect: Dialect, dimension: int) -> None:
    found = await executor.run(VECTOR_INDEX, {}, maintenance=True)
    if found and vector_index_differs(found[0][0], found[0][1], dimension, dialect.vector_filters):
        log.warning(
            "the vector index subject_embedding was made with other options (%s, %s): "
            "it is made again and populated before the start completes",
            found[0][0],
            found[0][1],
        )
        await executor.run(dialect.drop_vector_index, {}, write=True)


async def _settle(executor: Executor, dialect: Dialect, *, tolerate: bool) -> bool:
    """Wait for new indexes to come online; whether they did (raises unless `tolerate`)."""
    try:
        for statement in dialect.after_schema:
            await executor.run(statement, {}, write=True)
    except GraphQueryError as exc:
        if not tolerate:
            raise
        log.warning("new indexes are still populating (%s); backfilling meanwhile", exc)
        return False
    return True


async def _format(executor: Executor) -> int:
    system = {"org": SYSTEM_SCOPE}
    found = await executor.run(formats_cypher.GET_FORMAT, system, maintenance=True)
    return int(found[0][0]) if found and found[0][0] is not None else 0


async def _migrate_activity(executor: Executor, dialect: Dialect) -> None:
    """Organisations written before the activity structures get them; the format record
    says so once all are done (a start that stopped midway resumes: graph.activity)."""
    orgs = await executor.run(formats_cypher.ORGS_TO_MIGRATE, {}, maintenance=True)
    for (org,) in orgs:
        scope = str(org)  # an organisation, or the scope of one of its epochs
        read = bound(executor, scope, False, maintenance=True)
        write = bound(executor, scope, True)
        await activity.migrate(read, write, scope, dialect)
    done = {"org": SYSTEM_SCOPE, "version": activity.FORMAT_VERSION}
    await executor.run(formats_cypher.SET_FORMAT, done, write=True)
