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
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.ports import Checkpoint, UnrepresentableValue
from graph.activity import FORMAT_VERSION
from graph.bulk import BulkGraph, Props
from graph.indexes import falkor_label_order
from graph.rows import EPISODE_COLUMNS, RECORD_COLUMNS, RELATIONSHIP_COLUMNS, SUBJECT_COLUMNS

_LONG = struct.Struct("=Bq")
_DOUBLE = struct.Struct("=Bd")
_ARRAY = struct.Struct("=Bq")
ENDS = struct.Struct("=QQ")
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


def header(label: str, names: tuple[str, ...]) -> bytes:
    parts = [label.encode() + b"\x00", _COUNT.pack(len(names))]
    parts += [n.encode() + b"\x00" for n in names]
    return b"".join(parts)


def values(items: Iterable[Any], before: bytes = b"") -> bytes:
    """Properties in the bulk format, after `before` (`value`'s, the common types first: most
    of a load's time here went to the call per property; a text is three parts joined once
    rather than two concatenations, a fifth less time a record)."""
    out: list[bytes] = [before]
    append = out.append
    try:
        for v in items:
            kind = type(v)
            if v is None:
                append(b"\x00")
            elif kind is str and "\x00" not in v:
                append(b"\x03")
                append(v.encode("utf-8"))
                append(b"\x00")
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
                into[key] = ids.next  # a node's id is its place in the order sent
            ids.next += 1
            yield values(found, org)

    return Table(header(label, names), True, entities())


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
    yield started(ids, scope, run.source, run.run_id)
    yield from contents(graph, scope, stamp, ids)
    yield from summaries(graph.activities.items(), graph.days, scope, ids)
    yield from closing(graph.claimed, scope, stamp, dimension, ids)
    yield from relations(graph, scope, ids)
    yield from holds(graph, ids)
    yield from placed(graph, ids)


def started(ids: NodeIds, scope: str, source: str, run_id: str) -> Table:
    """The run's checkpoint, unfinished (a flip refuses the build until it is finished)."""
    first = [("", {"source": source, "cursor": 0, "digest": "", "run_id": run_id,
                   "finished": False})]  # fmt: skip
    return _nodes(ids, *CHECKPOINT, scope, _in_order(CHECKPOINT[1], first), None)


def contents(
    graph: BulkGraph, scope: str, stamp: str | None, ids: NodeIds, slots: bool = True
) -> Iterator[Table]:
    """The subjects (those with a vector one table: consecutive ids), episodes, records and,
    unless `slots` is off, time slots of `graph`."""
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
    if slots:
        yield slot_table(graph.slots.items(), scope, ids)


def slot_table(items: Iterable[tuple[str, Props]], scope: str, ids: NodeIds) -> Table:
    slots = _in_order(SLOT[1], ((k, {"slot": k, **p}) for k, p in items))
    return _nodes(ids, *SLOT, scope, slots, ids.slots)


def summaries(
    activities: Iterable[tuple[str, Props]], days: dict[tuple[str, int], int], scope: str,
    ids: NodeIds,
) -> Iterator[Table]:  # fmt: skip
    """The Activity nodes and the day counts."""
    yield _nodes(ids, *ACTIVITY, scope, _in_order(ACTIVITY[1], activities), ids.activities)
    counted = (
        (f"{kind}:{day}", [f"{kind}:{day}", kind, day, n]) for (kind, day), n in days.items()
    )
    yield _nodes(ids, *DAY, scope, counted, None)


def closing(
    claimed: bool, scope: str, stamp: str | None, dimension: int, ids: NodeIds
) -> Iterator[Table]:
    """The graph's Format and, if claimed for an embedder, its EmbeddingMeta."""
    # graph.activity's migration of a new graph leaves this; the vectors are on their label.
    fmt = [("", {"activity": FORMAT_VERSION, "vectors": 1})]
    yield _nodes(ids, *FORMAT, scope, _in_order(FORMAT[1], fmt), None)
    if stamp is not None and claimed:
        meta = [("", {"stamp": stamp, "dimension": dimension})]
        yield _nodes(ids, *META, scope, _in_order(META[1], meta), None)


def relations(graph: BulkGraph, scope: str, ids: NodeIds) -> Iterator[Table]:
    """The relationships between subjects, and the episodes' mentions."""
    org = values([scope])
    by_type: dict[str, list[tuple[str, str, Props]]] = {}
    for (rel_type, a, b, _), props in graph.relationships.items():
        by_type.setdefault(rel_type, []).append((a, b, props))
    for rel_type, found in sorted(by_type.items()):
        yield Table(
            header(rel_type, RELATED),
            False,
            (
                ENDS.pack(ids.subjects[a], ids.subjects[b]) + org + _entity(p, RELATED[1:])
                for a, b, p in found
            ),
        )
    mentions = (
        ENDS.pack(ids.episodes[e], ids.subjects[s]) + org
        for e, keys in graph.mentions.items()
        for s in sorted(keys)
    )
    yield Table(header("MENTIONS", ("org_id",)), False, mentions)


def holds(graph: BulkGraph, ids: NodeIds) -> Iterator[Table]:
    found = (
        ENDS.pack(ids.activities[graph.record_subject(row)], ids.records[key])
        for key, row in graph.records.items()
    )
    yield Table(header("HOLDS", ()), False, found)


def placed(graph: BulkGraph, ids: NodeIds) -> Iterator[Table]:
    """Each record's STARTS from its first time slot and ENDS from its last, if another."""
    starts = (
        ENDS.pack(ids.slots[graph.record_slots(row)[0]], ids.records[key])
        for key, row in graph.records.items()
    )
    yield Table(header("STARTS", ()), False, starts)
    ends = (
        ENDS.pack(ids.slots[end], ids.records[key])
        for key, row in graph.records.items()
        if (end := graph.record_slots(row)[1]) is not None
    )
    yield Table(header("ENDS", ()), False, ends)


Send = Callable[[list[Any]], Awaitable[Any]]


class Calls:
    """Tables put into GRAPH.BULK calls of about CALL_BYTES each, BEGIN on the first."""

    def __init__(self, bulk: Send) -> None:
        self._bulk = bulk
        self._first = True
        self._nodes = self._edges = self._size = 0
        # The first call makes each indexed label first, a node table of no nodes each (the
        # header alone), in the order FalkorDB is to build their indexes after a start
        # (graph.indexes.falkor_label_order): made as the tables came, the subjects' vector
        # label was the third, and a reopen built its index (the longest) before the
        # records', Activity nodes' and time slots' that pages read.
        self._tokens: list[tuple[bool, bytes]] = [
            (True, header(label, ("org_id",))) for label in falkor_label_order()
        ]

    async def add(self, table: Table) -> None:
        parts = [table.header]
        count = 0
        for entity in table.entities:
            parts.append(entity)
            count += 1
            self._size += len(entity)
            if self._size >= CALL_BYTES:
                self._token(table.node, parts, count)
                await self.flush()
                parts, count = [table.header], 0
        if count:
            self._token(table.node, parts, count)

    def _token(self, node: bool, parts: list[bytes], count: int) -> None:
        self._tokens.append((node, b"".join(parts)))
        if node:
            self._nodes += count
        else:
            self._edges += count

    async def flush(self) -> None:
        if not self._tokens:
            return
        node_tokens = [t for is_node, t in self._tokens if is_node]
        edge_tokens = [t for is_node, t in self._tokens if not is_node]
        args: list[Any] = ["BEGIN"] if self._first else []
        args += [self._nodes, self._edges, len(node_tokens), len(edge_tokens)]
        await self._bulk([*args, *node_tokens, *edge_tokens])
        self._first, self._nodes, self._edges, self._size = False, 0, 0, 0
        self._tokens.clear()


async def send(
    graph: BulkGraph, scope: str, stamp: str | None, dimension: int, run: Checkpoint, bulk: Send
) -> NodeIds:
    """Every table of `graph` to a new graph key, in calls of about CALL_BYTES; `bulk` sends
    one call's arguments (after GRAPH.BULK and the key). The node ids given."""
    ids = NodeIds()
    calls = Calls(bulk)
    for table in tables(graph, scope, stamp, dimension, ids, run):
        await calls.add(table)
    await calls.flush()
    return ids
