"""Neo4j dialect check without a server: every statement the Neo4j adapter can send passes
Neo4j's own offline Cypher linter (@neo4j-cypher/language-support 2.0.0-next.38, tests/js).

The statements are found by introspection (tests/cypher_statements.py), so a new one is
checked without being listed. Control statements prove the linter really reports what it
should (its semantic analysis swallows its own failures), and FalkorDB's dialect, which Neo4j
would refuse, is refused.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import re
from typing import Any

import pytest

from graph import neo4j_adapter, neo4j_schema
from graph.cypher import deletion as deletion_cypher
from graph.cypher import epochs as epochs_cypher
from graph.dialect import FALKORDB
from graph.neo4j_dialect import NEO4J, NEO4J_SEARCH
from tests.cypher_statements import (
    NOT_CYPHER,
    Statement,
    all_pairs,
    builds_statements,
    cypher_module_statements,
    cypher_modules,
    dialect_statements,
    neo4j_statements,
)
from tests.js_tools import JS_DIR, require_node, run_json

# Each must draw at least one error: one per kind of mistake the linter is trusted to catch.
CONTROLS = {
    "control:syntax": "MATCH (s:Subject {org_id: $org} RETURN s",
    "control:undefined-variable": "MATCH (s:Subject) RETURN t",
    "control:unknown-procedure": "CALL db.index.fulltext.queryNode('subject_search', $q) "
    "YIELD node RETURN node",
    "control:unknown-standalone-procedure": "CALL db.awaitIndexez(300)",
    "control:wrong-yield": "CALL db.index.fulltext.queryNodes('subject_search', $q) "
    "YIELD node, scor RETURN node",
    "control:argument-count": "CALL db.index.vector.queryNodes('subject_embedding', $vector) "
    "YIELD node, score RETURN node",
    "control:unknown-function": "RETURN vecf32($vector)",
    # FalkorDB's procedure calls, as its dialect writes them: not Neo4j Cypher.
    "control:falkordb-fulltext": FALKORDB.fulltext_call.format(param="q") + " RETURN node",
    "control:falkordb-vector": FALKORDB.vector_call + " RETURN node",
    # Schema commands are analysed too: FalkorDB's vector index options and drop syntax.
    "control:ddl-variable": "CREATE INDEX x IF NOT EXISTS FOR (n:Subject) ON (m.org_id)",
    "control:falkordb-vector-index": FALKORDB.vector_index(384)[0],
    "control:falkordb-drop-vector-index": FALKORDB.drop_vector_index,
}
SCHEMA_COMMAND = re.compile(r"^\s*(CYPHER\s+\d+\s+)?(CREATE|DROP)\s+(\w+\s+)?(INDEX|CONSTRAINT)\b")
# A standalone procedure call binds no variable either (the controls cover its name).
STANDALONE_CALL = re.compile(r"^\s*CALL\s+[\w.]+\([^)]*\)\s*$")


@pytest.fixture(scope="module")
def statements() -> list[Statement]:
    return neo4j_statements()


@pytest.fixture(scope="module")
def report(statements: list[Statement], request: pytest.FixtureRequest) -> dict[str, Any]:
    """One linter run for every statement and the controls (starting it costs seconds).

    The linter's verdict is a pure function of its version and the statement's text, and it
    costs about a quarter second of CPU per statement, so verdicts are kept in pytest's cache
    under the hash of the lock file and the linting script: a clean checkout (CI) lints
    everything, a rerun lints only statements that changed."""
    batch = [{"name": s.name, "statement": s.text} for s in statements]
    batch += [{"name": name, "statement": text} for name, text in CONTROLS.items()]
    tools = b"".join((JS_DIR / f).read_bytes() for f in ("package-lock.json", "lint-cypher.mjs"))
    key = f"fabric/neo4j-lint/{hashlib.sha256(tools).hexdigest()[:16]}"
    # No cache under `-p no:cacheprovider` (the full-suite command): everything is linted.
    cache = getattr(request.config, "cache", None)
    known: dict[str, Any] = cache.get(key, {}) if cache else {}
    digest = {b["name"]: hashlib.sha256(b["statement"].encode()).hexdigest() for b in batch}
    todo = [b for b in batch if digest[b["name"]] not in known]
    require_node()  # even with every verdict cached: the check must be runnable here
    if todo:
        result = run_json("lint-cypher.mjs", stdin=json.dumps(todo))
        assert result["checked"] == len(todo)
        for r in result["results"]:
            known[digest[r.pop("name")]] = r
        if cache:
            cache.set(key, known)
    results = [{"name": b["name"], **known[digest[b["name"]]]} for b in batch]
    return {"checked": len(batch), "linted": len(todo), "results": results}


def test_every_statement_the_neo4j_adapter_can_send_is_valid_neo4j_cypher(
    statements: list[Statement], report: dict[str, Any]
) -> None:
    names = {s.name for s in statements}
    errors = [r for r in report["results"] if r["name"] in names and r["errors"]]
    texts = {s.name: s.text for s in statements}
    assert not errors, "\n\n".join(
        f"{r['name']}:\n{texts[r['name']]}\n"
        + "\n".join(f"  line {e['line']}:{e['column']} {e['message']}" for e in r["errors"])
        for r in errors
    )


def test_every_query_statement_went_through_semantic_analysis(
    statements: list[Statement], report: dict[str, Any]
) -> None:
    """The analysis reports nothing when it fails inside; a query statement whose variables it
    never saw was not checked. (Schema commands keep no variables; the controls cover them.)"""
    symbols = {r["name"]: r["symbols"] for r in report["results"]}
    unseen = [
        s.name
        for s in statements
        if not SCHEMA_COMMAND.match(s.text)
        and not STANDALONE_CALL.match(s.text)
        and not symbols[s.name]
    ]
    assert not unseen


def test_the_linter_catches_each_kind_of_mistake(report: dict[str, Any]) -> None:
    caught = {r["name"] for r in report["results"] if r["errors"]}
    assert set(CONTROLS) <= caught, f"not caught: {sorted(set(CONTROLS) - caught)}"


def test_the_collection_covers_the_cypher_module_and_the_dialect(
    statements: list[Statement],
) -> None:
    texts = [s.text for s in statements]
    # Every public statement constant and builder of each graph.cypher module is collected,
    # and every text collected is checked (a fragment inside the statements that use it).
    found = cypher_module_statements()
    modules = cypher_modules()
    assert {"subjects", "relationships", "activity"} <= {m.__name__.split(".")[-1] for m in modules}
    for module in modules:
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str):
                assert any(s.text == value for s in found), f"{module.__name__}.{name}"
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                assert (
                    name.startswith("_")
                    or not builds_statements(module)
                    or any(s.name.startswith(f"{module.__name__}.{name}(") for s in found)
                ), f"{module.__name__}.{name}"
    for piece in found:
        assert any(piece.text.strip() in t for t in texts), piece.name
    for template in deletion_cypher.delete_unseen_nodes(NEO4J).values():
        assert template in texts
    # Every piece of the Neo4j dialect's DDL, and its procedure calls, as composed.
    for ddl in (*NEO4J.bootstrap, *NEO4J.vector_index(384), NEO4J.drop_vector_index):
        assert ddl in texts
    # The newer servers' dialect: its vector index holds the properties SEARCH filters by.
    assert all(ddl in texts for ddl in NEO4J_SEARCH.vector_index(384))
    assert any("SEARCH s IN (" in t for t in texts)
    assert neo4j_schema.VECTOR_INDEX in texts
    assert any("db.index.fulltext.queryNodes" in t for t in texts)
    assert any("db.index.vector.queryNodes" in t for t in texts)
    # The adapter's own statements, outside the Cypher module.
    assert neo4j_adapter.PING in texts and neo4j_schema.VERSION in texts
    for statement in epochs_cypher.STATEMENTS:  # the epoch lifecycle's
        assert statement in texts
    # A new dialect field must be classified: it either yields statements or is named as
    # holding no Cypher.
    fields = {f.name for f in dataclasses.fields(NEO4J)}
    yielded = {s.name.split(".")[2].split("[")[0].split("(")[0] for s in dialect_statements()}
    assert fields == yielded | set(NOT_CYPHER)


@pytest.mark.parametrize("sizes", [[2, 2], [3, 2], [2] * 7 + [3, 2], [3, 3, 2], [4]])
def test_all_pairs_covers_every_pair_of_values(sizes: list[int]) -> None:
    rows = all_pairs(sizes)
    for i, size_i in enumerate(sizes):
        assert {r[i] for r in rows} == set(range(size_i))
        for j in range(i + 1, len(sizes)):
            pairs = {(r[i], r[j]) for r in rows}
            assert len(pairs) == size_i * sizes[j], (i, j)
