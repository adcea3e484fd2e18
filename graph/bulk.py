"""A bulk load's graph, made in Python: every node and relationship an incremental load of
the same input would leave in a new epoch, with the same properties (graph.rows' rows), the
activity structures, time slots and tie nodes, day counts and stubs included.

The writes of graph.writer and graph.cypher.* are followed batch by batch, in input order:
a subject's MERGE with its nulls deleted, stubs made only where nothing is, an episode's
mentions replaced, a record's HOLDS, STARTS and ENDS moved with it, its day counted once
and taken back when it moves or goes, an Activity's latest time raised by a batch and taken
again from its records when one leaves or moves back (graph.cypher.activity says why each
is so). Batches are the projector's, so a record twice in one batch is seen once, as there.
tests/test_bulk_load.py compares the two graphs node by node and edge by edge.

A bulk load is into a new graph: what an earlier load wrote is not here, so a complete
snapshot's cleanup has nothing to delete.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from engine.domain.models import (
    ElementType,
    Episode,
    Relationship,
    SourceRecord,
    Subject,
    Tombstone,
)
from engine.ports import WriteBatch
from graph import recordrows, rows
from graph.recordrows import SLOT_AT
from graph.rows import EPISODE_COLUMNS, RECORD_COLUMNS, STUB_COLUMNS, SUBJECT_COLUMNS

Props = dict[str, Any]
RelKey = tuple[str, str, str, str]  # type, from key, to key, id

_TEXT = SUBJECT_COLUMNS.index("search_text") + 1
_SUBJECT_KEY = RECORD_COLUMNS.index("subject_key") + 1
_KIND = RECORD_COLUMNS.index("record_kind") + 1
_DAY = RECORD_COLUMNS.index("day") + 1


def assigned(columns: tuple[str, ...], row: list[Any], offset: int) -> Props:
    """What graph.cypher._fragments.assign leaves: each column's value, a null none."""
    return {c: row[i] for i, c in enumerate(columns, offset) if row[i] is not None}


def cypher_div(value: int, divisor: int) -> int:
    """Cypher's integer division, which truncates toward zero (Python's floors)."""
    quotient = abs(value) // divisor
    return quotient if value >= 0 else -quotient


def _latest(props: Props) -> int | None:
    end = props.get("end_ns")
    return end if end is not None else props.get("start_ns")


@dataclass
class BulkGraph:
    """The graph of one organisation's new epoch, as the batches of a load leave it.

    org_id: the organisation (a subject's `id` is derived from it; every node's `org_id` is
    the epoch's scope, given when the graph is sent). `vectors`: the search text of each
    subject whose vector an incremental load would store (every subject written by a subject
    record, stubs never), by key; `claimed`: whether it would claim the graph for its
    embedder (EmbeddingMeta), which it does at its first subject record."""

    org_id: str
    subjects: dict[str, Props] = field(default_factory=dict)
    vectors: dict[str, str] = field(default_factory=dict)
    relationships: dict[RelKey, Props] = field(default_factory=dict)
    episodes: dict[str, Props] = field(default_factory=dict)
    mentions: dict[str, set[str]] = field(default_factory=dict)
    records: dict[str, list[Any]] = field(default_factory=dict)  # key: its last write row
    held: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    activities: dict[str, Props] = field(default_factory=dict)
    days: dict[tuple[str, int], int] = field(default_factory=dict)
    slots: dict[str, Props] = field(default_factory=dict)
    claimed: bool = False

    def add(self, batch: WriteBatch) -> None:
        """A batch, as graph.writer.Writer.write would write it: runs of same-typed elements
        in input order."""
        for _, run in groupby(batch.elements, key=type):
            elements: list[Any] = list(run)  # one type, as graph.writer groups them
            first = elements[0]
            if isinstance(first, Subject):
                self._subjects(elements, batch)
            elif isinstance(first, Relationship):
                self._relationships(elements, batch)
            elif isinstance(first, Episode):
                self._episodes(elements, batch)
            elif isinstance(first, SourceRecord):
                self._records(elements, batch)
            else:
                self._retract(elements, batch)

    # --- subjects, relationships, episodes ----------------------------------------------

    def _subjects(self, run: list[Subject], batch: WriteBatch) -> None:
        for subject in run:
            row = rows.subject_row(self.org_id, subject, batch.source, batch.run_id)
            self.subjects[subject.key] = assigned(SUBJECT_COLUMNS, row, 1)
            self.vectors[subject.key] = row[_TEXT]
            batch.written.add(subject.key)
        self.claimed = True

    def _stubs(self, keys: set[str]) -> None:
        # MERGE_STUBS: ON CREATE only (a key in `written` exists already).
        for key in keys:
            if key not in self.subjects:
                props = assigned(STUB_COLUMNS, rows.stub_row(self.org_id, key), 1)
                props["stub"] = True
                self.subjects[key] = props

    def _relationships(self, run: list[Relationship], batch: WriteBatch) -> None:
        self._stubs({k for r in run for k in (r.from_key, r.to_key)} - batch.written)
        for rel in run:
            row = rows.relationship_row(rel, batch.source, batch.run_id)
            rel_id = row[2]  # rel.rel_id, made once
            identity = (rel.type.value, rel.from_key, rel.to_key, rel_id)
            self.relationships[identity] = {"id": rel_id} | assigned(
                rows.RELATIONSHIP_COLUMNS, row, 3
            )

    def _episodes(self, run: list[Episode], batch: WriteBatch) -> None:
        self._stubs({k for e in run for k in e.mentions} - batch.written)
        for episode in run:
            row = rows.episode_row(episode, batch.source, batch.run_id)
            self.episodes[episode.key] = assigned(EPISODE_COLUMNS, row, 2)
            # Links to subjects it no longer names go; each it names is merged once.
            self.mentions[episode.key] = set(row[1])

    # --- source records and their activity structures ----------------------------------

    def _records(self, run: list[SourceRecord], batch: WriteBatch) -> None:
        # One row per record, its last (graph.writer: the statement would count it twice).
        source, run_id = batch.source, batch.run_id
        data = list({r.key: recordrows.source_record_row(r, source, run_id) for r in run}.values())
        days, latest = recordrows.record_summary(data)
        for key, kind, n, tie in recordrows.record_slots(data):
            if key not in self.slots:
                self.slots[key] = {"record_kind": kind, "n": n} | ({"tie": tie} if tie else {})
        for key, top in latest:
            self._raise(key, top)
        counts: dict[tuple[str, int], int] = defaultdict(int)
        for kind, day, n in days:
            counts[(kind, day)] += n
        stale: set[str] = set()
        for row in data:
            old = self.records.get(row[0])
            if old is not None:
                counts[(old[_KIND], old[_DAY])] -= 1
                before = _latest(assigned(RECORD_COLUMNS, old, 1))
                after = _latest(assigned(RECORD_COLUMNS, row, 1))
                if old[_SUBJECT_KEY] != row[_SUBJECT_KEY]:
                    stale.add(old[_SUBJECT_KEY])
                    self.held[old[_SUBJECT_KEY]].discard(row[0])
                elif before is not None and after is not None and before > after:
                    stale.add(old[_SUBJECT_KEY])
            if row[_SUBJECT_KEY] not in self.activities:  # _hold's MERGE: bare if new
                self.activities[row[_SUBJECT_KEY]] = {"subject_key": row[_SUBJECT_KEY]}
            self.held[row[_SUBJECT_KEY]].add(row[0])
            self.records[row[0]] = row
        for bucket, n in counts.items():
            self.days[bucket] = self.days.get(bucket, 0) + n
        for key in stale:
            self._retake(key)

    def _raise(self, key: str, top: int) -> None:
        # ON CREATE sets the kind and time; an Activity already there (perhaps bare, made by
        # a record's HOLDS) has its time raised only when it moves up.
        activity = self.activities.get(key)
        if activity is None:
            kind = key.split(":")[0]
            activity = self.activities[key] = {"subject_key": key, "subject_kind": kind}
        elif activity.get("latest_ns", -1) >= top:
            return
        activity["latest_ns"] = top
        activity["latest_us"] = cypher_div(top, 1000)

    def _retake(self, key: str) -> None:
        activity = self.activities.get(key)
        if activity is None:
            return
        times = [
            t
            for k in self.held.get(key, ())
            if (t := _latest(assigned(RECORD_COLUMNS, self.records[k], 1))) is not None
        ]
        top = max(times) if times else None
        activity["latest_ns"] = -1 if top is None else top
        activity["latest_us"] = -1 if top is None else cypher_div(top, 1000)

    # --- retraction ------------------------------------------------------------------------

    def _retract(self, run: list[Tombstone], batch: WriteBatch) -> None:
        for target, group in groupby(run, key=lambda t: t.target):
            keys = list(dict.fromkeys(t.key for t in group))
            if target is ElementType.SUBJECT:
                self._delete_subjects(set(keys))
                batch.written.difference_update(keys)
            elif target is ElementType.RELATIONSHIP:
                gone = set(keys)
                self.relationships = {
                    k: v for k, v in self.relationships.items() if k[3] not in gone
                }
            elif target is ElementType.EPISODE:
                for key in keys:
                    self.episodes.pop(key, None)
                    self.mentions.pop(key, None)
            else:
                self._delete_records(keys)

    def _delete_subjects(self, keys: set[str]) -> None:
        # DETACH DELETE: the subject's relationships, mentions and vector go with it.
        found = keys & self.subjects.keys()
        if not found:
            return
        for key in found:
            del self.subjects[key]
            self.vectors.pop(key, None)
        self.relationships = {
            k: v for k, v in self.relationships.items() if k[1] not in found and k[2] not in found
        }
        for mentioned in self.mentions.values():
            mentioned -= found

    def _delete_records(self, keys: list[str]) -> None:
        stale: set[str] = set()
        for key in keys:
            row = self.records.pop(key, None)
            if row is None:
                continue
            bucket = (row[_KIND], row[_DAY])
            self.days[bucket] = self.days.get(bucket, 0) - 1
            self.held[row[_SUBJECT_KEY]].discard(key)
            stale.add(row[_SUBJECT_KEY])
        for key in stale:
            self._retake(key)

    # --- what is sent ----------------------------------------------------------------------

    def record_props(self, row: list[Any]) -> Props:
        return {"key": row[0]} | assigned(RECORD_COLUMNS, row, 1)

    @staticmethod
    def record_subject(row: list[Any]) -> str:
        return str(row[_SUBJECT_KEY])

    @staticmethod
    def record_slots(row: list[Any]) -> tuple[str, str | None]:
        """The keys of the slot a record starts on and, if another, of the one it ends on."""
        return row[SLOT_AT], row[SLOT_AT + 2]


class Conflict(Exception):
    """Input a load sending each batch as it is read cannot follow: an element written
    again in a later batch (or a record twice in one), a subject written after a stub was
    made for it, or a retraction. Such input is loaded whole (BulkGraph) instead."""


@dataclass
class BatchGraph(BulkGraph):
    """One batch's part of a bulk load sent as it is read (graph.falkor_stream): what the
    batch adds to the graph the batches before it made. `known`: the subjects already sent
    (a relationship or an episode naming one makes no stub); `stubs`: those that were made
    as stubs. Raises Conflict where the batch would change what was sent."""

    known: dict[str, int] = field(default_factory=dict)
    stubs: set[str] = field(default_factory=set)

    def _subjects(self, run: list[Subject], batch: WriteBatch) -> None:
        if any(s.key in self.known for s in run):
            made = next(s.key for s in run if s.key in self.known)
            was = "a stub made for it" if made in self.stubs else "itself"
            raise Conflict(f"subject {made!r} written after {was}, in an earlier batch")
        super()._subjects(run, batch)

    def _stubs(self, keys: set[str]) -> None:
        super()._stubs(keys - self.known.keys())

    def _records(self, run: list[SourceRecord], batch: WriteBatch) -> None:
        keys = {r.key for r in run}
        if len(keys) < len(run) or not keys.isdisjoint(self.records):
            raise Conflict("a source record written twice in one batch")
        super()._records(run, batch)

    def _retract(self, run: list[Tombstone], batch: WriteBatch) -> None:
        raise Conflict("a retraction")
