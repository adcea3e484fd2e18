"""Conversion between domain models and the property maps stored on nodes and edges."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engine.models import (
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

MAX_SEARCH_FIELD = 200

# Write rows are positional lists, [identity..., *columns]: FalkorDB receives parameters as
# literal text, and repeating every property name in every row doubled the text it parses.
SUBJECT_COLUMNS = (
    "id", "kind", "name", "aliases", "previous_names", "description", "attributes",
    "attr_pairs", "valid_from_ns", "valid_to_ns", "search_text", "source", "run_id", "stub",
)  # fmt: skip
RELATIONSHIP_COLUMNS = ("valid_from_ns", "valid_to_ns", "evidence", "source", "run_id")
EPISODE_COLUMNS = ("occurred_at_ns", "text", "mention_keys", "source", "run_id")
_RECORD_FIELDS = ("status", "severity", "environment", "metric", "value", "title")
RECORD_COLUMNS = (
    "record_kind", "subject_key", "actor_key", "start_ns", "end_ns", "due_ns", "source",
    "run_id", *_RECORD_FIELDS,
)  # fmt: skip
STUB_COLUMNS = ("id", "kind", "name", "search_text")


def search_text(kind: str, name: str, aliases: list[str], previous: list[str]) -> str:
    """One composition used by every retrieval arm; aliases and previous names always kept."""
    parts = [name[:MAX_SEARCH_FIELD], kind.replace("_", " ")]
    parts += [a[:MAX_SEARCH_FIELD] for a in aliases]
    parts += [p[:MAX_SEARCH_FIELD] for p in previous]
    return " | ".join(parts)


def attr_pair(name: str, value: object) -> str:
    return f"{name}={json.dumps(value, sort_keys=True)}"


def subject_row(org_id: str, subject: Subject, source: str, run_id: str) -> list[Any]:
    return [
        subject.key,
        subject_id(org_id, subject.key),
        subject.kind.value,
        subject.name,
        list(subject.aliases),
        list(subject.previous_names),
        subject.description,
        json.dumps(subject.attributes, sort_keys=True),
        [attr_pair(k, v) for k, v in sorted(subject.attributes.items())],
        to_ns(subject.valid_from),
        to_ns(subject.valid_to),
        search_text(subject.kind.value, subject.name, subject.aliases, subject.previous_names),
        subject.source or source,
        run_id,
        False,
    ]


def stub_row(org_id: str, key: str) -> list[Any]:
    kind = key_kind(key)
    name = key.split(":", 1)[1][:200]
    return [key, subject_id(org_id, key), kind, name, search_text(kind, name, [], [])]


def subject_from(props: Mapping[str, Any]) -> StoredSubject:
    return StoredSubject.model_construct(
        id=props["id"],
        key=props["key"],
        kind=SubjectKind(props["kind"]),
        name=props["name"],
        aliases=list(props.get("aliases") or ()),
        previous_names=list(props.get("previous_names") or ()),
        description=props.get("description") or "",
        attributes=json.loads(props.get("attributes") or "{}"),
        valid_from=from_ns(props.get("valid_from_ns")),
        valid_to=from_ns(props.get("valid_to_ns")),
        source=props.get("source"),
        stub=bool(props.get("stub")),
    )


def relationship_row(rel: Relationship, source: str, run_id: str) -> list[Any]:
    return [
        rel.from_key,
        rel.to_key,
        rel.rel_id,
        to_ns(rel.valid_from),
        to_ns(rel.valid_to),
        rel.evidence,
        rel.source or source,
        run_id,
    ]


def relationship_from(
    rel_type: str, props: Mapping[str, Any], from_key: str, to_key: str
) -> Relationship:
    return Relationship.model_construct(
        type=RelationshipType(rel_type),
        from_key=from_key,
        to_key=to_key,
        id=props.get("id"),
        evidence=props.get("evidence"),
        source=props.get("source"),
        valid_from=from_ns(props.get("valid_from_ns")),
        valid_to=from_ns(props.get("valid_to_ns")),
    )


def episode_row(episode: Episode, source: str, run_id: str) -> list[Any]:
    mentions = list(episode.mentions)
    return [
        episode.key,
        mentions,
        to_ns(episode.occurred_at),
        episode.text,
        mentions,
        episode.source or source,
        run_id,
    ]


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
    return [
        record.key,
        record.record_kind.value,
        record.subject,
        record.actor,
        to_ns(record.start),
        to_ns(record.end),
        to_ns(record.due),
        record.source or source,
        run_id,
        record.status,
        record.severity,
        record.environment,
        record.metric,
        record.value,
        record.title,
    ]  # the last six are _RECORD_FIELDS, in order


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
