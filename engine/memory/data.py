"""What one organisation's in-memory graph holds, and the rules every read shares.

Elements are kept as the models the port hands back (a subject with its id and resolved
source, a relationship with its identity), so a read returns what was stored without any
conversion; the few facts a store keeps beside them (the load run, the search text, the
vector) sit next to each one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.domain.models import Episode, Relationship, SourceRecord, StoredSubject, to_ns
from engine.ports import Checkpoint, StoredResult, TimeSpan

_TOKEN = re.compile(r"[0-9a-z]+")

# (relationship type, start key, end key, relationship id): the identity a relationship is
# merged on, as in the Cypher adapters (the same id between other ends is another edge).
EdgeId = tuple[str, str, str, str]


def admitted(
    valid_from: datetime | None, valid_to: datetime | None, span: TimeSpan | None
) -> bool:
    """A half-open window [valid_from, valid_to) overlaps the closed span; no span: always."""
    if span is None:
        return True
    start, end = to_ns(valid_from), to_ns(valid_to)
    return (start is None or start <= span.end_ns) and (end is None or end > span.start_ns)


def attribute_pair(name: str, value: Any) -> str:
    """Attribute filters compare JSON encodings: 1, 1.0 and true are three values."""
    return f"{name}={json.dumps(value, sort_keys=True)}"


def brief(subject: StoredSubject) -> StoredSubject:
    """Identity only (key, id, kind, name), every other field at its default."""
    return StoredSubject.model_construct(
        key=subject.key, id=subject.id, kind=subject.kind, name=subject.name
    )


@dataclass
class SubjectNode:
    subject: StoredSubject
    text: str  # the search text (engine.domain.text.search_text)
    run_id: str | None  # None for a stub: no load owns it
    tokens: tuple[str, ...] = ()
    pairs: frozenset[str] = frozenset()
    vector: Any = None  # numpy row, rounded as the Cypher adapters store it
    stamp: str | None = None  # the identity of the embedder that made `vector`

    def __post_init__(self) -> None:
        self.tokens = tuple(_TOKEN.findall(self.text))
        self.pairs = frozenset(attribute_pair(k, v) for k, v in self.subject.attributes.items())


@dataclass
class StoredEdge:
    relationship: Relationship  # id is its rel_id; source resolved
    run_id: str


@dataclass
class Results:
    """Investigation results, immutable once saved, and the projection epoch."""

    saved: dict[str, tuple[StoredResult, tuple[str, ...], str | None]] = field(
        default_factory=dict
    )
    epoch: int | None = None


@dataclass
class OrgData:
    subjects: dict[str, SubjectNode] = field(default_factory=dict)
    edges: dict[EdgeId, StoredEdge] = field(default_factory=dict)
    # Edge identities by either end, so a subject's edges are found without a scan.
    touching: dict[str, set[EdgeId]] = field(default_factory=dict)
    episodes: dict[str, tuple[Episode, str]] = field(default_factory=dict)
    mentions: dict[str, set[str]] = field(default_factory=dict)  # episode key -> subject keys
    records: dict[str, tuple[SourceRecord, str]] = field(default_factory=dict)
    checkpoints: dict[str, Checkpoint] = field(default_factory=dict)
    vector_stamp: str | None = None  # whose vectors these are; None: none made yet
    results: Results = field(default_factory=Results)

    def add_edge(self, edge_id: EdgeId, edge: StoredEdge) -> None:
        self.edges[edge_id] = edge
        for end in (edge_id[1], edge_id[2]):
            self.touching.setdefault(end, set()).add(edge_id)

    def remove_edge(self, edge_id: EdgeId) -> None:
        if self.edges.pop(edge_id, None) is not None:
            for end in (edge_id[1], edge_id[2]):
                self.touching.get(end, set()).discard(edge_id)

    def remove_subject(self, key: str) -> bool:
        """Delete a subject with every relationship and mention that touches it."""
        if self.subjects.pop(key, None) is None:
            return False
        for edge_id in list(self.touching.pop(key, ())):
            self.remove_edge(edge_id)
        for linked in self.mentions.values():
            linked.discard(key)
        return True

    def remove_episode(self, key: str) -> bool:
        self.mentions.pop(key, None)
        return self.episodes.pop(key, None) is not None
