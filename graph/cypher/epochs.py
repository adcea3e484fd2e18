"""The projection-epoch lifecycle's statements (graph.epochs runs them): one `Lifecycle`
record and one `Epoch` node per epoch, in the organisation's own scope, and the purge of an
epoch's data.

Every transition first writes the record (`SET l.lock`) and then changes it only if it still
holds what the caller read: on Neo4j the first write takes the node's write lock before
anything is read, so two concurrent transitions cannot both pass the compare (FalkorDB runs a
graph's writes one at a time anyway). Parameters only; $org is the organisation id, never an
epoch's scope, except in CHECKPOINTS and PURGE, which run in the scope of the epoch they
check or empty.
"""

from __future__ import annotations

ENSURE = """
MERGE (l:Lifecycle {org_id: $org, key: 'lifecycle'})
ON CREATE SET l.active = 0, l.status = 'serving', l.last_allocated = 0, l.changed_ns = $now
MERGE (e:Epoch {org_id: $org, key: 0})
ON CREATE SET e.state = 'serving', e.created_ns = $now, e.changed_ns = $now
RETURN l.active
"""

# The serving pointer alone: what a request's graph is chosen by (cached per process, see
# graph.store.EpochedStore).
SERVING = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
RETURN l.active
"""

STATUS = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
RETURN l.active, l.status, l.building, l.previous, l.grace_until_ns, l.last_allocated
"""

LIST = """
MATCH (e:Epoch {org_id: $org})
RETURN e.key, e.state, e.created_ns, e.changed_ns, e.reason, e.retired_ns, e.deleted_ns
ORDER BY e.key
"""

BEGIN_BUILD = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'serving'
WITH l, l.last_allocated + 1 AS next
SET l.last_allocated = next, l.building = next, l.status = 'building', l.changed_ns = $now
CREATE (e:Epoch {org_id: $org, key: next})
SET e.state = 'building', e.created_ns = $now, e.changed_ns = $now
RETURN next
"""

FLIP = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'building' AND l.building = $target AND l.active = $expected
MATCH (new:Epoch {org_id: $org, key: $target}), (old:Epoch {org_id: $org, key: $expected})
SET l.previous = $expected, l.active = $target, l.building = null, l.status = 'grace',
    l.grace_until_ns = $now + $grace_ns, l.changed_ns = $now,
    new.state = 'serving', new.changed_ns = $now,
    old.state = 'grace', old.changed_ns = $now
RETURN l.active
"""

# `l.grace_until_ns = null` has a clause of its own: an update clause that deletes two
# properties of a node can corrupt it on FalkorDB (graph.cypher._fragments.assign says how).
ROLLBACK = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'grace' AND l.active = $expected AND l.grace_until_ns > $now
MATCH (cur:Epoch {org_id: $org, key: l.active}), (prev:Epoch {org_id: $org, key: l.previous})
SET cur.state = 'retired', cur.reason = 'rollback_abandoned', cur.retired_ns = $now,
    cur.changed_ns = $now,
    prev.state = 'serving', prev.changed_ns = $now,
    l.active = prev.key, l.previous = null, l.status = 'serving', l.changed_ns = $now
WITH l
SET l.grace_until_ns = null
RETURN l.active
"""

# Manual (`$force`) or once the grace period is over.
END_GRACE = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'grace' AND ($force OR l.grace_until_ns <= $now)
MATCH (prev:Epoch {org_id: $org, key: l.previous})
SET prev.state = 'retired', prev.reason = $reason, prev.retired_ns = $now,
    prev.changed_ns = $now,
    l.previous = null, l.status = 'serving', l.changed_ns = $now
WITH l, prev
SET l.grace_until_ns = null
RETURN prev.key
"""

ABORT_BUILD = """
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
SET l.lock = $now
WITH l
WHERE l.status = 'building'
MATCH (e:Epoch {org_id: $org, key: l.building})
SET e.state = 'retired', e.reason = 'build_aborted', e.retired_ns = $now, e.changed_ns = $now,
    l.building = null, l.status = 'serving', l.changed_ns = $now
RETURN e.key
"""

# The single deleter: a retired, undeleted epoch past its drain bound, never the serving one,
# claimed for a lease (a deleter that died frees it when the lease runs out).
CLAIM_DELETE = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
SET e.lock = $now
WITH e
WHERE e.state = 'retired' AND e.deleted_ns IS NULL AND e.retired_ns + $drain_ns <= $now
  AND (e.deleter IS NULL OR e.deleter_until_ns < $now)
MATCH (l:Lifecycle {org_id: $org, key: 'lifecycle'})
WHERE l.active <> e.key
SET e.deleter = $token, e.deleter_until_ns = $now + $lease_ns
RETURN e.key
"""

# The deleter's claim, held on while it purges (after each batch), so a purge longer than the
# lease is not taken over by a second deleter; no row: the claim was lost (it ran out first).
RENEW_DELETE = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
WHERE e.deleter = $token
SET e.deleter_until_ns = $now + $lease_ns
RETURN e.key
"""

MARK_DELETED = """
MATCH (e:Epoch {org_id: $org, key: $epoch})
WHERE e.deleter = $token
SET e.deleted_ns = $now, e.deleter = null, e.changed_ns = $now
RETURN e.key
"""

RETIRED_UNDELETED = """
MATCH (e:Epoch {org_id: $org})
WHERE e.state = 'retired' AND e.deleted_ns IS NULL
RETURN e.key ORDER BY e.key
"""

CHECKPOINTS = """
MATCH (c:Checkpoint {org_id: $org})
RETURN c.source, c.finished
"""

# One per label holding an epoch's projected data (what retirement deletes; results, API keys
# and the lifecycle itself are not an epoch's), each served by its org_id index, bounded in
# size. Keyed by label so the statement check (tests/cypher_statements.py) collects each.
PURGE = {
    "Subject": """
MATCH (n:Subject {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    "Episode": """
MATCH (n:Episode {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    "SourceRecord": """
MATCH (n:SourceRecord {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    "Checkpoint": """
MATCH (n:Checkpoint {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    "EmbeddingMeta": """
MATCH (n:EmbeddingMeta {org_id: $org})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
""",
    # The activity structures the records' writes keep (graph.cypher.activity), per scope as
    # the records are: left behind, every retired epoch kept one Activity node per subject.
    **{
        label: f"""
MATCH (n:{label} {{org_id: $org}})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n)
"""
        for label in ("Activity", "RecordDay", "TimeSlot", "Format")
    },
}
DATA_LABELS = tuple(PURGE)

STATEMENTS = (
    ENSURE, SERVING, STATUS, LIST, BEGIN_BUILD, FLIP, ROLLBACK, END_GRACE, ABORT_BUILD,
    CLAIM_DELETE, RENEW_DELETE, MARK_DELETED, RETIRED_UNDELETED, CHECKPOINTS, *PURGE.values(),
)  # fmt: skip
