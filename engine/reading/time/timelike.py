"""What looks like time in a question, and which of it no rule read (engine/reading/time/phrases.py
reads the rules' phrases; this reports the rest verbatim, never ignored).

"ever" and the whole history, the words that look like time (a year, a month name, "since",
"ago", a weekday, ...), a holiday widened into days no row reads, and the words after a
time-like word that belong to the phrase reported. A quarter ranked or counted by is no time
phrase unread.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.reading.time.calendar import NUMBERS
from engine.reading.time.holidays import NAMES as HOLIDAY_NAMES
from engine.reading.time.patterns import YEAR as _YEAR
from engine.reading.time.versus import VERSUS

if TYPE_CHECKING:
    from engine.reading.time.phrases import TimeMatch, TimeReading

# A version or tag ("8.1", "v2.32.0", "version 8.1.3", "release 3.0"), never a count of a
# unit ("1.5 months").
_UNITS_AFTER = r"(?:hours?|days?|weeks?|fortnights?|months?|quarters?|years?|decades?)\b"
_VERSION = (
    r"(?:(?:version|release|tag|ver\.?)\s+)?v?\d+(?:\.\d+)+(?:[a-z]+\d*)?(?![\w.])"
    rf"(?!\s*{_UNITS_AFTER})"
)
_VERSIONED = re.compile(r"\d\.\d+$")
# "ever", "of all time": everything before now (wider than an answer may cover: said, and the
# widest window offered), when the question names no other time. So are a subject's whole
# history and its beginning ("over its entire history", "in the history of click", "since
# inception", "from the very start", "over its whole life"): they were answered over the
# default year, "No time was named", or ended on "its" as a pronoun ("life" was not
# understood), and "since it was created" (its coming into being). Not the beginning of
# something named ("since the beginning of the sprint" stays not understood). "first-ever"
# is one word asking the first change (engine.reading.asked), no time: its "ever" was read as
# the whole history and asked again for 400 days.
# "from the initial commit in 2015 until today": from the first commit, its year an aside
# (it was "in 2015" and "until today", two times named, refused: z39a A8); the whole history.
_FIRST_COMMIT = (
    r"(?:first|initial|earliest|very\s+first)\s+commit(?:\s+(?:in|of|back\s+in)\s+\d{4})?"
)
_TO_NOW = (
    r"(?:,?\s+(?:until|till|up\s+to|to|through)\s+"
    r"(?:today|now|date|the\s+present(?:\s+day)?))?"
)
EVER = re.compile(
    r"\b(?:(?<![-\u2010])ever|(?:of\s+)?all[\s-]+time|since\s+forever"
    r"|(?:over|across|in|throughout|during|for)\s+(?:(?:its|their|the|this|that)\s+)?"
    r"(?:(?:entire|whole|full|complete)\s+)?(?:history|life(?:time|span)?|existence)"
    rf"|(?:since|from)\s+(?:the\s+(?:very\s+)?(?:beginning|start|outset|{_FIRST_COMMIT})"
    r"|(?:its|the\s+project['\u2019]?s|the\s+repo(?:sitory)?['\u2019]?s)\s+(?:creation|inception|start"
    rf"|beginning|{_FIRST_COMMIT})|inception|day\s+(?:one|1))(?!\s+of\b){_TO_NOW}"
    # "since it was created", "since it first appeared": from its first change (its coming into
    # being, engine/reading/origins.py), the whole history; "since it was" was not a time.
    r"|since\s+(?:it|they|this|that)\s+(?:(?:was|were|got|has\s+been)\s+(?:first\s+)?"
    r"(?:created|added|introduced|made|born|written|started|committed)"
    r"|(?:first\s+)?(?:appeared|showed\s+up|came\s+(?:in|about|along)|arrived|existed|started|began)))\b",
    re.IGNORECASE,
)
# What looks like time: any of these outside an understood phrase is reported, never ignored
# ("how long since X last changed?" asks when X last changed: its "since" is no phrase).
# A quarter ranked ("which quarter of 2025 was busiest", "the busiest quarter", "the quarter
# with the most commits"): the periods ranked (engine/reading/rankedmonths.py), no time phrase
# unread, where the question ranks ("which quarter did X change" stays not understood).
_QUARTER_ASKED = re.compile(
    r"\b(?:which|what|busiest|quietest|hottest|liveliest|most\s+active)\s+$", re.IGNORECASE
)
_QUARTER_WITH = re.compile(r"\s+with\s+(?:the\s+)?(?:most|highest)\b", re.IGNORECASE)
# A quarter counted by ("commits per quarter in 2025", "by quarter"): the unit of a breakdown
# (engine/reading/periodcounts.py), no time phrase unread.
_QUARTER_PER = re.compile(r"\b(?:by|per|each)\s+$", re.IGNORECASE)
# ... or compared with the one before ("Q2 2025 quarter over quarter": periodpairs.OVER).
_QUARTER_OVER = re.compile(r"quarter[\s-]+(?:over|on)[\s-]+quarter\b", re.IGNORECASE)
# A two-digit year after an apostrophe stands first, outside the word boundaries: "'25"
# after a space starts with no word boundary, so "vs '25" was never seen and "25" was read as
# a name ("commits in '24 vs '25" ended on "25" naming nothing known).
TIME_LIKE = re.compile(
    r"(?<![\w'\u2019])['\u2019]\d{2}(?![\w'\u2019])|"
    # a version or tag after a bound ("since 8.1", "after version 8.1.3", "between 8.1 and
    # 8.2", "since v2.32.0"), first: "after version 8.1.3" was answered as if no time was named
    rf"\b(?:(?:since|after|before|until|till|from|between|by|prior\s+to)\s+(?:the\s+)?{_VERSION}"
    rf"(?:\s+(?:and|to|through|thru|until)\s+{_VERSION})?(?:\s+(?:release|version|tag)s?\b)?"
    rf"|(?<!\blong\s)since|between|ago|tomorrow|tonight|ytd|quarters?|q[1-4]|h[12]|{_YEAR}|\d{{4}}[-/.]\d{{1,2}}"
    # a month's number no row reads before a year ("13/2025": its year is no year alone)
    r"|\d{1,2}/(?:19[7-9]\d|2\d{3})(?!\d)"
    r"|summer|winter|autumn|spring\s+\d|weekend|fortnights?|half\s+of|christmas|xmas"
    # spring and fall after a word placing a time ("by the spring" was answered over the
    # default year, "spring" unsaid); alone they may be names (the Spring framework)
    r"|(?:since|after|before|until|till|by|from|between)\s+(?:the\s+)?(?:spring|fall)"
    r"|(?:19|20)\d0'?s"
    r"|fy\s?'?\d{2,4}|fiscal\s+(?:year|quarter)|week\s+\d{1,2}"
    r"|(?:couple|few|several)\s+(?:of\s+)?(?:hours|days|weeks|months|quarters|years)"
    r"|next\s+(?:week|month|quarter|year|sprint|release)"
    r"|(?:january|february|march|april|june|july|august|september|october|november|december)\b"
    r"|(?:jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\s+\d"
    # a month written short alone, where no row reads it ("http.py feb changes": "feb" was
    # said unused and "No time was named"); not jan, jun (names) nor mar, may, dec (words)
    r"|(?:feb|apr|aug|sept|oct|nov)"
    # a day of a month by an ordinal no row reads ("the fortieth of May": May is no time alone)
    r"|(?:\d+|[a-z]+)(?:st|nd|rd|th)\s+of\s+(?:may|(?:the|this|last|next)\s+month)"
    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    rf"|(?:\d+|{'|'.join(NUMBERS)})\s+[a-z]+s?\s+(?:ago|back)|\d+\s+sprints?"
    r"|half[\s-]+(?:an?\s+)?(?:year|month|week|day|hour)"
    # "the same two months", "the same quarter" with no year or unit placing it ("Q1 vs the
    # same two months": "two" was said a name not understood; engine/reading/periodpairs.SAME
    # reads it where it is placed)
    rf"|(?<=\bthe\s)same\s+(?:(?:\d{{1,2}}|{'|'.join(NUMBERS)})\s+)?(?:days?|weeks?|months?|quarters?"
    r"|half|halves|years?|seasons?)\b"
    # a half named by its place ("this half", "the first half in click's terms"): a row of
    # engine/reading/time/halves.py reads it, or it is said unread (it was no time at all)
    r"|(?:first|second|last|this|previous|prior|current|next|latter|front|back)\s+half(?!-(?!year)[a-z])"
    rf"|(?:\d+|an?|{'|'.join(NUMBERS)})\s+(?:[a-z]+\s+)?and\s+a\s+half(?:\s+[a-z]+)?"
    r"|during\s+(?:the\s+|a\s+|an\s+|our\s+|this\s+|that\s+)?[\w.-]+"
    # an event's time ("around the time of PyCon 2019" answered all of 2019)
    r"|(?:around|about|near|roughly|at|by|from|since|until|till|before|after)\s+the\s+time\s+of"
    r"|(?:the\s+)?run[\s-]up\s+to"
    r"|(?:holidays?|vacations?|hackathons?|offsites?)"
    r"|(?:before|after|until|around|about|near|circa)\s+the\s+(?:[\w.-]+\s+)?(?:release|outage|incident|launch|freeze"
    r"|migration|rewrite|refactor|deploy|deployment|merge|version|sprint|reorg)s?"
    # A bound before any named thing is a time nothing here knows ("before the pandemic"
    # was answered over the default year): an article or possessive, then a noun; a verb
    # ("before changing core.py") or a pronoun ("after that") bounds no time.
    r"|(?:before|after|until|till|prior\s+to)\s+(?:the|our|their|his|her|its)\s+(?![\w-]+ing\b)[a-z][\w-]*"
    r"|(?:before|after|prior\s+to)\s+(?:covid|corona(?:virus)?|lockdown|brexit|y2k|pycon)"
    # Vague spans with no window to read: "back in the day" was answered over the default.
    r"|back\s+in\s+the\s+days?|(?:in\s+)?the\s+(?:old|early|good\s+old)\s+days|way\s+back"
    # A part of a day: which hours is a time zone's (none is known here), not read
    r"|(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening)|last\s+night|overnight"
    r"|back\s+(?:then|when)|long\s+ago|ages\s+ago|once\s+upon\s+a\s+time"
    r"|(?:beginning|middle|end)\s+of\s+(?:the\s+)?(?:year|month|quarter|week|sprint|release))\b",
    re.IGNORECASE | re.ASCII,
)
# A read phrase that a following word widens into days no row reads: "over the Christmas
# break 2022" was answered over Christmas Day 2025 with "break" unsaid.
# ... "over the Easter weekend", "Labor Day weekend" (any holiday of
# engine/reading/time/holidays.py).
WIDENED = re.compile(
    rf"\b(?:{HOLIDAY_NAMES}|new\s+year'?s?)(?:\s+(?:day|eve))?"
    r"\s+(?:break|holidays?|vacation|period|season|shutdown|rush|weekend)s?\b"
    r"(?:\s+\d{4}\b)?",
    re.IGNORECASE | re.ASCII,
)
# The words after a time-like word that belong to the phrase reported ("since the 8.0
# release"): two, a third naming an event; never a file name ("since parser.py last").
_FILE = r"[\w.-]*/|[\w-]+\.(?:py|pyi|js|ts|go|rs|java|rb|md|rst|toml|json|ya?ml|cfg|txt)\b"
_EVENT = (
    r"[ \t]+(?:release|outage|incident|launch|freeze|migration|rewrite|refactor|deploy"
    r"|deployment|merge|version|sprint|reorg)s?\b"
)
# ... or three before an event ("between the last two releases": it was said "between the
# last", the releases left out of what was not understood, and why).
_WORD = rf"[ \t]+(?!{_FILE})[\w.-]*\w"
_CONTEXT = re.compile(rf"(?:{_WORD}){{0,3}}{_EVENT}|(?:{_WORD}){{0,2}}(?:{_EVENT})?", re.IGNORECASE)
# After a bare year only an event is part of the phrase ("2024 release"): "vs 2024 to
# core.py" took the module into the phrase, and the answer was the whole organisation's.
_YEAR_CONTEXT = re.compile(rf"(?:[ \t]+[\w.-]*\w){{0,1}}{_EVENT}", re.IGNORECASE)
RANKS = re.compile(
    r"\b(?:most|busiest|hottest|liveliest|quietest|fewest|least|highest|lowest)\b",
    re.IGNORECASE | re.ASCII,
)


# ... or which of two quarters named was busier ("which quarter was quieter, Q1 2025 or Q2
# 2025?": engine/reading/twoperiods.py compares them; "quarter was quieter" was not a time).
# Without a choice ("which quarter was busier in 2025?") it stays not understood.
_CHOICE = re.compile(r"\b(?:busier|quieter|livelier)\b.*\bor\b", re.IGNORECASE | re.ASCII)


def reported(
    text: str, reading: TimeReading, found: list[TimeMatch], covered: list[tuple[int, int]]
) -> None:
    """Every time-like phrase outside the phrases read (`covered`) is not understood, said as
    written with the words belonging to it; a holiday a following word widens is too."""
    # "since inception": no "since" unread
    covered = [*covered, *(m.span() for m in EVER.finditer(text))]
    covered += [m.span() for m in re.finditer(r"\d{4}-\d{2}-\d{2}", text) if reading.not_a_date]
    for match in WIDENED.finditer(text):
        whole = any(m.start <= match.start() and match.end() <= m.end for m in found)
        if not whole and any(match.start() <= m.start and m.end < match.end() for m in found):
            reading.not_understood.append(match.group())
            reading.unknown_spans.append(match.span())
    for match in TIME_LIKE.finditer(text):
        if quarter_ranked(text, match):
            continue
        if not any(a <= match.start() < b for a, b in covered + reading.unknown_spans):
            year = match.group().lstrip("'\u2019").isdigit()  # "'24" as "2024"
            year = year or _VERSIONED.search(match.group()) is not None  # "since 8.1 in click"
            context = _YEAR_CONTEXT if year else _CONTEXT
            tail = context.match(text, match.end())
            lead = VERSUS.search(text, 0, match.start())  # "vs 2024": said as a comparison
            begin = lead.start() if lead else match.start()
            phrase = text[begin : match.end()] + (tail.group() if tail else "")
            reading.not_understood.append(phrase.strip())
            reading.unknown_spans.append((begin, begin + len(phrase.rstrip())))


def quarter_ranked(text: str, match: re.Match[str]) -> bool:
    """ "quarter" of "which quarter ... the most", "the busiest quarter" (`_QUARTER_ASKED`)."""
    if match.group().lower() not in ("quarter", "quarters"):
        return False
    over = any(o.start() <= match.start() < o.end() for o in _QUARTER_OVER.finditer(text))
    if over or _QUARTER_PER.search(text, 0, match.start()):
        return True
    if not RANKS.search(text) and not _CHOICE.search(text):
        return False
    before = _QUARTER_ASKED.search(text, 0, match.start())
    return before is not None or _QUARTER_WITH.match(text, match.end()) is not None
