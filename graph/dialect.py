"""What differs between the backends, in one small object each.

The Cypher of the `graph.cypher` modules is shared; index DDL (spelled in graph.indexes), how
an existing index is reported, full-text/vector procedures and their score meaning, and how a
large delete is batched live here.

FalkorDB keeps one graph per organisation, so its indexes (full-text and vector included)
hold one organisation each. Neo4j keeps every organisation in one database: every index
there leads with, or is filtered by, the organisation (docs/operations.md, "Neo4j").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.domain.models import SubjectKind
from engine.domain.text import query_tokens, spacing_variants, telling_tokens
from graph import indexes
from graph.cypher import activity as activity_cypher
from graph.formatmigrations import (
    FALKOR_HOLDS,
    FALKOR_UNPLACE,
    FALKOR_UNPLACED,
    MISSING,
    NEO4J_BATCH_ROWS,
    NEO4J_HOLDS,
    NEO4J_PLACE,
    NEO4J_UNPLACE,
    NEO4J_UNPLACED,
    PLACE,
)


@dataclass(frozen=True)
class Dialect:
    """name: the backend; fuzzy / fuzzy_terms: a token made to forgive typos, and in at most how
    many tokens of a query; bootstrap: index and constraint DDL; already_exists: substrings of a
    refusal that only means "this index already exists"; fulltext_call / vector_call: the
    procedure calls, yielding `node` and `score`; vector_value: how a stored vector is written;
    vector_label: a label a subject with a vector is given, which the vector index is on
    (FalkorDB, graph.indexes.VECTOR_LABEL; empty: the index is on Subject);
    similarity: the vector score turned into a cosine similarity; retired: drops of indexes
    earlier versions made (no_such_index: a refusal that only means it is gone already);
    after_schema: run once the DDL is sent (waiting for new indexes to come online); migrations:
    backfills a new schema needs, run at bootstrap; subject_set: extra assignments when a
    subject is written; batch_version / batched: the Cypher version a batched delete names
    first, and its tail, of the matched `var` (action DELETE or DETACH DELETE), returning how
    many; shared_indexes: one full-text and one vector index serve every organisation (a reembed
    must not drop them); exact_similarity: the similarity of `s` to $vector computed exactly
    (None: the vector index is per organisation already); vector_filters: the properties a
    shared vector index holds beside the vector, so a search filters by them inside the index
    (Neo4j 2026.01's `SEARCH ... WHERE`); none: a shared index cannot keep to one organisation,
    and vector search compares the organisation's vectors exactly whatever its size;
    exact_limit: the organisation size up to which vector search is exact even where the index
    could filter; holds: format 7's migration, each record given its HOLDS from its subject's
    Activity (graph.activity), as two statements: the highest Activity node id and their count,
    and the HOLDS of the Activity nodes of ids in [$lo, $hi)); slots: format 8's, each record
    given its STARTS (and ENDS) from its time slots, likewise: the highest record node id and
    the records' count, the slots missing for the records of ids in [$lo, $hi) not placed yet
    ([kind, n, tie] rows), the placing of those records, and format 9's step before it: the
    STARTS and ENDS of the records of ids in [$lo, $hi) with an endpoint on a midnight taken
    away (format 8 placed them on plain slots), a count; create_records: the statement that
    creates the records a batch's read found absent (graph.cypher.activity: MERGE where it
    locks before it matches, a match then a create where it does not)."""

    name: str
    bootstrap: tuple[str, ...]
    already_exists: tuple[str, ...]
    fulltext_call: str
    fulltext_top: str
    vector_call: str
    vector_value: str
    vector_label: str
    similarity: str
    fuzzy: Callable[[str], str]
    fuzzy_terms: int
    any_of: str
    all_of: str
    vector_index: Callable[[int], tuple[str, ...]]
    drop_vector_index: str
    retired: tuple[str, ...]
    no_such_index: tuple[str, ...]
    after_schema: tuple[str, ...]
    migrations: tuple[str, ...]
    subject_set: str
    batch_version: str
    batched: Callable[[str, str], str]
    shared_indexes: bool
    exact_similarity: str | None
    vector_filters: tuple[str, ...]
    exact_limit: int
    holds: tuple[str, str]
    slots: tuple[str, str, str, str]
    create_records: str

    def is_already_exists(self, message: str) -> bool:
        return any(marker in message for marker in self.already_exists)

    def fulltext_query(self, text: str, kinds: Sequence[SubjectKind] = ()) -> str | None:
        """Any token, forgiving typos: recall. Kind words ("service", "team") are in every
        search text of their kind; they rank nothing and are left out when others remain.
        With kinds, the kind's words are required: the engine then never returns the rest of
        the organisation only for the statement to filter it out."""
        telling = telling_tokens(text)
        if not telling:
            return None
        query = self.any_of.join(self._forgiving(telling))
        if not kinds:
            return query
        required = self.any_of.join("(" + self.all_of.join(k.value.split("_")) + ")" for k in kinds)
        return f"({query}){self.all_of}({required})"

    def fulltext_every(self, text: str) -> str | None:
        """Every telling token, each forgiving typos; or, as written, every token of the
        reference with its spacing mended (engine.domain.text.spacing_variants). Far more selective
        than any-token: a common token ("api", "order") matches thousands of subjects, every
        one of which the engine hands to the statement, while a typo in one token of a handle
        still leaves the handle matching them all."""
        telling = telling_tokens(text)
        if not telling:
            return None
        every = self.all_of.join("(" + t + ")" for t in self._forgiving(telling))
        variants = [self.all_of.join(v) for v in spacing_variants(query_tokens(text))]
        if not variants:
            return every
        return self.any_of.join(f"({q})" for q in [every, *variants])

    def _forgiving(self, tokens: Sequence[str]) -> list[str]:
        """The tokens, the `fuzzy_terms` longest forgiving typos and the rest as written:
        each fuzzy term walks the index's term dictionary (on Neo4j every organisation's
        terms), so a long question would cost a walk per word."""
        longest = sorted(range(len(tokens)), key=lambda i: (-len(tokens[i]), i))
        fuzzy = set(longest[: self.fuzzy_terms])
        return [self.fuzzy(t) if i in fuzzy else t for i, t in enumerate(tokens)]

    def fulltext_all(self, text: str) -> str | None:
        """Every token, as written: the subjects an identical handle must be among."""
        tokens = query_tokens(text)
        return self.all_of.join(tokens) if tokens else None


def _falkor_fuzzy(token: str) -> str:
    # RediSearch's %t% allows one Levenshtein edit, which misses the commonest typo, a swap
    # of neighbours (two edits there). %%t%% catches it but walks the whole term dictionary
    # with a two-edit automaton: at 100k subjects it was most of a typo's latency. The swaps
    # are spelled out instead, as exact terms (each one a dictionary lookup); with %t% that
    # is one Damerau edit, what Lucene's t~1 gives on Neo4j. Three-letter tokens get their
    # swaps only ("bne" for "ben"): one edit of any kind in three letters matches too much.
    if len(token) < 3:
        return token
    swaps = {
        token[:i] + token[i + 1] + token[i] + token[i + 2 :]
        for i in range(len(token) - 1)
        if token[i] != token[i + 1]
    }
    fuzzy = [f"%{token}%"] if len(token) >= 4 else []
    return "|".join([token, *fuzzy, *sorted(swaps - {token})])


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


FALKORDB = Dialect(
    name="falkordb",
    bootstrap=indexes.falkor_bootstrap(),
    already_exists=("already indexed", "already exists"),
    fulltext_call="CALL db.idx.fulltext.queryNodes('Subject', ${param}) YIELD node, score",
    # One organisation's index: its matches are that organisation's only.
    fulltext_top="CALL db.idx.fulltext.queryNodes('Subject', ${param}) YIELD node, score",
    vector_call=f"CALL db.idx.vector.queryNodes('{indexes.VECTOR_LABEL}', 'embedding', $k, "
    "vecf32($vector)) YIELD node, score",
    vector_value="vecf32({})",
    vector_label=indexes.VECTOR_LABEL,
    # FalkorDB reports cosine distance (0 = identical).
    similarity="1.0 - score",
    fuzzy=_falkor_fuzzy,
    fuzzy_terms=1_000,  # one organisation's dictionary, and typo swaps spelled out exactly
    any_of="|",
    all_of=" ",
    vector_index=indexes.falkor_vector_index,
    drop_vector_index=f"DROP VECTOR INDEX FOR (s:{indexes.VECTOR_LABEL}) ON (s.embedding)",
    retired=indexes.falkor_retired(),
    no_such_index=("no such index",),
    after_schema=(),
    migrations=(),
    subject_set="",
    batch_version="",
    batched=lambda var, action: f"{action} {var}\nRETURN count({var})",
    shared_indexes=False,
    exact_similarity=None,
    vector_filters=(),
    exact_limit=0,
    holds=("MATCH (v:Activity {org_id: $org}) RETURN max(id(v)), count(v)", FALKOR_HOLDS),
    slots=(
        "MATCH (r:SourceRecord {org_id: $org}) RETURN max(id(r)), count(r)",
        FALKOR_UNPLACED + MISSING,
        f"{FALKOR_UNPLACED}{PLACE}\nRETURN count(r)\n",
        FALKOR_UNPLACE,
    ),
    create_records=activity_cypher.CREATE_SOURCE_RECORDS_MATCHED,
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
