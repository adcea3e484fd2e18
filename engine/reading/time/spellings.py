"""Words of time phrases as they are also written: a bound ("b/w", "til", "thru") and a unit
after a count ("yrs", "mos", "24h", "7d"), one row each with the word a rule reads them as
(engine/reading/time/patterns.py builds the rules' sub-patterns from these rows)."""

from __future__ import annotations

# Bounds as they are also written, one row each: the bound a rule reads them as ("b/w march
# and may 2026", "til June", "thru Q1"). Not "btw" (by the way), nor "w/e" (a week ending
# then, or whatever: a name no subject has).
BOUND_SPELLINGS = {
    "between": ("b/w", "btwn"),
    "until": ("till", "til", "'til", "\u2019til", "upto", "up to", "up until"),
    "through": ("thru",),
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
