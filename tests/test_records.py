"""The projection record format: what is accepted, what is refused, and why."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.domain.models import Relationship, Subject, SubjectKind
from graph.records import Invalid, Parsed, parse_line, parse_record, to_record

VALID = [
    {
        "type": "subject",
        "key": "repository:payments-api",
        "kind": "repository",
        "name": "payments-api",
        "aliases": ["payments"],
        "previous_names": ["pay"],
        "attributes": {"tier": 1, "lang": "go"},
        "valid_from": "2025-01-01",
    },
    {
        "type": "relationship",
        "relation": "OWNS",
        "from": "team:payments",
        "to": "repository:payments-api",
        "valid_from": "2025-01-01T00:00:00+02:00",
        "valid_to": "2026-01-01T00:00:00Z",
        "evidence": "codeowners",
        "source": "github",
    },
    {
        "type": "episode",
        "key": "episode:1",
        "occurred_at": "2026-01-01T10:00:00Z",
        "text": "Deploy rolled back",
        "mentions": ["service:payments"],
    },
    {
        "type": "source_record",
        "key": "pull_request:1",
        "record_kind": "pull_request",
        "subject": "repository:payments-api",
        "actor": "person:alex-kim",
        "start": "2026-01-01",
        "end": "2026-01-02",
        "status": "merged",
        "title": "Fix retries",
    },
    {
        "type": "source_record",
        "key": "metric_rollup:1",
        "record_kind": "metric_rollup",
        "subject": "repository:payments-api",
        "start": "2026-01-01",
        "end": "2026-01-02",
        "metric": "commits",
        "value": 12,
    },
    {"type": "tombstone", "target": "relationship", "key": "OWNS|team:a|repository:b|-"},
]

INVALID = [
    ({"type": "subject", "key": "team:a", "kind": "repository", "name": "a"}, "key"),
    ({"type": "subject", "key": "team:a", "kind": "team", "name": ""}, "name"),
    ({"type": "subject", "key": "team:a", "kind": "team", "name": "a", "extra": 1}, "extra"),
    ({"type": "subject", "key": "team:a", "kind": "team", "name": "a\x00"}, "NUL"),
    ({"type": "subject", "key": "team:a", "kind": "wizard", "name": "a"}, "kind"),
    (
        {
            "type": "subject",
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "attributes": {"n": 2**63},
        },
        "64-bit",
    ),
    (
        {
            "type": "subject",
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "attributes": {"bad key": 1},
        },
        "attributes",
    ),
    (
        {
            "type": "subject",
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "attributes": {"nested": {"x": 1}},
        },
        "attributes",
    ),
    (
        {
            "type": "subject",
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "valid_from": "2026-01-01",
            "valid_to": "2025-01-01",
        },
        "valid_to",
    ),
    (
        {
            "type": "subject",
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "valid_from": "1900-01-01",
        },
        "1970",
    ),
    ({"type": "subject", "key": "no-colon", "kind": "team", "name": "a"}, "key"),
    ({"type": "relationship", "relation": "LOVES", "from": "team:a", "to": "team:b"}, "relation"),
    ({"type": "relationship", "relation": "OWNS", "from": "galaxy:a", "to": "team:b"}, "kind"),
    ({"type": "episode", "key": "episode:1", "text": "x"}, "occurred_at"),
    (
        {
            "type": "source_record",
            "key": "incident:1",
            "record_kind": "incident",
            "subject": "service:a",
            "start": "2026-01-02",
            "end": "2026-01-01",
        },
        "end",
    ),
    (
        {
            "type": "source_record",
            "key": "metric_rollup:1",
            "record_kind": "metric_rollup",
            "subject": "service:a",
            "start": "2026-01-02",
        },
        "metric",
    ),
    (
        {
            "type": "source_record",
            "key": "metric_rollup:1",
            "record_kind": "metric_rollup",
            "subject": "service:a",
            "start": "2026-01-02",
            "metric": "m",
            "value": "nan",
        },
        "value",
    ),
    ({"type": "tombstone", "target": "universe", "key": "x"}, "target"),
    ({"type": "header", "format": "fabric.projection", "version": 2}, "header"),
    ({"key": "team:a"}, "type"),
]


@pytest.mark.parametrize("record", VALID, ids=lambda r: r["type"])
def test_valid_records_parse_and_round_trip(record: dict[str, object]) -> None:
    parsed = parse_record(record, 3)
    assert isinstance(parsed, Parsed) and parsed.line == 3
    again = parse_record(to_record(parsed.element), 3)
    assert isinstance(again, Parsed) and again.element == parsed.element


@pytest.mark.parametrize(("record", "mentions"), INVALID)
def test_invalid_records_say_why_without_echoing_the_value(
    record: dict[str, object], mentions: str
) -> None:
    result = parse_record(record, 9)
    assert isinstance(result, Invalid) and result.line == 9
    assert mentions.lower() in result.reason.lower()
    assert "\x00" not in result.reason


def test_header_line_is_accepted_and_skipped() -> None:
    header = '{"type": "header", "format": "fabric.projection", "version": 1}'
    assert parse_line(header, 1) is None
    assert parse_line("   ", 2) is None


def test_times_are_normalised_to_utc() -> None:
    parsed = parse_record(VALID[1], 1)
    assert isinstance(parsed, Parsed) and isinstance(parsed.element, Relationship)
    assert parsed.element.valid_from is not None
    assert parsed.element.valid_from.isoformat() == "2024-12-31T22:00:00+00:00"
    assert (
        parsed.element.rel_id
        == "OWNS|team:payments|repository:payments-api|2024-12-31T22:00:00+00:00"
    )


def test_window_admission_is_half_open() -> None:
    subject = Subject.model_validate(
        {
            "key": "team:a",
            "kind": "team",
            "name": "a",
            "valid_from": "2025-01-01",
            "valid_to": "2025-02-01",
        }
    )
    assert subject.kind is SubjectKind.TEAM
    from datetime import UTC, datetime

    assert subject.admits(datetime(2025, 1, 1, tzinfo=UTC))
    assert not subject.admits(datetime(2025, 2, 1, tzinfo=UTC))
    assert subject.admits(datetime(2024, 12, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
    assert not subject.admits(datetime(2024, 12, 1, tzinfo=UTC), datetime(2024, 12, 31, tzinfo=UTC))


@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    result = parse_line(data, 1)
    assert result is None or isinstance(result, Invalid | Parsed)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
        max_leaves=20,
    )
)
def test_arbitrary_json_never_raises(value: object) -> None:
    result = parse_line(json.dumps(value), 1)
    assert result is None or isinstance(result, Invalid | Parsed)


def json_way(data: bytes, line: int) -> Parsed | Invalid | None:
    """What parse_line answered before it read lines with orjson: json.loads on the text."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Invalid(line, "line is not valid UTF-8")
    if not text.strip():
        return None
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return Invalid(line, "line is not valid JSON")
    return parse_record(raw, line)


SUBJECT_WITH = '{"type":"subject","key":"team:a","kind":"team","name":"A","attributes":{"n":%s}}'
RECORD_WITH = (
    '{"type":"source_record","key":"metric_rollup:1","record_kind":"metric_rollup",'
    '"subject":"team:a","start":"2026-01-01","metric":"m","value":%s}'
)
# Lines orjson reads otherwise than json (or refuses): each must get json's answer.
EDGES = [
    *(SUBJECT_WITH % n for n in ("18446744073709551616", "-9223372036854775809", "1e400",
                                  "NaN", "-Infinity", "9223372036854775807", "1.5e300")),
    *(RECORD_WITH % n for n in ("18446744073709551616", "1e400", "NaN", "123456789012345678901")),
    '{"type":"subject","key":"team:a","kind":"team","name":"\\ud800"}',
    '{"type":"subject","key":"team:a","kind":"team","name":"A","name":"B"}',
    '{"type":"tombstone","target":"subject","key":"team:\\u0000"}',
    "\ufeff{}", "\u00a0", "  ", "[" * 2_000 + "]" * 2_000, '{"type":"header"}',
]  # fmt: skip


@pytest.mark.parametrize("line", EDGES)
def test_a_line_gets_the_answer_json_gave(line: str) -> None:
    data = line.encode("utf-8", "surrogatepass")
    assert parse_line(data, 7) == json_way(data, 7)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
        max_leaves=20,
    )
)
def test_any_json_value_gets_the_answer_json_gave(value: object) -> None:
    record = {"type": "subject", "key": "team:a", "kind": "team", "name": "A"}
    for line in (json.dumps(value), json.dumps({**record, "attributes": {"x": value}})):
        data = line.encode("utf-8", "surrogatepass")
        assert parse_line(data, 3) == json_way(data, 3)


def test_rows_read_back_set_every_model_field() -> None:
    # `trusted` skips pydantic's defaults: a field added to a model must be added here too.
    from engine.domain.models import Relationship, StoredSubject
    from graph.rows import relationship_from, subject_from

    subject = subject_from(["team:a", "id", "team", "A", ["a"], [], "", '{"x": 1}', 1, None,
                            "src", False])
    relationship = relationship_from("OWNS", ["r", None, None, None, None], "team:a", "service:b")
    assert set(subject.__dict__) == set(StoredSubject.model_fields)
    assert set(relationship.__dict__) == set(Relationship.model_fields)
    assert subject == StoredSubject.model_construct(**subject.__dict__)
    assert subject.model_dump()["attributes"] == {"x": 1}
