"""Words beside a time phrase that nothing read but that could change what it means.

A time phrase read without a word next to it answers over another window: "since Jan '23"
read "since Jan" (the latest January), "on the fifth of March 2024" all of March, "around the
time of PyCon 2019" all of 2019, "as of last Christmas" that day as a window. Such a word
(a number or ordinal, a number after an apostrophe, a month or a word spelt like one, a unit
of time or its plural, a part or bound of a period, a hedge such as around or roughly, "as"
of "as of") left unread right beside the phrase, or a few words from it through words nothing
read ("the time of PyCon"), ends the reading as not understood, the words named
(engine.reading.interpreter): never answered over the phrase read without them. A word
that does not touch the time (a name, "the", a filler) leaves the reading as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from engine.reading.time.calendar import LEADS, MONTHS, NUMBERS, ORDINAL_DAYS
from engine.reading.time.spellings import CALENDAR_UNITS

_UNITS = frozenset(
    CALENDAR_UNITS
    | {"season", "spring", "summer", "autumn", "fall", "winter", "time", "period", "half"}
    | {"halves", "q1", "q2", "q3", "q4", "h1", "h2", "fiscal", "fy", "financial", "academic"}
)
# Words bounding or placing a period, and hedges: each makes the phrase another window.
_BOUNDS = frozenset(
    {"early", "mid", "late", "start", "beginning", "end", "middle", "before", "after"}
    | {"since", "until", "till", "through", "thru", "prior", "following", "preceding", "ago"}
    | {"onwards", "onward", "last", "next", "previous", "til", "upto", "btwn", "b w"}
)
# Words leaving a period out ("excluding 2025", "apart from Q3" were answered over 2025 and
# Q3, the word unsaid): the phrase is no window asked for.
_LEAVING_OUT = frozenset(
    {"excluding", "exclude", "except", "besides", "apart", "aside", "outside", "minus"}
    | {"ignoring", "without", "excl"}
)
_HEDGES = frozenset(
    {"around", "about", "roughly", "circa", "ca", "approximately", "approx", "near"}
    | {"nearly", "almost", "ish", "thereabouts"}
)
# "approx. June 2026", "ca. 2019": an abbreviated hedge's full stop joins it to the phrase.
_ABBREVIATED = re.compile(r"\.\s*")
_PLURALS = frozenset(f"{u}s" for u in _UNITS)
_PARTS = frozenset({"early", "mid", "late"})
# "later in 2025": some later part of it, which no reader agrees on (it was answered over all
# of 2025, "later" unsaid); "earlier this year" is all of the year so far, read.
_LATER = frozenset({"later"})
# Before a unit, how to count rather than when ("per month", "each week", "over time").
_GRAINS = frozenset({"per", "each", "every", "over", "a", "by"})
# After a unit, comparing each period with the one before ("year over year", "quarter on
# quarter"): "in 2025 year over year" ended on "in 2025 year" not understood.
_OVER = frozenset({"over", "on"})
_WORDS = frozenset(
    {n for n in NUMBERS if n != "a"}
    | {w for w in ORDINAL_DAYS if " " not in w}
    | {m for m in MONTHS if m != "may"}  # "may" is mostly the verb
    | _UNITS
    | _PLURALS
    | _BOUNDS
    | _HEDGES
    | _LATER
)
# Numbers, ordinals no row reads ("fortieth"), tens written out ("thirty-second").
_NUMBER = re.compile(
    r"\d{1,4}(?:st|nd|rd|th|s)?|[a-z]+(?:tieth|teenth)|hundredth|thousandth"
    r"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-?[a-z]+)?"
)
_GLUE = frozenset({"the", "of", "a", "an"})
# "apart from Q3", "aside from last month": passed over on the way to the word leaving it out.
_FROM = frozenset({"from"})
_GAP = re.compile(r"[\s'\u2019]*")  # "Jan '23": an apostrophe joins the year to the phrase
# A dash or a slash joins another part to it, and "to", "and", "or" another one ("early or
# mid 2025", "late 2024/early 2025" read the phrase alone, the rest unsaid).
_JOINED = re.compile(r"\s*[-\u2013/]\s*")
_CONNECTORS = frozenset({"to", "and", "or"})
_REACH = 5  # words looked at on the left ("around the time of PyCon 2019")
_MONTH_NAMES = [m for m in MONTHS if len(m) > 4]
# A bound a misspelling still names, before a phrase ("sinse januray 2025" read January 2025
# alone, "sine 2025" all of 2025); never a word of its own ("though", "alter").
_BOUND_SPELLINGS = ("since", "until", "after", "before", "between", "through", "during")
_REAL_WORDS = frozenset({"though", "tough", "alter", "thorough", "sincere", "dying"})
# Units of the calendar, as written or abbreviated, and the ones a misspelling still names
# ("lst month", "the past mnth": a time named, never the default window).
_CALENDAR_UNITS = CALENDAR_UNITS | frozenset(
    {"yr", "yrs", "wk", "wks", "mth", "mths", "qtr", "qtrs", "mo", "mos", "hr", "hrs"}
)
# Counting back or on from now: the word right after them (or after their count) is the
# unit, however it is spelt ("the last fortnite", "the past 3 mos"), unless it is a time
# of its own ("the last time") or what is counted ("the last commit" is read elsewhere).
_COUNTING_FROM_NOW = frozenset({"last", "past", "previous", "prior", "next", "coming"})
_NO_UNIT_AFTER = frozenset({"time", "times", "one", "ones", "few", "couple", "several"})
# After these and "the last N", what is counted is the span asked about ("in the last 3
# commits", "over the last 3 blorps"): a time not understood, never the default window.
_SPANNING = frozenset({"in", "over", "during", "within", "for", "across", "throughout"})
# A count and a unit written as one word that no rule reads ("the last 3m": minutes or
# months).
_COMPACT = re.compile(r"\d{1,4}[a-z]{1,5}")
_SPELT_UNITS = ("month", "week", "year", "quarter", "decade", "fortnight")
# Before a unit, a word asking for a period or counting by one, not naming one: "which
# month", "the busiest day", "how many days", "per week", "of the month".
_ASKING = frozenset(
    {"which", "what", "busiest", "quietest", "most", "least", "many", "how", "same", "of"} | _GRAINS
)


class Word(Protocol):
    """A word of the question (engine.reading.references.Token)."""

    start: int
    end: int
    norm: str


def unread_beside(
    text: str,
    start: int,
    end: int,
    words: Sequence[Word],
    unread: Sequence[bool],
    names: Sequence[bool],
) -> tuple[int, int] | None:
    """The span of the phrase at [start, end) with the words beside it that could change it,
    when one such was left unread (`unread[i]`: no rule or name read words[i]; `names[i]`: it
    is a content word, a name nothing here knows such as "PyCon"); None when none was."""
    left = [i for i, w in enumerate(words) if w.end <= start]
    right = [i for i, w in enumerate(words) if w.start >= end]
    if (named := _named_day(text, start, end, words, left, names)) is not None:
        return named, end
    walk = _Walk(text, words, unread, names)
    if text[start:end].split()[0].lower() in LEADS:  # "per month in 2024": only "late in"
        first = walk.reach(start, list(reversed(left))[:1], leftwards=True, near=True)
    else:
        first = walk.reach(start, list(reversed(left)), leftwards=True)
    last = walk.reach(end, right[:2], leftwards=False)
    if first is None and last is None:
        return None
    return (start if first is None else first), (end if last is None else last)


@dataclass(frozen=True, slots=True)
class _Walk:
    text: str
    words: Sequence[Word]
    unread: Sequence[bool]
    names: Sequence[bool]

    def reach(self, edge: int, order: list[int], leftwards: bool, near: bool = False) -> int | None:
        """The farthest edge of a word that changes the phrase, walking away from it over
        words nothing read ("the", "of", and on the left a name such as "PyCon"); None when
        no such word is reached. `near`: only a hedge, a number or a part ("late in 2019")."""
        found = None
        at = edge
        for i in order[:_REACH]:
            word = self.words[i]
            gap = self.text[word.end : at] if leftwards else self.text[at : word.start]
            hedged = leftwards and word.norm in _HEDGES and _ABBREVIATED.fullmatch(gap)
            if not (_GAP.fullmatch(gap) or hedged or _JOINED.fullmatch(gap)) or not self.unread[i]:
                break
            before = self.words[i - 1].norm if i > 0 else ""
            if not leftwards and word.norm == "so" and before == "or":  # "March 2026 or so"
                found = word.end
                break
            if leftwards and word.norm in _UNITS | _PLURALS and before in _GRAINS:
                break  # "per month", "over time": how to count, not when
            following = self.words[i + 1].norm if i + 1 < len(self.words) else ""
            if not leftwards and word.norm in _UNITS and following in _OVER:
                break  # "in 2025 year over year": how to compare (periodpairs.OVER)
            misspelt = leftwards and _misspelt_bound(word.norm)
            left_out = leftwards and word.norm in _LEAVING_OUT  # before it only
            changed = changes(word.norm, following) or misspelt or left_out
            if changed and (not near or _near(word.norm)):
                found = word.start if leftwards else word.end
            elif word.norm not in _GLUE | _CONNECTORS | (_FROM if leftwards else _GLUE) and not (
                leftwards and self.names[i]
            ):
                break
            at = word.start if leftwards else word.end
        return found


def changes(norm: str, following: str = "") -> bool:
    """A word that could change a time phrase it stands beside."""
    if norm in _WORDS or _NUMBER.fullmatch(norm):
        return True
    if norm == "as":  # "as of last Christmas": a point, not that day
        return following in ("of", "at")
    if norm == "or":  # "in March 2026 or so", "or thereabouts": a hedge after the phrase
        return following in ("so", "thereabouts")
    return len(norm) > 4 and any(_spelt_like(norm, m) for m in _MONTH_NAMES)


# A bound or place before a name nothing knows and a year: an event's or a holiday's day
# ("on diwali 2025", "at pycon 2019", "over easter 2024" before holidays were rows), never
# the whole year.
_PLACING = frozenset(
    {"on", "at", "over", "during", "around", "since", "after", "before", "until", "till"}
    | {"from", "between"}
)
_YEAR_ALONE = re.compile(r"(?:19[7-9]\d|2\d{3})")


def _named_day(
    text: str, start: int, end: int, words: Sequence[Word], left: list[int], names: Sequence[bool]
) -> int | None:
    """The start of "on diwali" before a year read alone, or None."""
    if len(left) < 2 or not _YEAR_ALONE.fullmatch(text[start:end]):
        return None
    name, bound = left[-1], left[-2]
    if not names[name] or words[bound].norm not in _PLACING:
        return None
    gaps = text[words[bound].end : words[name].start] + text[words[name].end : start]
    return words[bound].start if gaps.isspace() else None


def unread_unit(
    text: str, words: Sequence[Word], unread: Sequence[bool], beside_a_time: bool = False
) -> tuple[int, int] | None:
    """The span of a unit of the calendar no rule read, with the unread words right before it
    ("lst month", "in the past mnth"): a time was named and not understood, never the default
    window. None when there is none, or when the word asks for a period or counts by one
    ("which month", "per week", "how many days"). `beside_a_time`: another phrase was read,
    so only a unit counted from now ("lst month in 2025", "the past 3 mos in 2025") counts:
    a unit alone there may be how to count ("in 2024, month by month")."""
    if not beside_a_time and (spanned := _spanned_count(words, unread)) is not None:
        return spanned
    for i, word in enumerate(words):
        if not unread[i]:
            continue
        if beside_a_time:
            if not (_counted_from_now(words, i) or _after_a_spelt_last(words, i)):
                continue
        elif not (_unit_like(word.norm) or _counted_from_now(words, i) or _season_like(words, i)):
            continue
        elif _abbreviated_alone(words, i):
            continue  # "what did Mo change", "HR's changes": a name, no unit
        if i > 0 and (words[i - 1].norm in _ASKING or _of_the(words, i)):
            continue
        start, j = word.start, i - 1
        while j >= 0 and i - j <= 3 and unread[j] and _GAP.fullmatch(text[words[j].end : start]):
            if not (_time_word(words[j].norm) or len(words[j].norm) <= 4):
                break  # "lst", "the past", "in": not "changed" nor a name
            start, j = words[j].start, j - 1
        over = [w.norm for w in words[i + 1 : i + 3]]
        if len(over) == 2 and over[0] in _OVER and over[1] == word.norm:  # "year over year"
            return start, words[i + 2].end
        return start, word.end
    return None


def _counted_from_now(words: Sequence[Word], i: int) -> bool:
    """ "the last fortnite", "the past 3 mos": where a unit is due after "last" or "past" (and
    its count), a word spelt like one, or after a count a short one (an abbreviation); not
    what is counted ("the last change", "the last 3 commits")."""
    norm = words[i].norm
    compact = bool(_COMPACT.fullmatch(norm))
    if norm in _NO_UNIT_AFTER or norm in _GLUE or not (norm.isalpha() or compact):
        return False
    j, counted = i - 1, compact
    if not compact and j >= 0 and (_NUMBER.fullmatch(words[j].norm) or words[j].norm in NUMBERS):
        j, counted = j - 1, True
    if j < 0 or words[j].norm not in _COUNTING_FROM_NOW:
        return False
    spelt = len(norm) >= 4 and any(_spelt_like(norm, u, 0.75) for u in _SPELT_UNITS)
    spanning = j >= 2 and words[j - 1].norm == "the" and words[j - 2].norm in _SPANNING
    return spelt or (counted and (len(norm) <= 4 or spanning))


def _spanned_count(words: Sequence[Word], unread: Sequence[bool]) -> tuple[int, int] | None:
    """ "in the last 3 commits", "over the past 2 releases": a span counted in what no rule
    of time reads (a question's own words may read "commits"), its count left unread; "in
    the past mnts": a unit no rule reads. The span of the words, never the default window."""
    for i in range(3, len(words)):
        lead, the, last, word = (w.norm for w in words[i - 3 : i + 1])
        if the != "the" or lead not in _SPANNING or last not in _COUNTING_FROM_NOW:
            continue
        counted = i + 1 < len(words) and (_NUMBER.fullmatch(word) or word in NUMBERS)
        if unread[i] and counted:
            return words[i - 3].start, words[i + 1].end
        if unread[i] and word.isalpha() and word not in _NO_UNIT_AFTER | _GLUE:
            return words[i - 3].start, words[i].end
    return None


def _after_a_spelt_last(words: Sequence[Word], i: int) -> bool:
    """ "lst month", "pst week": a unit after "last" or "past" misspelt."""
    if i == 0 or not _unit_like(words[i].norm):
        return False
    before = words[i - 1].norm
    return before not in _WORDS and any(
        _spelt_like(before, w, 0.75) for w in ("last", "past", "this", "next")
    )


def _time_word(norm: str) -> bool:
    return norm in _WORDS or norm in _GLUE or norm in LEADS


# Units written short that are also names or initials ("Mo", "HR", "Yr"): a unit only after
# a count or a word counting or placing a time ("3 mo", "this mo", "lst mo").
_NAME_LIKE_UNITS = frozenset({"mo", "mos", "hr", "hrs", "yr", "yrs", "wk", "wks"})


def _abbreviated_alone(words: Sequence[Word], i: int) -> bool:
    if words[i].norm not in _NAME_LIKE_UNITS:
        return False
    before = words[i - 1].norm if i > 0 else ""
    placed = before in _COUNTING_FROM_NOW or before in _PLACED_BY or before in NUMBERS
    return not (placed or _NUMBER.fullmatch(before) or before in ("lst", "lsat", "per"))


def _unit_like(norm: str) -> bool:
    unit = norm[:-1] if norm.endswith("s") and norm[:-1] in _CALENDAR_UNITS else norm
    if unit in _CALENDAR_UNITS:
        return True
    return len(norm) >= 4 and any(_spelt_like(norm, u, 0.85) for u in _SPELT_UNITS)


# Seasons a misspelling still names after a word placing a time ("in the sping", "over the
# sumer", "last wintr"): read alone, the default year was answered, "sping" said unused.
_SEASONS = ("spring", "summer", "autumn", "winter")
_PLACED_BY = LEADS | _COUNTING_FROM_NOW | frozenset({"this", "the"})


def _season_like(words: Sequence[Word], i: int) -> bool:
    """A season misspelt by a letter right after "in", "over the", "last", "this" ...; not
    a season's name itself (read by its rows) nor a word before nothing placing a time (a
    name such as "Winters")."""
    norm = words[i].norm
    if len(norm) < 4 or norm in _UNITS or i == 0 or words[i - 1].norm not in _PLACED_BY:
        return False
    return any(_spelt_like(norm, season, 0.85) for season in _SEASONS)


def _of_the(words: Sequence[Word], i: int) -> bool:
    """ "the contributor of the month": a title, not a time."""
    return i > 1 and words[i - 1].norm == "the" and words[i - 2].norm == "of"


def _misspelt_bound(norm: str) -> bool:
    """ "sinse", "untill", "befor": a bound misspelt by a letter or two."""
    if len(norm) < 4 or norm in _WORDS or norm in _REAL_WORDS:
        return False
    return any(_spelt_like(norm, bound) for bound in _BOUND_SPELLINGS)


def _near(norm: str) -> bool:
    """Before a phrase starting with its own preposition, what still changes it ("late in
    2019", "around in 2019", "5th in March")."""
    return norm in _HEDGES or norm in _PARTS | _LATER or bool(_NUMBER.fullmatch(norm))


def _spelt_like(word: str, known: str, ratio: float = 0.8) -> bool:
    """ "Febuary", "Ocotber", "sinse": a known word misspelt (its first letter kept)."""
    return word[0] == known[0] and SequenceMatcher(None, word, known).ratio() >= ratio
