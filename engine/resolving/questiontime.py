"""The time a question names: read relative to the request's time, what the answer must
say about phrases it could not use, and a phrase spanning more than one answer may cover
(MAX_RANGE), which asks again offering the widest allowed window (or is refused when the
request allows no clarification, as is any time before 1970)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Protocol

from engine.answering.framing import lookback_of, window_of
from engine.domain.errors import BadUserInput
from engine.domain.timecontext import (
    MAX_RANGE,
    MICROSECOND,
    SKEW_TOLERANCE,
    EffectiveTime,
    iso,
    resolve_time,
    to_utc,
)
from engine.reading.interpretation import Interpretation
from engine.reading.time import phrases as tp
from engine.reading.time.reasons import Unread
from engine.reading.time.slashdates import Ambiguous
from engine.reading.time.slots import Slot
from engine.reading.vocabulary import Intent

EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)  # no time before it can be asked about
NO_TIME = "No time was named"  # the note saying which window a question naming none covers
# (the default one, engine.answering.framing.LOOKBACK, or the whole history of what it names:
# engine/resolving/wholehistory.py)
# Ownership is read at the window's end, not over the window: no window to state.
AT_A_POINT = frozenset({Intent.WHO_OWNS})


@dataclass(frozen=True)
class TooWide:
    """A time phrase asking for more than one answer may cover (MAX_RANGE): the answer asks
    again, offering the widest allowed window that ends where the phrase ends."""

    phrase: str
    start: datetime
    end: datetime
    suggestion: str  # the phrase to ask instead ("in the last 400 days")
    suggested: EffectiveTime  # what the suggestion means
    slot: Slot  # where the phrase stands in the question
    # How the phrase was read, when a convention did ("mid-2025": the start of its middle
    # third, May): the dates alone did not say why "mid-2025 to now" starts on 1 May.
    note: str | None = None

    def question(self) -> str:
        """The question asked again with the suggestion in the phrase's place
        (engine/reading/time/slots.py)."""
        return self.slot.asked(self.suggestion)

    def _asks(self) -> str:
        if self.start == tp.EARLIEST:
            return f"everything before {iso(self.end)}"
        days = (self.end - self.start).days
        return f"{days} days ({iso(self.start)} to {iso(self.end)})"

    def refused(self) -> str:
        """What a question that ends on other words says of its time too (the rule, the
        span, a window allowed): "full ranking from January 2020 through June 2026" said only
        "full" and "ranking" not understood, and asked again with them it met the rule."""
        return (
            f'"{self.phrase}" asks for {self._asks()}, more than the {MAX_RANGE.days} days one '
            f"answer may cover: ask for at most {MAX_RANGE.days} days (for example "
            f'"{self.suggestion}").' + (f" {self.note}." if self.note else "")
        )

    def prompt(self) -> str:
        return (
            f'"{self.phrase}" asks for {self._asks()}, '
            f"more than the {MAX_RANGE.days} days one answer may cover. Ask for at most "
            f"{MAX_RANGE.days} days, for example the last {MAX_RANGE.days} days up to "
            f'{iso(self.end)}: "{self.question()}" (the receipts given here are for '
            "that question)." + (f" {self.note}." if self.note else "")
        )


def too_wide(understood: Interpretation, anchor: datetime) -> TooWide | None:
    """The question's time phrase when it spans more than MAX_RANGE, with the suggestion."""
    phrase, start = understood.time_expression, understood.start
    if phrase is None or start is None:
        return None
    end = min(understood.end or anchor, anchor)
    if end - to_utc(start) <= MAX_RANGE:
        return None
    if end == anchor:
        suggestion = f"in the last {MAX_RANGE.days} days"
        window = (anchor - MAX_RANGE, anchor)
    else:  # whole days that a "between" phrase reads back as at most MAX_RANGE
        last = (end - MICROSECOND).date()
        first = last - (MAX_RANGE - timedelta(days=1))
        suggestion = f"between {first.isoformat()} and {last.isoformat()}"
        window = (datetime.combine(first, time(), UTC), end)
    suggested = resolve_time(None, *window, anchor)
    return TooWide(
        phrase, to_utc(start), end, suggestion, suggested, understood.slot(phrase),
        understood.time_note,
    )  # fmt: skip


def question_time(
    effective: EffectiveTime, understood: Interpretation, anchor: datetime
) -> tuple[EffectiveTime, list[str]]:
    """The time the question names, read relative to the request's time, and what the answer
    must say about time phrases it could not use. A request's own range wins over the text.
    A phrase wider than MAX_RANGE is the caller's to handle first (`too_wide`)."""
    notes: list[str] = []
    phrase = understood.time_expression
    requested = effective.axis.value == "range"  # the request's own range
    if phrase and requested:
        notes.append(f'The request\'s range was used, not "{phrase}" in the question.')
    elif phrase:
        effective = _phrase_time(phrase, understood, anchor)
    window = window_of(effective, lookback_of(understood.intent))
    used = f"{iso(window.start)} to {iso(window.end)}"
    named = understood.time_not_understood or understood.as_of or understood.start
    if effective.axis.value != "range" and understood.intent not in AT_A_POINT and not named:
        notes.append(f"{NO_TIME}: the answer covers {used}.")  # every intent's default window
    if effective.axis.value == "as_of" and understood.intent not in AT_A_POINT and phrase:
        notes.append(f'"{phrase}" names a point in time: the answer covers {used}.')
    if understood.time_note and phrase and not requested:
        notes.append(f"{understood.time_note}: the answer covers {used}.")
    for text, reason in understood.time_reasons:
        if reason is Unread.VERSUS and understood.compared is not None:
            continue  # "in 2025 vs 2024": the period compared with (engine/reading/twoperiods)
        if reason is Unread.VERSUS:  # "in 2025 vs 2024": ended by engine/reading/uncompared
            notes.append(f'"{text}": comparing two periods is not computed here; the answer '
                         f"covers {used} only.")  # fmt: skip
            continue
        notes.append(f'"{text}" {_WHY[reason]}; the answer covers {used} instead.')
    for text in understood.time_ignored:
        if text in understood.time_repeated or understood.compared is not None:
            continue  # "core.py in 2025 and parser.py in 2025": one time, used for each; "in
            # may vs june": the period compared with (engine/reading/twoperiods.py)
        notes.append(f'Only the first time phrase is used: "{text}" was not.')
    notes.extend(_when(understood, used))
    return effective, notes


# Why a time phrase was not read (engine/reading/time/reasons.py), in the answer's words.
_WHY = {
    Unread.FISCAL: (
        "names a fiscal period, whose months differ between organisations (none is "
        'recorded here), so it was not read: name its dates ("between 2024-07-01 and '
        '2025-06-30")'
    ),
    Unread.NO_DATE: (
        "names no real date (a day its month does not have, or a range ending before it starts)"
    ),
    Unread.RELEASE: (
        "names a release, and releases (tags) are not recorded here (the git import "
        "records none): a release is placed in time only at its release commit, the one "
        "commit of the repository whose subject marks exactly that version released "
        '("release version 8.4.1", "v2.34.0", "Prepare 26.1.0"), asked "since" it or '
        '"between" two (engine/resolving/releases.py); none placed this one: name its date '
        '("since 2021-05-11")'
    ),
    Unread.UNKNOWN: "was not understood as a time",
    Unread.VERSUS: "compares with another period, and one answer covers one period",
}


def unread(understood: Interpretation) -> tuple[str, ...]:
    """The time phrases the question names that no rule reads, each said with why: the
    investigation ends on them (no match), never answering over another window, whether
    said beside the answer or not ("3 weeks back", "the past half year" answered the last
    year, "since the end of last year" all of last year, each with a limitation). A phrase
    comparing with another period ("how many commits to core.py vs 2024") is one too: the
    default window was answered alone, "comparing two periods is not computed" said, one
    period of the two asked. With a period read beside it ("in 2025 vs 2024"),
    engine/reading/uncompared.py ends the question naming both. So does a later phrase
    naming another time ("all of 2024 and 2025": engine.reading.uncompared.two_times)."""
    read = understood.start is not None or understood.as_of is not None
    return *(
        f'"{text}" {_WHY[reason]}; no other window is answered in its place: ask '
        'again naming the period (for example "since 2025-03-01" or "in the last 30 days").'
        for text, reason in understood.time_reasons
        if reason is not Unread.VERSUS or not read
    ), *understood.two_times


def _refuse_a_future_time(
    effective: EffectiveTime, understood: Interpretation, anchor: datetime
) -> None:
    """A question ending on its time phrases is still refused, as asked alone, when the time
    it read lies in the future: "how is X doing next year in 2031?" was refused before a
    second time ended questions (two_times), then ended as no match, suggesting two
    questions about the future. Only the future is checked here: a phrase too wide still
    ends with the others, named."""
    phrase, point = understood.time_expression, understood.as_of or understood.start
    if phrase is None or point is None or effective.axis.value == "range":
        return
    if to_utc(point) - anchor > SKEW_TOLERANCE:
        _phrase_time(phrase, understood, anchor)  # refused, as when asked alone


def _phrase_time(phrase: str, understood: Interpretation, anchor: datetime) -> EffectiveTime:
    """The time a question's phrase reads as, validated as a request's time is; a time
    refused says which phrase it is."""
    try:
        return resolve_time(understood.as_of, understood.start, understood.end, anchor)
    except BadUserInput as exc:
        raise BadUserInput(f'"{phrase}": {exc}') from exc


def _when(understood: Interpretation, used: str) -> list[str]:
    """What the answer says about a question asking when: any "when" but the last change
    (engine/questions/newest.py, lastchange.py say how it was found) is not understood."""
    if understood.asks_when:
        return [
            'Only "when did X last change?" is understood of questions asking when: this '
            "answer is not the time something happened, but the state of what was named."
        ]
    return []


def one_change(understood: Interpretation, wide: TooWide, anchor: datetime) -> str | None:
    """What the answer says of a whole history named ("ever", "of all time", "in its
    history") by a question asking for the first or the last change: that change is one,
    found at any age (engine/questions/firstchange.py, lastchange.py), so no window of at most
    MAX_RANGE is needed ("first ever click commit", "when was the first commit ever made to
    click?" asked again for the last 400 days, or ended). None for any other question, and
    for a history up to another end ("the last commit before 2015" is asked again)."""
    if understood.asks_first == understood.asks_last:
        return None
    if wide.start != tp.EARLIEST or wide.end != anchor:
        return None
    which = "first" if understood.asks_first else "last"
    return (
        f'"{wide.phrase}": the {which} change is one change, searched for over the whole '
        "history recorded; no window is needed."
    )


class Narrower(Protocol):
    """A time phrase the answer asks about again (TooWide, or a slash date's two days)."""

    @property
    def phrase(self) -> str: ...

    @property
    def suggested(self) -> EffectiveTime: ...

    def question(self) -> str: ...

    def prompt(self) -> str: ...


def which_day(understood: Interpretation, anchor: datetime) -> Ambiguous | None:
    """The first slash date whose two readings may both be meant
    (engine/reading/time/slashdates.py)."""
    for phrase, readings in understood.which_day:
        return Ambiguous(phrase, readings, anchor, understood.slot(phrase))
    return None


def asked_time(
    effective: EffectiveTime,
    understood: Interpretation,
    anchor: datetime,
    allow_clarification: bool,
) -> tuple[EffectiveTime, list[str], Narrower | None]:
    """The time the answer covers, what it must say about the question's time phrases, and
    the phrase when it spans too much. BadUserInput for times that are refused. A question
    that ends on a time phrase (`unread`) keeps the request's time: the part of a window it
    read was carried by its no match as if answered over it."""
    if unread(understood):
        _refuse_a_future_time(effective, understood, anchor)
        return effective, [], None
    wide: Narrower | None = None
    if effective.axis.value != "range":
        wide = which_day(understood, anchor) or too_wide(understood, anchor)
    if isinstance(wide, TooWide) and (said := one_change(understood, wide, anchor)) is not None:
        return effective, [said], None  # "the first commit ever": no window is needed
    if isinstance(wide, Ambiguous) and not allow_clarification:
        raise BadUserInput(
            f'"{wide.phrase}" could be either of two days (day/month or month/day): write '
            "the date as YYYY-MM-DD"
        )
    if wide is not None and not allow_clarification:
        raise BadUserInput(
            f'"{wide.phrase}": the range is wider than {MAX_RANGE.days} days'
        )
    if wide is not None:  # subjects are found over the window offered instead
        effective, time_notes = wide.suggested, list[str]()
    else:
        effective, time_notes = question_time(effective, understood, anchor)
    if effective.start < EARLIEST:
        raise BadUserInput("times before 1970 cannot be asked about")
    return effective, time_notes, wide
