"""The spans of a question worth looking up as known names, before it is read: the caller
(engine/resolving/handles.py) looks them up and hands what it found to `interpret`
(engine/reading/interpreter.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.domain import timecontext as tc
from engine.domain.text import composed
from engine.reading import brackets
from engine.reading import references as r
from engine.reading.asked import (
    first_nouns,
)
from engine.reading.interpretation import MAX_QUESTION
from engine.reading.pronouns import read_pronouns
from engine.reading.timeexpression import find_time


@dataclass(frozen=True, slots=True)
class HandleCandidate:
    """A span of the question that may be a known name: `size` tokens at [start, end)."""

    size: int
    start: int
    end: int
    text: str


def handle_candidates(question: str, now: datetime) -> list[HandleCandidate]:
    """The spans of `question` worth looking up as known names, longest first: the caller
    looks them up (skipping those inside a longer one found) and passes what it found to
    `interpret`. Read composed, as `interpret` reads it."""
    text = composed(question)[:MAX_QUESTION]
    unquoted = r.blank_quotes(text, r.quoted(text))
    tokens = r.free_tokens(unquoted, find_time(unquoted, tc.to_utc(now), []))
    first_nouns(tokens)  # "the first version of X": no name (as `interpret` reads it)
    read_pronouns(tokens)  # "his first commit": no name either (its windows took the probes)
    # A description's words are no part of another name ("werkzeug test" of "the werkzeug
    # test suite"); the description is looked up whole (a known name of its own is one).
    described = [
        HandleCandidate(sum(a <= t.start < b for t in tokens), a, b, text[a:b])
        for a, b in r.by_descriptions(text, tokens, None)
    ]
    # A name in brackets ("the debugger (werkzeug.debug)") is looked up first, whole.
    bracketed = [
        HandleCandidate(r.MAX_NGRAM + 1, a, b, text[a:b]) for a, b in brackets.candidates(text)
    ]
    windows = [
        HandleCandidate(size, a, b, text[a:b]) for _, size, (a, b) in r.handle_windows(text, tokens)
    ]
    # longest first, stable
    return sorted([*bracketed, *described, *windows], key=lambda c: -c.size)
