"""Episodes and source records as read: an episode's writes (with the subjects it
mentions), pages of episodes and of source records per subject, lookups by key.

Source records are written and retracted in graph.cypher.activity instead: those statements
keep the activity structures that summarise the records in the same statement.
"""

from __future__ import annotations

from graph.cypher._fragments import ALWAYS, assign
from graph.rows import EPISODE_COLUMNS

# An episode row's columns as the properties of an episode created with them (null: not set).
_NEW_EPISODE = ", ".join(f"{c}: row[{i}]" for i, c in enumerate(EPISODE_COLUMNS, 2))

# An episode loaded again mentions what it says now: links to subjects it no longer names go
# (MERGE alone only ever added links, so the episode stayed listed under a subject it had
# stopped mentioning while its `mentions` said otherwise).
MERGE_EPISODES = f"""
UNWIND $rows AS row
MERGE (e:Episode {{org_id: $org, key: row[0]}})
{assign("e", EPISODE_COLUMNS, 2)}
WITH e, row
OPTIONAL MATCH (e)-[gone:MENTIONS]->(o:Subject)
WHERE NOT o.key IN row[1]
DELETE gone
WITH DISTINCT e, row
UNWIND row[1] AS m
MATCH (s:Subject {{org_id: $org, key: m}})
MERGE (e)-[x:MENTIONS {{org_id: $org}}]->(s)
"""


# Episodes the batch's read found absent ($rows as MERGE_EPISODES', each mention once), created
# with their MENTIONS: none to delete, none to merge (half MERGE_EPISODES' server time for a
# batch of 5,000 new episodes at 10k subjects). If another writer made one since the read,
# nothing is written and no row returned (as CREATE_SOURCE_RECORDS), and the writer merges
# them. An episode mentioning nothing keeps its row (the [null]): the statement returns `go`.
CREATE_EPISODES = f"""
UNWIND $rows AS row
OPTIONAL MATCH (held:Episode {{org_id: $org, key: row[0]}})
WITH count(held) AS taken
UNWIND CASE WHEN taken = 0 THEN [1] ELSE [] END AS go
UNWIND $rows AS row
CREATE (e:Episode {{org_id: $org, key: row[0], {_NEW_EPISODE}}})
WITH go, e, row
UNWIND CASE WHEN size(row[1]) = 0 THEN [null] ELSE row[1] END AS m
OPTIONAL MATCH (s:Subject {{org_id: $org, key: m}})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END |
  CREATE (e)-[:MENTIONS {{org_id: $org}}]->(s))
WITH go, count(*) AS mentions
RETURN go
"""

# A request row: [index, key, start_ns, end_ns, limit, after_ns, after_key]; newest first.
# The subject is matched first, in a clause of its own: FalkorDB otherwise scanned every
# episode and walked to the subject.
EPISODES = """
UNWIND $reqs AS q
MATCH (s:Subject {org_id: $org, key: q[1]})
WITH q, s
MATCH (e:Episode)-[x:MENTIONS]->(s)
WHERE e.org_id = $org
  AND (q[2] IS NULL OR e.occurred_at_ns >= q[2]) AND (q[3] IS NULL OR e.occurred_at_ns <= q[3])
  AND (q[5] IS NULL OR e.occurred_at_ns < q[5] OR (e.occurred_at_ns = q[5] AND e.key > q[6]))
WITH q[0] AS i, q[4] AS lim, e
ORDER BY i, e.occurred_at_ns DESC, e.key
WITH i, lim, collect(properties(e)) AS rows
RETURN i, rows[0..lim]
"""

EPISODE_COUNTS = """
UNWIND $reqs AS q
MATCH (s:Subject {org_id: $org, key: q[1]})
WITH q, s
MATCH (e:Episode)-[x:MENTIONS]->(s)
WHERE e.org_id = $org
  AND (q[2] IS NULL OR e.occurred_at_ns >= q[2]) AND (q[3] IS NULL OR e.occurred_at_ns <= q[3])
RETURN q[0], count(e)
"""

EPISODES_BY_KEYS = """
UNWIND $keys AS k
MATCH (e:Episode {org_id: $org, key: k})
RETURN properties(e)
"""

SOURCE_RECORDS_BY_KEYS = """
UNWIND $keys AS k
MATCH (r:SourceRecord {org_id: $org, key: k})
RETURN properties(r)
"""


def source_records_of(timed: bool) -> str:
    window = (
        "r.start_ns <= $t_end AND (r.end_ns IS NULL OR r.end_ns >= $t_start)" if timed else ALWAYS
    )
    # A subject's records are those its Activity node holds (graph.cypher.activity). Each
    # Activity is found first, by its key: with `subject_key IN $keys` beside the walk,
    # FalkorDB scanned every record and walked back to its Activity.
    return f"""
UNWIND $keys AS k
MATCH (v:Activity {{org_id: $org, subject_key: k}})
WITH DISTINCT v
MATCH (v)-[:HOLDS]->(r:SourceRecord)
WHERE (size($kinds) = 0 OR r.record_kind IN $kinds)
  AND {window}
RETURN properties(r)
ORDER BY r.start_ns, r.key
"""


# A request row: [index, subject key, kinds (all when empty), start_ns, end_ns, limit, after
# start_ns, after key]; oldest first, then by key, as `source_records_of` orders. The keyset
# condition skips what earlier pages returned, and only the page leaves the database.
SOURCE_RECORD_PAGES = """
UNWIND $reqs AS q
MATCH (v:Activity {org_id: $org, subject_key: q[1]})-[:HOLDS]->(r:SourceRecord)
WHERE (size(q[2]) = 0 OR r.record_kind IN q[2])
  AND (q[3] IS NULL OR (r.start_ns <= q[4] AND (r.end_ns IS NULL OR r.end_ns >= q[3])))
  AND (q[6] IS NULL OR r.start_ns > q[6] OR (r.start_ns = q[6] AND r.key > q[7]))
WITH q[0] AS i, q[5] AS lim, r
ORDER BY i, r.start_ns, r.key
WITH i, lim, collect(properties(r)) AS rows
RETURN i, rows[0..lim]
"""
