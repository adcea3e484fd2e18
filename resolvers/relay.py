"""Opaque global ids and keyset cursors. Both are client-visible and validated on the way in."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re

import orjson

from engine.domain.errors import BadUserInput

MAX_OPAQUE = 2_048
_SURROGATE = re.compile("[\ud800-\udfff]")  # from JSON's `\ud800` escapes: no UTF-8 form


def storable(text: str) -> bool:
    """Whether the graph store can hold `text` as given: no NUL, no unpaired surrogate."""
    return "\x00" not in text and not _SURROGATE.search(text)


def _encode(payload: bytes) -> str:
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def _decode(value: str, what: str) -> str:
    if len(value) > MAX_OPAQUE:
        raise BadUserInput(f"invalid {what}")
    try:
        text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadUserInput(f"invalid {what}") from None
    if "\x00" in text:
        raise BadUserInput(f"invalid {what}")
    return text


@functools.lru_cache(maxsize=1 << 16)
def to_global_id(type_name: str, local_id: str) -> str:
    # Every object of every list gets one, selected or not; dashboards repeat the same ones.
    return _encode(f"{type_name}:{local_id}".encode())


def from_global_id(global_id: str) -> tuple[str, str] | None:
    """(type name, local id), or None for anything that is not one of our ids."""
    try:
        text = _decode(global_id, "id")
    except BadUserInput:
        return None
    type_name, sep, local_id = text.partition(":")
    if not sep or not type_name or not local_id:
        return None
    return type_name, local_id


def relationship_ends(local: str) -> tuple[str, str] | None:
    """A relationship's local id, JSON [start key, relationship id], as its start key and id;
    None when it is not two strings."""
    try:
        start, rel_id = json.loads(local)
    except (ValueError, TypeError):
        return None
    if not isinstance(start, str) or not isinstance(rel_id, str):
        return None
    return start, rel_id


def encode_cursor(*values: str) -> str:
    # Every edge of every page gets one, selected or not: orjson writes the JSON as bytes at a
    # fraction of the standard encoder's cost (non-ASCII as UTF-8; decoding takes either).
    return _encode(orjson.dumps(values))


def decode_cursor(cursor: str, arity: int) -> tuple[str, ...]:
    text = _decode(cursor, "cursor")
    try:
        values = json.loads(text)
    except ValueError:
        raise BadUserInput("invalid cursor") from None
    if (
        not isinstance(values, list)
        or len(values) != arity
        or not all(isinstance(v, str) and storable(v) for v in values)  # JSON escapes
    ):
        raise BadUserInput("invalid cursor")
    return tuple(values)
