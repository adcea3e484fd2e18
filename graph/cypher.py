"""Every Cypher statement the gateway sends, shared by the FalkorDB and Neo4j adapters.

Rules: values travel only as parameters; the only text composed at run time is a
relationship type taken from the closed `RelationshipType` enum or a fixed fragment from this
module. Every statement matches on `org_id: $org`.
"""

from __future__ import annotations

from engine.models import RelationshipType
from graph.rows import (
    EPISODE_COLUMNS,
    RECORD_COLUMNS,
    RELATIONSHIP_COLUMNS,
    STUB_COLUMNS,
    SUBJECT_COLUMNS,
)


def _assign(var: str, columns: tuple[str, ...], offset: int) -> str:
    """`v.col = row[i], ...` for positional write rows; columns are fixed identifiers."""
    return ", ".join(f"{var}.{col} = row[{i}]" for i, col in enumerate(columns, offset))


# An element is admitted when its half-open window [valid_from, valid_to) overlaps the query
# interval [$t_start, $t_end]; a point in time is the interval [T, T]. No window: admitted.
def admitted(var: str) -> str:
    return (
        f"({var}.valid_from_ns IS NULL OR {var}.valid_from_ns <= $t_end) AND "
        f"({var}.valid_to_ns IS NULL OR {var}.valid_to_ns > $t_start)"
    )


_ALWAYS = "true"

# --- subjects -------------------------------------------------------------------------------

MERGE_SUBJECTS = f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
SET {_assign("s", SUBJECT_COLUMNS, 1)}
"""

# Stubs assert identity only: they never carry a validity window, and a later authoritative
# subject record overwrites them.
MERGE_STUBS = f"""
UNWIND $rows AS row
MERGE (s:Subject {{org_id: $org, key: row[0]}})
ON CREATE SET {_assign("s", STUB_COLUMNS, 1)}, s.stub = true
"""


def subjects_by_keys(timed: bool) -> str:
    return f"""
UNWIND $keys AS k
MATCH (s:Subject {{org_id: $org, key: k}})
WHERE {admitted("s") if timed else _ALWAYS}
RETURN properties(s)
"""


SUBJECTS_BY_IDS = """
UNWIND $ids AS i
MATCH (s:Subject {org_id: $org, id: i})
RETURN properties(s)
"""

SUBJECTS_BY_EXACT_NAME = """
MATCH (s:Subject {org_id: $org, name: $name})
WHERE ($kind IS NULL OR s.kind = $kind)
WITH s ORDER BY s.key
WITH count(s) AS total, collect(properties(s)) AS rows
RETURN total, rows[0..$limit]
"""


def _subject_filter(timed: bool) -> str:
    return f"""
MATCH (s:Subject {{org_id: $org}})
WHERE (size($kinds) = 0 OR s.kind IN $kinds)
  AND ($prefix IS NULL OR s.name STARTS WITH $prefix)
  AND all(p IN $pairs WHERE p IN s.attr_pairs)
  AND ($stubs OR s.stub = false)
  AND {admitted("s") if timed else _ALWAYS}
"""


def find_subjects(timed: bool, by_name: bool, after: bool) -> str:
    sort = "s.name, s.key" if by_name else "s.key"
    if not after:
        cursor = ""
    elif by_name:
        cursor = "AND (s.name > $after_sort OR (s.name = $after_sort AND s.key > $after_key))"
    else:
        cursor = "AND s.key > $after_key"
    return f"""{_subject_filter(timed)} {cursor}
RETURN properties(s)
ORDER BY {sort}
LIMIT $limit
"""


def count_subjects(timed: bool) -> str:
    return _subject_filter(timed) + "RETURN count(s)"


# --- relationships --------------------------------------------------------------------------


def merge_relationships(rel_type: RelationshipType) -> str:
    label = RelationshipType(rel_type).value  # closed enum: never caller text
    return f"""
UNWIND $rows AS row
MATCH (a:Subject {{org_id: $org, key: row[0]}})
MATCH (b:Subject {{org_id: $org, key: row[1]}})
MERGE (a)-[r:{label} {{org_id: $org, id: row[2]}}]->(b)
SET {_assign("r", RELATIONSHIP_COLUMNS, 3)}
"""


_PATTERNS = {
    "outgoing": "(s)-[r]->(o:Subject)",
    "incoming": "(s)<-[r]-(o:Subject)",
    "both": "(s)-[r]-(o:Subject)",
}


def relationships_of(direction: str, timed: bool) -> str:
    pattern = _PATTERNS[direction]
    return f"""
UNWIND $keys AS k
MATCH (s:Subject {{org_id: $org, key: k}})
MATCH {pattern}
WHERE r.org_id = $org AND type(r) <> 'MENTIONS'
  AND (size($types) = 0 OR type(r) IN $types)
  AND {admitted("r") if timed else _ALWAYS}
WITH k, r, o, startNode(r) = s AS outgoing
ORDER BY r.valid_from_ns DESC, o.key, r.id
WITH k, collect([type(r), properties(r), o.key, outgoing]) AS rels
RETURN k, rels[0..$limit]
"""


DELETE_RELATIONSHIPS = """
UNWIND $keys AS id
MATCH (:Subject {org_id: $org})-[r]->(:Subject {org_id: $org})
WHERE r.org_id = $org AND r.id = id
DELETE r
"""

# --- episodes and source records ------------------------------------------------------------

MERGE_EPISODES = f"""
UNWIND $rows AS row
MERGE (e:Episode {{org_id: $org, key: row[0]}})
SET {_assign("e", EPISODE_COLUMNS, 2)}
WITH e, row
UNWIND row[1] AS m
MATCH (s:Subject {{org_id: $org, key: m}})
MERGE (e)-[x:MENTIONS {{org_id: $org}}]->(s)
"""


def episodes_of(timed: bool) -> str:
    window = "e.occurred_at_ns >= $t_start AND e.occurred_at_ns <= $t_end" if timed else _ALWAYS
    return f"""
UNWIND $keys AS k
MATCH (e:Episode {{org_id: $org}})-[x:MENTIONS]->(s:Subject {{org_id: $org, key: k}})
WHERE {window}
WITH k, e ORDER BY e.occurred_at_ns DESC, e.key
WITH k, collect(properties(e)) AS rows
RETURN k, rows[0..$limit]
"""


EPISODE_MENTIONS = """
UNWIND $keys AS k
MATCH (e:Episode {org_id: $org, key: k})-[x:MENTIONS]->(s:Subject {org_id: $org})
WITH k, s ORDER BY s.key
RETURN k, collect(s.key)
"""

MERGE_SOURCE_RECORDS = f"""
UNWIND $rows AS row
MERGE (r:SourceRecord {{org_id: $org, key: row[0]}})
SET {_assign("r", RECORD_COLUMNS, 1)}
"""


def source_records_of(timed: bool) -> str:
    window = (
        "r.start_ns <= $t_end AND (r.end_ns IS NULL OR r.end_ns >= $t_start)" if timed else _ALWAYS
    )
    return f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE r.subject_key IN $keys
  AND (size($kinds) = 0 OR r.record_kind IN $kinds)
  AND {window}
RETURN properties(r)
ORDER BY r.start_ns, r.key
"""


# --- deletion -------------------------------------------------------------------------------

DELETE_SUBJECTS = """
UNWIND $keys AS k
MATCH (s:Subject {org_id: $org, key: k})
DETACH DELETE s
"""

DELETE_EPISODES = """
UNWIND $keys AS k
MATCH (e:Episode {org_id: $org, key: k})
DETACH DELETE e
"""

DELETE_SOURCE_RECORDS = """
UNWIND $keys AS k
MATCH (r:SourceRecord {org_id: $org, key: k})
DELETE r
"""

# Complete-enumeration cleanup: what this source wrote before but not in this run.
DELETE_UNSEEN_RELATIONSHIPS = """
MATCH (:Subject {org_id: $org})-[r]->(:Subject {org_id: $org})
WHERE r.org_id = $org AND r.source = $source AND r.run_id <> $run
DELETE r
RETURN count(r)
"""

DELETE_UNSEEN_NODES = {
    label: f"""
MATCH (n:{label} {{org_id: $org, source: $source}})
WHERE n.run_id <> $run
DETACH DELETE n
RETURN count(n)
"""
    for label in ("Subject", "Episode", "SourceRecord")
}

# --- checkpoints and counts -----------------------------------------------------------------

GET_CHECKPOINT = """
MATCH (c:Checkpoint {org_id: $org, source: $source})
RETURN c.cursor, c.digest, c.run_id, c.finished
"""

SAVE_CHECKPOINT = """
MERGE (c:Checkpoint {org_id: $org, source: $source})
SET c.cursor = $cursor, c.digest = $digest, c.run_id = $run, c.finished = $finished
"""

COUNTS = """
MATCH (n {org_id: $org})
WITH labels(n)[0] AS label, count(n) AS c
RETURN label, c
"""

COUNT_RELATIONSHIPS = """
MATCH (:Subject {org_id: $org})-[r]->()
WHERE r.org_id = $org
RETURN type(r), count(r)
"""

# --- API keys (the system scope) ------------------------------------------------------------

PUT_KEY = """
MERGE (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.secret_hash = $secret_hash, k.key_org = $key_org, k.actor = $actor,
    k.scopes = $scopes, k.revoked = $revoked
"""

GET_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
"""

LIST_KEYS = """
MATCH (k:ApiKey {org_id: $system})
WHERE $key_org IS NULL OR k.key_org = $key_org
RETURN k.key_id, k.secret_hash, k.key_org, k.actor, k.scopes, k.revoked
ORDER BY k.key_id
"""

REVOKE_KEY = """
MATCH (k:ApiKey {org_id: $system, key_id: $key_id})
SET k.revoked = true
RETURN count(k)
"""
