"""Which elements of a batch are unchanged, and so not written again: re-ingesting a file is a
read of the batch's stored digests (graph.rows) instead of a rewrite.

An element is unchanged when its stored digest equals its row's and nothing written before it
may have changed it since that digest was read. The read is made once per batch, before any
of it is written and while the batch before may still be in flight (graph.projection prepares
one batch while the store writes the one before): so what that batch and the earlier part of
this one write or retract (`Touched`) is never taken as unchanged. Beyond the digest:

* a subject is written again if its vector is another embedder's than this load's, or if this
  load has one and it has none (a load without one wrote it);
* an episode is written again if it lost a mention link (a subject's retraction deletes its
  links, which leaves the episode's digest as it was).

A relationship and a record carry all they own in their digest (a subject's retraction takes
its relationships with it, digest and all; a record's activity structures follow its row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.domain.models import (
    ElementType,
    Episode,
    Relationship,
    RelationshipType,
    SourceRecord,
    Subject,
    Tombstone,
)
from graph.cypher import digests as digests_cypher
from graph.executor import Run
from graph.rows import RECORD_COLUMNS

Pair = tuple[Any, list[Any] | None]  # an element and its write row (None: a tombstone)
Identity = tuple[str, ...]
# A record row's digest is its last column, before its slots; every other row ends with it.
_RECORD_DIGEST = RECORD_COLUMNS.index("digest") + 1

_TOMBSTONED = {
    ElementType.SUBJECT: "X",  # its relationships and mention links went with it
    ElementType.RELATIONSHIP: "R",  # by id: of any type and ends
    ElementType.EPISODE: "E",
    ElementType.SOURCE_RECORD: "C",
}


def _identity(element: Any) -> Identity:
    if isinstance(element, Subject):
        return ("S", element.key)
    if isinstance(element, Relationship):
        return ("L", element.type.value, element.from_key, element.to_key, element.rel_id)
    if isinstance(element, Episode):
        return ("E", element.key)
    return ("C", element.key)


@dataclass
class Stored:
    """What the graph held when the batch was read: identity -> [digest, the rest]."""

    found: dict[Identity, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class Touched:
    """What a batch writes or retracts, as identities (`_identity`, and a tombstone's kind
    letter with its key)."""

    ids: set[Identity] = field(default_factory=set)

    def changes(self, element: Any) -> bool:
        """Whether what is touched may have changed `element` after the read."""
        ids = self.ids
        if _identity(element) in ids:
            return True
        if isinstance(element, Subject):
            return ("X", element.key) in ids
        if isinstance(element, Relationship):
            return (
                ("R", element.rel_id) in ids
                or ("X", element.from_key) in ids
                or ("X", element.to_key) in ids
            )
        if isinstance(element, Episode):
            return any(("X", m) in ids for m in element.mentions)
        return False

    def add(self, element: Any) -> None:
        if isinstance(element, Tombstone):
            self.ids.add((_TOMBSTONED[element.target], element.key))
        else:
            self.ids.add(_identity(element))


async def read_stored(read: Run, runs: Sequence[list[Pair]]) -> Stored:
    """The stored digests of every element of a batch's runs (of graph.writer), one statement."""
    subjects: list[str] = []
    episodes: list[str] = []
    records: list[str] = []
    rels: dict[RelationshipType, list[list[str]]] = {}
    for run in runs:
        for element, _ in run:
            if isinstance(element, Subject):
                subjects.append(element.key)
            elif isinstance(element, Episode):
                episodes.append(element.key)
            elif isinstance(element, SourceRecord):
                records.append(element.key)
            elif isinstance(element, Relationship):
                ends = [element.from_key, element.to_key, element.rel_id]
                rels.setdefault(element.type, []).append(ends)
    if not (subjects or episodes or records or rels):
        return Stored()
    types = tuple(rels)
    statement = digests_cypher.stored_digests(bool(subjects), bool(episodes), bool(records), types)
    params: dict[str, Any] = {"subjects": subjects, "episodes": episodes, "records": records}
    params.update({f"r{n}": rels[t] for n, t in enumerate(types)})
    found: dict[Identity, tuple[Any, Any]] = {}
    for kind, identity, stored, rest in await read(statement, **params):
        key = ("L", *identity) if kind == "R" else (kind, *identity)
        found[key] = (stored, rest)
    return Stored(found)


def absent(element: Any, stored: Stored) -> bool:
    """Whether the graph held no `element` when the batch was read."""
    return _identity(element) not in stored.found


def unchanged(element: Any, row: list[Any], stored: Stored, stamp: str | None) -> bool:
    """Whether `element`, to be written as `row` (its digest last), is as the graph holds it.
    stamp: this load's embedder's identity (graph.search), None without one."""
    held = stored.found.get(_identity(element))
    at = _RECORD_DIGEST if isinstance(element, SourceRecord) else -1
    if held is None or held[0] != row[at]:
        return False
    if isinstance(element, Subject):
        return stamp is None or held[1] == stamp
    if isinstance(element, Episode):
        return bool(held[1] == len(set(element.mentions)))
    return True
