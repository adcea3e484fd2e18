"""The time rules of parts of a period and of periods written by number, as rows
(engine/reading/time/rules.py holds them in order): the first or last N units of a period,
its thirds ("early 2025", "mid-to-late 2024"), the next unit, the unit before last, a year
alone, "since last month", a weekend, an ISO week, a date written year first, week N of a
month."""

from __future__ import annotations

from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time import spans
from engine.reading.time.ruletype import Rule

_WHICH_YEAR = r"(?:the|this|last|previous)\s+year"
_LEAD = p.LEAD
# Units without a count ("the weeks before"): no rs.span (the rs.span rule read one week).
_NOT_UNITS = p.NOT_UNITS

PORTIONS: list[Rule] = [
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
]  # fmt: skip
