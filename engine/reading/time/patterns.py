"""The named sub-patterns time rules are written with (engine/reading/time/rules.py): a year,
a month name, a day date, a quarter, a count and a unit, and the slots a composition rule
reads an already-read value from (`POINT`: any date or period phrase standing alone).

A sub-pattern here holds no capturing group, except `N` and `UNIT` (one group each): a rule
chooses what it captures.
"""

from __future__ import annotations

import re

from engine.reading.time.calendar import MONTHS, NUMBERS, ORDINAL_DAYS, WEEK_ORDINALS, WEEKDAYS
from engine.reading.time.holidays import NAMES as HOLIDAY_NAMES
from engine.reading.time.slashdates import PATTERN as SLASH
from engine.reading.time.spellings import BOUND_SPELLINGS, NOT_BOUND_AFTER, UNIT_SPELLINGS


def _spelt(bound: str) -> str:
    """A bound and its other spellings (calendar.BOUND_SPELLINGS), as a word: never inside
    another word, nor after an apostrophe ("'til" is one spelling)."""
    words = sorted((bound, *BOUND_SPELLINGS[bound]), key=len, reverse=True)
    either = "|".join(_not_after(w) + re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return rf"(?<![\w'\u2019/-])(?:{either})(?![\w/])"


def _not_after(spelling: str) -> str:
    """The words a spelling is no bound after (spellings.NOT_BOUND_AFTER: "been up to")."""
    return "".join(rf"(?<!\b{w}\s)" for w in NOT_BOUND_AFTER.get(spelling, ()))


# "between", "b/w"; "until", "til", "upto"; "through", "thru".
BETWEEN = _spelt("between")
UNTIL = _spelt("until")
THROUGH = _spelt("through")
# A month written short may keep its full stop before a day or year ("Sept. 2025", "Jan. 5":
# "in Sept. 2025" was "in Sept" and "2025", two times named).
MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b(?:\.(?=[ \t]*\d))?"
# Not a year-first date's (2026/03/04, 2026-03-04), nor a decade ("the 2020s"); a dash after
# it may start a range's other end ("Nov 2025-Feb 2026").
# A year written with an apostrophe and two digits ("summer '22", "Jan '23") is one too: it
# was said unused and another year's summer answered (engine.reading.time.phrases reads its
# century: the latest not after now).
# Never the year of a month written by its number ("from 13/2025 to April 2026" read 2025 to
# April 2026, "13/" unsaid), though a quarter's ("Q1/2025").
YEAR = (
    r"(?:(?<!\d\d/)(?<!\b\d/)(?:19[7-9]\d|2\d{3})(?!\d|-\d|[/.]\d|'?s\b)"
    r"|(?<![\w'])'\d{2}(?![\w']))"
)
# A day of a month: "3", "3rd", or in words ("third", "twenty-first", "twenty first"); a
# word never starts more of a phrase ("the first half", "the first 10 days", "the first week").
ORD_WORD = (
    r"(?<![\w-])(?:"
    + "|".join(w.replace(" ", r"[\s-]") for w in sorted(ORDINAL_DAYS, key=len, reverse=True))
    + r")\b(?![\s-]+(?:half|quarter|week|weeks|month|months|days?|\d{1,3}(?!\d)))"
)
ORDINAL = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{ORD_WORD})"
ORD = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|{ORD_WORD})"
ISO = r"\d{4}-\d{2}-\d{2}(?![\d:T])"
# A number naming an issue, a pull request or a version is no year ("who fixed issue 2031?"
# was refused: '"2031": the range start is in the future').
NUMBERED = "".join(
    rf"(?<!\b{w}\s)"
    for w in ("issue", "issues", "pr", "prs", "request", "ticket", "bug", "version", "number")
)
# A day written year first with slashes (2026/03/04), never a number's ("version 2025/1/2"):
# a date after "since", "before", "between"... ("on 2026/03/04" is the `ymd` rule's).
YMD = rf"{NUMBERED}(?:19[7-9]\d|2\d{{3}})/\d{{1,2}}/\d{{1,2}}(?![\d/.])"
# A holiday (engine/reading/time/holidays.py: "Christmas Day 2025", "New Year's Day",
# "Easter 2024", "Good Friday", "last Labor Day", "Valentine's Day"), and the eves of
# Christmas and New Year. The whole word is taken or nothing: "new years eve 2024" was read
# as "new year" (1 January 2026) with "s eve" left over and "2024" said unused.
HOLIDAY = (
    r"(?:(?:(?:last|this)\s+)?(?:christmas|xmas)(?:\s+(?:day|eve))?"
    r"|(?:the\s+)?new\s+year(?:['\u2019]?s)?(?:\s+(?:day|eve))?"
    rf"|(?:(?:last|this)\s+)?(?:{HOLIDAY_NAMES}))"
    r"(?![\w'\u2019])(?:,?\s+\d{4}(?!\d)|\s+(?:of\s+)?(?:last|this)\s+year\b)?"
)
# The year a holiday's days are of ("over Christmas 2025", "around Thanksgiving last year"):
# one group, read by dateperiods.named_year ("around Thanksgiving last year" was not understood).
HOLIDAY_YEAR = (
    rf"(?:,?\s+(?:of\s+)?({YEAR}|(?:last|this)\s+year\b"
    r"|(?:a|one|two|three|four|five|\d{1,2})\s+years?\s+ago\b))"
)
# A number before a unit counts it: "May 2 years ago" is no May 2 (it was read so, "years
# ago" left without a word).
_NO_UNIT = r"(?!\s+(?:minute|hour|day|week|fortnight|month|quarter|year)s?\b)"
# A day of a month counted from now ("the 5th of last month", "the first of the month").
_REL_MONTH_DAY = r"(?:(?:this|last|previous)\s+month|the\s+month)\b"
# A day written with dots, day first ("31.12.2022"); not a version ("version 1.2.2025").
DOTTED = rf"{NUMBERED}(?<![\w.])\d{{1,2}}\.\d{{1,2}}\.(?:19[7-9]\d|2\d{{3}})(?![\w.]|\.\d)"
DAY_DATE = (
    rf"(?:{ISO}|{SLASH}|{DOTTED}|{HOLIDAY}|(?:the\s+)?{ORD}\s+(?:of\s+)?{MONTH}(?:,?\s+\d{{4}}(?!\d))?"
    rf"|(?:the\s+)?{ORD}\s+of\s+{_REL_MONTH_DAY}"
    rf"|{MONTH}\s+(?:the\s+)?{ORD}(?:,?\s+\d{{4}})?(?!\d){_NO_UNIT})"
)
# "Q3 2025", "Q3 of 2025", "Q3-2025", "2025 Q3", "2025-Q3", "the third quarter of 2025", "Q3".
QUARTER_OF = r"(?:q[1-4]|[1-4]q|(?:the\s+)?(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)"
# A quarter or half with its year in two digits ("Q3-25", "Q3'25", "3Q25", "1H 2025", "H2-25":
# "Q3-25" read this year's Q3, "1H 2025" all of 2025); dateperiods.date_period reads the century
# as of an apostrophe year (the latest not after now).
_TWO_DIGITS = r"\d{2}(?![\d/.-])"
QUARTER_SHORT = rf"(?:q[1-4]\s*[-'\u2019]\s*|[1-4]q\s*[-'\u2019]?\s*){_TWO_DIGITS}"
EVENTS = r"(?:release|outage|incident|launch|freeze|migration|rewrite|version|sprint)s?\b"
# A year counted from now where a year may stand ("Q3 of last year", "March last year").
# ... and "Q3 of two years ago", "May 2 years ago" (that year, counted back).
REL_YEAR = (
    r"(?:(?:this|last|(?:the\s+)?(?:previous|prior))\s+year\b"
    r"|(?:\d{1,2}|" + "|".join(NUMBERS) + r")\s+years?\s+ago\b)"
)
QUARTER = (
    rf"(?:{QUARTER_SHORT}|{QUARTER_OF}(?:\s+of|\s*[-/])?\s*(?:{YEAR}|{REL_YEAR})"
    rf"|(?:19[7-9]\d|2\d{{3}})\s*-?\s*q[1-4]|{QUARTER_OF}(?!\s*[-/'\u2019]\s*\d))\b"
)
# "2019-2020", "2019 - 2020": both years, whole (two groups).
YEARS = r"(19[7-9]\d|2\d{3})\s*[-\u2013]\s*(19[7-9]\d|2\d{3})(?![-\d])"
WHICH_YEAR = rf"(?:{YEAR}|the\s+year|this\s+year|last\s+year)"
# A half of a year ("H1 2025", "the second half of last year"), or of a month ("the first
# half of last month": its days 1-15; the second from the 16th).
HALF = (
    rf"(?:(?:h[12]|[12]h)\s+(?:of\s+)?(?:{YEAR}|(?:this|last)\s+year)|h[12]\b(?!\s*[-/'\u2019]?\s*\d)"
    rf"|(?:h[12]\s*[-'\u2019]\s*|[12]h\s*[-'\u2019]?\s*){_TWO_DIGITS}"
    # the year first ("2025 H2", "2025-H1"), as "2025 Q3" ("in 2025 H2" was not read)
    rf"|(?<![\w/.-])(?:19[7-9]\d|2\d{{3}})\s*-?\s*h[12]\b"
    rf"|(?:the\s+)?(?:first|second|1st|2nd|front|back|latter|later|last|final)\s+half\s+of\s+(?:{WHICH_YEAR}"
    rf"|(?:this|last|previous)\s+month\b|{MONTH}(?:\s+(?:of\s+)?(?:{YEAR}|{REL_YEAR}))?))"
)
# A season of a year, or summer and autumn alone (the latest that has begun: "since
# summer"; "the summer" does not say which), never an event's name ("the summer release").
# Spring and fall alone may be names (the Spring framework); winter alone is not one (which
# winter is not said).
# A winter by the two years it spans ("the winter of 2025/26", "winter 2025-26"): that one
# (it was not read; "winter 2025" alone does not say which, and is not).
# ... but any season right after a word bounding a time ("since spring", "until fall", "after
# winter": the latest begun, as "since the spring"): there it names no framework ("since spring"
# was not understood while "since the spring" was read).
_BOUNDED = (
    r"(?:(?<=\bsince\s)|(?<=\bafter\s)|(?<=\bbefore\s)|(?<=\buntil\s)|(?<=\btill\s)"
    r"|(?<=\bfrom\s)|(?<=\bbetween\s)|(?<=\bby\s)|(?<=\bend\sof\s)|(?<=\bstart\sof\s)"
    r"|(?<=\bbeginning\sof\s)|(?<=\bmiddle\sof\s))"
)
SPLIT_WINTER = r"(?:19[7-9]\d|2\d{3})\s*[/-]\s*(?:\d{4}|\d{2})(?![\w/.-])"
SEASON = (
    rf"(?:(?:the\s+)?(?:spring|summer|autumn|fall)\s+(?:of\s+)?(?:{YEAR}|{REL_YEAR})"
    rf"|(?:the\s+)?winter\s+(?:of\s+)?{SPLIT_WINTER}"
    rf"|(?<!the\s)(?<![-\w])(?:summer|autumn)(?![-\w])(?!\s+{EVENTS})(?!\s+(?:before|of)\b)"
    rf"|{_BOUNDED}(?:spring|fall|winter)(?![-\w])(?!\s+{EVENTS})(?!\s+(?:before|of|break)\b))"
)
# A month counted from now, or one of a year counted from now ("last month", "May last year").
REL_MONTH = rf"(?:(?:this|last|previous)\s+month\b|{MONTH}\s+(?:of\s+)?{REL_YEAR})"
WEEKDAY = rf"(?:(?:last|this|past)\s+)?(?:{'|'.join(WEEKDAYS)})\b"
# "last November": the latest November wholly past (dateperiods.date_period), as "last Easter"
# and "last summer" are; a year after it is no part of it ("last may 2025" is not read).
# Never "the last May release" (an event's name).
LAST_MONTH = (
    rf"(?<!\bthe\s)(?:last|previous|past)\s+{MONTH}(?!\s*,?\s*(?:of\s+)?\d)(?!\s+{EVENTS})"
)
# A date or a period of the calendar (engine.reading.time.dateperiods.date_period reads it).
# A month by its number and year: "2/2025", "03/2024", "2024-03", "2024/03" (not a day,
# "2024-03-04", nor a version, "version 3/2024"); alone too (engine/reading/time/rules.py),
# and two with a dash ("04/2025-06/2025": not understood).
MONTH_NUMBER = (
    rf"(?:{NUMBERED}(?<![\w/.])(?:(?<=\d{{4}}-)|(?<!-))(?:0?[1-9]|1[0-2])/(?:19[7-9]\d|2\d{{3}})"
    r"(?![\w/.]|-(?!\d{1,2}/\d{4}))"
    rf"|{NUMBERED}(?<![\w/.-])(?:19[7-9]\d|2\d{{3}})[-/](?:0[1-9]|1[0-2])(?![\w/.-]|-\d))"
)
# "September of 2025", "September, 2025" as "September 2025" ("between June and September of
# 2023" was not read, "in March, 2025" read March 2026 with "2025" said unused).
DATE = (
    rf"(?:{HALF}|{SEASON}|{MONTH},?\s+(?:of\s+)?(?:{YEAR}|{REL_YEAR})|{DAY_DATE}|{YMD}|{QUARTER}"
    rf"|{MONTH_NUMBER}|{LAST_MONTH}|{MONTH}|{YEAR}|{WEEKDAY})"
)
# A decade of the calendar ("the 2010s": 2010 to 2019), its first year one group.
DECADE = r"the\s+((?:19[7-9]|20\d)0)'?s\b"
# "a couple of" is 2 and "a few" 3 (stated: VAGUE_COUNT_NOTE). One group each.
# A count may be a decimal ("the past 1.5 years": 18 months; "2.5 weeks"), never the digits
# after a decimal point alone ("1.5 years ago" was read as 5 years ago).
DIGITS = r"(?<![\d.,])\d{1,4}(?:\.\d{1,2})?(?![\d,]|\.\d)"
N = rf"({DIGITS}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|" + "|".join(NUMBERS) + ")"
# A unit as written after a count ("2 years", "2 yrs", "24h": calendar.UNIT_SPELLINGS, read
# by calendar.unit_of), one group.
_SHORT_UNITS = "|".join(
    s if len(s) > 1 else rf"(?<=\d){s}|(?<=\d\s){s}"
    for shorts in UNIT_SPELLINGS.values()
    for s in sorted(shorts, key=len, reverse=True)
)
UNIT = rf"((?:hour|day|week|fortnight|month|quarter|year|decade)s?|{_SHORT_UNITS})"


def units(*names: str) -> str:
    """Units named without a count ("last week", "the past yr", "this qtr"), with their
    spellings of more than a letter, singular (calendar.UNIT_SPELLINGS), one group."""
    shorts = [s for n in names for s in UNIT_SPELLINGS.get(n, ()) if len(s) > 1 and s[-1] != "s"]
    return rf"({'|'.join((*names, *shorts))})\b"

# No plural unit without a count ("the weeks before Christmas" are several, not one week):
# before an optional count and its unit.
NOT_UNITS = r"(?!(?:hour|day|week|fortnight|month|quarter|year)s\b)"
PRE = r"\b(?:(?:in|over|during|within|for)\s+)?the\s+(?:last|past)\s+"
# Units a number before them counts ("5 days"), so no week number.
COUNTED = r"(?:minute|hour|day|week|fortnight|month|quarter|year)s?\b"
# A period counted from the current one ("last month", "this year"; "the year": this one).
RELATIVE = (
    r"(?:(?:the\s+)?(?:last|this|previous|prior|current)|the)\s+(?:week|month|quarter|year)\b"
)
# A season counted from now ("last summer": the latest that has ended; "this winter").
SEASON_NOW = r"(?:last|this|previous|past)\s+(?:spring|summer|autumn|fall|winter)\b"
# A part of a year or month by thirds ("early 2025", "mid-2025", "late August").
# A period a third is taken of ("early 2025", "late August", "mid last month").
# ... and a season counted from now ("early last spring" read last spring, "early" dropped).
THIRD_OF = (
    rf"(?:{HALF}|{SEASON}|{SEASON_NOW}|{QUARTER}|{REL_MONTH}|{MONTH}(?:\s+{YEAR})?|{YEAR}"
    rf"|(?:this|last|previous)\s+(?:month|quarter|year)\b)"
)
PART = rf"(?:early|mid|late)[\s-]+{THIRD_OF}"
# Two thirds joined ("mid-to-late 2024", "early and mid 2025", "early/mid 2025"): the joint.
JOINED_THIRDS = r"(?:\s*[-\u2013/]\s*(?:to[\s-]+)?|[\s-]+(?:to|and|through|thru|into)[\s-]+)"
PARTS = rf"(?:early|mid|late){JOINED_THIRDS}(?:early|mid|late)[\s-]+{THIRD_OF}"
# "the last third of 2023", "the first third of last year", "the middle third of March":
# the thirds early, mid and late name. THIRDS: which third and the period, one group each.
# "The first part of 2024", "the latter part of last year": its first or last third, as early
# and late (they were not understood); never "the second part" (of how many parts?).
_WHICH_THIRD = r"the\s+{}\s+(?:third|(?<!second\s)(?<!third\s)part)\s+of\s+{}"
_THIRD_WHOLE = rf"{THIRD_OF}|the\s+(?:year|month|quarter|spring|summer|autumn|fall|winter)\b"
_NTH = "first|second|middle|third|last|final|early|earlier|latter|later"
THIRDS = _WHICH_THIRD.format(f"({_NTH})", f"({_THIRD_WHOLE})")
THIRD_PART = _WHICH_THIRD.format(f"(?:{_NTH})", f"(?:{_THIRD_WHOLE})")
# "The second week of October": days 8-14 (engine.reading.time.periods.nth_week); of a year
# any week by its ordinal ("the ninth week of 2023": its days 57-63, as "the first week of
# 2023" is its days 1-7).
WEEK_NTH = r"(?:first|second|third|fourth|1st|2nd|3rd|4th|last|final)"
YEAR_WEEK_NTH = (
    r"(?:[1-5]?\d(?:st|nd|rd|th)|"
    + "|".join(w.replace(" ", r"[\s-]") for w in sorted(WEEK_ORDINALS, key=len, reverse=True))
    + ")"
)
WHOLE_YEAR = rf"(?:{YEAR}|{REL_YEAR}|the\s+year\b)"
NTH_WEEK = (
    rf"the\s+(?:{WEEK_NTH}\s+week\s+of\s+(?:{REL_MONTH}|{MONTH}(?:\s+{YEAR})?|{WHOLE_YEAR})"
    rf"|{YEAR_WEEK_NTH}\s+week\s+of\s+{WHOLE_YEAR})"
)
# A period named for its place in a composition: a date, a relative period, a third of one.
# "the summer" where a period is read ("since the beginning of the summer" was not read):
# the latest begun, as "summer" alone.
THE_SEASON = (
    rf"the\s+(?:spring|summer|autumn|fall|winter)\b(?!\s+(?:of|before|after)\b)(?!\s+{EVENTS})"
)
PERIOD = rf"(?:{NTH_WEEK}|{RELATIVE}|{SEASON_NOW}|{THE_SEASON}|{PARTS}|{PART}|{DATE})"
# "the beginning / start / middle / end of P": one group, the boundary's word.
# ("the tail end of 2020" is its end)
# The article is often left out ("until end of March 2026", "since start of 2026").
# "the very beginning of 2026", "the very end of March": the same instant, "very" stressing it
# ("since the very beginning of 2026" was not understood).
BOUNDARY = r"(?:the\s+)?(?:very\s+)?(?:tail\s+(?=end))?\b(beginning|start|middle|end)\s+of\s+"
# Which weekend: "this past weekend" is the last one (one group in a rule).
WHICH_WEEKEND = r"(last|this\s+past|past|previous|this)"
# A weekend as a value a composition reads ("since last weekend", "after the weekend before
# last", "since the weekend": the latest begun).
WEEKEND = (
    r"(?:(?:last|this\s+past|past|previous|this)\s+weekend|the\s+weekend\s+before\s+last"
    r"|the\s+weekend)\b"
)
# A point or period standing alone, as a composition rule reads it: a boundary of a period,
# a span back from now ("2 weeks ago", "3 months back"), a day, or a period.
_COUNT = rf"(?:{DIGITS}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|" + "|".join(NUMBERS) + ")"
AGO = (
    rf"{_COUNT}\s+(?:(?:hour|day|week|fortnight|month|quarter|year)s?|{_SHORT_UNITS})"
    r"\s+(?:ago|back)\b"
)
# "a year and a half ago", "2 weeks and a half back": the count and a half of its unit (a
# month has no half a reader agrees on: not read).
HALF_AGO = (
    rf"{_COUNT}\s+(?:(?:hour|day|week|year)s?\s+and\s+a\s+half"
    rf"|and\s+a\s+half\s+(?:hour|day|week|year)s?)\s+(?:ago|back)\b"
)
# "the last one and a half years", "the past 2 and a half weeks": count, unit (two groups).
AND_A_HALF = rf"({_COUNT})\s+and\s+a\s+half\s+(hour|day|week|year)s?\b"
BOUNDARY_POINT = (
    rf"(?:the\s+)?(?:very\s+)?(?:tail\s+(?=end))?\b(?:beginning|start|middle|end)\s+of\s+{PERIOD}"
)
# A part at either end of a period ("the first 10 days of October", "the last quarter of
# 2025"), as a value a composition reads ("after the first 10 days of October").
PART_N = (
    rf"the\s+(?:first|last|final)\s+{NOT_UNITS}(?:{_COUNT}\s+)?(?:hour|day|week|fortnight|month|quarter"
    rf"|year)s?\s+of\s+(?:{REL_MONTH}|(?:the|this|last|previous)\s+year\b|{DATE})"
)
# "two Fridays ago", "the Friday before last", "two summers ago", "2 weekends ago".
NTH_LAST = (
    rf"{_COUNT}\s+(?:{'|'.join(WEEKDAYS)}|spring|summer|autumn|fall|winter|weekend)s\s+"
    rf"(?:ago|back)\b|the\s+(?:{'|'.join(WEEKDAYS)})\s+before\s+last\b"
)
POINT = (
    rf"(?:{BOUNDARY_POINT}|{NTH_LAST}|{AGO}|{HALF_AGO}|{PART_N}|{THIRD_PART}|yesterday\b|today\b|{WEEKEND}"
    rf"|{PERIOD})"
)
# A span of units counted to, before, after or from a point ("the 12 months to March 2026",
# "the 3 months before March", "the week after Christmas"): its word, one group. "The year
# leading up to March 2025" ends where March starts, as "before" does (it read "up to March
# 2025", everything before it, with "the year leading" left over).
SPAN_WORD = (
    r"(to|until|till|through|thru|ending(?:\s+(?:in|with))?|up\s+to|before|prior\s+to"
    r"|(?:leading|running)\s+up\s+to"
    r"|preceding|after|following|from|starting(?:\s+(?:in|with|from))?)"
)
# What may lead a phrase ("in 2025", "during Q3", "by late 2025").
LEAD = r"\b(?:(?:in|during|over|for|by)\s+)?"
# A range's "to" ("to", "until", "through", "through to").
TO = rf"(?:\bto\b|{UNTIL}|{THROUGH}(?:\s+to)?)"
# Up to now: "... to now", "... until today", "... to date" ("Sep 2025 to date" read September
# 2025, "date" said not understood).
TO_NOW = rf"(?:(?:to|{UNTIL}|and)\s+(?:now|today)|to\s+date)\b"
# What may lead a range of days ("from", "between", "in": "in jan 5-20").
DAYS_LEAD = rf"(?:\b(?:from|in|during|over|for|throughout)|{BETWEEN})"
