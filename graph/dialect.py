"""What differs between the backends, in one small object each.

The Cypher of `graph.cypher` is shared; index DDL, how an existing index is reported, and
(later) full-text/vector procedures and their score meaning live here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.models import SubjectKind

# (label, properties) pairs that every organisation's graph indexes.
_NODE_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Subject", ("id",)),
    ("Subject", ("name",)),
    ("Subject", ("kind",)),
    ("Subject", ("source",)),
    ("SourceRecord", ("subject_key",)),
    ("SourceRecord", ("start_ns",)),
    ("Investigation", ("reuse_key",)),
    ("Investigation", ("created_ns",)),
)
# Episodes and source records are not indexed by source: only a complete-snapshot cleanup
# reads them that way, and the index cost every one of the most numerous writes.
# Identity keys: unique per organisation.
_NODE_KEYS: tuple[tuple[str, str], ...] = (
    ("Subject", "key"),
    ("Episode", "key"),
    ("SourceRecord", "key"),
    ("Checkpoint", "source"),
    ("ApiKey", "key_id"),
    ("Investigation", "id"),
)


MAX_QUERY_TOKENS = 12
KIND_WORDS = frozenset(w for kind in SubjectKind for w in kind.value.split("_")) | {"svc"}


def query_tokens(text: str) -> list[str]:
    """Letters and digits only: the full-text engines' operators can never come from a client."""
    return [t for t in re.split(r"[^0-9A-Za-z]+", text.lower()) if t][:MAX_QUERY_TOKENS]


@dataclass(frozen=True)
class Dialect:
    """name: the backend; bootstrap: index and constraint DDL; already_exists: substrings of a
    refusal that only means "this index already exists"; fulltext_call / vector_call: the
    procedure calls, yielding `node` and `score`; vector_value: how a stored vector is written;
    similarity: the vector score turned into a cosine similarity."""

    name: str
    bootstrap: tuple[str, ...]
    already_exists: tuple[str, ...]
    fulltext_call: str
    vector_call: str
    vector_value: str
    similarity: str
    fuzzy: Callable[[str], str]
    any_of: str
    all_of: str
    vector_index: Callable[[int], tuple[str, ...]]
    drop_vector_index: str

    def is_already_exists(self, message: str) -> bool:
        return any(marker in message for marker in self.already_exists)

    def fulltext_query(self, text: str, kinds: Sequence[SubjectKind] = ()) -> str | None:
        """Any token, forgiving typos: recall. Kind words ("service", "team") are in every
        search text of their kind; they rank nothing and are left out when others remain.
        With kinds, the kind's words are required: the engine then never returns the rest of
        the organisation only for the statement to filter it out."""
        tokens = query_tokens(text)
        telling = [t for t in tokens if t not in KIND_WORDS] or tokens
        if not telling:
            return None
        query = self.any_of.join(self.fuzzy(t) for t in telling)
        if not kinds:
            return query
        required = self.any_of.join("(" + self.all_of.join(k.value.split("_")) + ")" for k in kinds)
        return f"({query}){self.all_of}({required})"

    def fulltext_every(self, text: str) -> str | None:
        """Every telling token, each forgiving typos. Far more selective than any-token: a
        common token ("api", "order") matches thousands of subjects, every one of which the
        engine hands to the statement, while a typo in one token of a handle still leaves
        the handle matching them all."""
        tokens = query_tokens(text)
        telling = [t for t in tokens if t not in KIND_WORDS] or tokens
        if not telling:
            return None
        return self.all_of.join("(" + self.fuzzy(t) + ")" for t in telling)

    def fulltext_all(self, text: str) -> str | None:
        """Every token, as written: the subjects an identical handle must be among."""
        tokens = query_tokens(text)
        return self.all_of.join(tokens) if tokens else None


def _falkor_bootstrap() -> tuple[str, ...]:
    # One graph per organisation: org_id needs no index of its own there, and each
    # organisation's full-text and vector indexes hold only its own subjects.
    out = [f"CREATE INDEX FOR (n:{label}) ON (n.{prop})" for label, prop in _NODE_KEYS]
    for label, props in _NODE_INDEXES:
        out.append(f"CREATE INDEX FOR (n:{label}) ON ({', '.join('n.' + p for p in props)})")
    out.append("CREATE FULLTEXT INDEX FOR (s:Subject) ON (s.search_text)")
    return tuple(out)


def _falkor_fuzzy(token: str) -> str:
    # RediSearch's %t% allows one Levenshtein edit, which misses the commonest typo, a swap
    # of neighbours (two edits there). %%t%% catches it but walks the whole term dictionary
    # with a two-edit automaton: at 100k subjects it was most of a typo's latency. The swaps
    # are spelled out instead, as exact terms (each one a dictionary lookup); with %t% that
    # is one Damerau edit, what Lucene's t~1 gives on Neo4j. Three-letter tokens stay exact.
    if len(token) < 4:
        return token
    swaps = {
        token[:i] + token[i + 1] + token[i] + token[i + 2 :]
        for i in range(len(token) - 1)
        if token[i] != token[i + 1]
    }
    return "|".join([token, f"%{token}%", *sorted(swaps)])


def _falkor_vector_index(dimension: int) -> tuple[str, ...]:
    # Index options take no parameters; the dimension is our embedder's, never a client's.
    return (
        "CREATE VECTOR INDEX FOR (s:Subject) ON (s.embedding) "
        f"OPTIONS {{dimension: {int(dimension)}, similarityFunction: 'cosine'}}",
    )


def _neo4j_vector_index(dimension: int) -> tuple[str, ...]:
    return (
        "CREATE VECTOR INDEX subject_embedding IF NOT EXISTS FOR (s:Subject) ON (s.embedding) "
        f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimension)}, "
        "`vector.similarity_function`: 'cosine'}}",
    )


def _neo4j_bootstrap() -> tuple[str, ...]:
    # One database for every organisation: org_id leads every index and constraint.
    out = [
        f"CREATE CONSTRAINT {label.lower()}_{prop} IF NOT EXISTS "
        f"FOR (n:{label}) REQUIRE (n.org_id, n.{prop}) IS UNIQUE"
        for label, prop in _NODE_KEYS
    ]
    for label, props in _NODE_INDEXES:
        name = f"{label.lower()}_{'_'.join(props)}"
        cols = ", ".join(["n.org_id", *("n." + p for p in props)])
        out.append(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON ({cols})")
    out.append(
        "CREATE FULLTEXT INDEX subject_search IF NOT EXISTS FOR (s:Subject) ON EACH [s.search_text]"
    )
    return tuple(out)


FALKORDB = Dialect(
    name="falkordb",
    bootstrap=_falkor_bootstrap(),
    already_exists=("already indexed", "already exists"),
    fulltext_call="CALL db.idx.fulltext.queryNodes('Subject', ${param}) YIELD node, score",
    vector_call="CALL db.idx.vector.queryNodes('Subject', 'embedding', $k, vecf32($vector)) "
    "YIELD node, score",
    vector_value="vecf32({})",
    # FalkorDB reports cosine distance (0 = identical).
    similarity="1.0 - score",
    fuzzy=_falkor_fuzzy,
    any_of="|",
    all_of=" ",
    vector_index=_falkor_vector_index,
    drop_vector_index="DROP VECTOR INDEX FOR (s:Subject) ON (s.embedding)",
)

NEO4J = Dialect(
    name="neo4j",
    bootstrap=_neo4j_bootstrap(),
    already_exists=("EquivalentSchemaRule",),
    # One index for every organisation: the caller over-fetches and filters by org_id.
    fulltext_call="CALL db.index.fulltext.queryNodes('subject_search', ${param}) YIELD node, score",
    vector_call="CALL db.index.vector.queryNodes('subject_embedding', $k, $vector) "
    "YIELD node, score",
    # Neo4j reports (1 + cosine) / 2, in [0, 1].
    similarity="2.0 * score - 1.0",
    vector_value="{}",
    fuzzy=lambda token: f"{token} OR {token}~1" if len(token) >= 4 else token,
    any_of=" OR ",
    all_of=" AND ",
    vector_index=_neo4j_vector_index,
    drop_vector_index="DROP INDEX subject_embedding IF EXISTS",
)
