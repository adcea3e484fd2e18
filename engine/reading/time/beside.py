"""Words beside a time phrase that nothing read but that could change what it means.

A time phrase read without a word next to it answers over another window: "since Jan '23"
read "since Jan" (the latest January), "on the fifth of March 2024" all of March, "around the
time of PyCon 2019" all of 2019, "as of last Christmas" that day as a window. Such a word
(a number or ordinal, a number after an apostrophe, a month or a word spelt like one, a unit
of time or its plural, a part or bound of a period, a hedge such as around or roughly, "as"
of "as of") left unread right beside the phrase, or a few words from it through words nothing
read ("the time of PyCon"), ends the reading as not understood, the words named
(engine.reading.interpretation): never answered over the phrase read without them. A word
that does not touch the time (a name, "the", a filler) leaves the reading as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from engine.reading.time.calendar import MONTHS, NUMBERS, ORDINAL_DAYS

_UNITS = frozenset(
    {"hour", "day", "week", "weekend", "fortnight", "month", "quarter", "year", "decade"}
    | {"season", "spring", "summer", "autumn", "fall", "winter", "time", "period", "half"}
    | {"halves", "q1", "q2", "q3", "q4", "h1", "h2", "fiscal", "fy", "financial", "academic"}
)
# Words bounding or placing a period, and hedges: each makes the phrase another window.
_BOUNDS = frozenset(
    {"early", "mid", "late", "start", "beginning", "end", "middle", "before", "after"}
    | {"since", "until", "till", "through", "thru", "prior", "following", "preceding", "ago"}
    | {"onwards", "onward", "last", "next", "previous"}
)
_HEDGES = frozenset(
    {"around", "about", "roughly", "circa", "ca", "approximately", "approx", "near"}
    | {"nearly", "almost", "ish", "thereabouts"}
)
# "approx. June 2026", "ca. 2019": an abbreviated hedge's full stop joins it to the phrase.
_ABBREVIATED = re.compile(r"\.\s*")
_PLURALS = frozenset(f"{u}s" for u in _UNITS)
_PARTS = frozenset({"early", "mid", "late"})
# Before a unit, how to count rather than when ("per month", "each week", "over time").
_GRAINS = frozenset({"per", "each", "every", "over", "a", "by"})
# A phrase starting with its own preposition is apart from the words before it.
_LEADS = frozenset(
    {"in", "during", "since", "for", "from", "between", "before", "after", "until", "till"}
    | {"over", "on", "at", "by", "through", "throughout", "within", "as", "prior", "up"}
)
_WORDS = frozenset(
    {n for n in NUMBERS if n != "a"}
    | {w for w in ORDINAL_DAYS if " " not in w}
    | {m for m in MONTHS if m != "may"}  # "may" is mostly the verb
    | _UNITS
    | _PLURALS
    | _BOUNDS
    | _HEDGES
)
# Numbers, ordinals no row reads ("fortieth"), tens written out ("thirty-second").
_NUMBER = re.compile(
    r"\d{1,4}(?:st|nd|rd|th|s)?|[a-z]+(?:tieth|teenth)|hundredth|thousandth"
    r"|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-?[a-z]+)?"
)
_GLUE = frozenset({"the", "of", "a", "an"})
_GAP = re.compile(r"[\s'\u2019]*")  # "Jan '23": an apostrophe joins the year to the phrase
_REACH = 5  # words looked at on the left ("around the time of PyCon 2019")
_MONTH_NAMES = [m for m in MONTHS if len(m) > 4]


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
    walk = _Walk(text, words, unread, names)
    if text[start:end].split()[0].lower() in _LEADS:  # "per month in 2024": only "late in"
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

    def reach(
        self, edge: int, order: list[int], leftwards: bool, near: bool = False
    ) -> int | None:
        """The farthest edge of a word that changes the phrase, walking away from it over
        words nothing read ("the", "of", and on the left a name such as "PyCon"); None when
        no such word is reached. `near`: only a hedge, a number or a part ("late in 2019")."""
        found = None
        at = edge
        for i in order[:_REACH]:
            word = self.words[i]
            gap = self.text[word.end : at] if leftwards else self.text[at : word.start]
            hedged = leftwards and word.norm in _HEDGES and _ABBREVIATED.fullmatch(gap)
            if not (_GAP.fullmatch(gap) or hedged) or not self.unread[i]:
                break
            before = self.words[i - 1].norm if i > 0 else ""
            if not leftwards and word.norm == "so" and before == "or":  # "March 2026 or so"
                found = word.end
                break
            if leftwards and word.norm in _UNITS | _PLURALS and before in _GRAINS:
                break  # "per month", "over time": how to count, not when
            following = self.words[i + 1].norm if i + 1 < len(self.words) else ""
            if changes(word.norm, following) and (not near or _near(word.norm)):
                found = word.start if leftwards else word.end
            elif word.norm not in _GLUE and not (leftwards and self.names[i]):
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


def _near(norm: str) -> bool:
    """Before a phrase starting with its own preposition, what still changes it ("late in
    2019", "around in 2019", "5th in March")."""
    return norm in _HEDGES or norm in _PARTS or bool(_NUMBER.fullmatch(norm))


def _spelt_like(word: str, month: str) -> bool:
    """ "Febuary", "Ocotber": a month misspelt (its first letter kept)."""
    return word[0] == month[0] and SequenceMatcher(None, word, month).ratio() >= 0.8
