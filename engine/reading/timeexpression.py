"""The question's time expression: found with what could not be used noted, a word beside
it left unread (the phrase then not understood), the same time said twice, and where it
stands in the question as asked (engine/reading/time/ reads the phrases themselves;
engine/reading/interpreter.py runs these among its passes).
"""

from __future__ import annotations

from datetime import datetime

from engine.domain import timecontext as tc
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.interpretation import MAX_QUESTION
from engine.reading.names import overlaps
from engine.reading.time import beside
from engine.reading.time import phrases as tp
from engine.reading.time import slots as sl
from engine.reading.time.dateperiods import named_year
from engine.reading.time.slots import Slot


def find_time(text: str, now: datetime, notes: list[str]) -> tp.TimeReading:
    """The time phrases of `text` read relative to `now`; what could not be used is noted."""
    reading = tp.read_time(text, now)
    if reading.not_a_date:
        notes.append("time_expression_not_a_date")
    if reading.ignored:
        notes.append("later_time_expression_ignored")
    if reading.not_understood:
        notes.append("time_expression_not_understood")
    return reading



def parse_time_expression(
    text: str, now: datetime
) -> tuple[datetime | None, datetime | None, datetime | None] | None:
    """(as_of, start, stop) of the first time expression in `text`, or None when it has none."""
    match = tp.read_time(text[:MAX_QUESTION], tc.to_utc(now)).match
    return None if match is None else (match.as_of, match.start_at, match.end_at)



def time_slots(
    question: str, expression: str | None, which_day: dict[str, tuple[tc.Period, ...]]
) -> tuple[Slot, ...]:
    """Where the time phrase and each slash date asked about stand in the question as asked
    (with no time phrase, where one would be added: its end)."""
    found = [sl.of_time(question, expression) if expression else sl.at_end(question)]
    return (*found, *(sl.of_date(question, phrase) for phrase in which_day))


def same_time(phrase: str, time: tp.TimeMatch | None, now: datetime) -> bool:
    """A later phrase that reads as the very time the first one does ("in 2025" twice), or
    restates it without its year ("in summer 2025, June through August": June to August of
    2025; it was read as this year's, two times named, and refused)."""
    match = tp.read_time(phrase[:MAX_QUESTION], now).match
    if match is None or time is None:
        return match is None and time is None
    said = (time.as_of, time.start_at, time.end_at)
    if (match.as_of, match.start_at, match.end_at) == said:
        return True
    if time.start_at is None or named_year(phrase, now) is not None:
        return False
    again = tp.read_time(f"{phrase[:MAX_QUESTION]} {time.start_at.year}", now).match
    return again is not None and (again.as_of, again.start_at, again.end_at) == said


def time_beside(
    text: str,
    time: tp.TimeMatch | None,
    reading: tp.TimeReading,
    tokens: list[r.Token],
    spans: list[tuple[int, int]],
    notes: list[str],
) -> tuple[tp.TimeMatch | None, list[tuple[int, int]]]:
    """The time phrase, or None when a word beside it that could change it was left unread
    (engine.reading.time.beside): the phrase and the word are then said not understood, and
    a name guessed from the word ("around" of "around 2019" alone) is no name. Its tokens are
    taken, so the words are named once. With no phrase read, a unit of the calendar nothing
    read ("lst month") is said not understood the same way."""
    guessed = {"references_by_position", "references_unread"} & set(notes)
    known = [] if guessed else spans  # guessed names are words nothing read
    unread = [t.free and not overlaps((t.start, t.end), known) for t in tokens]
    names = [
        u and r.content(t) and t.norm not in v.FILLERS for u, t in zip(unread, tokens, strict=True)
    ]
    if time is None:  # a unit of the calendar nothing read ("lst month"): a time named
        found = beside.unread_unit(text, tokens, unread)
    else:
        found = beside.unread_beside(text, time.start, time.end, tokens, unread, names)
        # "lst month in 2025": a time counted from now and not understood beside the one read
        unit = None if found else beside.unread_unit(text, tokens, unread, beside_a_time=True)
        if unit is not None:
            found = (min(unit[0], time.start), max(unit[1], time.end))
    if found is None:
        return time, spans
    reading.not_understood.append(text[found[0] : found[1]].strip())
    reading.unknown_spans.append(found)
    notes.append("time_expression_not_understood")
    reading.match = None
    for token in tokens:
        if found[0] <= token.start and token.end <= found[1]:
            token.free = False
    return None, [s for s in spans if not found[0] <= s[0] < found[1]]
