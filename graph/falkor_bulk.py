"""A bulk load's graph (graph.bulk) sent to FalkorDB with GRAPH.BULK, into a graph key that
does not exist yet (a new epoch's): the protocol of FalkorDB's own loader
(`falkordb-bulk-loader`; the module's src/bulk_insert/bulk_insert.c reads it).

A call is `GRAPH.BULK name [BEGIN] nodes edges node-tokens edge-tokens token...`; BEGIN, on
the first call only, refuses a key that exists. Each token is one label's (or relationship
type's) header, the label text (several labels joined by ':'), a 4-byte property count and
the null-terminated property names, then its entities: a node is its properties in the
header's order, a relationship its source and destination node ids (8 bytes each) then its
properties. A property is a type byte and its value: 0 null (the property is left off), 1 a
bool byte, 2 a double, 3 a null-terminated UTF-8 string, 4 a signed 8-byte integer, 5 an
array (an 8-byte length, then its values). Node ids are given in the order nodes are sent,
from 0 in a new graph, which is how relationships name their ends.

Labels and relationship types are this module's constants and graph.rows' closed enums,
never input. Vectors have no type here: they are set afterwards by node id, as Cypher with
parameters (vecf32), before the indexes are made.
"""

from __future__ import annotations

import struct
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis.exceptions as redis_errors

from engine.ports import Checkpoint, UnrepresentableValue
from graph.activity import FORMAT_VERSION
from graph.bulk import BulkGraph, Props
from graph.epochs import scope_of
from graph.falkor_executor import GraphExecutor, translate
from graph.indexes import falkor_new_graph, falkor_vector_index
from graph.rows import EPISODE_COLUMNS, RECORD_COLUMNS, RELATIONSHIP_COLUMNS, SUBJECT_COLUMNS
from graph.search import as_parameter

_LONG = struct.Struct("=Bq")
_DOUBLE = struct.Struct("=Bd")
_ARRAY = struct.Struct("=Bq")
_ENDS = struct.Struct("=QQ")
_COUNT = struct.Struct("=I")
CALL_BYTES = 16 << 20  # per GRAPH.BULK call: the server answers no one else while it runs

# (label text, property names) of every node table; the subjects with a vector carry both
# labels (graph.indexes.VECTOR_LABEL).
SUBJECT = ("Subject", ("org_id", "key", *SUBJECT_COLUMNS))
EMBEDDED = ("Subject:Embedding", ("org_id", "key", *SUBJECT_COLUMNS, "embedder"))
EPISODE = ("Episode", ("org_id", "key", *EPISODE_COLUMNS))
RECORD = ("SourceRecord", ("org_id", "key", *RECORD_COLUMNS))
ACTIVITY = ("Activity", ("org_id", "subject_key", "subject_kind", "latest_ns", "latest_us"))
DAY = ("RecordDay", ("org_id", "slot", "record_kind", "day", "n"))
SLOT = ("TimeSlot", ("org_id", "slot", "record_kind", "n", "tie"))
FORMAT = ("Format", ("org_id", "activity", "vectors"))
META = ("EmbeddingMeta", ("org_id", "stamp", "dimension"))
CHECKPOINT = ("Checkpoint", ("org_id", "source", "cursor", "digest", "run_id", "finished"))
RELATED = ("org_id", "id", *RELATIONSHIP_COLUMNS)

if TYPE_CHECKING:
    from graph.falkor import FalkorStore


def value(v: Any, out: list[bytes]) -> None:
    """One property in the bulk format, appended to `out`."""
    kind = type(v)
    if v is None:
        out.append(b"\x00")
    elif kind is str:
        if "\x00" in v:  # the format ends a string at its first NUL
            raise UnrepresentableValue("a text holds a NUL character")
        out.append(b"\x03" + v.encode("utf-8") + b"\x00")
    elif kind is bool:
        out.append(b"\x01\x01" if v else b"\x01\x00")
    elif kind is int:
        try:
            out.append(_LONG.pack(4, v))
        except struct.error as exc:
            raise UnrepresentableValue("an integer outside the 64-bit range") from exc
    elif kind is float:
        out.append(_DOUBLE.pack(2, v))
    elif kind is list:
        out.append(_ARRAY.pack(5, len(v)))
        for item in v:
            value(item, out)
    else:
        raise UnrepresentableValue(f"a value of type {kind.__name__}")


def _header(label: str, names: tuple[str, ...]) -> bytes:
    parts = [label.encode() + b"\x00", _COUNT.pack(len(names))]
    parts += [n.encode() + b"\x00" for n in names]
    return b"".join(parts)


def values(items: Iterable[Any]) -> bytes:
    """Properties in the bulk format (`value`'s, the common types first: most of a load's
    time here went to the call per property)."""
    out: list[bytes] = []
    append = out.append
    try:
        for v in items:
            kind = type(v)
            if v is None:
                append(b"\x00")
            elif kind is str and "\x00" not in v:
                append(b"\x03" + v.encode("utf-8") + b"\x00")
            elif kind is int:
                append(_LONG.pack(4, v))
            else:
                value(v, out)
    except struct.error as exc:
        raise UnrepresentableValue("an integer outside the 64-bit range") from exc
    return b"".join(out)


def _entity(props: Props, names: tuple[str, ...]) -> bytes:
    return values([props.get(name) for name in names])


@dataclass
class Table:
    """Entities of one label or type, encoded, with their header."""

    header: bytes
    node: bool
    entities: Iterator[bytes]


class NodeIds:
    """Node ids as a new graph gives them: in the order nodes are sent, from 0."""

    def __init__(self) -> None:
        self.next = 0
        self.subjects: dict[str, int] = {}
        self.episodes: dict[str, int] = {}
        self.records: dict[str, int] = {}
        self.activities: dict[str, int] = {}
        self.slots: dict[str, int] = {}

    def take(self, into: dict[str, int], key: str) -> None:
        into[key] = self.next
        self.next += 1


def _nodes(
    ids: NodeIds, label: str, names: tuple[str, ...], scope: str,
    items: Iterator[tuple[str, list[Any]]], into: dict[str, int] | None,
) -> Table:  # fmt: skip
    """A node table: each item a key and its property values in the order of `names` after
    the first, org_id (the scope, the same for every node)."""
    assert names[0] == "org_id"
    org = values([scope])

    def entities() -> Iterator[bytes]:
        for key, found in items:
            if into is not None:
                ids.take(into, key)
            else:
                ids.next += 1
            yield org + values(found)

    return Table(_header(label, names), True, entities())


def _in_order(
    names: tuple[str, ...], items: Iterable[tuple[str, Props]]
) -> Iterator[tuple[str, list[Any]]]:
    rest = names[1:]
    for key, props in items:
        yield key, [props.get(n) for n in rest]


def tables(
    graph: BulkGraph, scope: str, stamp: str | None, dimension: int, ids: NodeIds, run: Checkpoint
) -> Iterator[Table]:
    """Every node table, then every relationship table, of `graph` in scope `scope`; with a
    `stamp` (an embedder's), the subjects written by a subject record carry it and the
    vector label. `ids` learns each node's id as its table is encoded. First of all, the
    run's checkpoint, unfinished: a flip refuses a build holding one (graph.epochs), so a
    load cut short is never served; `load` finishes it last."""
    started = {"source": run.source, "cursor": 0, "digest": "", "run_id": run.run_id}
    first = [("", started | {"finished": False})]
    yield _nodes(ids, *CHECKPOINT, scope, _in_order(CHECKPOINT[1], first), None)
    vectors = graph.vectors if stamp is not None else {}
    plain = ((k, {"key": k, **p}) for k, p in graph.subjects.items() if k not in vectors)
    embedded = (
        (k, {"key": k, "embedder": stamp, **p}) for k, p in graph.subjects.items() if k in vectors
    )
    yield _nodes(ids, *SUBJECT, scope, _in_order(SUBJECT[1], plain), ids.subjects)
    yield _nodes(ids, *EMBEDDED, scope, _in_order(EMBEDDED[1], embedded), ids.subjects)
    episodes = ((k, {"key": k, **p}) for k, p in graph.episodes.items())
    yield _nodes(ids, *EPISODE, scope, _in_order(EPISODE[1], episodes), ids.episodes)
    # A record's write row is its properties in RECORD's order (graph.rows), its slots after.
    width = len(RECORD[1]) - 1
    records = ((k, row[:width]) for k, row in graph.records.items())
    yield _nodes(ids, *RECORD, scope, records, ids.records)
    activities = _in_order(ACTIVITY[1], graph.activities.items())
    yield _nodes(ids, *ACTIVITY, scope, activities, ids.activities)
    days = (
        (f"{kind}:{day}", [f"{kind}:{day}", kind, day, n])
        for (kind, day), n in graph.days.items()
    )
    yield _nodes(ids, *DAY, scope, days, None)
    slots = _in_order(SLOT[1], ((k, {"slot": k, **p}) for k, p in graph.slots.items()))
    yield _nodes(ids, *SLOT, scope, slots, ids.slots)
    # graph.activity's migration of a new graph leaves this; the vectors are on their label.
    fmt = [("", {"activity": FORMAT_VERSION, "vectors": 1})]
    yield _nodes(ids, *FORMAT, scope, _in_order(FORMAT[1], fmt), None)
    if stamp is not None and graph.claimed:
        meta = [("", {"stamp": stamp, "dimension": dimension})]
        yield _nodes(ids, *META, scope, _in_order(META[1], meta), None)
    yield from _edges(graph, scope, ids)


def _edges(graph: BulkGraph, scope: str, ids: NodeIds) -> Iterator[Table]:
    org = values([scope])
    by_type: dict[str, list[tuple[str, str, Props]]] = {}
    for (rel_type, a, b, _), props in graph.relationships.items():
        by_type.setdefault(rel_type, []).append((a, b, props))
    for rel_type, found in sorted(by_type.items()):
        yield Table(
            _header(rel_type, RELATED),
            False,
            (
                _ENDS.pack(ids.subjects[a], ids.subjects[b]) + org + _entity(p, RELATED[1:])
                for a, b, p in found
            ),
        )
    mentions = (
        _ENDS.pack(ids.episodes[e], ids.subjects[s]) + org
        for e, keys in graph.mentions.items()
        for s in sorted(keys)
    )
    yield Table(_header("MENTIONS", ("org_id",)), False, mentions)
    holds = (
        _ENDS.pack(ids.activities[graph.record_subject(row)], ids.records[key])
        for key, row in graph.records.items()
    )
    yield Table(_header("HOLDS", ()), False, holds)
    starts = (
        _ENDS.pack(ids.slots[graph.record_slots(row)[0]], ids.records[key])
        for key, row in graph.records.items()
    )
    yield Table(_header("STARTS", ()), False, starts)
    ends = (
        _ENDS.pack(ids.slots[end], ids.records[key])
        for key, row in graph.records.items()
        if (end := graph.record_slots(row)[1]) is not None
    )
    yield Table(_header("ENDS", ()), False, ends)


Send = Callable[[list[Any]], Awaitable[Any]]


async def send(
    graph: BulkGraph, scope: str, stamp: str | None, dimension: int, run: Checkpoint, bulk: Send
) -> NodeIds:
    """Every table of `graph` to a new graph key, in calls of about CALL_BYTES; `bulk` sends
    one call's arguments (after GRAPH.BULK and the key). The node ids given."""
    ids = NodeIds()
    first = True
    nodes = edges = size = 0
    tokens: list[tuple[bool, bytes]] = []

    async def flush() -> None:
        nonlocal first, nodes, edges, size
        if not tokens:
            return
        node_tokens = [t for is_node, t in tokens if is_node]
        edge_tokens = [t for is_node, t in tokens if not is_node]
        args: list[Any] = ["BEGIN"] if first else []
        args += [nodes, edges, len(node_tokens), len(edge_tokens), *node_tokens, *edge_tokens]
        await bulk(args)
        first, nodes, edges, size = False, 0, 0, 0
        tokens.clear()

    for table in tables(graph, scope, stamp, dimension, ids, run):
        parts = [table.header]
        count = 0
        for entity in table.entities:
            parts.append(entity)
            count += 1
            size += len(entity)
            if size >= CALL_BYTES:
                tokens.append((table.node, b"".join(parts)))
                nodes, edges = (nodes + count, edges) if table.node else (nodes, edges + count)
                await flush()
                parts, count = [table.header], 0
        if count:
            tokens.append((table.node, b"".join(parts)))
            nodes, edges = (nodes + count, edges) if table.node else (nodes, edges + count)
    await flush()
    return ids


# Vectors by node id, before any index exists (graph.search writes them by key): the subjects
# with a vector have consecutive ids (one table), and a range of ids is read by FalkorDB's
# "Node By Label and ID Scan"; an id from each row of an UNWIND was a scan of every subject
# per row (8,011 vectors took 59.8 s).
SET_VECTORS = """
MATCH (s:Subject)
WHERE id(s) >= $lo AND id(s) < $hi
SET s.embedding = vecf32($vectors[id(s) - $lo])
"""
VECTOR_BATCH = 4_096


async def load(
    store: FalkorStore, org_id: str, epoch: int, graph: BulkGraph, done: Checkpoint
) -> None:
    """`graph` as epoch `epoch` of `org_id` (a build: never epoch 0, which is served and holds
    the results): whatever a load cut short left there deleted, every node and relationship
    sent, the vectors set, the graph bootstrapped (its indexes built), and last `done`, the
    checkpoint that says the build is whole. A line on stderr after each step, with its
    time."""
    from graph.falkor import GRAPH_PREFIX

    if epoch == 0:
        raise ValueError("a bulk load builds a new epoch, never epoch 0")
    scope = scope_of(org_id, epoch)
    name = GRAPH_PREFIX + scope
    await store.forget_graph(org_id, epoch)
    embedder = store.embedder
    stamp = embedder.identity.stamp() if embedder is not None else None
    dimension = embedder.identity.dimension if embedder is not None else 0
    connection = store.client.connection
    step = _Steps(name)

    async def bulk(args: list[Any]) -> None:
        try:
            await connection.execute_command("GRAPH.BULK", name, *args)
        except (redis_errors.RedisError, OSError) as exc:
            raise translate(exc) from exc

    ids = await send(graph, scope, stamp, dimension, done, bulk)
    step(f"{ids.next:,} nodes and their relationships sent")
    if embedder is not None:
        executor = GraphExecutor(store, name)
        keys = sorted(graph.vectors, key=ids.subjects.__getitem__)
        for at in range(0, len(keys), VECTOR_BATCH):
            some = keys[at : at + VECTOR_BATCH]
            lo = ids.subjects[some[0]]
            assert ids.subjects[some[-1]] == lo + len(some) - 1  # one table: consecutive
            vectors = as_parameter(await embedder.embed([graph.vectors[k] for k in some]))
            await executor.change(SET_VECTORS, {"lo": lo, "hi": lo + len(some), "vectors": vectors})
        step(f"{len(keys):,} vectors set")
    # Each label's index in one statement (graph.indexes.falkor_new_graph); the bootstrap's
    # statements below then find every field indexed already.
    schema = GraphExecutor(store, name)
    for statement in falkor_new_graph() + (
        falkor_vector_index(dimension) if embedder is not None else ()
    ):
        await schema.change(statement, {})
    scoped = store.org(org_id, epoch)
    await scoped.save_checkpoint(done)  # its first write: the bootstrap, indexes built, first
    step("indexes built, checkpoint finished")


class _Steps:
    """Prints `fabric: GRAPH: bulk load: WHAT (N.N s)`, the seconds since the step before."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._at = time.monotonic()

    def __call__(self, what: str) -> None:
        now = time.monotonic()
        print(f"fabric: {self._name}: bulk load: {what} ({now - self._at:.1f} s)", file=sys.stderr)
        self._at = now
