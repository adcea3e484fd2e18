"""Every Cypher statement the gateway sends, shared by the FalkorDB and Neo4j adapters.

Rules: values travel only as parameters; the only text composed at run time is a
relationship type taken from the closed `RelationshipType` enum or a fixed fragment from
these modules. Every statement matches on `org_id: $org` (API keys: `$system`).

One module per concept, imported by name where it is used (nothing is re-exported here, so
an import says which statements a module sends):

* `subjects`: subject writes, lookups and filtered pages (`FilterShape`, `recent_window`);
* `relationships`: relationship writes, pages of edges and neighbours, retraction by id;
* `records`: episodes, and source records as read;
* `activity`: source-record writes and retraction, the activity structures they keep, their
  reads and migrations, cohort counts;
* `deletion`: retraction of subjects and episodes, and cleanup of what a run did not see;
* `organisations`: an organisation's labels, counted and dropped;
* `epochs`: the projection-epoch lifecycle's transitions, and the purge of an epoch's data;
* `checkpoints`, `keys` (the system scope), `search`, `results` (and the time the graph
  last changed);
* `_fragments`: projection lists and row assignments the others share.
"""
