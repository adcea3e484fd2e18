"""The notes ending a question that compares periods in a way no answer computes, each
naming both periods with their dates and, when they are whole, the two questions to ask
instead: one answer covers one window, so answering the first period alone answers another
question (an independent check, c32b F2, had the first counted, the second said "not used").

A period after "than", "vs" or "compared to" that no comparison answers ("how many commits
compared to last year?": a count) ends here, never answered for that period alone. So does
one phrase joining two periods after "compare" ("compare commits in july and august" was
answered over both months together), and a later time named beside the one read
(`two_times`). Which periods a question names: engine/reading/comparisons.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from engine.reading.comparisons import COMPARE, JOINED, LEAD, PREPOSITION, later_periods
from engine.reading.meaning import Unasked
from engine.reading.periodpairs import (
    COUNTED,
    ELIDED,
    SAME,
    Named,
    dates,
    same_time,
    uncounted,
)
from engine.reading.periodpairs import elided as elided_before
from engine.reading.time import phrases as tp

_MORE = re.compile(r"\b(?:more|fewer|less)\b\s*", re.IGNORECASE)
_SUGGESTED = 'Ask about each period in turn: "{}" and "{}".'
# A question offered in place of the one asked is offered only whole: no comparing word left
# in it, no word left dangling at its end ("Compare the number of attrs commits in March 2026
# with?" and "attrs commits last yr vs same time?" were offered).
_STILL_COMPARING = re.compile(
    r"\b(?:vs\.?|versus|than|compar(?:e|es|ed|ing|ison)|against|same)(?!\w)", re.IGNORECASE
)
_DANGLING = re.compile(
    r"\b(?:with|to|and|or|of|in|on|the|a|an|from|between|since|by|for|during|over|at|until"
    r"|time|period)\?$",
    re.IGNORECASE,
)


def _same_refused(
    text: str, time: tp.TimeMatch, same: re.Match[str], pair: Named
) -> tuple[Unasked, ...]:
    """ "who changed X this yr vs same time last yr": both periods dated, the question about
    the first; the second has no words of its own to ask with but its dates."""
    (first, second), (_, (start, end)) = pair.phrases, pair.windows
    dated = dates(start, end)
    asked = _edited(text, [(same.start(), same.end(), "")])
    offer = f'Ask "{asked}", then the same naming the dates of "{second}"{dated}.'
    note = (
        f'"{first}"{dates(time.start_at, time.end_at)} and "{second}"{dated} are two periods '
        "compared: one answer covers one window, and the first alone would answer another "
        f"question. {offer if _clean(asked) else ''}"
    ).rstrip()
    return (Unasked(same.group("phrase"), note),)


def two_periods(
    text: str,
    time: tp.TimeMatch | None,
    compared: tuple[datetime, datetime] | None,
    reading: tp.TimeReading,
    now: datetime,
    pair: Named | None = None,
) -> tuple[Unasked, ...]:
    """The comparison a question makes that no answer computes, said (the question ends):
    a period after "than"/"vs"/"compared to" beside the first one, or the only period after
    such a word when it is not compared with the time since it (`compared` is None); else
    the two periods read as compared (`pair`: "did the number of contributors grow from 2024
    to 2025?" was counted over both years together)."""
    if time is None or compared is not None:
        return ()
    first = text[time.start : time.end]
    if LEAD.search(text[: time.start]):  # "how many commits compared to last year?"
        note = (
            f'"{first}"{dates(time.start_at, time.end_at)} is named to compare with, and '
            "a comparison is computed only for how much something changes against the time "
            'since that period ("is X changing more than last year?"): this question is not '
            f"answered for that period alone. Ask about the period itself, without the "
            "comparison, or ask how much something changes against it."
        )
        return (Unasked(first, note),)
    if (same := SAME.match(text, time.end)) and (pair := same_time(first, time, same)):
        return _same_refused(text, time, same, pair)
    if (before := COUNTED.match(text, time.end)) and uncounted(before):
        return _uncounted(first, time, before.group("phrase"))  # "vs the days before"
    for begin, end, period in later_periods(text, time, reading):
        # A bare month is read after a preposition ("versus august")
        second = tp.read_time(period, now).match or tp.read_time(f"in {period}", now).match
        dated = dates(second.start_at, second.end_at) if second else ""
        asked = _questions(text, time, (begin, end), period)
        note = (
            f'"{first}"{dates(time.start_at, time.end_at)} and "{period}"{dated} are two '
            "periods compared: one answer covers one window, and the first alone would "
            f"answer another question. {_suggested(asked)}"
        )
        return (Unasked(text[begin:end], note),)
    if elided := ELIDED.match(text, time.end):  # "this yr vs last": last year
        return _elided(text, time, elided, now)
    if (verb := COMPARE.search(text)) is not None:  # "compare commits in july and august"
        return _compare(text, time, verb, now)
    return () if pair is None else _pair_refused(pair)


def _uncounted(first: str, time: tp.TimeMatch, phrase: str) -> tuple[Unasked, ...]:
    """ "the last 30 days vs the days before": how many days is not said (one was answered)."""
    note = (
        f'"{first}"{dates(time.start_at, time.end_at)} is compared with "{phrase}", which '
        "says no count of its units, so names no period here: one answer covers one window, "
        "and the first alone would answer another question. Ask about each period in turn, "
        'naming each with its count ("the 30 days before that").'
    )
    return (Unasked(phrase, note),)


def _pair_refused(pair: Named) -> tuple[Unasked, ...]:
    """Two periods read as compared, each dated, when what is asked of them is no figure a
    comparison gives (commits and changed lines): ended, never answered over both."""
    said = [f'"{p}"{dates(*w)}' for p, w in zip(pair.phrases, pair.windows, strict=True)]
    note = (
        f"{said[0]} and {said[1]} are two periods compared, and what is asked of them is "
        "not compared here (commits, changed lines and the number of people are): one "
        "answer covers one window, and the two together would answer another question. Ask "
        "about each period in turn."
    )
    return (Unasked(pair.phrases[1], note),)


def _elided(
    text: str, time: tp.TimeMatch, elided: re.Match[str], now: datetime
) -> tuple[Unasked, ...]:
    """ "this yr vs last": this year and last year, dated, and the question about each."""
    first = text[time.start : time.end]
    before = elided_before(first, time, elided, now)
    said = elided.group().strip(" ,")
    if before is None:  # "in 2025 vs last": which period is not said
        note = (
            f'"{first}"{dates(time.start_at, time.end_at)} is compared with "{said}", which '
            "names no period here: one answer covers one window, and the first alone would "
            "answer another question. Ask about each period in turn, naming both."
        )
        return (Unasked(said, note),)
    period, (start, end) = before
    dated = dates(start, end)
    asked = _questions(text, time, (elided.start(), elided.end()), period)
    note = (
        f'"{first}"{dates(time.start_at, time.end_at)} and "{period}"{dated} are two '
        "periods compared: one answer covers one window, and the first alone would "
        f"answer another question. {_suggested(asked)}"
    )
    return (Unasked(said, note),)


def two_times(
    text: str, time: tp.TimeMatch | None, later: Sequence[str], now: datetime
) -> tuple[str, ...]:
    """The note ending a question that names a later time beside the one read, when no other
    rule ends it (a comparison, subjects each with a time of their own): "all of 2024 and
    2025, who changed _make.py?" was answered over 2024, '"2025" was not used' beside it;
    answering either alone answers another question. `later`: the phrases after the first
    that read as another time."""
    if time is None or not later:
        return ()
    first, period = text[time.start : time.end], later[0]
    at = text.find(period, time.end)
    if at < 0:
        return ()
    second = tp.read_time(period, now).match or tp.read_time(f"in {period}", now).match
    dated = dates(second.start_at, second.end_at) if second else ""
    joined = _JOINER.search(text, 0, at)
    begin = joined.start() if joined is not None else at
    lead = PREPOSITION.match(first)
    if lead and not PREPOSITION.match(period):
        period = f"{lead.group()}{period}"  # "in 2025 and 2024": "in 2024"
    cut = (begin, at + len(later[0]), "")
    asked = _edited(text, [cut]), _edited(text, [cut, (time.start, time.end, period)])
    return (
        f'"{first}"{dates(time.start_at, time.end_at)} and "{later[0]}"{dated} are two '
        "times named: one answer covers one window, and either alone would answer another "
        f"question. {_suggested(asked)}",
    )


# The words joining a later time phrase to what is before it (", and", " or", "then").
_JOINER = re.compile(r"(?:\s*,\s*|\s+)(?:(?:and|or|then|plus|&)\s+)?$", re.IGNORECASE)


def _compare(
    text: str, time: tp.TimeMatch, verb: re.Match[str], now: datetime
) -> tuple[Unasked, ...]:
    """ "Compare commits in july and august": the periods the time phrase joins, each dated,
    and the question about each (the one period read was both together)."""
    phrase = text[time.start : time.end]
    parts = JOINED.split(phrase, maxsplit=1)
    if len(parts) < 2:  # one period: subjects compared in it ("compare core.py and parser.py")
        return ()
    lead = PREPOSITION.match(parts[0])
    if lead and not PREPOSITION.match(parts[1]):
        parts[1] = f"{lead.group()}{parts[1]}"  # "in july and august": "in august"
    when = [dates(*_span(tp.read_time(p, now).match)) for p in parts]
    cut = (verb.start(), verb.end(), "")
    asked = [_edited(text, [cut, (time.start, time.end, p)]) for p in parts]
    note = (
        f'"{parts[0]}"{when[0]} and "{parts[1]}"{when[1]} are two periods compared: one '
        f"answer covers one window, and the two together would answer another question. "
        f"{_suggested(asked)}"
    )
    return (Unasked(verb.group().strip(), note),)


def _span(match: tp.TimeMatch | None) -> tuple[datetime | None, datetime | None]:
    return (None, None) if match is None else (match.start_at, match.end_at)


def _questions(
    text: str, time: tp.TimeMatch, clause: tuple[int, int], period: str
) -> tuple[str, str]:
    """The question asked about each period alone: without the comparison's word and its
    clause, then with the second period in the first one's place."""
    first = text[time.start : time.end]
    lead = PREPOSITION.match(first)
    if lead and not PREPOSITION.match(period):
        period = f"{lead.group()}{period}"  # "in 2025 vs 2024": "in 2024"
    edits = [(clause[0], clause[1], "")]
    more = _MORE.search(text, 0, clause[0])
    if more is not None and more.end() <= time.start:
        edits.append((more.start(), more.end(), ""))
    verb = COMPARE.search(text, 0, time.start)  # "Compare the number of ... with ..."
    if verb is not None:
        edits.append((verb.start(), verb.end(), ""))
    return _edited(text, edits), _edited(text, [*edits, (time.start, time.end, period)])


def _clean(question: str) -> bool:
    """Whether a question offered in place of the one asked is whole (`_STILL_COMPARING`)."""
    return not (_STILL_COMPARING.search(question) or _DANGLING.search(question))


def _suggested(asked: Sequence[str]) -> str:
    """The questions to ask instead, when each is whole and they differ; else none (the note
    still names both periods)."""
    whole = len(set(asked)) == len(asked) and all(_clean(q) for q in asked)
    return _SUGGESTED.format(*asked) if whole else "Ask about each period in turn."


def _edited(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    for start, end, put in sorted(edits, reverse=True):
        text = text[:start] + put + text[end:]
    return " ".join(text.split()).rstrip(" ?,.") + "?"
