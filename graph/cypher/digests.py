"""What a load reads before it writes a batch: the digest each element of the batch has stored
(graph.rows), so that those unchanged are not written again (graph.unchanged); and the run id
a complete snapshot's run stamps on them instead of writing them, so that its cleanup keeps
them (graph.cypher.deletion deletes what has another).
"""

from __future__ import annotations

from engine.domain.models import RelationshipType

# Each arm returns [kind, identity, stored digest, what else decides]: a subject's vector's
# embedder, an episode's count of mention links (a subject's retraction took some with it,
# which its digest does not show).
_SUBJECTS = """UNWIND $subjects AS k
MATCH (n:Subject {org_id: $org, key: k})
RETURN 'S' AS t, [k] AS id, n.digest AS d, n.embedder AS x
"""
_EPISODES = """UNWIND $episodes AS k
MATCH (n:Episode {org_id: $org, key: k})
OPTIONAL MATCH (n)-[m:MENTIONS]->(:Subject)
RETURN 'E' AS t, [k] AS id, n.digest AS d, count(m) AS x
"""
_RECORDS = """UNWIND $records AS k
MATCH (n:SourceRecord {org_id: $org, key: k})
RETURN 'C' AS t, [k] AS id, n.digest AS d, null AS x
"""


def _relationships(param: str, rel_type: RelationshipType) -> str:
    # A request: [from key, to key, id]. From the start subject's edges, as EDGES_BY_ID.
    label = RelationshipType(rel_type).value  # closed enum: never caller text
    return f"""UNWIND ${param} AS q
MATCH (a:Subject {{org_id: $org, key: q[0]}})-[r:{label}]->(b:Subject {{org_id: $org}})
WHERE r.org_id = $org AND r.id = q[2] AND b.key = q[1]
RETURN 'R' AS t, ['{label}', q[0], q[1], q[2]] AS id, r.digest AS d, null AS x
"""


def stored_digests(
    subjects: bool, episodes: bool, records: bool, rel_types: tuple[RelationshipType, ...]
) -> str:
    """One statement for a batch: $subjects, $episodes, $records (keys) and, for the n-th of
    `rel_types`, $r<n> ([from key, to key, id] each), the arms of those present only."""
    arms = [
        arm
        for arm, present in ((_SUBJECTS, subjects), (_EPISODES, episodes), (_RECORDS, records))
        if present
    ]
    arms += [_relationships(f"r{n}", t) for n, t in enumerate(rel_types)]
    return "UNION ALL\n".join(arms)


# A complete run's elements it left as they were: this run's id, as a write would have set.
STAMP_SUBJECTS = """
UNWIND $keys AS k
MATCH (n:Subject {org_id: $org, key: k})
SET n.run_id = $run
"""

STAMP_EPISODES = """
UNWIND $keys AS k
MATCH (n:Episode {org_id: $org, key: k})
SET n.run_id = $run
"""

STAMP_RECORDS = """
UNWIND $keys AS k
MATCH (n:SourceRecord {org_id: $org, key: k})
SET n.run_id = $run
"""


def stamp_relationships(rel_type: RelationshipType) -> str:
    label = RelationshipType(rel_type).value  # closed enum: never caller text
    return f"""
UNWIND $keys AS q
MATCH (a:Subject {{org_id: $org, key: q[0]}})-[r:{label}]->(b:Subject {{org_id: $org}})
WHERE r.org_id = $org AND r.id = q[2] AND b.key = q[1]
SET r.run_id = $run
"""
