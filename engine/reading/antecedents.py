"""A pronoun standing for what was asked just before it ("them", "those", "these"): after a
colon or dash in the same question ("show me commits touching sansio/http.py since march:
who made them?"), or as the whole of a session's next question ("who made them?" after
"show me commits touching sansio/http.py since march").

Read whole, the first part's words decided what was asked: werkzeug's "show me commits
touching sansio/http.py since march: who made them?" listed the commits, "how many commits
to sansio/http.py in 2025: list them" gave the count; in a session "who made them?" ended
saying "them" stood for nothing named. Now the question after the mark is the one asked, with
the pronoun read as the first part's things: "who made commits touching sansio/http.py since
march?"; the answer says so (`Followed.note`).

Only a question of its own words naming nothing else is completed (every word a stop word or
a change verb: "who made them?", "list them", "who authored those?"), and only after a first
part naming things, no question of its own ("who changed X?: list them": "them" may be the
people, left as asked). "it" is left as asked (engine.reading.pronouns, the ring).
"""

from __future__ import annotations

import re

from engine.reading.followups import Followed, Previous
from engine.reading.vocabulary import CHANGE_VERBS, STOP_WORDS

PRONOUNS = frozenset({"them", "those", "these"})
_MARK = re.compile(r"\s*(?::|;|\s[-\u2013\u2014]{1,2}\s|\.\s)\s*")
# What opens a request for things ("show me", "list all the", "how many"): left out of the
# things the pronoun stands for.
_OPENS = re.compile(
    r"^\s*(?:(?:please|pls)\s+)?(?:(?:show|give|get|find|tell)(?:\s+me)?|list|"
    r"(?:what|which)\s+(?:are|were)|how\s+many)\s+(?:(?:all\s+)?(?:of\s+)?the\s+|all\s+)?",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|did|does|do|has|have"
    r"|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w']+")
_END = re.compile(r"[\s?.!]+$")
_MOST_WORDS = 6  # "who were they all made by?": a short question of its own


def followed(question: str, previous: Previous | None) -> Followed | None:
    """The question after a colon (or dash) asked of what the first part names, else a
    session's question of a pronoun alone asked of the previous question; None when neither
    (see the module docstring)."""
    for mark in _MARK.finditer(question):
        first, then = question[: mark.start()], question[mark.end() :]
        asked = _completed(then, first)
        if asked is not None:
            note = (
                f'"{_pronoun(then)}" after "{first.strip()}" was read as what it names: '
                f'answered as "{asked}".'
            )
            return Followed(asked, note)
    if previous is None:
        return None
    asked = _completed(question, previous.question)
    if asked is None:
        return None
    note = (
        f'"{question.strip()}" follows the previous question, "{previous.question}": '
        f'"{_pronoun(question)}" was read as what it named, answered as "{asked}".'
    )
    return Followed(asked, note)


def _completed(then: str, first: str) -> str | None:
    """`then` with its pronoun in place of the things `first` names, or None."""
    words = [w.lower() for w in _WORD.findall(then)]
    said = [w for w in words if w in PRONOUNS]
    if len(said) != 1 or len(words) > _MOST_WORDS:
        return None
    if any(w not in STOP_WORDS and w not in CHANGE_VERBS for w in words if w not in PRONOUNS):
        return None
    things = _END.sub("", first[_opening(first) :]).strip(" ,")
    if not things or _ASKING.match(things) or len(_WORD.findall(things)) < 2:
        return None
    found = re.search(rf"\b{said[0]}\b", then, re.IGNORECASE)
    assert found is not None
    body = _END.sub("", then)
    ends = then[len(body) :].strip()
    return f"{body[: found.start()]}{things}{body[found.end() :]}{ends}".strip()


def _opening(first: str) -> int:
    opened = _OPENS.match(first)
    return 0 if opened is None else opened.end()


def _pronoun(text: str) -> str:
    words: list[str] = _WORD.findall(text)
    return next(w for w in words if w.lower() in PRONOUNS)
