"""The time rules, one row each: a name, a pattern built from the named sub-patterns of
engine/reading/time/patterns.py, the resolution that turns a match into instants at a
reference instant `now`, and the note that states how it was read. A composition rule's
pattern holds a slot (`patterns.POINT`, `patterns.PERIOD`) that an already-read value fills:
`point_of` and `period_of` (engine/reading/time/compositions.py) read the slot's words with
the value rows (`VALUES`), so "since", "after", "before", "from ... to", "between ... and"
take any point or period the reader knows, and a new value phrase is one new row there.

Overlaps are settled by one ranker (engine.reading.time.phrases.read_time): the phrase that
starts first, then the longest, then the row listed first.

Conventions, each stated beside the answer where it applies: a period is half-open
[start, stop) and a period under way stops at `now`; "between X and Y" and "X to Y" include
Y whole; a month, quarter or day without a year is the most recent one that has started (a
period of a month or more under a tenth of which has passed: the one before, periods.meant; a
range's first end without a year takes its last end's, a last end without one the first's);
weeks run Monday to Sunday (ISO) except "the first week of May" (its days 1-7); seasons are
the northern meteorological ones; "lately" and its kin are the last 90 days; "a couple" is
2, "a few" 3; "the beginning / middle / end of P" alone is P's first / middle / last third
(as early / mid / late), and after "since", "after", "before", "until", "from" or "to" the
instant it names: P's start, the start of its middle third, P's end; the first half of a
month is its days 1-15; "a year and a half ago" is 18 months back; "the N units to X" end
with X whole, "before X" where X starts, "after X" start where X ends, "from X" where it
starts.
"""

from __future__ import annotations

from engine.reading.time import compositions as c
from engine.reading.time import conventions as cv
from engine.reading.time import joined, spans
from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time.calendar import WEEKDAYS
from engine.reading.time.composed import COMPOSED
from engine.reading.time.dateperiods import season_before_last
from engine.reading.time.halves import HALVES
from engine.reading.time.holidays import NAMES as HOLIDAY_NAMES
from engine.reading.time.holidays import WEEKEND_NAMES as HOLIDAY_WEEKENDS
from engine.reading.time.joined import JOINING
from engine.reading.time.ruletype import Rule

_WHICH_YEAR = r"(?:the|this|last|previous)\s+year"
_LEAD = p.LEAD
# "as of yesterday", "as of last month": up to and including it (periods.end_of).
_AS_OF_END = r"yesterday|today|now|(?:last|previous|this)\s+(?:week|month|quarter|year)"
# "Currently", "at the moment", "right now", "presently", "at present" ask about now as
# "these days" does (the last 90 days, said): "currently" was a stop word, so "who is currently
# working on X?" asked about X's whole history, and "at the moment" ended on "moment". "Now"
# alone stays a word of no time ("how many commits does X have now?": all of them, to date).
_RECENT = (
    r"\b(?:lately|recently|of\s+late|as\s+of\s+late|these\s+days|nowadays"
    r"|currently|presently|at\s+(?:the\s+)?(?:moment|present)|right\s+now"
    r"|in\s+recent\s+(?:days|weeks|months|times))\b"
)
_DAYS = "|".join(WEEKDAYS)
_TO_NOW = p.TO_NOW
_TO = p.TO
# Units without a count ("the weeks before"): no rs.span (the rs.span rule read one week).
_NOT_UNITS = p.NOT_UNITS
_WHOLE_UNITS = p.units("week", "month", "quarter", "year")
_SEASONS = r"(?:spring|summer|autumn|fall|winter)\b"
# What makes "may" a verb after "or" ("or may have changed").
_VERB_AFTER = r"(?:have|has|be|not|also|i|we|you|they|he|she|it)\b"
_PAST_UNITS = p.units("hour", "day", "week", "fortnight", "month", "quarter", "year", "decade")
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
_SEASON = r"(spring|summer|autumn|fall|winter)\b"
# Right after "compare(s|d) to|with" ("how does May compare to April": "April for commits"
# was said the second period, read by the words no rule read), "stack up against".
_AFTER_COMPARE = "|".join(
    rf"(?<=\bcompare{s}\s{w}\s)" for s in ("", "s", "d") for w in ("to", "with")
) + r"|(?<=\bup\sagainst\s)"

RULES: list[Rule] = [
    # "between Christmas and New Year 2025": the holidays of 2025 (its year was New Year's).
    Rule("holidays", rf"(?:{p.BETWEEN}\s+|\bfrom\s+)?\b(?:christmas|xmas)(?:\s+day)?\s+"
                     rf"(?:and|{_TO}|[-\u2013])\s+(?:the\s+)?new\s+year(?:['\u2019]?s)?"
                     rf"(?:\s+(?:day|(eve)))?,?\s+({p.YEAR})",
         rs.span(rs.christmas_to_new_year), note=rs.christmas_to_new_year_note, alone=True),
    Rule("between", rf"{p.BETWEEN}\s+({p.DATE})\s+and\s+({p.DATE})", rs.ranged(both=False),
         note=cv.ranged),
    # "Jan and Feb 2024 combined", "across 2013 and 2014 together", "June, July and August
    # 2025 in total": one window when they follow one another (engine/reading/time/joined.py;
    # they were two times named, refused, or the last read alone).
    Rule("combined", rf"(?:\b(?:in|during|across|over|for|throughout)\s+)?(?:the\s+)?"
                     rf"({p.DATE})((?:\s*,\s*{p.DATE})*),?\s+and\s+({p.DATE}),?\s+{JOINING}",
         joined.combined, note=joined.note),
    Rule("both", rf"\b(?:in|during)\s+({p.DATE})\s+and\s+({p.DATE})", rs.ranged(both=True)),
    # "Compare June and July: commits ...": the two compared (engine/reading/comparisons.py
    # splits them, as "compare commits in june and july"); "June and July" was not understood.
    Rule("both", rf"(?:(?<=\bcompare\s)|(?<=\bcomparing\s))({p.DATE})\s+(?:and|&)\s+({p.DATE})",
         rs.ranged(both=True)),
    # "in jan, march and may 2026": a list of periods, joined as "combined" joins them (one
    # window when they follow one another, else a union: engine/reading/time/unions.py).
    Rule("both", rf"\b(?:in|during)\s+({p.DATE})((?:\s*,\s*{p.DATE})+),?\s+and\s+({p.DATE})",
         joined.combined, note=joined.note),
    # "validators.py lines march and august", "commits jan, apr and july 2025": months named
    # together with no word before them, one window when they follow one another, else a
    # union of windows (engine/reading/time/unions.py); they were not understood.
    Rule("months", rf"(?<![\w-])(?<!compare\s)(?<!comparing\s)(?<!both\s)(?!may\b)"
                   rf"({p.MONTH})((?:\s*,\s*{p.MONTH})*),?\s+(?:and|&)\s+"
                   rf"({p.MONTH}(?:,?\s+{p.YEAR})?)(?!\s*,?\s*\d)", joined.combined,
         note=joined.note),
    # "In 2022, between March and May", "in 2022 from March to May": the range in that year
    # (each end was said not understood).
    Rule("between", rf"\b(?:in|during)\s+({p.YEAR}),?\s+(?:{p.BETWEEN}|from)\s+({p.MONTH})\s+"
                    rf"(?:and|{_TO})\s+({p.MONTH})(?!\s*,?\s*\d)", rs.year_first, note=cv.ranged),
    # "between May and July in 2025", "from March to May, 2024": the range in that year ("in
    # 2025" was said unused and May to July 2026 answered).
    Rule("between", rf"(?:{p.BETWEEN}|\bfrom)\s+({p.MONTH})\s+(?:and|{_TO})\s+({p.MONTH}),?\s+"
                    rf"(?:in|of|during)\s+({p.YEAR})", rs.year_after, note=cv.ranged),
    Rule("between", rf"\bfrom\s+({p.DATE})\s+{_TO}\s+({p.DATE})", rs.ranged(both=False),
         note=cv.ranged),
    Rule("since", rf"(?:\bfrom|{p.BETWEEN})\s+({p.DATE})\s+{_TO_NOW}",
         rs.since),
    Rule("between", rf"\b(?:(?:in|during|from|for|throughout|over)\s+)?{p.YEARS}",
         rs.ranged(both=False), note=cv.ranged),
    Rule("since", rf"\bsince\s+(?:the\s+)?(?:start|beginning)\s+of\s+({p.DATE})", rs.since),
    Rule("ytd", r"\bsince\s+(?:the\s+)?(?:start|beginning)\s+of\s+(?:the|this)\s+year\b",
         rs.span(rs.year_to_date)),
    Rule("recent", _RECENT, rs.recent, note=spans.recent_note),
    Rule("as_of_end", rf"\bas\s+(?:of|at)\s+({_AS_OF_END})\b", rs.as_of_end),
    Rule("as_of", rf"\bas\s+(?:of|at)\s+({p.DATE})", rs.as_of),
    # "as of the end of 2023": the instant it names (it read the last third of 2023).
    Rule("as_of", rf"\bas\s+(?:of|at)\s+({p.BOUNDARY_POINT})", c.as_of_point, note=cv.edge),
    Rule("on", rf"\bon\s+({p.DAY_DATE}|{p.WEEKDAY})", rs.as_of, period=rs.day_period),
    Rule("since", rf"\bsince\s+({p.DATE})", rs.since),
    Rule("since_day", r"\bsince\s+(yesterday|today)\b", rs.since_day),
    Rule("after", rf"\bafter\s+({p.DATE})", rs.after),
    # "pre-2020", "post-2024": before it, after it.
    Rule("before", rf"\bpre-?\s*({p.DATE})", rs.before),
    Rule("after", rf"\bpost-?\s*({p.DATE})", rs.after),
    # Not "the run-up to 2021" (it offered "in the run-between 2019-11-28 and 2020-12-31").
    Rule("before", rf"(?:\bbefore|\bprior\s+to|{p.UNTIL})\s+({p.DATE})", rs.before,
         note=cv.until),
    # "ytd", "month to date", "mtd", "qtd", "wtd": the calendar period under way.
    Rule("ytd", r"\b(?:(year|quarter|month|week)[\s-]+to[\s-]+date|([yqmw])td)\b",
         rs.span(spans.to_date), note=cv.to_date),
    # "through May 2026", "thru Q1 2026": up to its end, itself included ("through Q3" was
    # not understood); not a season ("through the summer" may be all of it).
    Rule("before", rf"{p.THROUGH}\s+(?!(?:the\s+|last\s+|this\s+)?{_SEASONS})({p.POINT})",
         c.through_point, note=cv.through),
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
    # A month alone after a word comparing periods ("more commits in August than July", "May
    # vs June"): the period compared with (engine.reading.asked ends such a question; "July"
    # alone is no time elsewhere, "may" and "march" being verbs too).
    # ... or a season ("over the summer vs spring": spring was unsaid), and after "or" ("busier
    # in march or april": "april" was said not understood as a time).
    Rule("in", rf"(?:(?<=\bthan\s)|(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bversus\s)|(?<=\bor\s)"
               rf"|{_AFTER_COMPARE})"
               rf"({p.MONTH}|{_SEASON})(?!\s*\d)(?!\s+{_VERB_AFTER})", rs.span(rs.dated)),
    # ... and before it ("jul vs aug": "jul" was not read, and "aug" after "vs" became the
    # time since August compared with August, answered from 2026-09-01 without a word; "How
    # did February compare with March": "February compare with" was not understood).
    Rule("in", rf"(?<![\w-])({p.MONTH}|{_SEASON})"
               rf"(?=\s+(?:vs\.?|versus|compar(?:e|es|ed)\s+(?:to|with|against)"
               rf"|stack(?:s|ed)?\s+up\s+(?:against|with))\s)",
         rs.span(rs.dated)),
    # ... and before "than" or "or" and another month or season ("busier in may or june",
    # "more in jul than aug"; "nate's commits may vs june": "may" was a name).
    Rule("in", rf"(?<![\w'])({p.MONTH}|{_SEASON})(?=\s*,?\s+(?:vs\.?|versus|than|or(?!\s+may\b))"
               rf"\s+(?:in\s+)?(?:{p.MONTH}|{_SEASON}))(?!\s*\d)", rs.span(rs.dated)),
    Rule("in", rf"\b((?:last|this|past)\s+(?:{_DAYS}))\b", rs.span(rs.dated)),
    # A month alone set apart by a comma at either end of the question ("feb, what changed in
    # http.py": "feb" was said unused and the default year answered, "No time was named").
    Rule("in", rf"^\s*({p.MONTH})(?=\s*[,:;]\s)", rs.span(rs.dated)),
    Rule("in", rf"(?<=,\s)({p.MONTH})(?=\s*[?.!]?\s*$)", rs.span(rs.dated)),
    # "last November": the latest November wholly past ("since last November" was not read).
    Rule("in", rf"\b({p.LAST_MONTH})", rs.span(rs.dated)),
    # Parts of a period and periods counted from now (engine/reading/time/spans.py).
    # ... its article left out ("in first week of 2026", "last 3 months of 2025": not
    # understood; never the last 3 months back from now).
    Rule("part_n", rf"\b(?:(?:in|during|over|for|within)\s+)?(?:the\s+)?(first|last|final)\s+"
                   rf"{_NOT_UNITS}(?:{p.N}\s+)?{p.UNIT}\s+of\s+({p.REL_MONTH}|{_WHICH_YEAR}"
                   rf"|{p.DATE})",
         rs.span(spans.part_n),
         alone=True),
    # ... "late in 2025", "early in Q3": the same third ("late in 2025" was answered over all
    # of 2025, "late" unsaid).
    Rule("part", rf"{_LEAD}(?<!running\s)(early|mid|late)(?:[\s-]+in)?[\s-]+({p.THIRD_OF})",
         rs.span(spans.part), note=spans.part_note, alone=True),
    # "mid-to-late 2024", "early and mid 2025", "early/mid 2025": both thirds and what is
    # between (they were answered over the last third alone, the first word unsaid).
    Rule("part", rf"(?:{_LEAD}|{p.BETWEEN}\s+)(early|mid|late){p.JOINED_THIRDS}(early|mid|late)"
                 rf"[\s-]+({p.THIRD_OF})",
         rs.span(spans.parts), note=spans.part_note, alone=True),
    # "the last third of 2023", "the first third of last year": as late 2023, early last year.
    Rule("part", rf"{_LEAD}{p.THIRDS}", rs.span(spans.nth_third), note=spans.nth_third_note,
         alone=True),
    # "the early days of 2023": early 2023.
    Rule("part", rf"{_LEAD}the\s+(early)\s+days\s+of\s+({p.THIRD_OF})",
         rs.span(spans.part), note=spans.part_note, alone=True),
    Rule("next", rf"{_LEAD}(?:the\s+)?(next|coming)\s+(week|month|quarter|year)\b",
         rs.span(spans.following), alone=True),
    Rule("next", r"\b(tomorrow)\b", rs.span(spans.following), alone=True),
    Rule("before_last",
         r"\bthe\s+(day|week|fortnight|month|quarter|year)\s+before\s+(last|yesterday)\b",
         rs.span(spans.before_last), alone=True),
    # A year alone ("core.py 2025 commits", "2024: commits to the tests?"): it was said not
    # understood and the default window answered. Not after a word comparing periods ("vs
    # 2024": engine.resolving.questiontime says so), nor naming an event ("the 2024 release"):
    # those stay not understood. Nor the year of a date written another way ("on 2026/03/04"
    # read the whole of 2026, the day dropped unsaid).
    Rule("bare_year", rf"(?<![\w#./@-])(?<!vs\s)(?<!vs\.\s)(?<!versus\s)(?<!against\s)"
                      rf"(?<!to\s)(?<!with\s)(?<!fy\s)(?<!fiscal\syear\s){p.NUMBERED}({p.YEAR})"
                      rf"(?![/.]\d)(?!\s+{p.EVENTS})", rs.span(spans.bare_year), alone=True),
    Rule("since_then", r"\bsince\s+(last|this|previous)\s+(week|month|quarter|year)\b",
         rs.span(spans.since_then), alone=True),
    Rule("since_then", rf"\bsince\s+{p.N}\s*{p.UNIT}\s+ago\b", rs.span(spans.since_then),
         alone=True),
    # A weekend: Saturday 00:00 to Monday 00:00, UTC ("during last weekend" was not read).
    Rule("weekend", rf"{_LEAD}(?:the\s+)?(?:{p.WHICH_WEEKEND}\s+weekend"
                    r"|weekend\s+(before\s+last))\b(?!\s+of\b)",
         rs.span(spans.weekend), note=spans.weekend_note, alone=True),
    Rule("weekend", r"\b(?:over|on|at|during)\s+the\s+weekend\b(?!\s+(?:of|before|after)\b)",
         rs.span(spans.weekend), note=spans.weekend_note, alone=True),
    Rule("weekend", rf"\b(?:(?:in|during|over|for|on|at)\s+)?the\s+weekend\s+of\s+({p.DAY_DATE})",
         rs.span(spans.weekend_of), note=spans.weekend_of_note, alone=True),
    # An ISO week ("week 32", "in week 32 of 2025", "ISO week 1 2026", "week 32 of last
    # year", "2025-W32"); not a number that counts a unit ("the week 5 days ago") nor a week
    # of a month ("week 2 of March": its days, never ISO week 2 in January).
    Rule("iso_week", rf"{_LEAD}(?:the\s+)?(?:iso\s+|calendar\s+)?week\s+(?:no\.?\s*|number\s+|#)?"
                     rf"(\d{{1,2}})(?!\d)(?!\s+(?:of\s+)?{p.MONTH})(?!\s+{p.COUNTED})"
                     rf"(?:,?\s+(?:of\s+)?({p.YEAR}|{_WHICH_YEAR}))?",
         rs.span(spans.iso_week), note=spans.iso_week_note, alone=True),
    Rule("iso_week", rf"{_LEAD}()(19[7-9]\d|2\d{{3}})-?w(\d{{2}})\b", rs.span(spans.iso_week),
         note=spans.iso_week_note, alone=True),
    # A date written year first with slashes ("on 2026/03/04"): year, month, day in that order
    # wherever it is written (its year alone read the whole year). Not with dots: "2025.1.2"
    # may be a version (calendar versioning), said not understood.
    Rule("ymd", rf"\b(?:(?:on|for)\s+)?{p.NUMBERED}(19[7-9]\d|2\d{{3}})(/)(\d{{1,2}})/(\d{{1,2}})"
                r"(?!\d)(?![/.]\d)", rs.span(spans.ymd), note=spans.ymd_note, alone=True),
    # A week of a month by its number ("week 2 of March 2026"), as "the second week of".
    Rule("month_week", rf"{_LEAD}(?:the\s+)?week\s+([1-4])\s+of\s+"
                       rf"({p.REL_MONTH}|{p.MONTH}(?:\s+{p.YEAR})?)",
         rs.span(spans.month_week), note=spans.month_week_note, alone=True),
    # Compositions over a value already read: engine/reading/time/composed.py.
    *COMPOSED,
    # "this half", "last half", "the first half" alone: engine/reading/time/halves.py.
    *HALVES,
]  # fmt: skip
