"""A year written after a phrase that names none binds to it: "the Easter weekend in 2008",
"the first week of March in 2021", "over Christmas in 2018", "the end of May, 2025" are
that phrase in that year, as "the Easter weekend 2008" and "the first week of March of 2021"
are read. Without this the phrase was read in the latest year begun and "in 2008" said a
second time named ("two times named", refused), or unused beside an answer over 2026.

No new rule per phrasing: the phrase is read again with the year after it, by the rows that
read "<phrase> <year>" or "<phrase> of <year>" (engine/reading/time/rules.py). A phrase no
row reads with a year ("last week in 2025", "the past 3 months in 2024": a time counted from
now, which a year cannot place) is not understood, whole, never one of the two read alone.
Convention (tests/data/time_phrases.tsv): "<phrase> in/of/during <year>" is the phrase in
that year; "the Easter weekend" is Good Friday to Easter Monday.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.reading.time.patterns import YEAR

if TYPE_CHECKING:
    from datetime import datetime

    from engine.reading.time.phrases import TimeMatch, TimeReading

# "in 2008", "of 2019", ", 2025", "during 2020" right after the phrase; not the first end of
# a range or of a comparison ("in 2008 and 2009", "in 2019 vs 2020", "in 2020-2021").
# A comparing word after the year is the comparison's, not the year's, only before another
# year ("in 2019 vs 2020"): "in March in 2020 versus in Apr 2014" is March 2020 (it was this
# year's March, "in 2020" said a second time, and the comparison refused).
_ANCHOR = re.compile(
    rf",?\s+(?:in|of|during)\s+(?:the\s+year\s+)?({YEAR})"
    r"(?!\s*(?:[-\u2013/]|and\b|to\b|through\b|thru\b|until\b|till\b"
    rf"|(?:or|vs\.?|versus)\s+(?:(?:in|of|during)\s+)?(?:{YEAR})(?!\s*\w)))",
    re.IGNORECASE | re.ASCII,
)
_HAS_YEAR = re.compile(rf"{YEAR}|(?<!new\s)\byears?\b", re.IGNORECASE | re.ASCII)
# A time counted from now, which no year places: "last week in 2025", "the past 3 months in
# 2024", "2 weeks ago in 2023" (not understood, whole; "the last week of May in 2023" is May's).
_FROM_NOW = re.compile(
    r"^(?:(?:in|during|over|for|since|after|before|until|from)\s+)?(?:the\s+)?"
    r"(?:last|this|past|previous|prior|next|coming|current)\b(?!(?:\s+[\w-]+){1,3}\s+of\b)"
    r"|\b(?:ago|back|yesterday|today|tomorrow|lately|recently)\b",
    re.IGNORECASE | re.ASCII,
)


@dataclass(frozen=True)
class Anchored:
    """The phrase and its year, read as one (`match`), or their span not understood."""

    span: tuple[int, int]
    match: TimeMatch | None


def anchored(
    text: str, first: TimeMatch, now: datetime, read: Callable[[str, datetime], TimeReading]
) -> Anchored | None:
    """The first phrase read with the year written right after it, when it names none."""
    found = _ANCHOR.match(text, first.end)
    phrase = text[first.start : first.end]
    if found is None or _HAS_YEAR.search(phrase):
        return None
    year = found.group(1)
    if year.isdigit() and int(year) > now.year:
        return None  # a future year is refused as one, as when asked alone
    if _FROM_NOW.search(phrase):
        return Anchored((first.start, found.end()), None)
    for variant in (f"{phrase} {year}", f"{phrase} of {year}"):
        reading = read(variant, now)
        whole = reading.match
        if whole is None or reading.ignored or reading.not_understood or reading.not_a_date:
            continue
        if (whole.start, whole.end) != (0, len(variant)):
            continue
        said = text[first.start : found.end()]
        note = whole.note and whole.note.replace(variant, said)
        bound = f'"{said}" is read as {variant}: a year after a phrase naming none is its year'
        note = f"{note}; {bound}" if note else bound
        return Anchored(
            (first.start, found.end()),
            replace(whole, start=first.start, end=found.end(), note=note),
        )
    return Anchored((first.start, found.end()), None)


# A part of a period before "in <year>" ("the first half in 2024", "the first 3 months in
# 2020"): the part of that year, as "the first half of 2024" (it was read as all of 2024,
# "the first half" left to end the question as a word not computed).
_PART_IN = re.compile(
    r"(?:\b(?:in|during|over|for|within)\s+)?\bthe\s+(?:[\w-]+\s+){1,3}?"
    r"(?:half|quarter|third|weeks?|months?|days?|fortnight)\s+$",
    re.IGNORECASE | re.ASCII,
)
_IN = re.compile(r"(?:in|during)\s+", re.IGNORECASE)


def part_in(
    text: str, first: TimeMatch, now: datetime, read: Callable[[str, datetime], TimeReading]
) -> TimeMatch | None:
    """The part of a period written before the first phrase read ("in 2024"), read whole."""
    lead = _IN.match(text, first.start)
    part = _PART_IN.search(text, 0, first.start)
    if lead is None or part is None or part.end() != first.start:
        return None
    said = text[part.start() : first.end]
    variant = f"{text[part.start() : first.start]}of {text[lead.end() : first.end]}"
    reading = read(variant, now)
    whole = reading.match
    if whole is None or reading.ignored or reading.not_understood or reading.not_a_date:
        return None
    if (whole.start, whole.end) != (0, len(variant)):
        return None
    note = whole.note and whole.note.replace(variant, said)
    return replace(whole, start=part.start(), end=first.end, note=note)
