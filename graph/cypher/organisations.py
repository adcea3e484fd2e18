"""An organisation's graph as a whole: the labels its nodes carry, counted and dropped
label by label (each read seeks on that label's org_id index).
"""

from __future__ import annotations

from graph.dialect import Dialect

# Every label whose nodes belong to one organisation (the system scope's keys and secrets
# are not an organisation's).
ORG_LABELS = (
    "Subject", "Episode", "SourceRecord", "Checkpoint", "Investigation", "EmbeddingMeta",
    "ProjectionEpoch", "Lifecycle", "Epoch", "Activity", "RecordDay", "Format", "TimeSlot",
)  # fmt: skip


def delete_org(dialect: Dialect) -> dict[str, str]:
    """Every node of one organisation, label by label (each seeks on its org_id index)."""
    return {
        label: f"""
{dialect.batch_version}MATCH (n:{label} {{org_id: $org}})
{dialect.batched("n", "DETACH DELETE")}
"""
        for label in ORG_LABELS
    }


# Label by label: an unlabelled match on org_id can use no index (every node is read).
COUNTS = "UNION ALL".join(
    f"""
MATCH (n:{label} {{org_id: $org}})
RETURN '{label}' AS label, count(n) AS c
"""
    for label in ORG_LABELS
)

COUNT_RELATIONSHIPS = """
MATCH (:Subject {org_id: $org})-[r]->()
WHERE r.org_id = $org
RETURN type(r), count(r)
"""
