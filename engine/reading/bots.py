"""Bots left out of a question: "top contributors excluding bots", "who committed most
without the bots", "no bots", "except bot accounts", "non-bot contributors", "humans only".

Only the reading is here: the words are consumed (never a name, never unread: "bots" ended
the question as naming nothing known), and the phrase kept verbatim. Which people are bots
is engine.domain.bots; a ranking of people leaves them out (engine/questions/who.py), so does
a count of commits or people (engine/questions/count.py), and anything else asked with bots
left out ends, said, since counting them in would answer another question
(engine/reading/interpreter.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # engine.reading.references reads BOT_WORDS: no import back at run time
    from engine.reading.references import Token

BOT_WORDS = frozenset({"bot", "bots"})
_WITHOUT = frozenset(
    {"excluding", "exclude", "excluded", "without", "except", "ignoring", "ignore", "minus",
     "no", "non", "not", "skipping", "skip", "sans", "omitting", "omit", "but"}
)  # fmt: skip
_BETWEEN = frozenset({"the", "any", "all"})
_AFTER = frozenset({"account", "accounts", "users", "authors", "commits", "identities"})
_HUMANS = frozenset({"human", "humans"})
_ONLY = frozenset({"only", "alone"})
_PEOPLE = frozenset(
    {"contributor", "contributors", "committer", "committers", "author", "authors", "people"}
    | {"developer", "developers", "devs", "commits", "changes", "users", "accounts"}
)
NOTE = (
    "Bots are left out: people whose name ends with [bot] or whose last word is Bot "
    "(dependabot[bot], pre-commit-ci[bot]); their commits are not ranked."
)


def read_bots(tokens: list[Token], readable: list[Token] | None = None) -> tuple[int, int] | None:
    """Where the question leaves bots out (the span of its words), those words consumed:
    neither a name nor unread. `readable`: a copy of the tokens (by position) the words are
    taken in too ("except bots" is never a negation)."""
    taken = _taken(tokens)
    if not taken:
        return None
    for i in taken:
        tokens[i].free = False
        if readable is not None and i < len(readable):
            readable[i].free = False
    return tokens[min(taken)].start, tokens[max(taken)].end


def _taken(tokens: list[Token]) -> list[int]:
    """The positions of the words leaving bots out; [] when none do ("commits by bots" asks
    for the bots' own: not read here)."""
    words = [t.norm if t.free else "" for t in tokens]
    for i, word in enumerate(words):
        parts = word.split()  # "non-bot" is one token
        if len(parts) == 2 and parts[0] == "non" and parts[1] in BOT_WORDS:
            return [i]
        if word in _HUMANS and i + 1 < len(words) and tokens[i + 1].norm in _PEOPLE:
            return [i]  # "how many human contributors" (a fact phrase's word: read or not)
        if word in _HUMANS:  # "humans only", "only humans"
            if i + 1 < len(words) and words[i + 1] in _ONLY:
                return [i, i + 1]
            if i and words[i - 1] in _ONLY:
                return [i - 1, i]
        if word not in BOT_WORDS:
            continue
        j = i - 1
        while j >= 0 and words[j] in _BETWEEN:
            j -= 1
        counting = j >= 1 and words[j] == "counting" and words[j - 1] == "not"
        if j < 0 or not (words[j] in _WITHOUT or counting):
            return []
        first = j - 1 if counting else j
        last = i + 1 if i + 1 < len(words) and words[i + 1] in _AFTER else i
        return list(range(first, last + 1))
    return []


def bots_elsewhere(phrase: str) -> str:
    """What a question leaving bots out says when it asks no ranking of people."""
    return (
        f'"{phrase}": leaving bots out is computed only for a ranking of people ("top '
        'contributors excluding bots") and a count of commits or people ("how many commits '
        'excluding bots"); answering without it would count the bots in, another question.'
    )
