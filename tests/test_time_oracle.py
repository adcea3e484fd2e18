"""An oracle for review, in development only: the corpus's phrases (tests/data/time_phrases.tsv)
read by Microsoft Recognizers-Text (`recognizers-text-date-time`) and by duckling
(`pyduckling-native`), listing where they disagree with the corpus's reading. Never a
runtime dependency and never an assertion of a library's reading: each library gets other
phrasings wrong (Recognizers drops an inherited year, duckling picks the future), so a
disagreement is a row to read by hand, nothing more. Skipped when the extras are absent;
`FABRIC_ORACLE_OUT=FILE` writes the listing there (else it is printed, see `pytest -s`)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.test_time_corpus import NOW, _rows

Window = tuple[str, str] | None


def _corpus_window(reading: str) -> Window:
    """The corpus's reading as (start day, end day), or None for a point or no reading."""
    if ".." not in reading or " + " in reading:  # a union of windows: no one window
        return None
    start, end = (part.strip() for part in reading.split(".."))
    end = NOW.strftime("%Y-%m-%d") if end == "now" else end
    return start[:10], end[:10]


def _listing(name: str, read: dict[str, Window]) -> list[str]:
    rows = []
    for phrase, reading in _rows():
        ours = _corpus_window(reading)
        if ours is None:
            continue
        theirs = read.get(phrase)
        if theirs != ours:
            rows.append(f"{name}\t{phrase}\tcorpus {ours}\t{name} {theirs}")
    return rows


def _say(rows: list[str], total: int) -> None:
    text = "\n".join(rows) + f"\n{len(rows)} of {total} phrases read otherwise\n"
    out = os.environ.get("FABRIC_ORACLE_OUT")
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        print(text)


def _first_range(results: list[Any]) -> Window:
    for result in results:
        for value in (result.resolution or {}).get("values", []):
            if "start" in value and "end" in value:
                return value["start"][:10], value["end"][:10]
    return None


def test_recognizers_text_disagreements_are_listed() -> None:
    recognizers = pytest.importorskip("recognizers_date_time")
    reference = NOW.replace(tzinfo=None)
    read = {
        phrase: _first_range(
            recognizers.recognize_datetime(phrase, recognizers.Culture.English, reference=reference)
        )
        for phrase, _ in _rows()
    }
    rows = _listing("recognizers", read)
    _say(rows, len(read))
    assert len(read) == len(_rows())  # every phrase was put to it; its readings are not judged


def test_duckling_disagreements_are_listed() -> None:
    duckling = pytest.importorskip("duckling")
    context = duckling.Context(
        duckling.parse_ref_time(duckling.load_time_zones("/usr/share/zoneinfo"), "UTC",
                                int(NOW.timestamp())),
        duckling.parse_locale("EN_US", None),
    )  # fmt: skip
    dims = duckling.parse_dimensions(["time"])
    read: dict[str, Window] = {}
    for phrase, _ in _rows():
        found = duckling.parse(phrase, context, dims, False)
        value = found[0]["value"] if found else {}
        if value.get("type") == "interval" and value.get("from") and value.get("to"):
            start = datetime.fromisoformat(value["from"]["value"]).astimezone(UTC)
            end = datetime.fromisoformat(value["to"]["value"]).astimezone(UTC)
            read[phrase] = (start.strftime("%Y-%m-%d"), end.strftime("%Y-%m-%d"))
        else:
            read[phrase] = None
    rows = _listing("duckling", read)
    _say(rows, len(read))
    assert len(read) == len(_rows())
