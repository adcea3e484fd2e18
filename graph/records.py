"""The projection record format (NDJSON, versioned): parse and validate one line at a time.

A line is a JSON object with a `type` (subject, relationship, episode, source_record,
tombstone). An optional first line `{"type": "header", "format": "fabric.projection",
"version": 1}` names the format version. docs/projection-format.md is the reference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from engine.domain.models import (
    Episode,
    ProjectionElement,
    Relationship,
    SourceRecord,
    Subject,
    Tombstone,
)

FORMAT_NAME = "fabric.projection"
FORMAT_VERSION = 1
MAX_LINE_BYTES = 1_000_000

_MODELS: dict[str, type[ProjectionElement]] = {
    "subject": Subject,
    "relationship": Relationship,
    "episode": Episode,
    "source_record": SourceRecord,
    "tombstone": Tombstone,
}


@dataclass(frozen=True, slots=True)
class Invalid:
    """A rejected line: where it was and why (never the rejected value itself)."""

    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class Parsed:
    line: int
    element: ProjectionElement


def _reason(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False, include_input=False)[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "record"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def parse_record(raw: Any, line: int = 0) -> Parsed | Invalid | None:
    """Validate one decoded record; None for a header line."""
    return _validated(dict(raw) if isinstance(raw, dict) else raw, line)


def _validated(body: Any, line: int) -> Parsed | Invalid | None:
    # `body` is this module's own: its `type` is taken out of it.
    if not isinstance(body, dict):
        return Invalid(line, "a record must be a JSON object")
    rtype = body.pop("type", None)
    if rtype == "header":
        if body.get("format") != FORMAT_NAME or body.get("version") != FORMAT_VERSION:
            return Invalid(line, f"unsupported header: expected {FORMAT_NAME} v{FORMAT_VERSION}")
        return None
    model = _MODELS.get(rtype) if isinstance(rtype, str) else None
    if model is None:
        return Invalid(line, f"type must be one of {', '.join(sorted(_MODELS))}")
    try:
        return Parsed(line, model.__pydantic_validator__.validate_python(body))
    except ValidationError as exc:
        return Invalid(line, _reason(exc))


# orjson reads an integer beyond 64 bits as a float where json reads it exactly (and the
# model refuses it as out of range): a line with a run of 19 digits is read by json. (Digits
# made zeros, then a search: a fifth of a regular expression's time.)
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19


def parse_line(text: str | bytes, line: int) -> Parsed | Invalid | None:
    """Decode and validate one NDJSON line; blank lines are skipped (None).

    A line of bytes is decoded by orjson (a third of json's time); whatever orjson refuses
    (invalid UTF-8 or JSON, NaN, 1e400, lone surrogates, deep nesting, blank lines) is read
    again the json way below, so every line gets the same record or the same error."""
    if len(text) > MAX_LINE_BYTES:
        return Invalid(line, "line is longer than 1,000,000 bytes")
    if isinstance(text, bytes) and _LONG_DIGITS not in text.translate(_ZEROS):
        try:
            raw = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            return _validated(raw, line)
    return _slow(text, line)


def _slow(text: str | bytes, line: int) -> Parsed | Invalid | None:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return Invalid(line, "line is not valid UTF-8")
    if not text.strip():
        return None
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return Invalid(line, "line is not valid JSON")
    return _validated(raw, line)


def parse_lines(lines: Iterable[str | bytes], start: int = 1) -> Iterator[Parsed | Invalid]:
    for number, text in enumerate(lines, start):
        result = parse_line(text, number)
        if result is not None:
            yield result


def to_record(element: ProjectionElement) -> dict[str, Any]:
    """The JSON object for one element, as written to an NDJSON line."""
    rtype = next(name for name, model in _MODELS.items() if isinstance(element, model))
    body = element.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    if isinstance(element, Subject):
        body.setdefault("kind", element.kind.value)
    return {"type": rtype, **body}
