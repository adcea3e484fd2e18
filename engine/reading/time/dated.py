"""The time rules of periods the calendar names, as rows (engine/reading/time/rules.py holds
them in order): holidays and the days around them, days of the week, decades, weeks of a
month or year, a month, quarter, half, season or year written with its year or alone after
"in", and a month by its number."""

from __future__ import annotations

from engine.reading.time import conventions as cv
from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time import spans
from engine.reading.time.holidays import NAMES as HOLIDAY_NAMES
from engine.reading.time.holidays import WEEKEND_NAMES as HOLIDAY_WEEKENDS
from engine.reading.time.ruletype import Rule

_LEAD = p.LEAD
_TO = p.TO
# A day of the week as a range's end ("mon-fri"), written out or short.
_WEEKDAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b"
)
_WHICH_WEEK = (
    r"(?:last|this|previous|prior|the\s+previous|the\s+current)\s+week"
    r"|the\s+week\s+before\s+last"
)
_AROUND = r"christmas|xmas|easter|thanksgiving|new\s+year(?:['\u2019]?s)?"
# What makes it another span or a day ("the Christmas break", "Easter Sunday").
_NOT_AROUND = (
    r"(?:day|eve|sunday|monday|week|weekend|break|holidays?|vacation|period|season|shutdown"
    r"|rush|party|release)s?\b"
)

DATED: list[Rule] = [
    # "Thanksgiving week 2022", "during Christmas week": the week holding the holiday.
    Rule("week_of", rf"\b(?:(?:in|during|over|for)\s+)?(?:the\s+)?"
                    rf"((?:{HOLIDAY_NAMES})(?:['\u2019]s)?)\s+week\b{p.HOLIDAY_YEAR}?",
         rs.span(spans.holiday_week), note=spans.holiday_week_note, alone=True),
    # "over Christmas 2025", "during Easter": the days around it (holidays.AROUND: "over
    # Christmas 2025" read 25 December alone); "on Christmas", "Christmas Day": the day.
    # "over the holidays", "during the Christmas break 2025", "the holiday season":
    # holidays.SEASON (not understood).
    Rule("holidays", rf"\b(?:over|during|across|throughout|in|around)\s+the\s+(?:(?:christmas|xmas"
                     rf"|winter|festive|end[\s-]of[\s-]year)\s+(?:holidays?|break|season|period"
                     rf"|shutdown|vacation)|holidays|holiday\s+(?:season|break|period))\b"
                     rf"{p.HOLIDAY_YEAR}?",
         rs.span(rs.holiday_season), note=rs.holiday_season_note, alone=True),
    Rule("holiday", rf"\b(?:over|during|across|throughout|around)\s+(?:the\s+)?"
                    rf"((?:(?:last|this)\s+)?(?:{_AROUND}))"
                    rf"(?![\w'\u2019])(?!\s+{_NOT_AROUND}){p.HOLIDAY_YEAR}?",
         rs.span(rs.holiday_around), note=rs.holiday_around_note, alone=True),
    # "over Easter weekend 2025", "Labor Day weekend": the long weekend it makes
    # (holidays.WEEKEND; it was not understood).
    Rule("holiday", rf"\b(?:(?:in|during|over|for|on|at|across|throughout)\s+)?(?:the\s+)?"
                    rf"(?:long\s+)?((?:(?:last|this)\s+)?(?:{HOLIDAY_WEEKENDS}))"
                    rf"(?:['\u2019]s)?\s+(?:long\s+)?weekend\b{p.HOLIDAY_YEAR}?",
         rs.span(rs.holiday_weekend), note=rs.holiday_weekend_note, alone=True),
    # "Monday through Friday last week", "mon-fri", "tue to thu this week": those days, both
    # whole ("mon-fri last week" was answered over all of last week, "mon-fri" unsaid).
    Rule("weekdays", rf"{_LEAD}(?:from\s+)?({_WEEKDAY})\s*(?:[-\u2013]|\s{_TO}\s)\s*"
                     rf"({_WEEKDAY})(?:,?\s+(?:of\s+)?({_WHICH_WEEK}))?",
         rs.span(rs.weekdays), note=cv.ranged),
    Rule("weekdays", rf"{p.BETWEEN}\s+({_WEEKDAY})\s+and\s+({_WEEKDAY})"
                     rf"(?:,?\s+(?:of\s+)?({_WHICH_WEEK}))?",
         rs.span(rs.weekdays), note=cv.ranged),
    # "the 2010s": its ten years.
    Rule("decade", rf"{_LEAD}{p.DECADE}", rs.span(spans.decade), note=spans.decade_note,
         alone=True),
    Rule("week_of",
         rf"\b(?:(?:in|during)\s+)?the\s+week\s+(?:of|starting|beginning)\s+({p.DAY_DATE})",
         rs.span(rs.week_of), note=spans.week_of_note),
    Rule("nth_week", rf"\b(?:(?:in|during)\s+)?the\s+({p.WEEK_NTH})\s+week\s+of\s+"
                     rf"({p.REL_MONTH}|{p.MONTH}(?:\s+{p.YEAR})?|{p.WHOLE_YEAR})",
         rs.span(rs.nth_week_of), note=spans.nth_week_note),
    # "the ninth week of 2023", "the 12th week of last year": the year's days, 7 a week.
    Rule("nth_week", rf"\b(?:(?:in|during)\s+)?the\s+({p.YEAR_WEEK_NTH})\s+week\s+of\s+"
                     rf"({p.WHOLE_YEAR})",
         rs.span(rs.nth_week_of), note=spans.nth_week_note),
    # ... "in the month of July", "in calendar year 2025", "in CY2025" (not read).
    Rule("in", rf"\b(?:in|during|for|throughout)\s+(?:(?:the\s+)?(?:calendar\s+)?year\s+"
               rf"|the\s+month\s+of\s+|cy\s?)?({p.DATE})", rs.span(rs.dated)),
    Rule("in", rf"\bcy\s?({p.YEAR})", rs.span(rs.dated)),
    # "last year's Q4", "this year's first half": that one (it read all of last year).
    Rule("in", rf"\b((?:last|this)\s+year)['\u2019]s\s+({p.QUARTER_OF}|h[12]\b"
               rf"|(?:first|second)\s+half)", rs.span(rs.years_part)),
    Rule("in", rf"\b({p.HALF}|{p.SEASON}|{p.MONTH}\s+{p.YEAR}|{p.QUARTER}|{p.DAY_DATE}"
               rf"|{p.MONTH}\s+(?:of\s+)?{p.REL_YEAR})", rs.span(rs.dated)),
    # ... and a month by its number alone ("commits 03/2025", "2025/03": "2025" was said not
    # understood), never the last end of a range whose first no row reads ("between 13/2025
    # and 4/2026": not understood, whole).
    Rule("in", rf"(?<!\band\s)(?<!\bto\s)(?<!\buntil\s)({p.MONTH_NUMBER})", rs.span(rs.dated)),
]  # fmt: skip
