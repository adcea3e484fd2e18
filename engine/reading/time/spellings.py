"""Words of time phrases as they are also written: a bound ("b/w", "til", "thru") and a unit
after a count ("yrs", "mos", "24h", "7d"), one row each with the word a rule reads them as
(engine/reading/time/patterns.py builds the rules' sub-patterns from these rows)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Bounds as they are also written, one row each: the bound a rule reads them as ("b/w march
# and may 2026", "til June", "thru Q1"). Not "btw" (by the way), nor "w/e" (a week ending
# then, or whatever: a name no subject has).
BOUND_SPELLINGS = {
    "between": ("b/w", "btwn"),
    "until": ("till", "til", "'til", "\u2019til", "upto", "up to", "up until"),
    "through": ("thru",),
}
# A spelling that is no bound after these words: "been up to" is an idiom (been doing),
# "What has Jaron been up to this year?" asks about this year, not everything before it (it
# was read "up to this year", before 2026). "commits up to 2025" stays before 2025.
NOT_BOUND_AFTER = {
    "up to": ("been", "be", "is", "are", "was", "were", "am", "get", "gets", "got", "getting"),
}
# Units of the calendar, the words a count or "last" is counted in.
CALENDAR_UNITS = frozenset(
    {"hour", "day", "week", "weekend", "fortnight", "month", "quarter", "year", "decade"}
)
# Units as they are also written after a count, one row each ("the last 2 yrs", "3 wks
# ago", "the past 24h", "7d"): the unit read. A letter alone only right after a number ("7d",
# "7 d"); "m" is never read (a minute or a month), nor "min".
UNIT_SPELLINGS = {
    "hour": ("hr", "hrs", "h"),
    "day": ("d",),
    "week": ("wk", "wks", "w"),
    "month": ("mo", "mos", "mth", "mths"),
    "quarter": ("qtr", "qtrs"),
    "year": ("yr", "yrs", "y"),
}
_UNIT_OF = {short: unit for unit, shorts in UNIT_SPELLINGS.items() for short in shorts}


def unit_of(word: str) -> str:
    """The calendar unit a unit word names: "yrs", "years" and "Year" are "year"; a word
    that names none is returned lowered."""
    word = word.lower()
    if word in _UNIT_OF:
        return _UNIT_OF[word]
    return word[:-1] if word.endswith("s") and word[:-1] in CALENDAR_UNITS else word


# Words of time phrases as they are also written in chat, one row each: the word written out,
# and the words that may stand before it (None: any). Read as written out ("this wk", "last
# q", "last fri", "the past 2 mo", "lst month", "2day"): "last q" and "attrs 2day" were
# answered over the default year, the word said not to name a subject. A row's word is read
# only where its own words are ("mo" after "this" or a count, never "Mo" alone; "sat" after
# "last" or "on", never "who sat").
_COUNTING = frozenset(
    {"this", "last", "past", "previous", "prior", "next", "the", "a", "per", "every", "each"}
    | {"few", "couple", "of", "several"}
)
_PLACING = frozenset(
    {"last", "this", "past", "previous", "next", "since", "on", "before", "after", "until"}
    | {"till", "from", "between", "and", "to", "through", "every", "by"}
)
# "mon" after "last", "this", "past" may be Monday or a month written short ("in the last
# mon" read the last Monday, unsaid): only a word placing a day makes it Monday ("on mon",
# "since mon"); after a counting word it is not understood, named.
_ON_A_DAY = _PLACING - {"last", "this", "past", "previous", "next"}
WORD_SPELLINGS: dict[str, tuple[str, frozenset[str] | None]] = {
    "wk": ("week", None), "wks": ("weeks", None),
    "mo": ("month", _COUNTING), "mos": ("months", _COUNTING),
    "mth": ("month", None), "mths": ("months", None),
    "mnth": ("month", None), "mnths": ("months", None),
    "yr": ("year", _COUNTING), "yrs": ("years", _COUNTING),
    "q": ("quarter", frozenset({"this", "last", "previous", "prior", "next", "current"})),
    "qtr": ("quarter", None), "qtrs": ("quarters", None),
    "hr": ("hour", _COUNTING), "hrs": ("hours", _COUNTING),
    "wknd": ("weekend", None), "wkend": ("weekend", None),
    "lst": ("last", None), "lsat": ("last", None), "prev": ("previous", None),
    "2day": ("today", None), "tdy": ("today", None), "yday": ("yesterday", None),
    "mon": ("monday", _ON_A_DAY), "tue": ("tuesday", _PLACING), "tues": ("tuesday", _PLACING),
    "wed": ("wednesday", _PLACING), "thu": ("thursday", _PLACING),
    "thur": ("thursday", _PLACING), "thurs": ("thursday", _PLACING),
    "fri": ("friday", _PLACING), "sat": ("saturday", _PLACING), "sun": ("sunday", _PLACING),
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
_COUNT = re.compile(r"\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve")


@dataclass(frozen=True)
class Written:
    """A question with its words written short written out (`WORD_SPELLINGS`), and for each
    character of it the offset of the character of the question it stands for."""

    question: str
    text: str
    where: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """A span of `text` as a span of the question."""
        if start >= end:
            return self.where[start] if start < len(self.where) else len(self.question), start
        return self.where[start], self.where[end - 1] + 1

    def said(self, phrase: str) -> str:
        """A phrase of `text` as the question says it ("this wk" for "this week")."""
        at = self.text.find(phrase)
        if at < 0 or not phrase:
            return phrase
        start, end = self.span(at, at + len(phrase))
        return self.question[start:end]


def written_out(question: str) -> Written:
    """The question with each word written short, where its row allows, written out."""
    text: list[str] = []
    where: list[int] = []
    at, before = 0, ""
    for found in _WORD.finditer(question):
        word = found.group().lower()
        row = WORD_SPELLINGS.get(word)
        allowed = row is not None and (
            row[1] is None or before in row[1] or bool(_COUNT.fullmatch(before))
        )
        if row is not None and allowed:
            text.append(question[at : found.start()])
            where.extend(range(at, found.start()))
            text.append(row[0])
            where.extend([found.start()] * (len(row[0]) - 1) + [found.end() - 1])
            at = found.end()
        before = word
    if at == 0:
        return Written(question, question, tuple(range(len(question))))
    text.append(question[at:])
    where.extend(range(at, len(question)))
    return Written(question, "".join(text), tuple(where))
