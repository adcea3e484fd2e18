"""One embedded FalkorDB per test session; tests isolate themselves by organisation.

The graph-port contract suite (the `store` fixture) runs on the in-memory graph
(engine.memory), on embedded FalkorDB, and on Neo4j when FABRIC_TEST_NEO4J_URI is set
(user/password from FABRIC_TEST_NEO4J_USER / FABRIC_TEST_NEO4J_PASSWORD, database from
FABRIC_TEST_NEO4J_DATABASE, default `neo4j`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from engine.ports import GraphStore
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE

# This process starts gateway after gateway: freezing the heap at each start (gateway/heap.py)
# would pin every earlier test's objects for good. tests/test_heap.py checks the collector.
os.environ.setdefault("FABRIC_GC_INTERVAL_S", "0")
# A `fabric serve` a test starts is one process (its /metrics and its Ctrl-C are what those
# tests read), unless the test asks for workers: tests/test_workers.py does, and README's
# demo (tests/readme.py) runs as a user runs it, with the default of one per core.
os.environ.setdefault("FABRIC_WORKERS", "1")



def _cancel_all_tasks_bounded(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio's shutdown of the session loop, bounded: a task that does not end when cancelled
    (one seen hang: the session loop's close waited for ever on a task polling every 50 ms after
    the last test) is named on stderr with its stack and left, and the run ends, rather than
    hanging until CI's limit. The tests' verdicts are unchanged; the task is a defect to find."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    if not pending:
        return
    _, stuck = loop.run_until_complete(asyncio.wait(pending, timeout=_SHUTDOWN_S))
    for task in stuck:
        print(f"\ntask not ended {_SHUTDOWN_S} s after cancel at shutdown: {task!r}", file=sys.stderr)
        task.print_stack(file=sys.stderr)


_SHUTDOWN_S = 30.0
asyncio.runners._cancel_all_tasks = _cancel_all_tasks_bounded  # type: ignore[attr-defined]

# No wall-clock assertions in the suite: hypothesis's per-example deadline (200 ms) is one, and
# failed a property test whose first example met a loaded machine (308 ms, then 0.75 ms).
settings.register_profile("fabric", deadline=None)
settings.load_profile("fabric")

NEO4J_URI = os.environ.get("FABRIC_TEST_NEO4J_URI")
CYPHER_BACKENDS = [
    "falkordb",
    pytest.param(
        "neo4j",
        marks=pytest.mark.skipif(
            not NEO4J_URI, reason="Neo4j contract run skipped: FABRIC_TEST_NEO4J_URI is not set"
        ),
    ),
]
BACKENDS = ["memory", *CYPHER_BACKENDS]


@pytest.fixture(scope="session")
def falkor_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    server = EmbeddedServer(tmp_path_factory.mktemp("falkordb"))
    server.start()
    yield server
    server.stop()


# The Cypher stores carry a read time limit, as `fabric serve` sets one (so a write that
# carried it would fail under load); generous, since the machines running the suite are shared.
CONTRACT_TIMEOUT_S = 10.0
# Organisations up to this many subjects search vectors exactly on Neo4j; the tenancy
# contract's large organisation is beyond it, so both of Neo4j's vector paths run.
CONTRACT_EXACT_LIMIT = 100


def open_backend(
    backend: str,
    request: pytest.FixtureRequest,
    embedder: Any = None,
    *,
    timeout_s: float | None = CONTRACT_TIMEOUT_S,
) -> Any:
    """A new store on the backend (the caller closes it)."""
    if backend == "memory":
        from engine.memory import MemoryStore

        return MemoryStore(embedder=embedder)
    if backend == "falkordb":
        falkor_server: EmbeddedServer = request.getfixturevalue("falkor_server")
        timeout_ms = None if timeout_s is None else max(1, int(timeout_s * 1000))
        return FalkorStore(falkor_server.url, statement_timeout_ms=timeout_ms, embedder=embedder)
    from graph.neo4j_adapter import Neo4jStore

    user = os.environ.get("FABRIC_TEST_NEO4J_USER", "neo4j")
    password = os.environ.get("FABRIC_TEST_NEO4J_PASSWORD", "")
    assert NEO4J_URI
    return Neo4jStore(
        NEO4J_URI,
        auth=(user, password) if password else None,
        database=os.environ.get("FABRIC_TEST_NEO4J_DATABASE", "neo4j"),
        statement_timeout_s=timeout_s,
        embedder=embedder,
        exact_vector_limit=CONTRACT_EXACT_LIMIT,
    )


@pytest.fixture(scope="session", params=BACKENDS)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """Every implementation of the port: the contract holds on each."""
    opened = open_backend(request.param, request)
    await opened.bootstrap(SYSTEM_SCOPE)
    yield opened
    await opened.close()


@pytest.fixture(scope="session", params=CYPHER_BACKENDS)
async def cypher_store(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """The Cypher adapters only: for what a database does (statements, failures mid-write)."""
    opened = open_backend(request.param, request)
    await opened.bootstrap(SYSTEM_SCOPE)
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
async def falkor(falkor_server: EmbeddedServer) -> AsyncIterator[FalkorStore]:
    """The embedded FalkorDB store alone (with the local embedder, as `fabric serve` runs),
    for tests that are not about backend parity."""
    from engine.domain.embedding import HashingEmbedder

    opened = FalkorStore(falkor_server.url, embedder=HashingEmbedder(128))
    await opened.bootstrap(SYSTEM_SCOPE)
    yield opened
    await opened.close()


def new_org() -> str:
    return "t-" + uuid.uuid4().hex[:12]


@pytest.fixture
async def org(store: GraphStore) -> AsyncIterator[str]:
    org_id = new_org()
    await store.bootstrap(org_id)
    yield org_id
    await store.drop_org(org_id)


def data_file(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "records.ndjson"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="session")
async def gateway(falkor: FalkorStore) -> AsyncIterator[Any]:
    """The gateway over HTTP on a loopback port, sharing the session's FalkorDB."""
    from tests.gateway_fixture import serve

    async for running in serve(falkor):
        yield running


@pytest.fixture(scope="session")
def readme_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """README's `fabric serve --demo`, run in an empty directory with no GraphiQL assets
    (tests/readme.py): for README's curl example and the GraphiQL browser test."""
    from tests.readme import start_demo

    yield from start_demo(tmp_path_factory.mktemp("first-run"))
