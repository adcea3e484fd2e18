"""Word rows about how big: the size of a subject (its lines of code now), not recorded here
(engine/reading/wordrules.py holds the rows).
"""

from __future__ import annotations

from engine.reading.vocabulary import CHANGE_VERBS, LINE_SIDES
from engine.reading.wordrow import At

# "how many lines of code are in attrs?", "the codebase in loc": a subject's size now
_LOC = frozenset({"loc", "sloc"})
SIZE_NOTE = (
    "the size of a subject (its lines of code) is not recorded here: the history gives the "
    'lines changed over a period ("how many lines changed in X in 2026?").'
)


def subject_size(a: At) -> bool:
    """ "How many lines of code are in attrs?": its size, never the lines changed over the
    default year, which answered it (21,993 lines changed in attrs). Not with a word of
    change ("lines of code added to X in May" are changed lines)."""
    of_code = a.word in {"line", "lines"} and a.words[a.i + 1 : a.i + 3] == ["of", "code"]
    changed = (CHANGE_VERBS | LINE_SIDES).intersection(a.words)
    return (of_code or a.word in _LOC) and not changed
