"""Vector search on Neo4j keeps to one organisation before its top k is taken, whatever the
organisation's size and the server's version (graph/search.py, graph/dialect.py,
graph/neo4j_schema.py; docs/operations.md, "Neo4j: how the gateway uses it").

* Before 2026.01 the one vector index every organisation shares can only be filtered after
  its top k, where another organisation's (or another epoch's identical) vectors crowd out
  this one's: vector search compares the organisation's own vectors exactly at any size.
* From 2026.01 the index holds the organisation, embedder, stub flag and kind beside the
  vector and the SEARCH clause filters by them inside it; an organisation up to the exact
  limit is still compared exactly.
* The version is read at bootstrap, and a vector index made with other options is made again.

The statements are the store's own, answered by a script in place of a server
(tests/neo4j_fakes.py); Neo4j's linter checks their text (tests/test_neo4j_dialect.py); the
recall itself only a server shows (tests/test_tenancy_contract.py with FABRIC_TEST_NEO4J_URI).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.domain.embedding import HashingEmbedder
from engine.domain.models import SubjectKind
from graph.neo4j_adapter import Neo4jStore
from graph.scoped import ScopedGraph
from tests.neo4j_fakes import ScriptedExecutor

EMBEDDER = HashingEmbedder(64)
STAMP = EMBEDDER.identity.stamp()
BIG, SMALL = 25_000, 5  # vectors of the organisation (the exact limit is 20,000)


def graph(dialect: Any, vectors: int, epoch: int = 0) -> tuple[ScopedGraph, ScriptedExecutor]:
    scripted = ScriptedExecutor(
        {
            "MATCH (m:EmbeddingMeta": [[STAMP, 64]],
            "LIMIT $cap": [[vectors, 30_000_000]],  # this organisation's, the database's
        }
    )
    return ScopedGraph("acme", scripted, dialect, EMBEDDER, epoch=epoch), scripted  # type: ignore[arg-type]


def search_statement(sent: list[str]) -> str:
    return next(s for s in sent if "$floor" in s)


@pytest.mark.parametrize("kinds", [[], [SubjectKind.SERVICE]], ids=["any kind", "one kind"])
async def test_a_large_organisation_before_2026_is_compared_exactly(kinds: Any) -> None:
    """25,000 of 30 million vectors: the shared index's nearest 10,000 held about 8 of them."""
    from graph.neo4j_dialect import NEO4J

    scoped, scripted = graph(NEO4J, BIG)
    await scoped.search_similar("payments api", kinds, 10, 0.3)
    statement = search_statement(scripted.sent)
    assert "db.index.vector.queryNodes" not in statement
    assert "MATCH (s:Subject {org_id: $org})" in statement
    assert "vector.similarity.cosine(s.embedding, $vector)" in statement
    if kinds:  # the kind is part of the match, before the order and the limit
        assert statement.index("s.kind IN $kinds") < statement.index("ORDER BY")


async def test_the_server_version_decides_the_route_at_bootstrap() -> None:
    """dbms.components says 2026.01: the vector index is made holding the filter
    properties, and a large organisation is searched inside it; 5.26: neither."""
    sent: dict[str, list[str]] = {}
    for version in ("5.26.1", "2026.01.0"):
        store = Neo4jStore("neo4j://db.invalid:7687", embedder=EMBEDDER)
        scripted = store._executor = ScriptedExecutor(  # type: ignore[assignment]
            {
                "dbms.components": [["Neo4j Kernel", version]],
                "MATCH (m:EmbeddingMeta": [[STAMP, 64]],
                "LIMIT $cap": [[BIG, 30_000_000]],
            }
        )
        await store.bootstrap("acme")
        await store.org("acme").search_similar("payments api", [], 10, 0.3)
        sent[version] = scripted.sent
        await store.close()
    ddl = {v: next(s for s in sent[v] if "CREATE VECTOR INDEX" in s) for v in sent}
    assert "WITH [s.org_id, s.embedder, s.stub, s.kind]" in ddl["2026.01.0"]
    assert ddl["2026.01.0"].startswith("CYPHER 25")
    assert "WITH [" not in ddl["5.26.1"]
    searched = {v: search_statement(sent[v]) for v in sent}
    assert "SEARCH s IN (" in searched["2026.01.0"]
    assert "vector.similarity.cosine" in searched["5.26.1"]


@pytest.mark.parametrize("kinds", [[], [SubjectKind.SERVICE, SubjectKind.TEAM]])
async def test_from_2026_a_large_organisation_is_filtered_inside_the_index(kinds: Any) -> None:
    from graph.neo4j_dialect import NEO4J_SEARCH

    scoped, scripted = graph(NEO4J_SEARCH, BIG, epoch=3)
    await scoped.search_similar("payments api", kinds, 10, 0.3)
    statement = search_statement(scripted.sent)
    inside = re.search(r"SEARCH s IN \((.*?)\) SCORE AS score", statement, re.S)
    assert inside is not None, statement
    where = inside[1]
    # The scope is the epoch's ($org is acme@3): another epoch's identical vectors, built
    # during a rebuild, are not in the way.
    assert "s.org_id = $org" in where and "s.embedder = $stamp" in where
    assert "s.stub = false" in where
    assert ("s.kind = kind" in where) is bool(kinds)
    # After the index only the floor, the order and the limit: nothing filters the top k.
    after = statement[inside.end() :]
    assert re.findall(r"WHERE (.*)", after) == ["similarity >= $floor"]


async def test_from_2026_a_small_organisation_is_still_compared_exactly() -> None:
    from graph.neo4j_dialect import NEO4J_SEARCH

    scoped, scripted = graph(NEO4J_SEARCH, SMALL)
    await scoped.search_similar("payments api", [], 10, 0.3)
    assert "vector.similarity.cosine" in search_statement(scripted.sent)


SHOWN_5_26 = {  # SHOW VECTOR INDEXES' options for an index made by an older gateway
    "indexProvider": "vector-2.0",
    "indexConfig": {
        "vector.dimensions": 64,
        "vector.similarity_function": "COSINE",
        "vector.quantization.enabled": True,
        "vector.hnsw.m": 16,
        "vector.hnsw.ef_construction": 100,
    },
}


async def test_a_vector_index_made_with_other_options_is_made_again() -> None:
    """CREATE ... IF NOT EXISTS alone kept a quantised index (5.23's default)."""
    store = Neo4jStore("neo4j://db.invalid:7687", embedder=EMBEDDER)
    scripted = store._executor = ScriptedExecutor(  # type: ignore[assignment]
        {
            "dbms.components": [["Neo4j Kernel", "5.26.1"]],
            "SHOW VECTOR INDEXES": [[["embedding"], SHOWN_5_26]],
        }
    )
    await store.bootstrap("acme")
    await store.close()
    sent = scripted.sent
    dropped = sent.index("DROP INDEX subject_embedding IF EXISTS")
    created = next(i for i, s in enumerate(sent) if "CREATE VECTOR INDEX" in s)
    assert dropped < created


def test_which_vector_index_options_differ() -> None:
    from graph.indexes import VECTOR_FILTERS
    from graph.neo4j_schema import vector_index_differs

    as_wanted = {
        "indexConfig": {
            **SHOWN_5_26["indexConfig"],  # type: ignore[dict-item]
            "vector.quantization.enabled": False,
        }
    }
    assert not vector_index_differs(["embedding"], as_wanted, 64, ())
    assert vector_index_differs(["embedding"], SHOWN_5_26, 64, ())  # quantised
    assert vector_index_differs(["embedding"], as_wanted, 384, ())  # another width
    # 2026.01's dialect filters by properties the index must hold.
    assert vector_index_differs(["embedding"], as_wanted, 64, VECTOR_FILTERS)
    held = ["embedding", *VECTOR_FILTERS]
    assert not vector_index_differs(held, as_wanted, 64, VECTOR_FILTERS)
    # What the server does not report is not rebuilt for.
    assert not vector_index_differs(["embedding"], {}, 64, ())
