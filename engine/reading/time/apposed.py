"""An explicit range written beside a label of the same period: "over the 2025 Christmas
holidays, from December 20th to January 5th", "during the summer break (from July 1 to August
15 2025)". The range is the window; the label is said as an aside, never widening it nor
standing as a second time; a range in brackets likewise ("over the holidays (Dec 24 - Jan
2)", with or without "from"). They were refused as two times named ("2025" and the range), the
label said not understood ("Christmas holidays"), where the question gave its dates (z39a A10).

A label is the run of time phrases (read or not understood) right before the range, joined by
spaces, with at most a few words that name a stretch of time ("break", "holidays") between
it and a mark setting the range apart (a comma, a colon, a dash, a bracket). A range written
without a year takes the year of a label reading as one calendar year, written or relative
("the 2021 Christmas holidays, from December 20th to January 5th": 20 December 2021 to 5
January 2022; "last year, from March to May": March to May 2025 on a 2026 clock; "two years
ago, ...": 2024; said). A label whose period the range misses ("last month, from March to
May"; "the 2024 holidays, from December 20th 2025 ...") is two times, refused as before,
never answered over the range in another year; a label of every year written without one
("the summer break") meets the range in the range's year.
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
# A bracket opened right before a range: the range restates the label's period.
_OPENED = re.compile(r"\(\s*\Z")
_CLOSED = re.compile(r"\s*\)")
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
        moved, year = _in_year_of(label, written, ranged, read, now)
        if not all(_overlaps(m, moved, now, text) for m in read):
            continue  # two times named, refused as before
        in_year = f"{written}, in {year}, the label's year" if year else written
        said = NOTE.format(label=label, range=in_year)
        note = f"{moved.note}; {said}" if moved.note else said
        spoken = {text[a:b].strip() for a, b in labels}
        reading.not_understood[:] = [p for p in reading.not_understood if p not in spoken]
        reading.unknown_spans[:] = [s for s in reading.unknown_spans if s not in labels]
        # One phrase from the label's start (its preposition too: "over the 2025 ...")
        lead = _LEAD.search(text, 0, start)
        start = lead.start() if lead is not None else start
        # ... to its closing bracket ("over the holidays (Dec 24 - Jan 2)"): one phrase
        closed = _CLOSED.match(text, ranged.end) if _OPENED.search(text, 0, ranged.start) else None
        end = closed.end() if closed is not None else moved.end
        whole = replace(moved, start=start, end=end, note=note)
        return [whole if m is ranged else m for m in found if m not in read]
    return found


def _in_year_of(
    label: str, written: str, ranged: TimeMatch, read: list[TimeMatch], now: datetime
) -> tuple[TimeMatch, int | None]:
    """A range written without a year beside a label reading as one calendar year, written
    ("the 2021 Christmas holidays, from December 20th to January 5th") or not ("last year,
    from March to May", "two years ago, ..."), starts in the label's year (20 December 2021
    to 5 January 2022; March to May 2025), never the most recent such range: the range
    moved by whole years, and the year (None: not moved)."""
    years = {y for m in read if (y := _calendar_year(m)) is not None}
    written_year = re.search(r"\b(\d{4})\b", label)
    if len(years) == 1:
        year: int | None = years.pop()
    else:
        year = int(written_year.group(1)) if written_year and not years else None
    start, end = ranged.start_at, ranged.end_at
    if year is None or re.search(r"\d{4}|['\u2019]\d{2}\b", written) or not start or not end:
        return ranged, None
    start, end = _whole(written, year, start, end)
    shift = year - start.year
    if not shift and (start, end) == (ranged.start_at, ranged.end_at):
        return ranged, None
    try:
        moved = (start.replace(year=start.year + shift), end.replace(year=end.year + shift))
    except ValueError:  # 29 February in a year without one: left as it was read
        return ranged, None
    moved = (moved[0], min(moved[1], now))
    kept = "; ".join(c for c in (ranged.note or "").split("; ") if not c.startswith(_YEARLESS))
    note = kept or None
    return replace(ranged, start_at=moved[0], end_at=moved[1], note=note), year


def _whole(written: str, year: int, start: datetime, end: datetime) -> tuple[datetime, datetime]:
    """The range as written, whole: read on the clock it was read on, a range not yet over
    ends now ("between March and May" on 10 March 2026: 1 to 10 March), and moved into an
    earlier year it must not keep that end (2025: March to May, not 1 to 10 March). Read
    again in the middle of the year after the label's, where any range of a year is over,
    it is whole; its year is then moved as the range read first is."""
    from engine.reading.time.phrases import read_time  # phrases reads this module

    again = read_time(written, datetime(year + 1, 7, 1, tzinfo=start.tzinfo)).match
    if again is None or again.start_at is None or again.end_at is None:
        return start, end
    return again.start_at, again.end_at


def _calendar_year(match: TimeMatch) -> int | None:
    """The calendar year a phrase reads as ("2021", "last year": its window is that year;
    "two years ago": a point whose own period is a year long, the year it falls in), or None."""
    start, end = match.start_at, match.end_at
    if start is not None and end is not None:
        whole = start == datetime(start.year, 1, 1, tzinfo=start.tzinfo)
        return start.year if whole and end == start.replace(year=start.year + 1) else None
    if match.as_of is not None and match.period is not None:
        first, after = match.period
        one_year = first.month != 2 or first.day != 29  # a year from 29 February: no such day
        if one_year and after == first.replace(year=first.year + 1):
            return match.as_of.year
    return None


# The convention a range without a year was read with (engine.reading.time.conventions
# .yearless): no longer so once the label's year is taken.
_YEARLESS = "a month or quarter without a year"


def _explicit(text: str, match: TimeMatch) -> bool:
    """A range written with both ends ("from X to Y", "between X and Y"), or any range in
    brackets ("over the holidays (Dec 24 - Jan 2)": the bracket gives the label's dates; it
    was refused as two times named)."""
    bounded = match.start_at is not None and match.end_at is not None
    opened = _OPENED.search(text, 0, match.start) is not None
    opened = opened and _CLOSED.match(text, match.end) is not None  # the whole bracket
    if not bounded or match.start_at is None or match.end_at is None:
        return False
    # In brackets, more than a day: a day alone ("the holidays (Dec 24)") is no range.
    days = (match.end_at - match.start_at).days
    return _RANGE.match(text, match.start) is not None or (opened and days > 1)


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


# A label naming its period from now ("last month", "two years ago", "this summer"): that
# period only. A label naming a period of every year ("summer", "Easter") without writing
# its year is read as the most recent one: it meets a range of another year in that year.
_FROM_NOW = re.compile(
    r"\b(?:last|this|next|previous|prev|past|current|coming|ago|yesterday|today|tomorrow"
    r"|now|recent|recently|lately)\b",
    re.IGNORECASE,
)


def _overlaps(label: TimeMatch, ranged: TimeMatch, now: datetime, text: str) -> bool:
    """The label's window meets the range's (a label reading as one calendar year: that
    year; a point label: its own period, or from it to now). A label writing no year and
    naming none from now (see _FROM_NOW) meets the range in any year."""
    if ranged.start_at is None or ranged.end_at is None:
        return False
    year = _calendar_year(label)
    if year is not None:
        zone = ranged.start_at.tzinfo
        start: datetime | None = datetime(year, 1, 1, tzinfo=zone)
        end = datetime(year + 1, 1, 1, tzinfo=zone)
    elif label.as_of is not None and label.period is not None:
        start, end = label.period
    else:
        start, end = label.start_at or label.as_of, label.end_at or now
    if start is None:
        return False
    phrase = text[label.start : label.end]
    shifts = [0]
    if not _YEAR.search(phrase) and not _FROM_NOW.search(phrase) and label.as_of is None:
        gap = ranged.start_at.year - start.year
        shifts = [gap - 1, gap, gap + 1]
    for shift in shifts:
        try:
            first = start.replace(year=start.year + shift)
            after = end.replace(year=end.year + shift)
        except ValueError:  # 29 February in a year without one
            continue
        if first < ranged.end_at and ranged.start_at < after:
            return True
    return False
