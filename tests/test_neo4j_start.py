"""What the Neo4j store sends when it starts, in what order, given what the server answers
(graph/neo4j_schema.py): the statements are the store's own, answered by a script in place
of a server (tests/neo4j_fakes.py); a live server shows the same order in its query log.

* A database at the current format is not scanned: the organisation-term backfill (a
  `MATCH (s:Subject)` over every subject) and the activity migration run only below it.
* A wait for new indexes that times out does not stop the backfills; the start fails after
  them, when the second wait times out too.
* The full-text index of earlier versions is dropped only after its replacement is created
  and waited for: lexical search always has one online.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.ports import GraphQueryError
from graph import activity
from graph.cypher import formats as formats_cypher
from graph.neo4j_adapter import Neo4jStore
from graph.neo4j_dialect import NEO4J
from tests.neo4j_fakes import ScriptedExecutor

SUBJECT_SCAN = NEO4J.migrations[0]
AWAIT = "CALL db.awaitIndexes"
OLD_FULLTEXT_DROP = "DROP INDEX subject_search IF EXISTS"
NEW_FULLTEXT = "CREATE FULLTEXT INDEX subject_search_org"


@pytest.fixture
async def store() -> AsyncIterator[Neo4jStore]:
    store = Neo4jStore("neo4j://db.invalid:7687")
    yield store
    await store.close()


def server(format_version: int | None, **answers: object) -> ScriptedExecutor:
    return ScriptedExecutor(
        {
            "dbms.components": [["Neo4j Kernel", "5.26.1"]],
            formats_cypher.GET_FORMAT.strip(): [[format_version]],
            **answers,
        }
    )


async def test_a_database_at_the_current_format_is_not_scanned_at_start(
    store: Neo4jStore,
) -> None:
    scripted = store._executor = server(activity.FORMAT_VERSION)  # type: ignore[assignment]
    await store.bootstrap("acme")
    assert SUBJECT_SCAN not in scripted.sent
    assert formats_cypher.ORGS_TO_MIGRATE not in scripted.sent


async def test_an_older_database_is_backfilled_then_marked_current(store: Neo4jStore) -> None:
    scripted = store._executor = server(activity.FORMAT_VERSION - 1)  # type: ignore[assignment]
    await store.bootstrap("acme")
    sent = scripted.sent
    assert SUBJECT_SCAN in sent and formats_cypher.SET_FORMAT in sent
    assert sent.index(SUBJECT_SCAN) < sent.index(formats_cypher.SET_FORMAT)


async def test_an_index_wait_that_times_out_lets_the_backfill_run_first(
    store: Neo4jStore,
) -> None:
    timeout = GraphQueryError("Neo.ClientError.Procedure.ProcedureCallFailed: timed out")
    scripted = store._executor = server(  # type: ignore[assignment]
        None, **{AWAIT: [timeout, GraphQueryError(str(timeout))]}
    )
    with pytest.raises(GraphQueryError):
        await store.bootstrap("acme")
    sent = scripted.sent
    waits = [i for i, s in enumerate(sent) if s.startswith(AWAIT)]
    assert len(waits) == 2
    assert waits[0] < sent.index(SUBJECT_SCAN) < sent.index(formats_cypher.SET_FORMAT) < waits[1]
    # The old full-text index stays while the new one is not online.
    assert OLD_FULLTEXT_DROP not in sent


async def test_the_old_full_text_index_goes_once_the_new_one_is_online(store: Neo4jStore) -> None:
    scripted = store._executor = server(None)  # type: ignore[assignment]
    await store.bootstrap("acme")
    sent = scripted.sent
    created = next(i for i, s in enumerate(sent) if s.startswith(NEW_FULLTEXT))
    waited = max(i for i, s in enumerate(sent) if s.startswith(AWAIT))
    assert created < waited < sent.index(OLD_FULLTEXT_DROP)


@pytest.mark.parametrize(
    ("version", "retried"),
    [("5.26.1", False), ("2025.05.0", False), ("2025.06.0", True), ("2026.01.0", True)],
)
async def test_from_2025_06_the_server_retries_failed_batches_itself(
    store: Neo4jStore, version: str, retried: bool
) -> None:
    """`ON ERROR RETRY` (Cypher 25; serial batches from 2025.06): a batch that fails for a
    transient reason is retried by the server, for up to 30 s, instead of failing the
    statement; older servers get the plain form (the adapter resends the statement)."""
    scripted = store._executor = server(None)  # type: ignore[assignment]
    scripted.answers["dbms.components"] = [["Neo4j Kernel", version]]
    await store.bootstrap("acme")
    backfill = next(s for s in scripted.sent if "s.org_term IS NULL" in s)
    assert ("ON ERROR RETRY FOR 30 SECONDS THEN FAIL" in backfill) is retried
    assert backfill.startswith("CYPHER 25") is retried
    batched = [
        store.dialect.batched("n", "DETACH DELETE"),
        store.dialect.holds[1],
        *store.dialect.slots[2:],
        *store.dialect.migrations,
    ]
    assert all(("ON ERROR RETRY" in b) is retried for b in batched)
