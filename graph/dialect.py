"""What differs between the backends, in one small object each.

The Cypher of `graph.cypher` is shared; index DDL, how an existing index is reported, and
(later) full-text/vector procedures and their score meaning live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# (label, properties) pairs that every organisation's graph indexes.
_NODE_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Subject", ("id",)),
    ("Subject", ("name",)),
    ("Subject", ("kind",)),
    ("Subject", ("source",)),
    ("SourceRecord", ("subject_key",)),
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
)


@dataclass(frozen=True)
class Dialect:
    name: str
    bootstrap: tuple[str, ...] = field(default_factory=tuple)
    # Substrings of a refusal that only means "this index or constraint already exists".
    already_exists: tuple[str, ...] = ()

    def is_already_exists(self, message: str) -> bool:
        return any(marker in message for marker in self.already_exists)


def _falkor_bootstrap() -> tuple[str, ...]:
    # One graph per organisation: org_id needs no index of its own there.
    out = [f"CREATE INDEX FOR (n:{label}) ON (n.{prop})" for label, prop in _NODE_KEYS]
    for label, props in _NODE_INDEXES:
        out.append(f"CREATE INDEX FOR (n:{label}) ON ({', '.join('n.' + p for p in props)})")
    return tuple(out)


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
    return tuple(out)


FALKORDB = Dialect(
    name="falkordb",
    bootstrap=_falkor_bootstrap(),
    already_exists=("already indexed", "already exists"),
)

NEO4J = Dialect(
    name="neo4j", bootstrap=_neo4j_bootstrap(), already_exists=("EquivalentSchemaRule",)
)
