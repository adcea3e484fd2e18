"""An explicit range written beside a label of the same period: "over the 2025 Christmas
holidays, from December 20th to January 5th", "during the summer break (from July 1 to August
15 2025)". The range is the window; the label is said as an aside, never widening it nor
standing as a second time. They were refused as two times named ("2025" and the range), the
label said not understood ("Christmas holidays"), where the question gave its dates (z39a A10).

A label is the run of time phrases (read or not understood) right before the range, joined by
spaces, with at most a few words that name a stretch of time ("break", "holidays") between
it and a mark setting the range apart (a comma, a colon, a dash, a bracket). A range written
without a year takes the label's ("the 2021 Christmas holidays, from December 20th to January
5th": 20 December 2021 to 5 January 2022, said); a label whose year the range, written with
its own, misses is two times, refused as before.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.reading.time.phrases import TimeMatch, TimeReading

# Words naming a stretch of time after a label ("the summer break", "the holiday period").
LABEL_NOUNS = frozenset(
    {"break", "breaks", "holidays", "holiday", "vacation", "vacations", "season", "period"}
    | {"window", "shutdown", "freeze", "sprint", "stretch", "weeks", "days", "time", "rush"}
)
_RANGE = re.compile(r"(?:from|between)\b", re.IGNORECASE)
_APART = re.compile(r"[,:;(\u2013\u2014-]")
_WORD = re.compile(r"[^\W_]+")
# The words before a label that are part of its phrase ("over the", "during the").
_LEAD = re.compile(
    r"(?:\b(?:over|during|in|for|across|throughout|around)\s+)?(?:\bthe\s+)?\Z", re.IGNORECASE
)
_YEAR = re.compile(r"\d{4}|['\u2019]\d{2}\b")
NOTE = '"{label}" is read as the dates written beside it ({range}), never wider'


def read(text: str, found: list[TimeMatch], reading: TimeReading, now: datetime) -> list[TimeMatch]:
    """`found` with a label beside an explicit range taken out (see the module), the range's
    note saying so; the label's phrases not understood are no longer said so (their words
    stay taken: no name, nor unread)."""
    for ranged in sorted(found, key=lambda m: m.start):
        if not _explicit(text, ranged):
            continue
        labels = _label(text, ranged, found, reading.unknown_spans)
        if labels is None:
            continue
        start = min(a for a, _ in labels)
        end = max(b for _, b in labels)
        mark = _APART.search(text, end, ranged.start)
        end = mark.start() if mark is not None else end  # through "break" of "summer break"
        label = text[start:end].strip()
        read = [m for m in found if (m.start, m.end) in labels]
        written = text[ranged.start : ranged.end].strip()
        moved, year = _in_year_of(label, written, ranged)
        if _YEAR.search(label) and not all(_overlaps(m, moved, now) for m in read):
            continue
        in_year = f"{written}, in {year}, the label's year" if year else written
        said = NOTE.format(label=label, range=in_year)
        note = f"{moved.note}; {said}" if moved.note else said
        spoken = {text[a:b].strip() for a, b in labels}
        reading.not_understood[:] = [p for p in reading.not_understood if p not in spoken]
        reading.unknown_spans[:] = [s for s in reading.unknown_spans if s not in labels]
        # One phrase from the label's start (its preposition too: "over the 2025 ...")
        lead = _LEAD.search(text, 0, start)
        start = lead.start() if lead is not None else start
        whole = replace(moved, start=start, note=note)
        return [whole if m is ranged else m for m in found if m not in read]
    return found


def _in_year_of(label: str, written: str, ranged: TimeMatch) -> tuple[TimeMatch, int | None]:
    """A range written without a year beside a label writing one ("the 2021 Christmas
    holidays, from December 20th to January 5th") starts in the label's year (20 December
    2021 to 5 January 2022), never the most recent such range: the range moved by whole
    years, and the year (None: not moved)."""
    year = re.search(r"\b(\d{4})\b", label)
    start, end = ranged.start_at, ranged.end_at
    if year is None or re.search(r"\d{4}|['\u2019]\d{2}\b", written) or not start or not end:
        return ranged, None
    shift = int(year.group(1)) - start.year
    if not shift:
        return ranged, None
    try:
        moved = (start.replace(year=start.year + shift), end.replace(year=end.year + shift))
    except ValueError:  # 29 February in a year without one: left as it was read
        return ranged, None
    kept = "; ".join(c for c in (ranged.note or "").split("; ") if not c.startswith(_YEARLESS))
    note = kept or None
    return replace(ranged, start_at=moved[0], end_at=moved[1], note=note), int(year.group(1))


# The convention a range without a year was read with (engine.reading.time.conventions
# .yearless): no longer so once the label's year is taken.
_YEARLESS = "a month or quarter without a year"


def _explicit(text: str, match: TimeMatch) -> bool:
    """A range written with both ends ("from X to Y", "between X and Y")."""
    bounded = match.start_at is not None and match.end_at is not None
    return bounded and _RANGE.match(text, match.start) is not None


def _label(
    text: str, ranged: TimeMatch, found: list[TimeMatch], unknown: list[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """The spans of the label before the range, or None: the phrases joined by spaces that
    end right before the mark setting the range apart (a few stretch words between)."""
    spans = sorted(
        {(m.start, m.end) for m in found if m.end <= ranged.start}
        | {(a, b) for a, b in unknown if b <= ranged.start}
    )
    if not spans:
        return None
    gap = text[spans[-1][1] : ranged.start]
    words = _WORD.findall(gap)
    if not _APART.search(gap) or not all(w.lower() in LABEL_NOUNS for w in words):
        return None
    chain = [spans[-1]]
    for span in reversed(spans[:-1]):
        between = text[span[1] : chain[-1][0]]
        if between.strip() or span[1] > chain[-1][0]:
            break
        chain.append(span)
    return chain


def _overlaps(label: TimeMatch, ranged: TimeMatch, now: datetime) -> bool:
    """The label's window meets the range's (a point label: its day within it)."""
    start = label.start_at or label.as_of
    if start is None or ranged.start_at is None or ranged.end_at is None:
        return False
    end = label.end_at or now
    return start < ranged.end_at and ranged.start_at < end
