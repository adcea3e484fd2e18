"""Conversion between domain models and the property maps stored on nodes and edges."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from engine.domain.models import (
    Episode,
    Relationship,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    Subject,
    SubjectKind,
    from_ns,
    key_kind,
    subject_id,
    to_ns,
)
from engine.domain.text import search_text
from engine.ports import TimeSpan

M = TypeVar("M", bound=BaseModel)

# Write rows are positional lists, [identity..., *columns]: FalkorDB receives parameters as
# literal text, and repeating every property name in every row doubled the text it parses.
SUBJECT_COLUMNS = (
    "id", "kind", "name", "aliases", "previous_names", "description", "attributes",
    "attr_pairs", "valid_from_ns", "valid_to_ns", "search_text", "source", "run_id", "stub",
    "digest",
)  # fmt: skip
RELATIONSHIP_COLUMNS = ("valid_from_ns", "valid_to_ns", "evidence", "source", "run_id", "digest")
EPISODE_COLUMNS = ("occurred_at_ns", "text", "mention_keys", "source", "run_id", "digest")
_RECORD_FIELDS = ("status", "severity", "environment", "metric", "value", "added", "title")
RECORD_COLUMNS = (
    "record_kind", "subject_key", "actor_key", "start_ns", "end_ns", "due_ns", "source",
    "run_id", *_RECORD_FIELDS, "day", "start_us", "end_us", "digest",
)  # fmt: skip
DAY_NS = 86_400_000_000_000  # a record's day (UTC) is floor(start_ns / DAY_NS)
US = 1_000  # nanoseconds per microsecond
# A time slot (graph.cypher.activity's TimeSlot): ten minutes, in microseconds. A record's
# start slot is floor(start_us / SLOT_US), before 1970 too. A record row carries its slots
# after RECORD_COLUMNS, from SLOT_AT: [start slot key, start slot, end slot key, end slot,
# start tie, end tie], the end's null unless the record ends on another slot node than it
# starts. An endpoint on a midnight (UTC) is on its slot's tie node for its subject's key
# prefix (tie_of, format 9: graph.ties says why).
SLOT_US = 600_000_000
DAY_US = DAY_NS // US
SLOT_AT = len(RECORD_COLUMNS) + 1


def us_at_least(t_ns: int) -> int:
    """The least whole microsecond at or after t_ns: `x_ns >= t_ns` is `x_us >= this` for a
    time on a whole microsecond, as every stored time is (engine.domain.models.to_ns)."""
    return -(-t_ns // US)


def us_at_most(t_ns: int) -> int:
    """The greatest whole microsecond at or before t_ns (`x_ns <= t_ns` is `x_us <= this`)."""
    return t_ns // US


STUB_COLUMNS = ("id", "kind", "name", "search_text")

# Each written row's last column (before a record's slots) is its `digest`: a hash of what the
# row writes, less the load run that wrote it (and a subject's id, made from the organisation
# and the key), stored on the element. A load that finds an element's stored digest equal to
# its row's skips the write (graph.unchanged): re-ingesting a file is then a read per batch.
# Keyed by the columns, so a row that writes other properties never matches an old digest.
_DIGEST_KEY = hashlib.blake2b(
    repr((SUBJECT_COLUMNS, RELATIONSHIP_COLUMNS, EPISODE_COLUMNS, RECORD_COLUMNS)).encode(),
    digest_size=32,
).digest()


def _json_encoder() -> Callable[[list[Any]], str]:
    """json.dumps(values, separators=(",", ":"), default=str), its encoder made once: a
    digest is taken of every row a load writes, and making the encoder was most of its time
    (the keyed hash is copied, not keyed again, for the same reason)."""
    make = getattr(json.encoder, "c_make_encoder", None)  # the C accelerator, undeclared
    if make is None:  # no C accelerator: the same text, slower
        return json.JSONEncoder(separators=(",", ":"), default=str).encode
    # (markers, default, encoder, indent, key_separator, item_separator, sort_keys,
    # skipkeys, allow_nan) as json.JSONEncoder.iterencode passes them; no markers: a row
    # holds no cycle.
    encode = make(None, str, json.encoder.encode_basestring_ascii, None, ":", ",",
                  False, False, True)  # fmt: skip
    return lambda values: "".join(encode(values, 0))


_DIGEST_JSON = _json_encoder()
_DIGEST_HASH = hashlib.blake2b(digest_size=8, key=_DIGEST_KEY)


def digest(values: list[Any]) -> int:
    """A signed 64-bit integer (stored in a node's own property slot, no string)."""
    hashed = _DIGEST_HASH.copy()
    hashed.update(_DIGEST_JSON(values).encode())
    return int.from_bytes(hashed.digest(), "big", signed=True)


# Reads return positional values, not property maps: only what a reader needs, and a list
# parses faster than a map that names every property again.
SUBJECT_FIELDS = (
    "key", "id", "kind", "name", "aliases", "previous_names", "description", "attributes",
    "valid_from_ns", "valid_to_ns", "source", "stub",
)  # fmt: skip
SUBJECT_BRIEF_FIELDS = SUBJECT_FIELDS[:4]  # key, id, kind, name
# What a GraphQL selection of identity reads (its `id` is made from the key, not stored).
SUBJECT_IDENTITY_FIELDS = ("key", "kind", "name")
RELATIONSHIP_FIELDS = ("id", "valid_from_ns", "valid_to_ns", "evidence", "source")


# json.dumps(value, sort_keys=True), its encoder made once (a subject row writes its
# attributes whole and each as a pair).
_SORTED_JSON = json.JSONEncoder(sort_keys=True).encode


def attr_pair(name: str, value: object) -> str:
    return f"{name}={_SORTED_JSON(value)}"


def subject_row(org_id: str, subject: Subject, source: str, run_id: str) -> list[Any]:
    row = [
        subject.key,
        subject_id(org_id, subject.key),
        subject.kind.value,
        subject.name,
        list(subject.aliases),
        list(subject.previous_names),
        subject.description,
        _SORTED_JSON(subject.attributes),
        [attr_pair(k, v) for k, v in sorted(subject.attributes.items())],
        to_ns(subject.valid_from),
        to_ns(subject.valid_to),
        search_text(
            subject.kind.value,
            subject.name,
            subject.aliases,
            subject.previous_names,
            dict(subject.attributes),
        ),
        subject.source or source,
        run_id,
        False,
    ]
    row.append(digest([row[0], *row[2:13], row[14]]))  # neither its id nor run_id
    return row


def stub_row(org_id: str, key: str) -> list[Any]:
    kind = key_kind(key)
    name = key.split(":", 1)[1][:200]
    return [key, subject_id(org_id, key), kind, name, search_text(kind, name, [], [])]


# A dictionary lookup instead of the enum's call, for every subject read (an unknown value
# still goes through the call, which refuses it).
KINDS = {kind.value: kind for kind in SubjectKind}


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """A model from values read back from the graph and shaped here: every field present
    and already of its type. pydantic's `model_construct` walks every field again for
    defaults and aliases, which for the hundreds of rows of one dashboard page cost more than
    parsing them; this sets the same four slots it sets."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", set(values))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


def subject_from(values: list[Any]) -> StoredSubject:
    """A subject from the values of SUBJECT_FIELDS, or of SUBJECT_BRIEF_FIELDS, in order."""
    if len(values) == len(SUBJECT_BRIEF_FIELDS):
        return _brief_subject(values)
    key, id_, kind, name, aliases, previous, description, attrs, vf, vt, source, stub = values
    return trusted(
        StoredSubject,
        {
            "valid_from": from_ns(vf),
            "valid_to": from_ns(vt),
            "key": key,
            "kind": KINDS.get(kind) or SubjectKind(kind),
            "name": name,
            "aliases": list(aliases or ()),
            "previous_names": list(previous or ()),
            "description": description or "",
            "attributes": json.loads(attrs) if attrs else {},
            "source": source,
            "stub": bool(stub),
            "id": id_,
        },
    )


def _brief_subject(values: list[Any]) -> StoredSubject:
    """subject_from's answer for identity alone (what the rest of the fields read as None
    give), built without the conversions: most subjects of a dashboard page are these."""
    key, id_, kind, name = values
    return trusted(
        StoredSubject,
        {
            "valid_from": None,
            "valid_to": None,
            "key": key,
            "kind": KINDS.get(kind) or SubjectKind(kind),
            "name": name,
            "aliases": [],
            "previous_names": [],
            "description": "",
            "attributes": {},
            "source": None,
            "stub": False,
            "id": id_,
        },
    )


def relationship_row(rel: Relationship, source: str, run_id: str) -> list[Any]:
    row = [
        rel.from_key,
        rel.to_key,
        rel.rel_id,
        to_ns(rel.valid_from),
        to_ns(rel.valid_to),
        rel.evidence,
        rel.source or source,
    ]
    return [*row, run_id, digest([rel.type.value, *row])]


def relationship_from(rel_type: str, values: list[Any], from_key: str, to_key: str) -> Relationship:
    """A relationship from the values of RELATIONSHIP_FIELDS, in order."""
    id_, vf, vt, evidence, source = values
    return trusted(
        Relationship,
        {
            "valid_from": from_ns(vf),
            "valid_to": from_ns(vt),
            "type": RelationshipType(rel_type),
            "from_key": from_key,
            "to_key": to_key,
            "id": id_,
            "evidence": evidence,
            "source": source,
        },
    )


def episode_row(episode: Episode, source: str, run_id: str) -> list[Any]:
    mentions = list(episode.mentions)
    row = [
        episode.key,
        mentions,
        to_ns(episode.occurred_at),
        episode.text,
        mentions,
        episode.source or source,
    ]
    return [*row, run_id, digest(row)]


def _instant(ns: int) -> datetime:
    moment = from_ns(ns)
    assert moment is not None
    return moment


def episode_from(props: Mapping[str, Any]) -> Episode:
    return Episode.model_construct(
        key=props["key"],
        occurred_at=_instant(props["occurred_at_ns"]),
        text=props.get("text") or "",
        mentions=list(props.get("mention_keys") or ()),
        source=props.get("source"),
    )


def source_record_row(record: SourceRecord, source: str, run_id: str) -> list[Any]:
    start, end = to_ns(record.start), to_ns(record.end)  # each once: ingest's hot path
    start_us, end_us = _us(start), _us(end)
    row = [
        record.key,
        record.record_kind.value,
        record.subject,
        record.actor,
        start,
        end,
        to_ns(record.due),
        record.source or source,
        run_id,
        record.status,
        record.severity,
        record.environment,
        record.metric,
        record.value,
        record.added,
        record.title,  # the seven before `day` are _RECORD_FIELDS, in order
        (start or 0) // DAY_NS,
        # The times again in microseconds, for the range indexes: FalkorDB's range index
        # holds doubles, and at nanoseconds since the epoch (past 2**53) a range read there
        # walked most of the index (170 ms for 576 of 1.25M records; 1 ms in microseconds).
        start_us,
        end_us,
    ]
    row.append(digest([*row[:8], *row[9:]]))  # all but run_id
    return row + slots(record.record_kind.value, record.subject, start_us, end_us)


def _us(t_ns: int | None) -> int | None:
    return None if t_ns is None else t_ns // US


def slot_key(kind: str, slot: int, tie: str | None = None) -> str:
    """A TimeSlot's identity: a text, as RecordDay's (graph.cypher.activity); a midnight's
    tie node's names its tie too."""
    return f"{kind}:{slot}" if tie is None else f"{kind}:{slot}:{tie}"


def tie_of(subject_key: str) -> str:
    """The tie node of a midnight a subject's records there are on: its key's kind, the colon
    and the first character after it. A prefix of the key, so the ties in their order hold
    the keys in theirs (graph.ties). graph.dialect's migration computes the same in Cypher."""
    return subject_key[: len(subject_key.split(":", 1)[0]) + 2]


def _endpoint(kind: str, at_us: int, subject_key: str) -> tuple[str, int, str | None]:
    n = at_us // SLOT_US
    tie = tie_of(subject_key) if at_us % DAY_US == 0 else None
    return slot_key(kind, n, tie), n, tie


def slots(kind: str, subject_key: str, start_us: int | None, end_us: int | None) -> list[Any]:
    """[start slot key, start slot, end slot key, end slot, start tie, end tie] of a record
    (SLOT_AT)."""
    first, n, tie = _endpoint(kind, start_us or 0, subject_key)
    if end_us is None:
        return [first, n, None, None, tie, None]
    last, m, end_tie = _endpoint(kind, end_us, subject_key)
    if last == first:
        return [first, n, None, None, tie, None]
    return [first, n, last, m, tie, end_tie]


_RECORD = {name: i for i, name in enumerate(("key", *RECORD_COLUMNS))}


def record_summary(data: list[list[Any]]) -> tuple[list[list[Any]], list[list[Any]]]:
    """What a batch of record rows adds to the activity structures (graph.cypher.activity):
    records per [kind, day, n], and each subject's [key, latest time] (end, else start)."""
    kind, day, subject = _RECORD["record_kind"], _RECORD["day"], _RECORD["subject_key"]
    start, end = _RECORD["start_ns"], _RECORD["end_ns"]
    days: dict[tuple[str, int], int] = {}
    latest: dict[str, int] = {}
    for row in data:
        bucket = (row[kind], row[day])
        days[bucket] = days.get(bucket, 0) + 1
        t = row[end] if row[end] is not None else row[start]
        if t > latest.get(row[subject], -1):
            latest[row[subject]] = t
    return (
        [[k, d, n] for (k, d), n in days.items()],
        [[k, t] for k, t in latest.items()],
    )


def record_slots(data: list[list[Any]]) -> list[list[Any]]:
    """The distinct time slots of a batch of record rows, [key, kind, n, tie] each, start and
    end (graph.cypher.activity merges them before placing the records)."""
    kind = _RECORD["record_kind"]
    out: dict[str, list[Any]] = {}
    for row in data:
        for at, tie in ((SLOT_AT, SLOT_AT + 4), (SLOT_AT + 2, SLOT_AT + 5)):
            if row[at] is not None and row[at] not in out:
                out[row[at]] = [row[at], row[kind], row[at + 1], row[tie]]
    return list(out.values())


def source_record_from(props: Mapping[str, Any]) -> SourceRecord:
    values: dict[str, Any] = {name: props.get(name) for name in _RECORD_FIELDS}
    values["title"] = values["title"] or ""
    return SourceRecord.model_construct(
        key=props["key"],
        record_kind=SourceRecordKind(props["record_kind"]),
        subject=props["subject_key"],
        actor=props.get("actor_key"),
        start=_instant(props["start_ns"]),
        end=from_ns(props.get("end_ns")),
        due=from_ns(props.get("due_ns")),
        source=props.get("source"),
        **values,
    )


def bind_span(params: dict[str, Any], at: TimeSpan | None) -> bool:
    """$t_start and $t_end bound to `at`'s bounds; whether there was a span to bind (the
    statement is then the timed one)."""
    if at is None:
        return False
    params["t_start"], params["t_end"] = at.start_ns, at.end_ns
    return True
