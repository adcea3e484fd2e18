"""The Neo4j dialects (graph.dialect's `Dialect`): one database for every organisation, so
every index there leads with, or is filtered by, the organisation (docs/operations.md,
"Neo4j"); by server version, batches retried by the server (2025.06) and vector searches
filtered inside the index (2026.01), each checked by Neo4j's own linter
(tests/test_neo4j_dialect.py). Kept apart from graph/dialect.py, which holds what differs
between the backends and FalkorDB's."""

from __future__ import annotations

from dataclasses import replace

from graph import indexes
from graph.cypher import activity as activity_cypher
from graph.dialect import Dialect
from graph.formatmigrations import (
    MISSING,
    NEO4J_BATCH_ROWS,
    NEO4J_HOLDS,
    NEO4J_PLACE,
    NEO4J_UNPLACE,
    NEO4J_UNPLACED,
)


def org_term(org: str) -> str:
    """A Cypher expression turning the organisation id `org` into one full-text term: letters
    and digits only, so the analyser keeps it whole, and distinct for distinct ids (`x`,
    `-`, `.`, `_`, the `@` of an epoch's scope (graph.epochs) and capitals are escaped after
    an `x`; the analyser lowercases)."""
    return (
        f"reduce(t = 'o', c IN [i IN range(0, size({org}) - 1) | substring({org}, i, 1)] | "
        "t + CASE WHEN c = 'x' THEN 'x0' WHEN c = '-' THEN 'x1' WHEN c = '.' THEN 'x2' "
        "WHEN c = '_' THEN 'x3' WHEN c = '@' THEN 'x4' "
        "WHEN c <> toLower(c) THEN 'x' + toLower(c) ELSE c END)"
    )


def _neo4j_batched(var: str, action: str) -> str:
    # Inner transactions of a thousand rows each (an auto-commit statement, see the
    # adapter): one transaction for a whole organisation ran out of heap.
    return (
        f"CALL ({var}) {{ {action} {var} }} IN TRANSACTIONS OF {NEO4J_BATCH_ROWS} ROWS\n"
        "RETURN count(*)"
    )


NEO4J = Dialect(
    name="neo4j",
    bootstrap=indexes.neo4j_bootstrap(),
    already_exists=("EquivalentSchemaRule",),
    # One index for every organisation, queried for one organisation's term only.
    fulltext_call="CALL db.index.fulltext.queryNodes('subject_search_org', "
    "'search_text:(' + ${param} + ') AND org_term:' + " + org_term("$org") + ") "
    "YIELD node, score",
    # Lucene's best $candidates only, for reads that keep the best few (a common word matched
    # every subject of a large organisation, each one handed to the statement to be sorted).
    fulltext_top="CALL db.index.fulltext.queryNodes('subject_search_org', "
    "'search_text:(' + ${param} + ') AND org_term:' + " + org_term("$org") + ", "
    "{{limit: $candidates}}) YIELD node, score",
    vector_call="CALL db.index.vector.queryNodes('subject_embedding', $k, $vector) "
    "YIELD node, score",
    # Neo4j reports (1 + cosine) / 2, in [0, 1].
    similarity="2.0 * score - 1.0",
    vector_value="{}",
    vector_label="",
    fuzzy=lambda token: f"{token} OR {token}~1" if len(token) >= 3 else token,
    # One dictionary for every organisation: a fuzzy term is an automaton walk over all of
    # them (Lucene keeps the 50 closest expansions), so a query forgives typos in its four
    # longest words and matches the rest as written.
    fuzzy_terms=4,
    any_of=" OR ",
    all_of=" AND ",
    vector_index=indexes.neo4j_vector_index,
    drop_vector_index="DROP INDEX subject_embedding IF EXISTS",
    retired=indexes.neo4j_retired(),
    no_such_index=(),
    # New indexes serve no query while they populate; the search procedures fail on them.
    after_schema=("CALL db.awaitIndexes(300)",),
    # Subjects written before the organisation term existed get it once.
    migrations=(
        "MATCH (s:Subject) WHERE s.org_term IS NULL\n"
        f"CALL (s) {{ SET s.org_term = {org_term('s.org_id')} }} "
        f"IN TRANSACTIONS OF {NEO4J_BATCH_ROWS * 10} ROWS",
    ),
    subject_set=f", s.org_term = {org_term('$org')}",
    batch_version="",
    batched=_neo4j_batched,
    shared_indexes=True,
    exact_similarity="vector.similarity.cosine(s.embedding, $vector)",
    vector_filters=(),
    exact_limit=20_000,
    holds=("MATCH (v:Activity {org_id: $org}) RETURN 0, count(v)", NEO4J_HOLDS),
    slots=(
        "MATCH (r:SourceRecord {org_id: $org}) RETURN 0, count(r)",
        NEO4J_UNPLACED + MISSING,
        NEO4J_PLACE,
        NEO4J_UNPLACE,
    ),
    create_records=activity_cypher.CREATE_SOURCE_RECORDS,
)


# From Neo4j 2025.06 a batch of `CALL {...} IN TRANSACTIONS` that fails for a transient reason
# (a deadlock, a lock wait) is retried by the server itself, with backoff, for up to 30 s
# (`ON ERROR RETRY`, Cypher 25, serial batches from 2025.06); a failure of the whole statement
# (a leader switch) is still resent by the adapter (graph.neo4j_executor), and resumes.
ON_ERROR_RETRY = " ON ERROR RETRY FOR 30 SECONDS THEN FAIL"
CYPHER_25 = "CYPHER 25\n"


def _retried(statement: str) -> str:
    """A batched statement of ours (never a value), its batches retried by the server."""
    return CYPHER_25 + statement.lstrip("\n").replace(" ROWS", " ROWS" + ON_ERROR_RETRY)


def _neo4j_retried_batched(var: str, action: str) -> str:
    return _neo4j_batched(var, action).replace(" ROWS", " ROWS" + ON_ERROR_RETRY)


NEO4J_RETRY = replace(
    NEO4J,
    batch_version=CYPHER_25,
    batched=_neo4j_retried_batched,
    migrations=tuple(_retried(m) for m in NEO4J.migrations),
    holds=(NEO4J.holds[0], _retried(NEO4J.holds[1])),
    slots=(*NEO4J.slots[:2], _retried(NEO4J.slots[2]), _retried(NEO4J.slots[3])),
)
RETRY_SINCE = (2025, 6)

# Neo4j 2026.01 filters a vector search inside the index (the SEARCH clause's WHERE, Cypher 25
# only) by properties the index holds beside the vector (`WITH [...]` at creation): one
# organisation's nearest neighbours, of its scope (an epoch's, graph.epochs), of the current
# embedder, not stubs, and of the kinds asked for, before the top k is taken.
SEARCH_FILTERS = indexes.VECTOR_FILTERS
NEO4J_SEARCH = replace(
    NEO4J_RETRY,
    vector_index=indexes.neo4j_filtered_vector_index,
    vector_filters=SEARCH_FILTERS,
)
SEARCH_SINCE = (2026, 1)
NEO4J_DIALECTS = (NEO4J, NEO4J_RETRY, NEO4J_SEARCH)  # each checked by Neo4j's linter (tests/)


def neo4j_dialect(version: tuple[int, int]) -> Dialect:
    """The Neo4j dialect for a server of this (major, minor) version (read at bootstrap)."""
    if version >= SEARCH_SINCE:
        return NEO4J_SEARCH
    return NEO4J_RETRY if version >= RETRY_SINCE else NEO4J
