"""A row's digest (graph.rows.digest) is the keyed hash of the row's JSON text exactly as
json.dumps writes it: digests stored by earlier loads must still match their rows, or a
re-ingest of an unchanged file would write everything again (graph.unchanged)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from graph import rows


def written_so(values: list[Any]) -> int:
    """The digest as it was first defined (and is stored in graphs loaded since)."""
    data = json.dumps(values, separators=(",", ":"), default=str).encode()
    raw = hashlib.blake2b(data, digest_size=8, key=rows._DIGEST_KEY).digest()
    return int.from_bytes(raw, "big", signed=True)


ROWS = [
    ["pull_request:1", "pull_request", "repository:payments-api", None, 1784479680000000000,
     None, "demo", "merged", None, 1.5, -0.0, "Add capture retry", 20653, 1784479680000000],
    ["person:ana", ["Ana", "Ana Lúcia"], "quotes \" and \\ and \n\t\x01", "\u2028 \ud83d\ude00"],
    [float("nan"), float("inf"), -float("inf"), 1e16, 1e-7, 2**70, True, False, [], [[]]],
    [datetime(2024, 1, 1, tzinfo=UTC), {"b": 1, "a": [None]}],
]  # fmt: skip


def test_a_digest_is_the_hash_of_the_rows_json_text() -> None:
    assert [rows.digest(r) for r in ROWS] == [written_so(r) for r in ROWS]
    # Pinned: the text hashed must not change between versions.
    assert rows.digest(ROWS[0]) == written_so(ROWS[0]) == -6440146088148516116


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(st.lists(JSON, max_size=12))
def test_any_row_gets_the_digest_json_dumps_gave(values: list[Any]) -> None:
    assert rows.digest(values) == written_so(values)
