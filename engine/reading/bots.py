"""Bots left out of a question: "top contributors excluding bots", "who committed most
without the bots", "no bots", "except bot accounts", "non-bot contributors", "humans only",
"how many humans"; humans and bots side by side ("bots vs humans", "humans and how many
bots": the count less the bots', theirs said beside);
and bots asked about as a kind of author: "how many bot commits in attrs in 2025", "commits
by bots", "which bots committed" (`read_bots_only`).

Only the reading is here: the words are consumed (never a name, never unread: "bots" ended
the question as naming nothing known), and the phrase kept verbatim. Which people are bots
is engine.domain.bots; a ranking of people leaves them out (engine/questions/who.py), so does
a count of commits or people (engine/questions/count.py), and anything else asked with bots
left out ends, said, since counting them in would answer another question
(engine/reading/interpreter.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.domain.facts import FactKind
from engine.reading import meaning
from engine.reading.vocabulary import BOT_WORDS, HUMAN_WORDS, Intent

if TYPE_CHECKING:  # engine.reading.references reads BOT_WORDS: no import back at run time
    from engine.reading.references import Token

_WITHOUT = frozenset(
    {"excluding", "exclude", "excluded", "without", "except", "ignoring", "ignore", "minus",
     "no", "non", "not", "skipping", "skip", "sans", "omitting", "omit", "but"}
)  # fmt: skip
# What a count leaving bots out, or of the bots' own part, is answered for: commits and
# people (engine/questions/count.py, engine/questions/botsown.py).
BOTS_COUNTED = frozenset({FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS})
_BETWEEN = frozenset({"the", "any", "all"})
_AFTER = frozenset({"account", "accounts", "users", "authors", "commits", "identities"})
# The words between humans and bots asked side by side ("bots vs humans", "humans and how
# many bots"; engine/reading/bots._split).
_JOINING = frozenset({"vs", "v", "versus", "and", "or", "against", "how", "many", "the", "by"})
# What "how many bot ..." counts when it is not the bots ("how many bot commits").
_OWN_COUNTED = frozenset({"commit", "commits", "change", "changes", "line", "lines"})
_ONLY = frozenset({"only", "alone"})
_PEOPLE = frozenset(
    {"contributor", "contributors", "committer", "committers", "author", "authors", "people"}
    | {"developer", "developers", "devs", "commits", "changes", "users", "accounts"}
)
ONLY_NOTE = (
    "Bots are people whose name ends with [bot] or whose last word is Bot (dependabot[bot], "
    "pre-commit-ci[bot]); only their commits are counted, each bot named."
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


def outside(tokens: list[Token], at: tuple[int, int] | None) -> list[Token]:
    """The tokens outside the words leaving bots out (`read_bots`' span): they ask nothing of
    the question's intent. "excluding bots, top 5 committers in 2025" opens with the people
    asked for, as "top 5 committers in 2025" does; read with "excluding" first, it was a
    status and ended (z38a R1's class)."""
    return [t for t in tokens if at is None or not at[0] <= t.start < at[1]]


def _taken(tokens: list[Token]) -> list[int]:
    """The positions of the words leaving bots out; [] when none do ("commits by bots" asks
    for the bots' own: not read here)."""
    words = [t.norm if t.free else "" for t in tokens]
    split = _split(tokens, words)
    if split:
        return split
    for i, word in enumerate(words):
        parts = word.split()  # "non-bot" is one token
        if len(parts) == 2 and parts[0] == "non" and parts[1] in BOT_WORDS:
            return [i]
        if word in HUMAN_WORDS and i + 1 < len(words) and tokens[i + 1].norm in _PEOPLE:
            return [i]  # "how many human contributors" (a fact phrase's word: read or not)
        if word in HUMAN_WORDS:  # "humans only", "only humans"
            if i + 1 < len(words) and words[i + 1] in _ONLY:
                return [i, i + 1]
            if i and words[i - 1] in _ONLY:
                return [i - 1, i]
            if words[max(i - 2, 0) : i] == ["how", "many"]:
                return [i]  # "how many humans committed": the people, bots left out
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


def _split(tokens: list[Token], words: list[str]) -> list[int]:
    """The positions of humans and bots asked side by side ("bots vs humans", "humans and
    bots", "how many humans and how many bots"): the count with bots left out, which says
    the bots' part beside it (engine/questions/count.without_bots), is both figures. "humans"
    was not understood (z41b: 4 of 4 such questions refused)."""
    for i, word in enumerate(words):
        if word not in HUMAN_WORDS and word not in BOT_WORDS:
            continue
        other = BOT_WORDS if word in HUMAN_WORDS else HUMAN_WORDS
        for j in range(i + 1, min(i + 5, len(words))):
            if words[j] in other:
                return list(range(i, j + 1))
            if tokens[j].norm not in _JOINING:
                break
    return []


def split_asked(phrase: str) -> bool:
    """Whether the words read by `read_bots` ask humans and bots side by side."""
    words = set(phrase.lower().replace(":", " ").split())
    return bool(words & HUMAN_WORDS) and bool(words & BOT_WORDS)


@dataclass(frozen=True, slots=True)
class BotsAsked:
    """Where the bots' own part is asked, and whether the bots themselves are counted ("how
    many bots ...": not their commits) or listed ("which bots ...": who of them)."""

    start: int
    end: int
    counted: bool
    listed: bool


def read_bots_only(tokens: list[Token], readable: list[Token] | None = None) -> BotsAsked | None:
    """The word asking for the bots' own part, when "bot" or "bots" is left after the words
    leaving bots out were read (read_bots) and after the names known here (a bot named in
    full, "Step Security Bot", is that one): the word consumed, never a name. It was read as
    one ("how many bot commits in attrs in 2025" asked which of dependabot[bot], pre-commit-
    ci[bot] and Step Security Bot was meant, where git counts the bots' 13 commits)."""
    for i, token in enumerate(tokens):
        if token.free and token.norm in BOT_WORDS:
            token.free = False
            if readable is not None and i < len(readable):
                readable[i].free = False
            before = [t.norm for t in tokens[max(i - 2, 0) : i]]
            after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
            counted = before == ["how", "many"] and after not in _OWN_COUNTED
            listed = before[-1:] in (["which"], ["what"])
            return BotsAsked(token.start, token.end, counted, listed)
    return None


def bots_only_elsewhere(phrase: str) -> str:
    """What a question asking for the bots' own part says when it asks neither a count of
    commits or people nor who committed."""
    return (
        f'"{phrase}": the bots\' own part is computed only for a count of commits or people '
        '("how many bot commits in X in 2025?", "how many bots committed to X?") and for who '
        'committed ("which bots committed to X?"); answering for everyone would be another '
        "question."
    )


def bots_elsewhere(phrase: str) -> str:
    """What a question leaving bots out says when it asks no ranking of people."""
    if split_asked(phrase):  # "bots vs humans over the last 12 months": nothing counted
        return (
            f'"{phrase}": humans and bots are counted apart only for a count of commits or '
            'people ("how many commits by humans and by bots in X in 2025?", "how many '
            'contributors in 2025, humans vs bots?"); which figure is asked is not said.'
        )
    return (
        f'"{phrase}": leaving bots out is computed only for a ranking of people ("top '
        'contributors excluding bots") and a count of commits or people ("how many commits '
        'excluding bots"); answering without it would count the bots in, another question.'
    )


def _humans_counted(bots: str, text: str) -> bool:
    """Whether "how many humans" counts the humans themselves (not "how many human
    commits", read with its people or commits word)."""
    if bots.lower() not in HUMAN_WORDS:
        return False
    found = re.search(rf"\bhow many {re.escape(bots.lower())}\b\W*(\w*)", text.lower())
    return found is not None and found.group(1) not in _PEOPLE | _OWN_COUNTED


def bots_own(
    only: BotsAsked,
    text: str,
    intent: Intent,
    kinds: list[FactKind],
    unasked: tuple[meaning.Unasked, ...],
) -> tuple[Intent, list[FactKind], tuple[meaning.Unasked, ...]]:
    """The bots' own part is counted ("how many bot commits", "how many bots": the bots
    then, not their commits) and ranked ("which bots committed": who of them) from the
    contributors' facts; asked of anything else, said."""
    intent = Intent.WHO if only.listed and intent == Intent.WHICH else intent
    if only.counted and intent == Intent.COUNT:
        return intent, [FactKind.ACTIVE_CONTRIBUTORS], unasked
    if intent in {Intent.COUNT, Intent.WHO} and set(kinds) <= BOTS_COUNTED:
        people = [] if FactKind.ACTIVE_CONTRIBUTORS in kinds else [FactKind.ACTIVE_CONTRIBUTORS]
        return intent, kinds + people, unasked
    phrase = text[only.start : only.end]
    return intent, kinds, (*unasked, meaning.Unasked(phrase, bots_only_elsewhere(phrase)))


def bots_asked(
    bots: str | None,
    only: BotsAsked | None,
    text: str,
    intent: Intent,
    kinds: list[FactKind],
    unasked: tuple[meaning.Unasked, ...],
) -> tuple[Intent, list[FactKind], tuple[meaning.Unasked, ...]]:
    """The bots left out (`bots`, as written) or asked about (`only`) where the intent and
    kinds are read: "how many commits this year excluding bots" is counted with the
    contributors' facts, which count the bots'; left out of anything else, said; the bots'
    own part as `bots_own` reads it."""
    if bots is not None and intent == Intent.COUNT and _humans_counted(bots, text):
        kinds = [FactKind.ACTIVE_CONTRIBUTORS]  # "how many humans": people, not commits
    counted = bots is not None and intent == Intent.COUNT and set(kinds) <= BOTS_COUNTED
    if counted and FactKind.ACTIVE_CONTRIBUTORS not in kinds:
        kinds.append(FactKind.ACTIVE_CONTRIBUTORS)
    if bots is not None and intent not in {Intent.WHO, Intent.RANKED} and not counted:
        unasked = (*unasked, meaning.Unasked(bots, bots_elsewhere(bots)))
    if only is not None:
        intent, kinds, unasked = bots_own(only, text, intent, kinds, unasked)
    return intent, kinds, unasked
