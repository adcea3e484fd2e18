"""Writes of the in-memory graph: a WriteBatch in order, a run of same-typed elements at a
time as the Cypher adapters write it (a tombstone after an element retracts it, an element
after its tombstone restores it), and complete-snapshot cleanup."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from engine.domain.models import (
    ElementType,
    Episode,
    ProjectionElement,
    Relationship,
    SourceRecord,
    StoredSubject,
    Subject,
    SubjectKind,
    Tombstone,
    key_kind,
    subject_id,
)
from engine.domain.text import search_text
from engine.memory import search
from engine.memory.data import OrgData, StoredEdge, SubjectNode
from engine.ports import RoundTrips, WriteBatch

if TYPE_CHECKING:
    from engine.domain.embedding import Embedder


def put_subject(data: OrgData, org_id: str, subject: Subject, source: str, run_id: str) -> None:
    """The whole subject replaces whatever had its key, a stub included."""
    fields = {name: getattr(subject, name) for name in Subject.model_fields}
    fields["attributes"] = dict(sorted(subject.attributes.items()))
    fields["source"] = subject.source or source
    stored = StoredSubject.model_construct(**fields, id=subject_id(org_id, subject.key))
    text = search_text(subject.kind.value, subject.name, subject.aliases,
                       subject.previous_names, dict(subject.attributes))  # fmt: skip
    data.subjects[subject.key] = SubjectNode(stored, text, run_id)


def ensure_stubs(data: OrgData, org_id: str, keys: set[str]) -> None:
    """A referenced subject not loaded yet: identity only, no window, no owning load."""
    for key in sorted(keys - data.subjects.keys()):
        kind, name = key_kind(key), key.split(":", 1)[1][:200]
        stub = StoredSubject.model_construct(
            key=key, id=subject_id(org_id, key), kind=SubjectKind(kind), name=name, stub=True
        )
        data.subjects[key] = SubjectNode(stub, search_text(kind, name, [], []), None)


def put_relationship(data: OrgData, rel: Relationship, source: str, run_id: str) -> None:
    if rel.from_key not in data.subjects or rel.to_key not in data.subjects:
        return  # an end retracted in this batch: there is nothing to attach it to
    stored = rel.model_copy(update={"id": rel.rel_id, "source": rel.source or source})
    edge_id = (rel.type.value, rel.from_key, rel.to_key, rel.rel_id)
    data.add_edge(edge_id, StoredEdge(stored, run_id))


def put_episode(data: OrgData, episode: Episode, source: str, run_id: str) -> None:
    """The episode's mentions are what it says now: links it no longer makes are dropped."""
    data.episodes[episode.key] = (
        episode.model_copy(update={"source": episode.source or source}),
        run_id,
    )
    data.mentions[episode.key] = {m for m in episode.mentions if m in data.subjects}


def put_record(data: OrgData, record: SourceRecord, source: str, run_id: str) -> None:
    data.records[record.key] = (record.model_copy(update={"source": record.source or source}),
                                run_id)  # fmt: skip


def retract(data: OrgData, tombstone: Tombstone) -> None:
    if tombstone.target is ElementType.SUBJECT:
        data.remove_subject(tombstone.key)
    elif tombstone.target is ElementType.RELATIONSHIP:
        for edge_id in [e for e in data.edges if e[3] == tombstone.key]:
            data.remove_edge(edge_id)
    elif tombstone.target is ElementType.EPISODE:
        data.remove_episode(tombstone.key)
    else:
        data.records.pop(tombstone.key, None)


def delete_unseen(data: OrgData, source: str, run_id: str) -> int:
    """Delete what `source` wrote before and not in run `run_id` (stubs belong to no load)."""
    edges = [
        edge_id
        for edge_id, edge in data.edges.items()
        if edge.relationship.source == source and edge.run_id != run_id
    ]
    for edge_id in edges:
        data.remove_edge(edge_id)
    subjects = [
        key
        for key, node in data.subjects.items()
        if node.run_id is not None and node.subject.source == source and node.run_id != run_id
    ]
    for key in subjects:
        data.remove_subject(key)
    episodes = [k for k, (e, run) in data.episodes.items() if e.source == source and run != run_id]
    for key in episodes:
        data.remove_episode(key)
    records = [k for k, (r, run) in data.records.items() if r.source == source and run != run_id]
    for key in records:
        del data.records[key]
    return len(edges) + len(subjects) + len(episodes) + len(records)


async def write_batch(
    data: OrgData, org_id: str, batch: WriteBatch, embedder: Embedder | None, trips: RoundTrips
) -> None:
    """Runs of same-typed elements in input order, one round trip each, as the Cypher
    adapters write them."""
    for _, run_of in groupby(batch.elements, key=type):
        trips.add()
        await _write_run(data, org_id, list(run_of), batch, embedder)


async def _write_run(
    data: OrgData,
    org: str,
    elements: list[ProjectionElement],
    batch: WriteBatch,
    embedder: Embedder | None,
) -> None:
    source, run = batch.source, batch.run_id
    first = elements[0]
    if isinstance(first, Subject):
        subjects_ = [e for e in elements if isinstance(e, Subject)]
        for s in subjects_:
            put_subject(data, org, s, source, run)
        batch.written.update(s.key for s in subjects_)
        await search.write_vectors(data, embedder, [s.key for s in subjects_])
    elif isinstance(first, Relationship):
        rels = [e for e in elements if isinstance(e, Relationship)]
        ends = {k for r in rels for k in (r.from_key, r.to_key)}
        ensure_stubs(data, org, ends - batch.written)
        for rel in rels:
            put_relationship(data, rel, source, run)
    elif isinstance(first, Episode):
        episodes = [e for e in elements if isinstance(e, Episode)]
        mentioned = {k for e in episodes for k in e.mentions}
        ensure_stubs(data, org, mentioned - batch.written)
        for episode in episodes:
            put_episode(data, episode, source, run)
    elif isinstance(first, SourceRecord):
        for record in elements:
            assert isinstance(record, SourceRecord)
            put_record(data, record, source, run)
    else:
        for tombstone in elements:
            assert isinstance(tombstone, Tombstone)
            retract(data, tombstone)
            if tombstone.target is ElementType.SUBJECT:
                batch.written.discard(tombstone.key)
