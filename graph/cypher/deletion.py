"""Retraction and cleanup: subjects and episodes by key, and what a source wrote before
but not in its latest complete run (relationships, subjects, episodes; the keys of its source
records, which graph.cypher.activity.DELETE_SOURCE_RECORDS retracts).

Relationships by id are retracted by graph.cypher.relationships.delete_relationships, and a
whole organisation by graph.cypher.organisations.delete_org.
"""

from __future__ import annotations

from graph.dialect import Dialect

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


# Complete-enumeration cleanup: what this source wrote before but not in this run. Each
# returns how many it deleted; the dialect batches the deletes (graph.dialect).
def delete_unseen_relationships(dialect: Dialect) -> str:
    return f"""
{dialect.batch_version}MATCH (:Subject {{org_id: $org}})-[r]->(:Subject {{org_id: $org}})
WHERE r.org_id = $org AND r.source = $source AND r.run_id <> $run
{dialect.batched("r", "DELETE")}
"""


# Source records go through DELETE_SOURCE_RECORDS instead, which keeps the activity
# structures.
UNSEEN_LABELS = ("Subject", "Episode")


def delete_unseen_nodes(dialect: Dialect) -> dict[str, str]:
    return {
        label: f"""
{dialect.batch_version}MATCH (n:{label} {{org_id: $org, source: $source}})
WHERE n.run_id <> $run
{dialect.batched("n", "DETACH DELETE")}
"""
        for label in UNSEEN_LABELS
    }


# Source records go through DELETE_SOURCE_RECORDS, which keeps the activity structures.
UNSEEN_SOURCE_RECORDS = """
MATCH (n:SourceRecord {org_id: $org, source: $source})
WHERE n.run_id <> $run
RETURN n.key
"""
