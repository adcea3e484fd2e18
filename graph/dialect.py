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
from dataclasses import dataclass

from engine.domain.models import SubjectKind
from engine.domain.text import query_tokens, spacing_variants, telling_tokens
from graph import indexes
from graph.cypher import activity as activity_cypher
from graph.formatmigrations import (
    FALKOR_HOLDS,
    FALKOR_UNPLACE,
    FALKOR_UNPLACED,
    MISSING,
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
