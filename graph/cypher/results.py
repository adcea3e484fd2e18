"""Investigation results (immutable once stored) and the projection epoch a result was
computed against (a result from before the graph last changed is not reused).
"""

from __future__ import annotations

# One statement: a result is stored whole or not at all; an existing id is never overwritten.
SAVE_RESULT = """
MERGE (r:Investigation {org_id: $org, id: $id})
ON CREATE SET r.created_ns = $created_ns, r.payload = $payload, r.subject_keys = $subjects,
              r.reuse_key = $reuse_key, r.outcome = $outcome
RETURN r.payload = $payload
"""

GET_RESULTS = """
UNWIND $ids AS i
MATCH (r:Investigation {org_id: $org, id: i})
RETURN r.id, r.payload
"""

LIST_RESULTS = """
MATCH (r:Investigation {org_id: $org})
WHERE ($subject IS NULL OR $subject IN r.subject_keys)
  AND ($after_ns IS NULL OR r.created_ns < $after_ns
       OR (r.created_ns = $after_ns AND r.id > $after_id))
WITH r ORDER BY r.created_ns DESC, r.id LIMIT $limit
RETURN r.id, r.payload, r.created_ns
"""

FIND_REUSABLE = """
MATCH (r:Investigation {org_id: $org, reuse_key: $reuse_key})
WHERE r.created_ns >= $since_ns AND r.created_ns >= $not_before_ns
WITH r ORDER BY r.created_ns DESC LIMIT 1
RETURN r.id, r.payload
"""

GET_PROJECTION_EPOCH = """
MATCH (m:ProjectionEpoch {org_id: $org})
RETURN m.changed_ns
"""

TOUCH_PROJECTION_EPOCH = """
MERGE (m:ProjectionEpoch {org_id: $org})
SET m.changed_ns = $changed_ns
"""
