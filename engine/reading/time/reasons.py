"""Why a time phrase was not read, as rows: the first row whose pattern the phrase holds
gives the reason (engine.resolving.questiontime says it in words). Read once with the
question, so nothing after reading looks at the phrase's text again.

A fiscal year's months differ from one organisation to the next (none is recorded here:
reading one would be a guess); a date that is no real date (a day its month does not have, a
range ending before it starts); releases are not imported: a release is placed only at its
release commit (engine/resolving/releases.py reads such a phrase, the rest stays unread). A
phrase comparing with another period ("vs 2024") is not a time of its own: the first period
is answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from engine.reading.time.versus import STARTS


class Unread(Enum):
    """Why a time phrase was not read."""

    VERSUS = "versus"  # compares with another period ("vs 2024")
    FISCAL = "fiscal"  # a fiscal period ("FY24", "fiscal 2025")
    NO_DATE = "no_date"  # no real date ("2026-02-30", "between 2020 and 2019")
    RELEASE = "release"  # a release, version or tag ("since the 8.0 release")
    UNKNOWN = "unknown"  # no rule reads it ("since the outage")


@dataclass(frozen=True, slots=True)
class Row:
    reason: Unread
    pattern: re.Pattern[str]


ROWS = (
    Row(Unread.FISCAL, re.compile(r"\bfy\s?'?\d|\bfiscal\b", re.IGNORECASE)),
    Row(
        Unread.NO_DATE,
        re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{4}|\b\d{4}\s*(?:-|and)\s*\d{4}\b"),
    ),
    Row(Unread.RELEASE, re.compile(r"\b(?:release|version|tag)s?\b", re.IGNORECASE)),
    # a version number ("since 8.1", "since v2.32.0", "since 25.4.0"): no count of a unit
    Row(Unread.RELEASE, re.compile(
        r"\bv?\d+(?:\.\d+)+(?![\w.])(?!\s*(?:hours?|days?|weeks?|months?|quarters?|years?)\b)",
        re.IGNORECASE,
    )),
)


def reason(phrase: str) -> Unread:
    """Why `phrase` (a time phrase no rule reads) was not read."""
    if STARTS.match(phrase):  # "vs 2024", "compare to 2024" (engine/reading/time/versus.py)
        return Unread.VERSUS
    return next((row.reason for row in ROWS if row.pattern.search(phrase)), Unread.UNKNOWN)
