"""Words that change what a question asks, and that no rule here computes.

Stop words are skipped when names are read, but some of them turn the question into another
one: "who made the FIRST commit to X?" is not "who changed X most?", "who changed X BUT NOT
Y?" is not "who changed X or Y?", "how many NEW contributors?" is not "how many
contributors?", "commits PER MONTH" is not one total, "what did I change?" is not the whole
organisation's changes. Answering the question without the word answers a different one, so
such a question ends with a stated limitation naming the word (`Unasked.ends`). Words that
only qualify an answer that is still right ("why did X change?": what changed is known, why
is not recorded) are said beside the answer. The rules are rows (engine/reading/wordrules.py:
WORD_ROWS, the first that holds says the word); this module runs them over the free words.

Each rule reads the free tokens (not quoted, not a time phrase, not part of a known name),
so "the first week of May" (a time phrase) and a person named "First" are not caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.domain.contract import PEOPLE_LISTED as LISTED
from engine.domain.contract import PEOPLE_SHOWN as SHOWN
from engine.reading import references as r
from engine.reading.time.calendar import count_of
from engine.reading.vocabulary import (
    CHANGE_VERBS,
    NEWCOMERS,
    Intent,
)
from engine.reading.wordrow import At
from engine.reading.wordrules import WORD_ROWS

_COMPARED = frozenset({"more", "less", "fewer"})  # "more than Y": Y a name (`_than_a_name`)
_COUNTED = frozenset({"commits", "changes", "contributions"})  # "fewer commits than Y"
# Words ranking people ("the top 3 contributors", "the 2 most active people").
_RANKS = frozenset({"top", "most", "biggest", "busiest", "main", "leading", "largest"})


@dataclass(frozen=True, slots=True)
class Unasked:
    """A phrase of the question (verbatim) whose meaning is not computed, the limitation the
    answer states, and whether answering without it would answer another question."""

    phrase: str
    note: str
    ends: bool = True
    # "the top 10 contributors": how many people the answer lists (0: as the intent lists)
    count: int = 0


def unasked(
    text: str, tokens: list[r.Token], intent: Intent, references: Sequence[str]
) -> tuple[Unasked, ...]:
    """The phrases of `text` that change what it asks and are not computed, in order
    (WORD_ROWS); `references`: the names the question gives."""
    found: list[Unasked] = []
    free = [t for t in tokens if t.free]
    words = [t.norm for t in free]
    asker = _asker(text, free, intent)
    found += asker
    for i, token in enumerate(free):
        word, after = token.norm, words[i + 1] if i + 1 < len(words) else ""
        before = words[i - 1] if i else ""
        start = token.start
        if word == "t" and before.endswith("n"):  # "hasn't", "didn't": a negation
            word, start = "not", free[i - 1].start
        if word == "except" and _before_a_name(text, token.end, references):
            continue  # "except Kevin": engine.resolving.together leaves him out (or ends, named)
        if _than_a_name(free, i, intent, text, references):
            continue  # "did X commit more than Y?": each one's count, compared (questions/count)
        named = bool(references)
        at = At(text, free, i, word, before, after, words, intent, named, tokens, bool(asker))
        row = next((row for row in WORD_ROWS if row.holds(at)), None)
        note = None if row is None else row.said(at) if row.said is not None else row.note
        if row is None or note is None:
            continue  # "who should I ask about X?": the asker is not what is asked about
        a, b = row.extent(at) if row.extent is not None else (start, token.end)
        phrase = text[a:b]
        found.append(Unasked(phrase, f'"{phrase}": {note}', ends=row.ends))
    return tuple({u.phrase.lower(): u for u in found}.values())


def _than_a_name(
    free: list[r.Token], i: int, intent: Intent, text: str, references: Sequence[str]
) -> bool:
    """ "more than Y" in a count, Y a name the question gives: the subjects' counts compared,
    each one's counted (never a threshold)."""
    if i and free[i].norm in _COUNTED and free[i - 1].norm in _COMPARED:
        i -= 1  # "fewer commits than Y", read from its noun
    if intent != Intent.COUNT or free[i].norm not in _COMPARED:
        return False
    j = i + 2 if i + 2 < len(free) and free[i + 1].norm in _COUNTED else i + 1
    than = j < len(free) and free[j].norm == "than"
    return than and _before_a_name(text, free[j].end, references)


def _before_a_name(text: str, at: int, references: Sequence[str]) -> bool:
    rest = text[at:].lstrip().lower()
    rest = rest.removeprefix("the ")
    return any(rest.startswith(ref.lower()) for ref in references)


# "who should I ask about X?", "who knows about X?", "who can help with X?": the people who
# know X, read as the people who changed it most (the asker is not what is asked about).
_ASKERS = (
    ("should", "i", "ask"),
    ("can", "i", "ask"),
    ("could", "i", "ask"),
    ("do", "i", "ask"),
    ("should", "i", "talk"),
    ("can", "i", "talk"),
    ("should", "i", "contact"),
    ("knows",),
    ("know",),
    ("can", "help"),
    ("could", "help"),
    ("can", "i", "contact"),
)
ASKER_NOTE = (
    "read as the people who changed it most in the window, from its contributor records "
    '(who knows a subject is not recorded); its owning team is asked with "who owns X?".'
)


# "who should I get to review X?", "who do I ping about X?", "who would we go to about X?":
# a modal or "do" and the asker after "who", then any verb: whom to turn to about X.
_MODALS = frozenset({"should", "can", "could", "do", "would", "shall", "might", "must"})
_ASKERS_SELF = frozenset({"i", "we"})


def _asker(text: str, free: list[r.Token], intent: Intent) -> list[Unasked]:
    """The phrase asking whom to turn to, in a "who" question: said beside the answer."""
    words = [t.norm for t in free]
    if intent != Intent.WHO or words[:1] != ["who"]:
        return []
    for shape in _ASKERS:
        n = len(shape)
        if tuple(words[1 : 1 + n]) == shape:
            phrase = text[free[1].start : free[n].end]
            return [Unasked(phrase, f'"{phrase}": {ASKER_NOTE}', ends=False)]
    if len(words) > 3 and words[1] in _MODALS and words[2] in _ASKERS_SELF:
        phrase = text[free[1].start : free[3].end]
        return [Unasked(phrase, f'"{phrase}": {ASKER_NOTE}', ends=False)]
    return []


def reread(text: str, tokens: list[r.Token], intent: Intent) -> tuple[Intent, tuple[Unasked, ...]]:
    """The intent a question is answered with, and what the answer says about it: "why did
    X change?" lists the changes themselves (each with its date, author and message), the
    nearest the records come to a reason. ("Who changed X and when?" is two questions:
    engine.reading.clauses.)"""
    words = [t.norm for t in tokens if t.free]
    changed = bool(CHANGE_VERBS.intersection(words))
    if intent not in (Intent.WHY_BEHIND, Intent.WHAT_CHANGED) and words[:1] == ["why"] and changed:
        return Intent.WHAT_CHANGED, ()  # the "why" itself is said by `unasked`
    return intent, ()


def top(text: str, tokens: list[r.Token], few: bool) -> tuple[Unasked, ...]:
    """ "the top 3 contributors": the number is read, never a name (it was tried as one, or
    said not understood). A who answer lists at most SHOWN people, ranked (`few`: the facts
    rank only those, `few_only`), else up to LISTED: the answer says which of them the
    number asks for. Its tokens are taken (no longer free)."""
    for left, right in pairwise(tokens):
        if left.norm == "top" and left.free and right.norm in NEWCOMERS:
            left.free = False  # "the top contributors": the people a who answer ranks
            continue
        # "top 3", or a number before "most" / "biggest" ("the 2 most active people": "2"
        # was said not understood and 5 listed)
        word, number = (right, left) if right.norm in _RANKS else (left, right)
        count = count_of(number.norm) if number.norm != "a" else 0
        free = word.free or word.norm in {"most", "busiest"}  # fact phrases too ("most active")
        if not (free and number.free and word.norm in _RANKS and count > 0):
            continue
        if word.norm != "top" and word is left:
            continue
        word.free = number.free = False
        phrase = text[left.start : right.end]
        if SHOWN < count <= LISTED and not few:
            # the facts rank PEOPLE_LISTED by commits: "top 10" lists ten, not five
            note = f'"{phrase}": the top {count} are listed, ranked by commits.'
            return (Unasked(phrase, note, ends=False, count=count),)
        shown = (
            f"the first {count} listed are the top {count}"
            if count <= SHOWN
            else f"only the top {SHOWN} are listed, not {count}"
        )
        note = f'"{phrase}": an answer ranking people lists at most {SHOWN}: {shown}.'
        return (Unasked(phrase, note, ends=False),)
    return ()


def few_only(ranked_by: str, bots: str | None, bots_only: str | None) -> bool:
    """Whether a ranking of people holds the first PEOPLE_SHOWN only: ranked by lines, or
    with the bots left out or asked (engine/providers/contributors.py keeps the top five of
    each). The one decision: `top` (how many "the top 10" lists), Interpretation.people_listed
    and engine/questions/who.py read it."""
    return ranked_by == "lines" or bots is not None or bots_only is not None


def ending(found: tuple[Unasked, ...]) -> tuple[str, ...]:
    """The limitations of a question that ends unanswered (answering it without these words
    would answer another question)."""
    if not any(u.ends for u in found):
        return ()
    return tuple(u.note for u in found)


def notes(found: tuple[Unasked, ...]) -> list[str]:
    """The limitations an answered question states for the words it could not use."""
    return [u.note for u in found if not u.ends]
