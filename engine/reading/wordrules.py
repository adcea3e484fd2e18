"""Least-first rankings: "who made the fewest commits to core.py?", "which module had the
fewest commits?", "who changed X the least?". Not computed: a subject's contributor facts
hold its busiest people only (the quietest are not among them), and a ranking of modules
counts those that changed (the ones with no commit at all, the fewest, are not listed). The
most-first answer the question got before is the opposite of what it asks, so the question
ends, naming the word (engine.meaning). "At least" is a threshold, not computed either."""

from __future__ import annotations

LEAST = frozenset({"fewest", "least", "lowest", "quietest"})
NOTE = (
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


def note(word: str, before: str) -> str | None:
    """The limitation of `word` when it asks for the fewest first, or of "at least"."""
    if word in LEAST and before == "at":
        return THRESHOLD
    return NOTE if word in LEAST else None
