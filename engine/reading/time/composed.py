"""The composition rules: rows over a value already read (`patterns.POINT`,
`patterns.PERIOD`): "since", "after", "before / until", "from X to Y", "between X and Y",
ranges of months with a dash and of days with "to", "N units back", "the 12 months to X",
fractions of a unit, the beginning, middle or end of a period. They come after the rows of
engine/reading/time/rules.py in `RULES` (a tie goes to the row listed first); their values
and resolutions are engine/reading/time/compositions.py's.
"""

from __future__ import annotations

from engine.reading.time import compositions as c
from engine.reading.time import conventions as cv
from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time.ruletype import Rule

_LEAD = p.LEAD
_TO = p.TO
_TO_NOW = p.TO_NOW
_DAYS_LEAD = p.DAYS_LEAD
_NOT_UNITS = p.NOT_UNITS

COMPOSED: list[Rule] = [
    Rule("since", rf"\bsince\s+({p.POINT})", c.since_point, note=cv.edge),
    Rule("since", rf"(?:\bfrom|{p.BETWEEN})\s+({p.POINT})\s+{_TO_NOW}",
         c.since_point, note=cv.edge),
    # "from the beginning of 2024" alone is since then ("from 2024" alone is 2024's).
    Rule("since", rf"\bfrom\s+({p.BOUNDARY_POINT})", c.since_point, note=cv.edge),
    Rule("after", rf"\bafter\s+({p.POINT})", c.after_point, note=cv.edge),
    # "through the end of 2025", "by the end of last year": everything up to that end.
    Rule("before", rf"(?:{p.THROUGH}|\bby)\s+({p.BOUNDARY_POINT})", c.before_point,
         note=cv.edge),
    Rule("before", rf"(?:\bbefore|\bprior\s+to|{p.UNTIL})\s+({p.POINT})",
         c.before_point,
         note=lambda phrase: cv.edge(phrase) or cv.until(phrase)),
    Rule("between", rf"(?:\bfrom|{p.BETWEEN})\s+({p.POINT})\s+(?:{_TO}|and)\s+({p.POINT})",
         c.point_range, note=cv.ranged),
    # "June-July", "in June-July" (it read June: "in June" starts first), "Nov 2025-Feb 2026".
    Rule("between", rf"(?:(?:\b(?:in|during|for|throughout|over|from)|{p.BETWEEN})\s+)?"
                    rf"\b({p.PERIOD})"
                    rf"\s*(?:\s{_TO}\s|[-\u2013])\s*({p.PERIOD})", c.point_range, note=cv.ranged),
    # Two ISO dates as an interval: "2026-05-01..2026-05-31", "2026-05-01/2026-05-31" (ISO
    # 8601), "2026-05-01...2026-05-31": both days whole, as "2026-05-01 - 2026-05-31" reads
    # (they were two days named, the question refused as two times).
    Rule("between", rf"(?:(?:\b(?:in|during|for|throughout|over|from)|{p.BETWEEN})\s+)?"
                    rf"\b({p.ISO})\s*(?:\.{{2,3}}|\u2026|/)\s*({p.ISO})", c.point_range,
         note=cv.ranged),
    # "the start of 2025 to the end of March", "June 2025 to the end of August": without
    # "from", only the first was read and the rest said unused.
    Rule("between", rf"\b({p.POINT})\s+{_TO}\s+({p.POINT})", c.point_range, note=cv.ranged),
    Rule("since", rf"\b({p.POINT})\s+(?!and){_TO_NOW}", c.since_point,
         note=cv.edge),
    # "from mid-September onwards" (it read mid-September, "onwards" said unused), "2025 on".
    Rule("since", rf"\b(?:from\s+)?({p.POINT})\s+(?:onwards?|on)\b(?!\s+\w)", c.since_point,
         note=cv.edge),
    # ... after "in", "during" too ("in jan 5-20" was answered over 5 January alone, "-20"
    # unsaid: "in jan 5" started first).
    Rule("between", rf"(?:{_DAYS_LEAD}\s+)?\b({p.MONTH})\s+({p.ORD})"
                    rf"\s*(?:[-\u2013]|\s{_TO}\s"
                    rf"|\sand\s)\s*({p.ORD})\b(?!\s+(?:of\s+)?{p.MONTH})(?:,?\s+({p.YEAR}))?",
         c.day_range(month_first=True), note=cv.ranged),
    Rule("between", rf"(?:{_DAYS_LEAD}\s+)?\b(?:the\s+)?({p.ORD})"
                    rf"\s*(?:[-\u2013]|\s{_TO}\s"
                    rf"|\sand\s)\s*(?:the\s+)?({p.ORD})\s+(?:of\s+)?({p.REL_MONTH}|{p.MONTH})"
                    rf"(?:,?\s+({p.YEAR}))?", c.day_range(month_first=False), note=cv.ranged),
    # "in or after 2024", "on or before 2025-06-30": X included ("in or after 2024" was asked
    # again as "after 2024", from 2025).
    Rule("since", rf"\b(?:in|on)\s+or\s+after\s+({p.POINT})", c.since_point, note=cv.edge),
    Rule("before", rf"\b(?:in|on)\s+or\s+before\s+({p.POINT})", c.through_point,
         note=cv.through),
    # "over a year ago": before then; "under a month ago": since then ("over a year ago" was
    # answered over the year that began a year ago, "over" unsaid).
    Rule("before", rf"\bover\s+({p.AGO})", c.before_point, note=cv.beyond),
    Rule("since", rf"\bunder\s+({p.AGO})", c.since_point, note=cv.beyond),
    Rule("ago", rf"\b{p.N}\s*{p.UNIT}\s+back\b", rs.ago_point, period=rs.ago_period),
    Rule("ago", rf"\b({p.HALF_AGO})", lambda g, now: (c.half_ago(c.first(g), now)[0], None, None),
         period=rs.half_ago_period),
    # "the 12 months to March 2026", "the 3 months before March", "the week after Christmas".
    # "the weeks before Christmas" (no count) is no rs.span: it read one week.
    Rule("span_of", rf"{_LEAD}the\s+{_NOT_UNITS}(?:{p.N}\s+)?{p.UNIT}\s+{p.SPAN_WORD}"
                    rf"\s+({p.POINT})",
         c.span_of, note=cv.edge),
    Rule("fraction", rf"{p.PRE}(half|quarter)[\s-]+(?:(?:of\s+)?an?\s+)?(year|day|hour)\b",
         c.fraction, note=c.fraction_note),
    Rule("fraction", rf"{p.PRE}year\s+and\s+a\s+half\b", c.year_and_a_half, note=c.fraction_note),
    Rule("fraction", rf"{p.PRE}{p.AND_A_HALF}", c.and_a_half, note=c.fraction_note),
    # Not after a hedge ("around the end of 2025" read the last third, "around" unsaid): a
    # hedge is not understood, whatever it hedges (engine/reading/time/beside.py).
    # "towards the end of October": the end of October ("towards" named a subject, "click
    # towards", and nothing was answered).
    Rule("boundary", rf"\b(?:(?:at|in|during|towards?)\s+)?{p.BOUNDARY}({p.PERIOD})",
         rs.span(c.boundary_span), note=c.boundary_note),
]  # fmt: skip
