"""Days of the week: "how many commits did X make on weekends?". Not computed: commits are
counted over whole windows, never by the day of the week they fall on (by author time in UTC
or in the author's own offset: neither is kept apart), so the answer was every day's count
with "weekends" said not understood beside it. The question ends, naming the word
(engine.meaning). "The weekend" alone is a time phrase not understood (engine.timephrases)."""

from __future__ import annotations

_DAYS = frozenset({"weekends", "weekdays", "weekday"})
NOTE = (
    "counting by day of the week (weekends or weekdays) is not computed: counts are of whole "
    "windows, every day of them, so the answer would include the days not asked about. Ask "
    "for the whole window instead."
)


def note(word: str) -> str | None:
    return NOTE if word in _DAYS else None
