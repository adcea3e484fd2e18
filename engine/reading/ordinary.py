"""Ordinary words a question is written with that ask nothing of their own, as rows: a
condition framing it ("If so, who?"), the framing of its measure ("in terms of commits"),
polite words ("kindly", "thanks"), and the noun of "on what date" (read as "when").

Each was tried as a name when nothing else read it, and the question ended on it: "Did anyone
commit between Christmas Eve 2023 and New Year's Day? If so who?" ended on "If" (a name naming
no one), "Which month of 2025 was the busiest in terms of commits?" on "terms", "Who made the
very first commit to click, and on what date?" on "date". They are stop words
(engine.reading.vocabulary.STOP_WORDS): never a name, never said unread; the word rules still
read every free word (engine.reading.meaning), so a stop word changing what is asked ("not",
"except", "only") is still read or named there. A word listed here must ask nothing an answer
without it leaves out: a word that narrows or turns a question ("exactly", "average", "per")
is never a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # engine.reading.vocabulary imports this module, tokens imports vocabulary
    from engine.reading.tokens import Token
    from engine.reading.wordrow import At


@dataclass(frozen=True, slots=True)
class OrdinaryRow:
    """Words that ask nothing of their own, and why an answer without them is the same."""

    words: tuple[str, ...]
    why: str


ORDINARY_ROWS = (
    OrdinaryRow(
        ("if", "whether"),
        'a condition framing the question ("If so, who?", "whether anyone committed"): what '
        "it asks is read from the rest, and an answer with nothing found says so",
    ),
    OrdinaryRow(
        ("terms",),
        '"in terms of commits": the measure named after it is read by the fact phrases',
    ),
    OrdinaryRow(
        ("kindly", "pls", "plz", "thanks", "thank", "cheers"),
        "polite words: they ask nothing",
    ),
    OrdinaryRow(
        ("n",),
        'chat shorthand for "and" ("who deleted tests/test_utils.py n when"): it joins what '
        "the question asks, as a plain \"and\" there does",
    ),
    OrdinaryRow(
        ("exact",),
        '"the exact date", "the exact number": the figures given are exact already',
    ),
)
ORDINARY = frozenset(word for row in ORDINARY_ROWS for word in row.words)

# "On what date did X last commit?", "which date was the first commit to X?": the question
# asks when, and is read as if it said "when" (the date and second of a change are what a
# "when" answer gives). Not "which month", "what day": those rank or name periods.
WHEN_NOUNS = frozenset({"date", "dates"})
_ASKING = frozenset({"what", "which"})


def read_when(tokens: list[Token]) -> list[Token]:
    """ "what date", "which date" among the free tokens: the question word is read as
    "when" (its `norm` made so, still free) and the noun taken; the nouns taken."""
    taken = []
    for left, right in pairwise(tokens):
        if left.free and right.free and left.norm in _ASKING and right.norm in WHEN_NOUNS:
            left.norm = "when"
            right.free = False
            taken.append(right)
    return taken


# "the requests package, wherever it lived at the time": what is named across its moves, as
# every module and package is read (its commits under its earlier paths counted with it).
# "wherever" and "lived" were said not understood and the question ended. Said beside the
# answer (a word row of engine/reading/wordrules.py), from "wherever" to the clause's end.
MOVES_NOTE = (
    "read as what is named across its moves: the commits made under its earlier paths are "
    "counted with it (renames are followed, as for every module and package named)."
)


def moves(a: At) -> bool:
    return a.word in ("wherever", "whereever")


def moves_extent(a: At) -> tuple[int, int]:
    """From "wherever" to the end of its clause (a comma, a bracket or the question's end)."""
    start = a.free[a.i].start
    ends = [i for i in (a.text.find(c, start) for c in ",;)?") if i >= 0]
    end = min(ends, default=len(a.text))
    return start, len(a.text[:end].rstrip())
