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
RECORD_FIELDS = ("status", "severity", "environment", "metric", "value", "added", "title")
RECORD_COLUMNS = (
    "record_kind", "subject_key", "actor_key", "start_ns", "end_ns", "due_ns", "source",
    "run_id", *RECORD_FIELDS, "day", "start_us", "end_us", "digest",
)  # fmt: skip
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


def instant(ns: int) -> datetime:
    moment = from_ns(ns)
    assert moment is not None
    return moment


def episode_from(props: Mapping[str, Any]) -> Episode:
    return Episode.model_construct(
        key=props["key"],
        occurred_at=instant(props["occurred_at_ns"]),
        text=props.get("text") or "",
        mentions=list(props.get("mention_keys") or ()),
        source=props.get("source"),
    )


def bind_span(params: dict[str, Any], at: TimeSpan | None) -> bool:
    """$t_start and $t_end bound to `at`'s bounds; whether there was a span to bind (the
    statement is then the timed one)."""
    if at is None:
        return False
    params["t_start"], params["t_end"] = at.start_ns, at.end_ns
    return True
