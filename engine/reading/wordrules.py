"""Word rules of the reader that are one note or one small table each: words that ask for
something no rule here computes (a least-first ranking, a day of the week), and verbs read as
another one. engine.reading.meaning says them beside the answer or ends the question with them.

Least-first rankings: "who made the fewest commits to core.py?", "which module had the
fewest commits?", "who changed X the least?". Not computed: a subject's contributor facts
hold its busiest people only (the quietest are not among them), and a ranking of modules
counts those that changed (the ones with no commit at all, the fewest, are not listed). The
most-first answer the question got before is the opposite of what it asks, so the question
ends, naming the word. "At least" is a threshold, not computed either.

Days of the week: "how many commits did X make on weekends?". Not computed: commits are
counted over whole windows, never by the day of the week they fall on (by author time in UTC
or in the author's own offset: neither is kept apart), so the answer was every day's count
with "weekends" said not understood beside it. The question ends, naming the word. "The
weekend" alone is a time phrase not understood (engine.reading.time.phrases).

Verbs read as another one: what git records is who authored a commit, and the commits of the
branch imported. "pushed" is read as authored: who pushed a commit is not in the history.
"landed" is read as committed: "how many commits landed in 2025?" named "landed" as not
understood; the commits of the branch imported are the ones that landed, counted by author
time (no landing time is kept).
"""

from __future__ import annotations

from engine.reading.vocabulary import LANDS

LEAST = frozenset({"fewest", "least", "lowest", "quietest"})
LEAST_NOTE = (
    "a least-first ranking (the fewest commits, changes or lines) is not computed: answers "
    "rank the most active first, and subjects or people with no change in the window are "
    "not listed, so the answer would be the opposite of what is asked. Ask for one subject's "
    "or person's count instead."
)

# "who made at least 5 commits to core.py?" ranked everyone ("least 5" said not understood).
THRESHOLD = (
    'with "at" before it, a threshold ("at least 5 commits") is not computed: the answer would '
    "list or count everyone."
)

_DAYS = frozenset({"weekends", "weekdays", "weekday"})
WEEKDAY_NOTE = (
    "counting by day of the week (weekends or weekdays) is not computed: counts are of whole "
    "windows, every day of them, so the answer would include the days not asked about. Ask "
    "for the whole window instead."
)

PUSHES = frozenset({"push", "pushed", "pushes", "pushing"})
PUSH_NOTE = (
    "read as authored: who pushed a commit is not in the history, only who authored it "
    "(a push is not recorded by git)."
)
LAND_NOTE = (
    "read as committed: every commit imported is in the history of the branch imported, so "
    "it has landed; commits are counted by their author time (when each one landed, its merge "
    "or commit time, is not recorded)."
)
READ_AS = {**dict.fromkeys(PUSHES, PUSH_NOTE), **dict.fromkeys(LANDS, LAND_NOTE)}


def least_note(word: str, before: str) -> str | None:
    """The limitation of `word` when it asks for the fewest first, or of "at least"."""
    if word in LEAST and before == "at":
        return THRESHOLD
    return LEAST_NOTE if word in LEAST else None


def weekday_note(word: str) -> str | None:
    """The limitation of a word asking to count by day of the week."""
    return WEEKDAY_NOTE if word in _DAYS else None
