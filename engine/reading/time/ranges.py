"""The time rules of ranges and edges, as rows (engine/reading/time/rules.py holds them in
order): two periods and what is between them ("between X and Y", "from X to Y", "X and Y
combined"), a period up to now ("since X", "from X to date", "ytd", "lately"), a point ("as of
X", "on X") and what is before or after one ("before X", "pre-2020", "through May")."""

from __future__ import annotations

from engine.reading.time import compositions as c
from engine.reading.time import conventions as cv
from engine.reading.time import joined, spans
from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time.joined import JOINING
from engine.reading.time.ruletype import Rule

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
_TO_NOW = p.TO_NOW
_TO = p.TO
_SEASONS = r"(?:spring|summer|autumn|fall|winter)\b"

RANGES: list[Rule] = [
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
]  # fmt: skip
