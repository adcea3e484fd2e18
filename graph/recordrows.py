"""Source records as rows and back (graph/rows.py: subjects, relationships, episodes): the
record row with its times in microseconds and its time slots (graph.cypher.activity's
TimeSlot, ten minutes), the tie node of a midnight, and what a batch of record rows adds to
the activity structures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.domain.models import SourceRecord, SourceRecordKind, from_ns, to_ns
from graph.rows import RECORD_COLUMNS, RECORD_FIELDS, digest, instant

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
        record.title,  # the seven before `day` are RECORD_FIELDS, in order
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
    values: dict[str, Any] = {name: props.get(name) for name in RECORD_FIELDS}
    values["title"] = values["title"] or ""
    return SourceRecord.model_construct(
        key=props["key"],
        record_kind=SourceRecordKind(props["record_kind"]),
        subject=props["subject_key"],
        actor=props.get("actor_key"),
        start=instant(props["start_ns"]),
        end=from_ns(props.get("end_ns")),
        due=from_ns(props.get("due_ns")),
        source=props.get("source"),
        **values,
    )
