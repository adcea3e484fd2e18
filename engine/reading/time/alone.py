"""The time rules of a month or season written alone, as rows (engine/reading/time/rules.py
holds them in order): read as time only where the words beside it make it one (a word
comparing periods before or after it, a comma setting it apart, "last November"), since
"may" and "march" are verbs and "spring" a name too."""

from __future__ import annotations

from engine.reading.time import patterns as p
from engine.reading.time import resolutions as rs
from engine.reading.time.calendar import WEEKDAYS
from engine.reading.time.ruletype import Rule

_DAYS = "|".join(WEEKDAYS)
# What makes "may" a verb after "or" ("or may have changed").
_VERB_AFTER = r"(?:have|has|be|not|also|i|we|you|they|he|she|it)\b"
_SEASON = r"(spring|summer|autumn|fall|winter)\b"
# Right after "compare(s|d) to|with" ("how does May compare to April": "April for commits"
# was said the second period, read by the words no rule read), "stack up against".
_AFTER_COMPARE = (
    "|".join(rf"(?<=\bcompare{s}\s{w}\s)" for s in ("", "s", "d") for w in ("to", "with"))
    + r"|(?<=\bup\sagainst\s)"
)

ALONE: list[Rule] = [
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
]  # fmt: skip
