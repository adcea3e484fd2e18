"""A source's checkpoint in an organisation: where its last load stopped, its digest and
run, so a load resumes or is skipped.
"""

from __future__ import annotations

GET_CHECKPOINT = """
MATCH (c:Checkpoint {org_id: $org, source: $source})
RETURN c.cursor, c.digest, c.run_id, c.finished
"""

SAVE_CHECKPOINT = """
MERGE (c:Checkpoint {org_id: $org, source: $source})
SET c.cursor = $cursor, c.digest = $digest, c.run_id = $run, c.finished = $finished
"""
