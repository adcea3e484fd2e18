"""Neo4j's planner on every statement the adapter can send: `EXPLAIN` each one against a live
server (wherever FABRIC_TEST_NEO4J_URI points; skipped elsewhere, saying so) and fail on a
scan of a whole label (`NodeByLabelScan`) or of every node (`AllNodesScan`) outside a named
list, each entry with its reason. tests/test_neo4j_schema.py derives from the texts that an
index could serve each organisation-scoped match; only the planner shows that it does.

The statements are found by introspection (tests/cypher_statements.py), so a new one is
planned without being listed. Statements for a newer server (`CYPHER 25`, graph.dialect.
NEO4J_SEARCH) are planned only on one (2026.01 and later). Each label gets a thousand nodes
of a throwaway organisation first: on an empty database the planner may scan a label it
estimates empty, which says nothing about a real one. Schema commands are not planned.

Run it (docs/operations.md, "Running the contract suite against Neo4j"):
    FABRIC_TEST_NEO4J_URI=bolt://127.0.0.1:7687 FABRIC_TEST_NEO4J_PASSWORD=... \\
    python -m pytest tests/test_neo4j_plans.py -q
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from engine.domain.embedding import HashingEmbedder
from graph.cypher.organisations import ORG_LABELS
from graph.neo4j_adapter import Neo4jStore
from graph.neo4j_dialect import SEARCH_SINCE
from graph.neo4j_executor import AUTOCOMMIT
from graph.neo4j_schema import kernel_version
from tests.conftest import NEO4J_URI
from tests.cypher_statements import Statement, neo4j_statements

SCANS = frozenset({"NodeByLabelScan", "AllNodesScan"})
# Statements that may scan a label, and why. A new entry needs its reason.
ALLOWED_SCANS = {
    # Backfills of an upgrade, run at start only below the current format (the system
    # scope's Format record: graph.neo4j_schema), once per database.
    "dialect.NEO4J.migrations[0]": "the organisation-term backfill of older subjects",
    "cypher.formats.ORGS_TO_MIGRATE": "which organisations an upgrade migrates",
}
SCHEMA = re.compile(r"^\s*(CYPHER\s+\d+\s+)?(CREATE|DROP|SHOW)\b")
PARAM = re.compile(r"\$(\w+)")
SEEDED = 1_000


def operators(plan: dict[str, Any] | None) -> Iterator[str]:
    """Every operator of a plan as the driver reports it (`operatorType`, less the runtime
    suffix such as `@neo4j`), children included."""
    if not plan:
        return
    yield str(plan.get("operatorType", "")).split("@")[0]
    for child in plan.get("children") or ():
        yield from operators(child)


def scans(plan: dict[str, Any] | None) -> set[str]:
    return set(operators(plan)) & SCANS


def test_the_plan_check_sees_a_scan_under_other_operators() -> None:
    """Runs everywhere: a plan as the driver hands it over (EXPLAIN's summary.plan)."""
    seek = {"operatorType": "NodeIndexSeek@neo4j", "children": []}
    scan = {"operatorType": "NodeByLabelScan@neo4j", "children": []}
    plan = {
        "operatorType": "ProduceResults@neo4j",
        "children": [{"operatorType": "Apply@neo4j", "children": [seek, scan]}],
    }
    assert scans(plan) == {"NodeByLabelScan"}
    assert not scans({"operatorType": "ProduceResults@neo4j", "children": [seek]})


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[tuple[Neo4jStore, tuple[int, int]]]:
    if not NEO4J_URI:
        pytest.skip("Neo4j plan check skipped: FABRIC_TEST_NEO4J_URI is not set")
    password = os.environ.get("FABRIC_TEST_NEO4J_PASSWORD", "")
    store = Neo4jStore(
        NEO4J_URI,
        auth=(os.environ.get("FABRIC_TEST_NEO4J_USER", "neo4j"), password) if password else None,
        database=os.environ.get("FABRIC_TEST_NEO4J_DATABASE", "neo4j"),
        embedder=HashingEmbedder(384),
    )
    await store.bootstrap("_system")
    version = await kernel_version(store._executor)
    org = f"t-{secrets.token_hex(4)}"
    for label in ORG_LABELS:  # labels from the closed list; values as parameters
        await store._executor.run(
            f"UNWIND range(1, $n) AS i CREATE (:{label} {{org_id: $org, seeded: i}})",
            {"org": org, "n": SEEDED},
            write=True,
        )
    yield store, version
    await store.drop_org(org)
    await store.close()


def plannable(version: tuple[int, int]) -> list[Statement]:
    newer = version >= SEARCH_SINCE
    return [
        s
        for s in neo4j_statements()
        if not SCHEMA.match(s.text) and (newer or not s.text.lstrip().startswith("CYPHER 25"))
    ]


def explained(text: str) -> str:
    """EXPLAIN after the statement's Cypher version, if it names one."""
    match = re.match(r"\s*(CYPHER\s+\d+\s+)?", text)
    prefix = match[0] if match else ""
    return f"{prefix}EXPLAIN {text[len(prefix):]}"


async def test_no_statement_scans_a_whole_label(
    server: tuple[Neo4jStore, tuple[int, int]],
) -> None:
    store, version = server
    statements = plannable(version)
    assert len(statements) > 100
    found: dict[str, set[str]] = {}
    for s in statements:
        params = {name: None for name in PARAM.findall(s.text)}
        session = store.driver.session(database=store.database)
        async with session:
            if AUTOCOMMIT.search(s.text):
                result = await session.run(explained(s.text), params)  # type: ignore[arg-type]
                summary = await result.consume()
            else:
                tx = await session.begin_transaction()
                async with tx:
                    result = await tx.run(explained(s.text), params)  # type: ignore[arg-type]
                    summary = await result.consume()
        if scanned := scans(summary.plan):
            found[s.name] = scanned
    unexpected = {name: ops for name, ops in found.items() if name not in ALLOWED_SCANS}
    assert not unexpected, unexpected
