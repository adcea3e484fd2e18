"""The Cypher of the activity formats' migrations (graph.activity), per backend: format 7 gives
each record its HOLDS from its subject's Activity, format 8 its STARTS and ENDS from its time
slots, format 9 places again on their tie nodes the records with an endpoint on a midnight.
FalkorDB works through node id ranges, a statement each; Neo4j one range, in inner
transactions (graph.dialect holds both)."""

from __future__ import annotations

from graph.cypher._fragments import floor_div
from graph.recordrows import DAY_US, SLOT_US

NEO4J_BATCH_ROWS = 1_000


# Format 7 (graph.activity): each record gets its HOLDS from its subject's Activity, found on
# the records' subject_key index, which is dropped only once this is done (graph.executor).
# An Activity that holds any has them all (one statement did them), so a run that stopped
# resumes without making any twice. FalkorDB: node id ranges, a statement each (a batch cut
# by LIMIT would read every node done so far again); the lookup of the records sits after a
# WITH, or its planner joins every record of the organisation by hash instead.
FALKOR_HOLDS = """
MATCH (v:Activity)
WHERE id(v) >= $lo AND id(v) < $hi AND v.org_id = $org AND NOT (v)-[:HOLDS]->()
WITH v
MATCH (r:SourceRecord {org_id: $org, subject_key: v.subject_key})
CREATE (v)-[:HOLDS]->(r)
RETURN count(r)
"""
# Neo4j: one range (its first statement gives 0 as the highest id), batched by the statement
# itself in inner transactions.
NEO4J_HOLDS = f"""
MATCH (v:Activity {{org_id: $org}})
WHERE NOT EXISTS {{ (v)-[:HOLDS]->() }}
CALL (v) {{
  MATCH (r:SourceRecord {{org_id: $org, subject_key: v.subject_key}})
  CREATE (v)-[:HOLDS]->(r)
}} IN TRANSACTIONS OF {NEO4J_BATCH_ROWS} ROWS
RETURN count(*)
"""


# Format 8 (graph.activity): each record gets its STARTS from the slot of its kind and start,
# and its ENDS from the slot of its end when that is another (graph.cypher.activity). First
# the slots missing for the records not placed yet are read (graph.activity makes them, a
# batch at a time: graph.cypher.activity.MAKE_SLOTS says why), then the records are placed,
# finding their slots only. Both relationships in one statement, so a record with a STARTS
# is done and a run that stopped resumes at those without. FalkorDB: node id ranges, as
# FALKOR_HOLDS; Neo4j: one range, the placing in inner transactions.
# An endpoint on a midnight is on its slot's tie node (format 9): the tie is
# graph.recordrows.tie_of, the key's kind, colon and first character after it.
_TIE = "substring(r.subject_key, 0, size(split(r.subject_key, ':')[0]) + 2)"


def _on_midnight(at: str) -> str:
    return f"{at} % {DAY_US} = 0"  # as graph.recordrows places an endpoint


def _slot_of(at: str) -> str:
    return f"[{floor_div(at, SLOT_US)}, CASE WHEN {_on_midnight(at)} THEN {_TIE} END]"


_SLOTS = f"""
WITH r, r.record_kind AS kind, {_slot_of("r.start_us")} AS s0,
     CASE WHEN r.end_us IS NULL THEN null ELSE {_slot_of("r.end_us")} END AS s1
WITH r, kind, s0, s1, kind + ':' + toString(s0[0]) + coalesce(':' + s0[1], '') AS k0,
     kind + ':' + toString(s1[0]) + coalesce(':' + s1[1], '') AS k1"""
MISSING = f"""{_SLOTS}
UNWIND [[k0, s0], [k1, s1]] AS ks
WITH DISTINCT kind, ks[0] AS k, ks[1] AS sl
WHERE k IS NOT NULL
OPTIONAL MATCH (t:TimeSlot {{org_id: $org, slot: k}})
WITH kind, sl
WHERE t IS NULL
RETURN kind, sl[0], sl[1]
"""
PLACE = f"""{_SLOTS}
MATCH (t:TimeSlot {{org_id: $org, slot: k0}})
OPTIONAL MATCH (u:TimeSlot {{org_id: $org, slot: k1}})
WHERE k1 <> k0
CREATE (t)-[:STARTS]->(r)
FOREACH (_ IN CASE WHEN u IS NULL THEN [] ELSE [1] END | CREATE (u)-[:ENDS]->(r))"""
FALKOR_UNPLACED = """
MATCH (r:SourceRecord)
WHERE id(r) >= $lo AND id(r) < $hi AND r.org_id = $org AND NOT (:TimeSlot)-[:STARTS]->(r)"""
NEO4J_UNPLACED = """
MATCH (r:SourceRecord {org_id: $org})
WHERE NOT EXISTS { (:TimeSlot)-[:STARTS]->(r) }"""
# Format 9: a format-8 record with an endpoint on a midnight loses its STARTS and ENDS (both:
# they are made again together), and is placed again, on its tie nodes, by format 8's step.
_ON_MIDNIGHT = f"({_on_midnight('r.start_us')} OR {_on_midnight('r.end_us')})"
FALKOR_UNPLACE = f"""
MATCH (r:SourceRecord)
WHERE id(r) >= $lo AND id(r) < $hi AND r.org_id = $org AND {_ON_MIDNIGHT}
MATCH (:TimeSlot)-[h:STARTS|ENDS]->(r)
DELETE h
RETURN count(h)
"""
NEO4J_UNPLACE = f"""
MATCH (r:SourceRecord {{org_id: $org}})
WHERE {_ON_MIDNIGHT}
CALL (r) {{
  MATCH (:TimeSlot)-[h:STARTS|ENDS]->(r)
  DELETE h
}} IN TRANSACTIONS OF {NEO4J_BATCH_ROWS} ROWS
RETURN count(*)
"""
NEO4J_PLACE = f"""{NEO4J_UNPLACED}
CALL (r) {{{PLACE}
}} IN TRANSACTIONS OF {NEO4J_BATCH_ROWS} ROWS
RETURN count(*)
"""
