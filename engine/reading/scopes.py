"""The scopes of a question: two references next to each other, joined by nothing, a
possessive or "of/in/inside/within/from/under (the)", are a scope: the one may name a part of
the other ("starlette middleware", "click's tests", "the tests of click", "routing in
starlette"). Which is the container is for the resolver to find (engine.resolving.subjects): only a
repository holds modules. The references themselves are found by engine/reading/references.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from engine.domain.text import normalise
from engine.reading.references import Token
from engine.reading.vocabulary import EXCLUDING, KIND_WORDS

_CONTAINER_WORDS = r"(?:repo|repository|project|package|module|codebase)"
# Between two references: the first holds the second ("click tests", "click's tests").
_HOLDER_FIRST = re.compile(rf"^(?:{_CONTAINER_WORDS}\s*)?(?:['\u2019]s?)?$")
# Between two references: the second holds the first ("tests of click", "routing in starlette").
_HOLDER_SECOND = re.compile(
    rf"^(?:{_CONTAINER_WORDS}\s+)?(?:of|in|inside|within|from|under)(?:\s+the)?$"
)


@dataclass(frozen=True, slots=True)
class Scope:
    """Two references of which one may name a part of the other: `phrase` is the question's
    text from the first to the last, `outer` the one said to hold the other."""

    phrase: str
    outer: str
    inner: str
    # Said before or after the question, holding every other reference (one scope each).
    prefix: bool = False
    # Joined by nothing, not even a possessive ("the testing helpers"): one phrase.
    bare: bool = False


def scopes(text: str, spans: list[tuple[int, int]], tokens: list[Token]) -> list[Scope]:
    """Neighbouring references of which one may hold the other (see the module docstring);
    the phrase runs to a kind word right after the second ("click's testing module")."""
    out = []
    for (a0, a1), (b0, b1) in pairwise(sorted(spans)):
        words = " ".join(text[a1:b0].lower().split())
        after = next((t for t in tokens if t.start >= b1), None)
        end = b1
        if after is not None and after.norm in KIND_WORDS and not text[b1 : after.start].strip():
            end = after.end
        if _HOLDER_FIRST.match(words):
            bare = not text[a1:b0].strip()
            out.append(Scope(text[a0:end], text[a0:a1], text[b0:b1], bare=bare))
        elif _HOLDER_SECOND.match(words):
            out.append(Scope(text[a0:end], text[b0:b1], text[a0:a1]))
    paired = {(s.outer, s.inner) for s in out}
    return [*out, *_said_where(text, sorted(spans), paired, tokens)]


_PREPOSITION = r"(?:in|for|within|inside|on|about|at)\s+(?:the\s+)?"
# "requests: ...", "in requests, ...", "In the requests repo - ...": where the question is asked.
_BEFORE = re.compile(rf"^\W*(?:{_PREPOSITION})?$", re.IGNORECASE)
_AFTER = re.compile(rf"^\s*(?:{_CONTAINER_WORDS}\s*)?(?::|,|\s-\s|\u2014|\u2013)", re.IGNORECASE)
_PREPOSED = re.compile(rf"^\s*(?:{_CONTAINER_WORDS}\s*)?,", re.IGNORECASE)
# "..., in requests?", "... (in requests)": said after the question.
_TRAILING_BEFORE = re.compile(rf"(?:,\s*|\(\s*){_PREPOSITION}$", re.IGNORECASE)
# "... last changed in click?": the last of two references, after "in" that ends the question
_ENDING_IN = re.compile(r"\s(?:in|within|inside)\s+(?:the\s+)?$", re.IGNORECASE)
_TRAILING_AFTER = re.compile(rf"^\s*(?:{_CONTAINER_WORDS})?\s*\)?\s*[?.!]*\s*$", re.IGNORECASE)


def _ends_read(text: str, end: int, tokens: list[Token]) -> bool:
    """Nothing but words already read (a time phrase: "... in click in 2025?") and the
    question's end follow `end`."""
    rest = [t for t in tokens if t.start >= end]
    last = max((t.end for t in rest), default=end)
    return all(not t.free for t in rest) and bool(_TRAILING_AFTER.match(text[last:]))


def _said_where(
    text: str, spans: list[tuple[int, int]], paired: set[tuple[str, str]], tokens: list[Token]
) -> list[Scope]:
    """The reference said before the question ("requests: who touched models.py?", "in
    requests, ...") or after it (", in requests?") as holding each other reference: a comma
    alone after the first ("core.py, parser.py") lists, it does not place, unless a
    preposition comes before it ("in requests, ...")."""
    if len(spans) < 2:
        return []
    (a0, a1), (z0, z1) = spans[0], spans[-1]
    before, after = text[:a0], text[a1 : spans[1][0]]
    where: tuple[int, int] | None = None
    if _BEFORE.match(before) and _AFTER.match(after):
        said = bool(before.strip()) or not _PREPOSED.match(after)
        where = spans[0] if said else None
    elif _TRAILING_BEFORE.search(text[:z0]) and _TRAILING_AFTER.match(text[z1:]):
        where = spans[-1]
    elif len(spans) == 2 and _ENDING_IN.search(text[:z0]) and _ends_read(text, z1, tokens):
        # "when was shell completion last changed in click?": click's module, its last
        # change; the two were read apart and the repository's newest change answered
        where = spans[-1]
    if where is None:
        return []
    outer = text[where[0] : where[1]]
    return [
        Scope(text[min(a, where[0]) : max(b, where[1])], outer, text[a:b], prefix=True)
        for a, b in spans
        if (a, b) != where and (outer, text[a:b]) not in paired
    ]


def excluding(text: str) -> tuple[str, str] | None:
    """The word leaving a subject out ("besides", "apart from"), and what follows it."""
    found = EXCLUDING.search(f"{text.lower()} ")
    return None if found is None else (found.group(1), normalise(text[found.end() :]))
