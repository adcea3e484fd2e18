"""Search over subjects: full-text, vector (approximate or exact), by handle, by id prefix,
and the writes that keep it (vectors, the embedder's stamp) with the reads a re-embedding
pages through.

The procedures called differ by backend (graph.dialect); every statement still keeps to one
organisation's subjects, which a shared index does not do by itself.
"""

from __future__ import annotations

from engine.domain import text as _text
from graph.cypher._fragments import S_VALUES
from graph.dialect import Dialect

_SEARCHABLE = "s.org_id = $org AND s.stub = false"


def merge_subject_vectors(dialect: Dialect) -> str:
    """Vectors of subjects already written: [key, vector, embedder stamp]; with the label
    the dialect's vector index is on, if it has one (graph.indexes.VECTOR_LABEL)."""
    label = f"s:{dialect.vector_label}, " if dialect.vector_label else ""
    # The old vector is removed first: FalkorDB (graph module 4.16.3) leaves a vecf32 property
    # as it was when SET gives it another vecf32 (in the same clause or after setting it to
    # null), so a renamed subject kept the vector of its old name; REMOVE, then SET, replaces
    # it (tests/test_reingest.py).
    return f"""
UNWIND $rows AS row
MATCH (s:Subject {{org_id: $org, key: row[0]}})
REMOVE s.embedding
WITH s, row
SET {label}s.embedding = {dialect.vector_value.format("row[1]")}, s.embedder = row[2]
"""


def lexical_search(dialect: Dialect, kinds: bool) -> str:
    """Best full-text matches of $query, up to $limit, of the index's best $candidates."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    return f"""
{dialect.fulltext_top.format(param="query")}
WITH node AS s, score
WHERE {_SEARCHABLE} {kind}
WITH s, score ORDER BY score DESC, s.key LIMIT $limit
RETURN {S_VALUES}, score
"""


def vector_search(dialect: Dialect, kinds: bool) -> str:
    kind = "AND s.kind IN $kinds" if kinds else ""
    return f"""
{dialect.vector_call}
WITH node AS s, {dialect.similarity} AS similarity
WHERE {_SEARCHABLE} AND s.embedder = $stamp AND similarity >= $floor {kind}
WITH s, similarity ORDER BY similarity DESC, s.key LIMIT $limit
RETURN {S_VALUES}, similarity
"""


def exact_vector_search(dialect: Dialect, kinds: bool) -> str:
    """Every vector of the organisation compared with $vector (dialects whose vector index
    is shared by every organisation, for organisations small enough): the shared index's
    approximate nearest neighbours, filtered by organisation afterwards, could all be
    another organisation's."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    score = dialect.exact_similarity or "null"
    return f"""
MATCH (s:Subject {{org_id: $org}})
WHERE s.stub = false AND s.embedder = $stamp {kind}
WITH s, {score} AS score
WITH s, {dialect.similarity} AS similarity
WHERE similarity >= $floor
WITH s, similarity ORDER BY similarity DESC, s.key LIMIT $limit
RETURN {S_VALUES}, similarity
"""


def filtered_vector_search(dialect: Dialect, kinds: bool) -> str:
    """The $k nearest of the organisation's vectors in the shared index, filtered inside it
    (Neo4j 2026.01's SEARCH clause, Cypher 25; the properties are the index's, declared in
    graph.indexes.VECTOR_FILTERS): its scope, the current embedder, no stubs and, with
    kinds, each kind's own $k (an IN list filters inside the index only from 2026.06), so
    neither other organisations (nor another epoch of this one) nor other kinds crowd the
    top k; the floor, the order and $limit are applied to those."""
    where = "s.org_id = $org AND s.embedder = $stamp AND s.stub = false"
    search = f"""MATCH (s:Subject)
  SEARCH s IN (
    VECTOR INDEX subject_embedding
    FOR $vector
    WHERE {where}{" AND s.kind = kind" if kinds else ""}
    LIMIT $k
  ) SCORE AS score"""
    if kinds:
        search = f"""UNWIND $kinds AS kind
CALL (kind) {{
  {search.replace(chr(10), chr(10) + "  ")}
  RETURN s, score
}}"""
    return f"""CYPHER 25
{search}
WITH s, {dialect.similarity} AS similarity
WHERE similarity >= $floor
WITH s, similarity ORDER BY similarity DESC, s.key LIMIT $limit
RETURN {S_VALUES}, similarity
"""


# How many of this organisation's subjects have vectors of its embedder, counted up to $cap
# (no more is needed to choose between exact search and the index).
VECTOR_COUNT = """
MATCH (s:Subject {org_id: $org})
WHERE s.embedder = $stamp
WITH s LIMIT $cap
RETURN count(s)
"""


def subjects_by_handle(dialect: Dialect, kinds: bool, kind_text: bool = False) -> str:
    """Subjects with a handle equal to $handle once folded (engine.domain.text.normalise), or equal
    to it with a trailing word naming the subject's kind: a count of all of them and the
    first $limit. The full-text read of every token ($query) narrows; the equality is
    decided on the stored search text, whose handles are separated by SEPARATOR: a padded
    search text containing SEPARATOR + $handle + SEPARATOR has it (a substring test costs a
    third of splitting every candidate's text). The kind, second, is not a handle: when
    $handle is a kind's own text (kind_text), the text is split and that place skipped. No
    LIMIT before the count: the total is the storage's, never a page's. The sample lists a
    name written exactly as $raw first, then goes by key."""
    kind = "AND s.kind IN $kinds" if kinds else ""
    sep = _text.SEPARATOR
    if kind_text:
        test = f"""WITH s, split(s.search_text, '{sep}') AS parts
WHERE any(i IN range(0, size(parts) - 1) WHERE i <> 1 AND (parts[i] = $handle
      OR parts[i] = $handle + ' ' + replace(s.kind, '_', ' ') OR parts[i] = $handle + ' svc'))"""
    else:
        test = f"""WITH s, '{sep}' + s.search_text + '{sep}' AS padded
WHERE padded CONTAINS ('{sep}' + $handle + '{sep}')
   OR padded CONTAINS ('{sep}' + $handle + ' ' + replace(s.kind, '_', ' ') + '{sep}')
   OR padded CONTAINS ('{sep}' + $handle + ' svc{sep}')"""
    return f"""
{dialect.fulltext_call.format(param="query")}
WITH node AS s
WHERE {_SEARCHABLE} {kind}
{test}
WITH s ORDER BY CASE WHEN s.name = $raw THEN 0 ELSE 1 END, s.key
WITH count(s) AS total, collect({S_VALUES}) AS rows
RETURN total, rows[0..$limit]
"""


SUBJECTS_BY_ID_PREFIX = f"""
MATCH (s:Subject {{org_id: $org}})
WHERE s.id STARTS WITH $prefix
WITH s ORDER BY s.key
WITH count(s) AS total, collect({S_VALUES}) AS rows
RETURN total, rows[0..$limit]
"""

SEARCH_TEXTS = """
MATCH (s:Subject {org_id: $org})
WHERE s.key > $after
WITH s ORDER BY s.key LIMIT $limit
RETURN s.key, s.search_text
"""

GET_EMBEDDING_META = """
MATCH (m:EmbeddingMeta {org_id: $org})
RETURN m.stamp, m.dimension
"""

SET_EMBEDDING_META = """
MERGE (m:EmbeddingMeta {org_id: $org})
SET m.stamp = $stamp, m.dimension = $dimension
"""
