"""Word rows asking for a figure per period or per file, where one total for the window is
computed: a breakdown by period ("commits per day", "lines by month"), periods ranked
("busiest day", "the month with the most lines"), periods with changes counted ("how many
days had commits"), files counted ("how many files changed"). Months, quarters and weeks
ranked by commits, and commits by month or week, are read before these
(engine/reading/rankedmonths.py, engine/reading/periodcounts.py); the rows:
engine/reading/wordrules.py.
"""

from __future__ import annotations

from itertools import pairwise

from engine.reading.verbs import BUSIEST, CHANGE_NOUNS
from engine.reading.vocabulary import CHANGE_VERBS
from engine.reading.wordrow import At

# "by month", "broken down by quarter": a breakdown too ("commits by month in 2025" was
# answered with the year's total, unsaid).
PER = frozenset({"per", "each", "every", "a", "by"})
_PERIODS = frozenset({"day", "week", "month", "quarter", "year", "days", "weeks", "months"})
_PERIODIC = frozenset({"daily", "weekly", "monthly", "quarterly", "yearly", "annually"})
# "the busiest week", "which month had the most commits": periods ranked (PERIODS_NOTE).
_PERIOD_NOUNS = _PERIODS | {"quarters", "years", "weekday", "hour", "hours", "season"}
_MOST = BUSIEST | {"most", "highest", "biggest", "peak"}
COUNTED_PERIODS_NOTE = (
    "a count of the days, weeks or months that had changes is not answered here: the count "
    "this question gets is of commits over the whole window, another figure. Ask how many "
    'commits the window had ("how many commits in August?"), or which month had the most '
    "commits."
)
PERIODS_NOTE = (
    "a ranking of periods other than months by commits (or quarters or weeks; the busiest day "
    "or hour, the month with the most lines) is not computed: counts are of one whole window, "
    "never compared period by period, so the answer would be the window's total or its health. Ask "
    'about each period in turn ("how many commits to X in July?"), or which month had the '
    "most commits."
)
# "commits by month in 2024 vs 2025": the two periods' totals are compared (engine.reading.
# interpreter ends the breakdown so, never answering the comparison alone).
PER_COMPARED_NOTE = (
    "a breakdown by month or week of periods compared is not computed (their totals are): "
    'ask for one period\'s at a time ("commits by month in 2025").'
)
PER_NOTE = (
    "a breakdown by this period, or of another figure than commits, is not computed (commits "
    'by calendar month, quarter or week are: "commits by quarter in 2025"), only one total for '
    "the whole window, of at most 400 days: ask for each period in turn (\"in 2024\", \"in March "
    '2025").'
)


def ranked_periods(a: At) -> bool:
    """ "busiest week in requests this summer", "the most active month", "which month had
    the most commits?", "the week with the most commits": periods ranked by their changes. It
    was answered as the subject's health over the whole window, or ended as asking nothing;
    "month with the most commits in 2025" was answered with the year's commits, unsaid."""
    if a.word not in _MOST:
        return False
    nxt = a.words[a.i + 2] if a.after == "active" and a.i + 2 < len(a.words) else a.after
    # "which week ...", also after words opening the question ("Looking at commits, which ...")
    opens = any(
        w in ("which", "what") and after in _PERIOD_NOUNS for w, after in pairwise(a.words[: a.i])
    )
    return nxt in _PERIOD_NOUNS or opens or _with_most(a.words, a.i) is not None


def _with_most(words: list[str], i: int) -> int | None:
    """Where the period of "the week with the most" stands, before "with (the)" and the word
    at `i`; None when none does."""
    j = i - 1 if i > 0 and words[i - 1] == "the" else i
    if j >= 2 and words[j - 1] == "with" and words[j - 2] in _PERIOD_NOUNS:
        return j - 2
    return None


# What may qualify the periods counted ("how many distinct days", "how many active days").
_QUALIFYING = frozenset(
    {"distinct", "different", "unique", "separate", "individual", "active", "calendar"}
    | {"working", "whole", "actual"}
)


def periods_counted(a: At) -> bool:
    """ "how many days in aug had commits", "how many weeks had no commits", "how many
    distinct days", "the number of active days": the periods with changes counted. It was
    answered with the window's commits (32 for August), a figure of another unit, unsaid (z34b
    a14); "how many active days did werkzeug have" with its people. "how many days ago" asks
    no count of periods."""
    return a.word in _PERIOD_NOUNS and a.after != "ago" and _counting_at(a) is not None


# What a count of files or modules counts ("how many files did X touch?").
_FILE_NOUNS = frozenset({"files", "modules", "packages", "folders", "directories", "paths"})
FILES_COUNTED_NOTE = (
    "a count of the files or modules changed is not computed (only commits, lines and "
    'people are counted): ask "which files changed the most in X ...?" for a ranking, '
    "which says how many had commits."
)


def files_counted(a: At) -> bool:
    """ "How many files changed in click in 2026?", "how many different files did Kevin
    touch?", "the number of modules David changed", "how many test files changed in
    requests in may": the files counted. They were answered with the commits (193 to click;
    "5 commits to tests" for 4 test files), a figure of another unit, unsaid."""
    return a.word in _FILE_NOUNS and _files_counting_at(a) is not None


def _files_counting_at(a: At) -> int | None:
    """Where the counting word of the files at `a.i` starts, in the question's tokens: right
    before them (qualifiers aside: "many different files"), or with one word of what they
    are between ("many test files", "many python files", "many changelog.d files": a name
    too), never a word of change or another unit ("how many commits touched files")."""
    at = next(k for k, t in enumerate(a.tokens) if t.start == a.free[a.i].start)
    between = False
    for j in range(at - 1, -1, -1):
        word = a.tokens[j].norm
        if word == "many":
            return a.tokens[j].start
        if j >= 1 and word == "of" and a.tokens[j - 1].norm == "number":
            return a.tokens[j - 1].start
        if word in _QUALIFYING:
            continue
        if between or word in _NOT_WHAT_FILES:
            return None
        between = True
    return None


# Words between "many" and "files" that say no kind of file: the count is of something else.
_NOT_WHAT_FILES = frozenset(CHANGE_VERBS | CHANGE_NOUNS | {"commits", "commit", "lines", "line"})


def files_extent(a: At) -> tuple[int, int]:
    """ "many files", "many test files", "number of python files": from the counting word
    through the files."""
    at = _files_counting_at(a)
    return (a.free[a.i].start if at is None else at), a.free[a.i].end


def _counting_at(a: At) -> int | None:
    """Where the counting word ("many", "number of") of the periods at `a.i` starts."""
    j = a.i - 1
    while j >= 0 and a.words[j] in _QUALIFYING:
        j -= 1
    if j >= 0 and a.words[j] == "many":
        return j
    if j >= 1 and a.words[j - 1 : j + 1] == ["number", "of"]:
        return j - 1
    return None


def many_extent(a: At) -> tuple[int, int]:
    """ "many days", "many distinct days", "number of days": the counting words and the
    unit."""
    at = _counting_at(a)
    return a.free[a.i - 1 if at is None else at].start, a.free[a.i].end


def periods_extent(a: At) -> tuple[int, int]:
    """ "busiest week", "most active month", "week with the most": through the period; else
    the word alone."""
    if (period := _with_most(a.words, a.i)) is not None:
        return a.free[period].start, a.free[a.i].end
    ahead = 2 if a.after == "active" else 1
    if a.i + ahead < len(a.free) and a.words[a.i + ahead] in _PERIOD_NOUNS:
        return a.free[a.i].start, a.free[a.i + ahead].end
    return a.word_only()


def per_period(a: At) -> bool:
    return (a.word in PER and a.after in _PERIODS) or a.word in _PERIODIC
