"""The row of a word rule and the word in its place it reads: engine/reading/wordrules.py holds
the rows, engine.reading.meaning runs them over the question's free words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.reading import references as r
from engine.reading.vocabulary import (
    Intent,
)


@dataclass(frozen=True, slots=True)
class At:
    """One free word of the question in its place, as the word rows read it."""

    text: str
    free: list[r.Token]
    i: int
    word: str  # "not" for the "t" of "hasn't"
    before: str
    after: str
    words: list[str]
    intent: Intent
    named: bool  # the question names a subject
    tokens: list[r.Token]
    asker: bool  # "who should I ask ...?" (engine.reading.meaning reads it)

    def through_next(self) -> tuple[int, int]:
        return self.free[self.i].start, self.free[self.i + 1].end

    def around(self) -> tuple[int, int]:
        return self.free[self.i - 1].start, self.free[self.i + 1].end

    def word_only(self) -> tuple[int, int]:
        return self.free[self.i].start, self.free[self.i].end


@dataclass(frozen=True, slots=True)
class WordRow:
    """One rule for a word that changes what a question asks: when it `holds`, the word
    (or the phrase `extent` spans) is said with `note`; `ends`: answering without it would
    answer another question, so the question ends (otherwise said beside the answer). A
    row with no note reads the word and says nothing ("who should I ask": "I")."""

    name: str
    holds: Callable[[At], bool]
    note: str | None
    ends: bool = True
    extent: Callable[[At], tuple[int, int]] | None = None
    said: Callable[[At], str] | None = None  # the note, when it names what the word read as
