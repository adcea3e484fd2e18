"""The time rules of periods counted from now, as rows (engine/reading/time/rules.py holds
them in order): the last N units, the past unit, N units ago, a season or weekday counted
back ("last summer", "two Fridays ago"), the unit under way or the one before ("this month",
"the previous quarter"), yesterday and today."""

from __future__ import annotations

from engine.reading.time import compositions as c
from engine.reading.time import conventions as cv
from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time.calendar import WEEKDAYS
from engine.reading.time.dateperiods import season_before_last
from engine.reading.time.ruletype import Rule

_LEAD = p.LEAD
_DAYS = "|".join(WEEKDAYS)
_WHOLE_UNITS = p.units("week", "month", "quarter", "year")
_PAST_UNITS = p.units("hour", "day", "week", "fortnight", "month", "quarter", "year", "decade")
_SEASON = r"(spring|summer|autumn|fall|winter)\b"

COUNTED: list[Rule] = [
    Rule("last_n", rf"{p.PRE}{p.N}\s*{p.UNIT}\b", rs.last_n, note=cv.back_from_now),
    # ... "the prior 90 days", "the preceding 2 weeks" as "the previous" (engine/reading/
    # periodpairs.COUNTED reads them after a period as the span before it).
    Rule("last_n", rf"\b(?:the\s+)?(?:last|past|previous|prior|preceding)\s+{p.N}\s*{p.UNIT}\b",
         rs.last_n, note=cv.back_from_now),
    # "going back four months", "looking back over 3 weeks": the same rs.span back from now (an
    # unseen phrasing answered the default year, "four" said unused).
    Rule("last_n", rf"\b(?:going|looking|reaching)\s+back\s+(?:over\s+)?{p.N}\s*{p.UNIT}\b",
         rs.last_n, note=cv.back_from_now),
    # "the past day", "in the last hour": back from now (they read nothing, said unread).
    Rule("past", rf"{p.PRE}{_PAST_UNITS}(?!\s+of\b)",
         rs.past, note=cv.back_from_now),
    Rule("past", rf"\bpast\s+{p.units('week', 'fortnight', 'month', 'quarter', 'year')}", rs.past,
         note=cv.back_from_now),
    Rule("past", r"\b(?:last|this)\s+(fortnight)\b", rs.past, note=cv.back_from_now),
    Rule("ago", rf"\b{p.N}\s*{p.UNIT}\s+ago\b", rs.ago_point, period=rs.ago_period),
    Rule("season", r"\b(last|this|previous|past)\s+(spring|summer|autumn|fall|winter)\b",
         rs.span(rs.season)),
    # "over the winter", "in the spring", "in fall": the latest begun, as "since summer" ("in
    # the spring" answered the default year as if no time was named, "over the winter" was
    # not read).
    Rule("season", rf"\b(?:in|over|during|throughout)\s+(?:the\s+)?{_SEASON}"
                   rf"(?!\s+(?:of|before|after)\b)(?![\s-]+\d)(?!\s+{p.EVENTS})",
         rs.span(rs.dated)),
    # "spring in 2021", "the summer during 2019", "the summer months of 2023": that season
    # ("spring in 2021" was answered over all of 2021, "spring" unsaid; a winter spans two
    # years: not read so).
    Rule("season", rf"{_LEAD}(?:the\s+)?(spring|summer|autumn|fall)(?:\s+months)?\s+"
                   rf"(?:in|of|during)\s+({p.YEAR})", rs.span(rs.season_of_year)),
    # "the months of spring 2021", "the weeks of January 2024": the period they divide (a
    # question ranking or counting by them reads the unit: "Rank the months of spring 2021"
    # was not understood as a time).
    Rule("in", rf"{_LEAD}the\s+(?:days|weeks|months|quarters)\s+(?:of|in)\s+({p.DATE})",
         rs.span(rs.dated)),
    # "two Fridays ago", "the Friday before last", "three summers ago": counted back from
    # "last Friday", "last summer" (they were not understood).
    Rule("nth_last", rf"\b{p.N}\s+({_DAYS}|spring|summer|autumn|fall|winter|weekend)s\s+"
                     r"(?:ago|back)\b",
         rs.span(rs.nth_last), note=rs.nth_last_note, alone=True),
    Rule("nth_last", rf"\bthe\s+()({_DAYS})\s+before\s+last\b", rs.span(rs.nth_last),
         note=rs.nth_last_note, alone=True),
    Rule("season", r"\bthe\s+(spring|summer|autumn|fall|winter)\s+before\s+last\b",
         rs.span(lambda g, now: season_before_last(c.first(g).lower(), now))),
    # ... "last calendar year", "this calendar month" ("calendar" ended the question).
    Rule("relative", rf"\b(last|this|previous|prior|current)\s+(?:calendar\s+)?{_WHOLE_UNITS}",
         rs.span(rs.relative_period), note=cv.relative),
    Rule("relative", r"\b(?:(?:in|during|over|for)\s+)?the\s+(previous|prior|current)\s+"
                     r"(week|month|quarter|year)\b", rs.span(rs.relative_period), note=cv.relative),
    Rule("day", r"\b(yesterday|today)\b", rs.span(rs.day)),
]  # fmt: skip
