"""What a write tells the rest of the system: change events, per-organisation revisions, and the
persisted GraphQL documents replicas share.

Both live beside the graph (FalkorDB is a Redis-protocol server: its own counters and
publish/subscribe carry them), so every gateway process sees every writer's changes, including
a `fabric ingest` run in another process.
"""

from __future__ import annotations

import enum
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol

from engine.domain.models import ElementType as Element
from engine.domain.models import Episode, Relationship, SourceRecord, Subject, Tombstone, key_kind
from engine.ports.shapes import WriteBatch

ALL_ORGS = "*"  # a RESET for every organisation (the feed itself lost events)


class ChangeKind(enum.StrEnum):
    BATCH = "batch"  # one ingest batch was written
    INVESTIGATION = "investigation"  # an investigation result was saved
    RESET = "reset"  # something changed that no event describes: every reader resyncs


@dataclass(frozen=True, slots=True)
class Change:
    """One write, as subscribers see it.

    subjects: (key, kind) of the subjects whose own data or relationships the write changed.
    subject_keys: every subject the write touched (also through records and episodes).
    record_kinds: the kinds of the source records in the batch.
    bookmarks: where the write stands in the store's transaction order, for stores whose
        readers may lag behind its writer (Neo4j's causal-consistency bookmarks): a reader
        told of the change waits for them before it reads (graph/changes.py).
    """

    org_id: str
    kind: ChangeKind
    revision: int = 0
    source: str = ""
    count: int = 0
    record_kinds: tuple[str, ...] = ()
    subject_keys: tuple[str, ...] = ()
    subjects: tuple[tuple[str, str], ...] = ()
    investigation_id: str = ""
    outcome: str = ""
    at_ns: int = 0
    bookmarks: tuple[str, ...] = ()

    def encode(self) -> str:
        # Field by field, not dataclasses.asdict: asdict deep-copies every key of a batch's
        # tuples first, which cost an ingest batch a fifth of its write time.
        body = {f.name: getattr(self, f.name) for f in fields(self)}
        return json.dumps(body, separators=(",", ":"))

    @classmethod
    def decode(cls, text: str, revision: int) -> Change:
        data: dict[str, Any] = json.loads(text)
        return cls(
            org_id=str(data["org_id"]),
            kind=ChangeKind(data["kind"]),
            revision=revision,
            source=str(data.get("source", "")),
            count=int(data.get("count", 0)),
            record_kinds=tuple(data.get("record_kinds", ())),
            subject_keys=tuple(data.get("subject_keys", ())),
            subjects=tuple((str(k), str(v)) for k, v in data.get("subjects", ())),
            investigation_id=str(data.get("investigation_id", "")),
            outcome=str(data.get("outcome", "")),
            at_ns=int(data.get("at_ns", 0)),
            bookmarks=tuple(str(b) for b in data.get("bookmarks", ())),
        )


def batch_change(org_id: str, batch: WriteBatch) -> Change:
    """What one written batch changed (subjects by key and kind, record kinds, counts)."""
    changed: dict[str, str] = {}
    touched: dict[str, None] = {}
    kinds: dict[str, None] = {}
    for element in batch.elements:
        if isinstance(element, Subject):
            changed[element.key] = element.kind.value
        elif isinstance(element, Relationship):
            for key in (element.from_key, element.to_key):
                changed[key] = key_kind(key)
        elif isinstance(element, Episode):
            touched.update(dict.fromkeys(element.mentions))
        elif isinstance(element, SourceRecord):
            kinds[element.record_kind.value] = None
            touched[element.subject] = None
            if element.actor:
                touched[element.actor] = None
        elif isinstance(element, Tombstone) and element.target is Element.SUBJECT:
            changed[element.key] = key_kind(element.key)
    touched.update(dict.fromkeys(changed))
    return Change(
        org_id=org_id,
        kind=ChangeKind.BATCH,
        source=batch.source,
        count=len(batch.elements),
        record_kinds=tuple(kinds),
        subject_keys=tuple(touched),
        subjects=tuple(changed.items()),
        at_ns=time.time_ns(),
    )


class ChangeFeed(Protocol):
    """shared: every process publishing to this feed reaches every listener (False: only
    listeners in this process, and no revision: HTTP caching is then off)."""

    shared: bool

    async def revision(self, org_id: str) -> int | None:
        """The organisation's revision, bumped by every write (None: not kept)."""
        ...

    async def publish(self, change: Change) -> int:
        """Bump the organisation's revision and tell every listener; returns the revision."""
        ...

    def listen(self) -> AsyncIterator[Change]:
        """Every change of every organisation, from now on, until the iterator is closed. After
        a gap (the connection dropped) it yields a RESET for ALL_ORGS."""
        ...


class DocumentStore(Protocol):
    """GraphQL documents by SHA-256: automatic persisted queries (a bounded, per-organisation
    cache any replica can fill) and trusted documents (registered by an operator)."""

    async def get(self, org_id: str, sha256: str) -> str | None: ...

    async def put(self, org_id: str, sha256: str, text: str) -> None: ...

    async def trusted(self, sha256: str) -> str | None: ...

    async def register(self, documents: Sequence[tuple[str, str]]) -> int:
        """Register (sha256, text) pairs as trusted; returns how many were new."""
        ...
