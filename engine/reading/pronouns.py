"""Pronouns standing for a person the question names ("his", "he", "him"): "When did davidism make
his first commit to click?" is davidism's first commit ("his" was said not understood, and the
question ended). The word is read here, never tried as a name; whom it stands for is decided once
the subjects are known (engine.resolving.pronouns): the one person named, else the question ends
naming it. "their" is a stop word already (one person's or several people's).
"""

from __future__ import annotations

from engine.reading.references import Token

POSSESSIVES = frozenset({"his", "her", "hers"})
# "Kevin Deldycke: how many commits did he make in 2025?": "he" is the person named, as "his"
# is ("he" was tried as a name, naming no one, and the question ended on it). "they",
# "them" are stop words (one person or several).
PERSONAL = frozenset({"he", "she", "him", "himself", "herself"})
PRONOUNS = POSSESSIVES | PERSONAL


def read_pronouns(tokens: list[Token]) -> tuple[str, ...]:
    """The pronouns among the free tokens, as written (lower case), taken."""
    found: list[str] = []
    for token in tokens:
        if token.free and token.norm in PRONOUNS:
            token.free = False
            found.append(token.norm)
    return tuple(dict.fromkeys(found))
