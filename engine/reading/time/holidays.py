"""Days named by a holiday, computed for the year named (engine/reading/time/calendar.py reads
the phrase, engine/reading/time/patterns.HOLIDAY finds it): one row per holiday in `DAYS`,
each with its convention, said beside the answer (`note`).

Conventions: Christmas is 25 December and New Year 1 January, an eve the day before; Easter is
the Western (Gregorian) Easter Sunday, Good Friday two days before it and Easter Monday the
day after; Thanksgiving, Labor Day, Memorial Day and Independence Day are the United States'
(the fourth Thursday of November, the first Monday of September, the last Monday of May, 4
July); Halloween is 31 October, Valentine's Day 14 February and Boxing Day 26 December.
"Over", "during", "across", "throughout" or "around" a holiday is the days around it
(`AROUND`); "the holidays", "the Christmas break" are 24 December to 1 January (`SEASON`). A
holiday no row names ("Diwali 2025", "St Patrick's Day") is not understood, never its year.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta


def easter(year: int) -> date:
    """Western Easter Sunday (the Gregorian computus, the anonymous algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * weekday) // 451
    month, day = divmod(h + weekday - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _nth_weekday(year: int, month: int, weekday: int, nth: int) -> date:
    """The `nth` `weekday` (Monday 0) of a month; `nth` -1: its last."""
    if nth < 0:
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))


def _fixed(month: int, day: int) -> Callable[[int], date]:
    return lambda year: date(year, month, day)


# A holiday's words (lower case, "'s" dropped) -> its day in a year, and its convention.
DAYS: dict[str, tuple[Callable[[int], date], str]] = {
    "christmas": (_fixed(12, 25), "Christmas as 25 December"),
    "xmas": (_fixed(12, 25), "Christmas as 25 December"),
    "new year": (_fixed(1, 1), "New Year as 1 January"),
    "easter": (easter, "Easter as the Western (Gregorian) Easter Sunday"),
    "good friday": (lambda y: easter(y) - timedelta(days=2), "Good Friday as two days before "
                    "the Western (Gregorian) Easter Sunday"),
    "easter monday": (lambda y: easter(y) + timedelta(days=1), "Easter Monday as the day after "
                      "the Western (Gregorian) Easter Sunday"),
    "thanksgiving": (lambda y: _nth_weekday(y, 11, 3, 4), "Thanksgiving as the United States' "
                     "(the fourth Thursday of November)"),
    "labor day": (lambda y: _nth_weekday(y, 9, 0, 1), "Labor Day as the United States' (the "
                  "first Monday of September)"),
    "memorial day": (lambda y: _nth_weekday(y, 5, 0, -1), "Memorial Day as the United States' "
                     "(the last Monday of May)"),
    "independence day": (_fixed(7, 4), "Independence Day as the United States' (4 July)"),
    "halloween": (_fixed(10, 31), "Halloween as 31 October"),
    "valentine": (_fixed(2, 14), "Valentine's Day as 14 February"),
    "boxing day": (_fixed(12, 26), "Boxing Day as 26 December"),
}  # fmt: skip
# "over Christmas", "during Easter": the days around the holiday a reader means (one day was
# read, 25 December alone for "over Christmas 2025"), as days before and after its day, and
# the convention said. A holiday without a row here is its day alone, as "on" it.
AROUND: dict[str, tuple[int, int, str]] = {
    "christmas": (1, 1, "Christmas as 24 to 26 December (Christmas Eve to Boxing Day)"),
    "xmas": (1, 1, "Christmas as 24 to 26 December (Christmas Eve to Boxing Day)"),
    "easter": (2, 1, "Easter as Good Friday to Easter Monday (Western, Gregorian)"),
    "thanksgiving": (0, 3, "Thanksgiving as the United States' (the fourth Thursday of "
                     "November) to the Sunday after"),
    "new year": (1, 0, "New Year as 31 December to 1 January"),
}  # fmt: skip


# "Easter weekend 2025", "Labor Day weekend": the long weekend a holiday makes, as days
# before and after its day (it was not understood); a holiday on a fixed date falls on any
# day of the week, so its weekend ("Christmas weekend") stays not understood.
WEEKEND: dict[str, tuple[int, int, str]] = {
    "easter": (2, 1, "Easter weekend as Good Friday to Easter Monday (Western, Gregorian)"),
    "labor day": (2, 0, "Labor Day weekend as the Saturday to Labor Day, the United States' "
                  "(the first Monday of September)"),
    "memorial day": (2, 0, "Memorial Day weekend as the Saturday to Memorial Day, the United "
                     "States' (the last Monday of May)"),
    "thanksgiving": (0, 3, "Thanksgiving weekend as the United States' Thanksgiving (the "
                     "fourth Thursday of November) to the Sunday after"),
}  # fmt: skip
WEEKEND_NAMES = r"easter|labor\s+day|memorial\s+day|thanksgiving"


# "Over the holidays", "the Christmas break", "the holiday season": 24 December to 1 January
# (it was not understood; which holidays a reader means is stated with the answer).
SEASON = (1, 7, "the holidays as 24 December to 1 January (Christmas Eve to New Year's Day)")


def season(year: int) -> tuple[date, date]:
    """The end-of-year holidays beginning in `year` (`SEASON`)."""
    before, after, _ = SEASON
    on = DAYS["christmas"][0](year)
    return on - timedelta(days=before), on + timedelta(days=after)


def around(
    name: str, year: int, table: dict[str, tuple[int, int, str]] = AROUND
) -> tuple[date, date]:
    """The first and last days around a holiday in `year` (`AROUND`, or `WEEKEND`)."""
    before, after, _ = table.get(name, (0, 0, ""))
    on = DAYS[name][0](year)
    return on - timedelta(days=before), on + timedelta(days=after)


# The words naming each (patterns.HOLIDAY): "Easter Sunday", "Thanksgiving Day", "Valentine's".
NAMES = (
    r"christmas|xmas|new\s+year|easter(?:\s+(?:sunday|monday))?|good\s+friday"
    r"|thanksgiving(?:\s+day)?|labor\s+day|memorial\s+day|independence\s+day|halloween"
    r"|valentine(?:['\u2019]?s)?(?:\s+day)?|boxing\s+day"
)
_NAME = re.compile(rf"\b(?:{NAMES})\b", re.IGNORECASE)


def which(words: list[str]) -> str | None:
    """The holiday a phrase's words name (lower case, "'s" dropped), or None."""
    text = re.sub(r"\bnew years\b", "new year", " ".join(words)).replace("valentines", "valentine")
    for name in sorted(DAYS, key=len, reverse=True):
        if re.search(rf"(?<![\w]){name}(?![\w])", text):
            return name
    return None


def day(name: str, year: int, eve: bool) -> date:
    """The holiday's day in `year` (an eve: the day before; New Year's Eve closes `year`)."""
    if eve and name == "new year":
        return date(year, 12, 31)
    found = DAYS[name][0](year)
    return found - timedelta(days=1) if eve else found


def note(phrase: str) -> str | None:
    """The conventions of the holidays a phrase names, or None."""
    said = conventions(phrase)
    if said is None:
        return None
    eve = " and an eve as the day before" if re.search(r"\beve\b", phrase, re.I) else ""
    return f'"{phrase}" is read with {said}{eve} (UTC)'


def conventions(phrase: str) -> str | None:
    """ "Thanksgiving as the United States' (the fourth Thursday of November)", for each
    holiday the phrase names; None when it names none."""
    said: list[str] = []
    for found in _NAME.finditer(phrase):
        words = found.group().lower().replace("'s", "").replace("\u2019s", "").split()
        name = which(words)
        if name is not None and DAYS[name][1] not in said:
            said.append(DAYS[name][1])
    return ", ".join(said) if said else None
