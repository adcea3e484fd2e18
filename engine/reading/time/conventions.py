"""The conventions a reading depends on, stated beside the answer in plain words: each is a
rule's note (engine/reading/time/ruletype.py `Rule.note`), said once, in the temporal label's
note and in the limitations ("...: the answer covers A to B").

The corpus (tests/data/time_phrases.tsv) states each convention once in its header; a phrase
whose reading depends on one says it here: which 7 days "last week" is, that "the past month"
counts back from now and "last month" is the calendar's, that a range includes its last end
whole while "until X" stops where X starts, that a quarter is the calendar's, that "the end
of X" after "since" is the instant X ends, which days half a month is, and which year a month
named without one is, and which days early, mid and late are (`MONTH_THIRDS`, `YEAR_THIRDS`).
Vague words ("lately"), seasons, thirds and weeks of a month state theirs in
engine/reading/time/spans.py, holidays in engine/reading/time/holidays.py.

A hedge ("around March 2026", "circa 2019", "roughly 2 weeks ago", "approx. June", "in 2025 or
so", "around the end of 2025") is one rule, whatever it hedges: not understood, the phrase and
the hedge named (engine/reading/time/beside.py), never the date alone nor a window widened by a
margin the question does not state.
"""

from __future__ import annotations

import re
from datetime import datetime

from engine.reading.time import periods
from engine.reading.time.calendar import MONTH_TYPOS, MONTHS
from engine.reading.time.dateperiods import date_period
from engine.reading.time.patterns import THROUGH, UNTIL
from engine.reading.time.spellings import unit_of

_WEEK = "the Monday-to-Sunday week"
_UNTIL = re.compile(rf"^{UNTIL}\s+(.+)$", re.IGNORECASE)
_THROUGH = re.compile(rf"^{THROUGH}\s+(.+)$", re.IGNORECASE)
_COUNT_WORDS = {"few": '"a few" is 3', "couple": '"a couple" is 2'}
_CALENDAR = {"week": "weeks (Monday to Sunday)", "fortnight": "fortnights", "month": "months"}
_CALENDAR |= {"quarter": "quarters", "year": "years", "decade": "decades"}


def relative(phrase: str) -> str | None:
    """ "last week", "this quarter": which week or quarter of the calendar (a month or a year
    needs no word)."""
    words = [unit_of(w) for w in phrase.lower().split()]
    if "week" in words:
        which = (
            "under way (from Monday)"
            if "this" in words or "current" in words
            else ("before this one")
        )
        return f'"{phrase}" is read as {_WEEK} {which}, in UTC'
    if "quarter" in words:
        return (
            f'"{phrase}" is read as a calendar quarter (January-March, April-June, July-'
            "September, October-December)"
        )
    return None


def back_from_now(phrase: str) -> str | None:
    """ "the past month", "in the last 3 weeks": counted back from now, not whole calendar
    periods; "a couple" and "a few" said when they count."""
    words = phrase.lower().replace("-", " ").split()
    units = (unit_of(w.lstrip("0123456789")) for w in words)
    unit = next((u for u in units if u in _CALENDAR), None)
    counts = [said for word, said in _COUNT_WORDS.items() if word in words]
    if unit is None:
        return f'"{phrase}" is read with {" and ".join(counts)}' if counts else None
    said = f'"{phrase}" is read back from now, not as whole calendar {_CALENDAR[unit]}'
    return f"{said}; {' and '.join(counts)}" if counts else said


def through(phrase: str) -> str | None:
    """ "through May 2026", "thru Q1": up to its end, itself included ("until May" stops
    where May starts); "through the end of 2025" says its end (`edge`)."""
    if said := edge(phrase):
        return said
    found = _THROUGH.match(phrase.strip())
    if found is None:
        return None
    return f'"{phrase}" is read up to the end of {found.group(1)}, which is included'


def to_date(phrase: str) -> str | None:
    """ "mtd", "qtd": which period is under way (ytd says itself)."""
    short = phrase.strip().lower()
    if short not in ("mtd", "qtd", "wtd"):
        return None
    which = {"m": "month", "q": "quarter (January-March...)", "w": "week (from Monday)"}
    return f'"{phrase}" is read as the calendar {which[short[0]]} to date'


def until(phrase: str) -> str | None:
    """ "until October": up to where October starts, October left out ("through October"
    and "from June to October" include it)."""
    found = _UNTIL.match(phrase.strip())
    if found is None:
        return None
    return f'"{phrase}" is read up to the start of {found.group(1)}, which is not included'


# Early, mid and late (and the beginning, middle and end of a period alone) are its thirds:
# said once here, beside every answer that reads one ("mid-March", "from mid-March to
# mid-April 2025", "since mid-June"); engine/reading/time/spans.py computes them.
MONTH_THIRDS = "early: days 1-10, mid: days 11-20, late: the 21st to its end"
YEAR_THIRDS = "early: January to April, mid: May to August, late: September to December"
_THIRD_OF = re.compile(r"\b(early|mid|late)[\s-]+(\w+)", re.IGNORECASE)


def thirds(phrase: str) -> str | None:
    """ "mid-March" and "late 2025" inside a phrase: which days or months they are."""
    months, years = [], []
    for found in _THIRD_OF.finditer(phrase):
        whole = found[2].lower()
        if whole in MONTHS or (whole == "last" and "month" in phrase.lower()):
            months.append(found.group())
        elif re.fullmatch(r"\d{4}|year|last|this", whole):
            years.append(found.group())
    said = []
    if months:
        said.append(f"{' and '.join(months)} as thirds of a month ({MONTH_THIRDS})")
    if years:
        said.append(f"{' and '.join(years)} as thirds of a year ({YEAR_THIRDS})")
    return "; ".join(said) if said else None


def edge(phrase: str) -> str | None:
    """ "since the end of September", "after the middle of 2025": the instant it names;
    "since mid-June", "from mid-March to mid-April": the days mid names."""
    words = f" {phrase.lower()} "
    said = []
    if " middle " in words:
        said.append("the middle of a period as the start of its middle third")
    elif " end of " in words:
        said.append("the end of a period as the instant it ends")
    if part := thirds(phrase):
        said.append(part)
    return f'"{phrase}" is read with {"; ".join(said)}' if said else None


def beyond(phrase: str) -> str:
    """ "over a year ago", "under a month ago": before or since that instant."""
    which = "everything before" if phrase.lower().startswith("over") else "everything since"
    return f'"{phrase}" is read as {which} that instant'


def ranged(phrase: str) -> str:
    """ "between September and October", "May 3-10": both ends in, the last one whole."""
    said = edge(phrase)
    both = "both ends included, the last one whole"
    return f"{said}; {both}" if said else f'"{phrase}" is read with {both}'


def half_month(phrase: str) -> str | None:
    """ "the first half of last month": its days 1-15."""
    words = phrase.lower().split()
    if "half" not in words or not ("month" in words or any(w in MONTHS for w in words)):
        return None
    return f'"{phrase}" is read as the month\'s days 1-15 (its second half: the 16th to its end)'


def yearless(phrase: str, start: datetime | None, now: datetime) -> str | None:
    """A month, quarter or day named without a year, read in an earlier year than now's ("in
    December", asked in November 2026, is December 2025): the most recent that has begun."""
    words = phrase.lower().replace(",", " ").split()
    if start is None or start.year >= now.year or re.search(r"\d{4}|'\d{2}", phrase):
        return None
    if just_begun(phrase, start, now):
        return None  # said there
    if {"year", "last", "previous", "prior", "ago", "back", "before"} & set(words):
        return None
    if not any(w in MONTHS or re.fullmatch(r"q[1-4]", w) for w in words):
        return None
    return f"a month or quarter without a year as the most recent one begun ({start:%B %Y})"


_LEAD = re.compile(r"^(?:in|during|over|for|throughout)\s+(?:the\s+)?", re.IGNORECASE)


def just_begun(phrase: str, start: datetime | None, now: datetime) -> str | None:
    """A period named without a year read as the one before the latest begun, under a tenth
    of which had passed (periods.meant): said, with both."""
    core = _LEAD.sub("", phrase.strip())
    if start is None or re.search(r"\d", core):  # a year, a day: named
        return None
    try:
        latest = date_period(core, now)
    except (ValueError, IndexError):
        return None
    if start >= latest[0] or not periods.just_begun(core, latest, now):
        return None
    return (
        f"a period without a year as the latest one begun, unless under a tenth of it has "
        f"passed: the one from {latest[0]:%B %Y} has just begun, so the one before it, from "
        f"{start:%B %Y}"
    )


def misspelt(phrase: str) -> str | None:
    """A month name misspelt by a letter ("Febuary"), read as the month: said."""
    words = re.findall(r"[a-z]+", phrase.lower())
    typos = [(w, MONTH_TYPOS[w]) for w in words if w in MONTH_TYPOS]
    said = ", ".join(f'"{typo}" as {name.capitalize()}' for typo, name in typos)
    return f"a misspelt month name as the month ({said})" if typos else None


def two_digit_year(phrase: str, now: datetime) -> str | None:
    """ "summer '22": the latest such year not after now, said."""
    found = re.search(r"(?<![\w'])'(\d{2})(?![\w'])", phrase)
    if found is None:
        return None
    late = 2000 + int(found[1])
    year = late if late <= now.year else late - 100
    return f'a two-digit year as the latest such year not after now ("\'{found[1]}": {year})'


def joined(phrase: str, note: str | None, *clauses: str | None) -> str | None:
    """A rule's note with the conventions of the words read (`yearless`, `misspelt`) added,
    or those alone."""
    said = "; ".join(c for c in clauses if c)
    if not said:
        return note
    return f'"{phrase}" is read with {said}' if note is None else f"{note}; {said}"
