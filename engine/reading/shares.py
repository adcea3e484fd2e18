"""Each person's share asked of who changed or owns something ("ownership breakdown of
src/click/core.py this year", "who owns the routing module, as shares", "who owns core.py?
give percentages"): the people who changed it, everyone listed, each with their part of the
window's commits and lines (engine/questions/who.py `shares`), as git log counts them. It
ended on "breakdown" or "shares" as a word not understood, a clear question refused.

Only beside a question asking who (changed or owns) or naming ownership: "what share of
commits came from bots" (engine.reading.bots) and a share asked in a later part
(engine.reading.laterrow) read their own words first.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.domain.contract import PEOPLE_LISTED
from engine.domain.facts import FactKind
from engine.reading import meaning
from engine.reading import references as r
from engine.reading.vocabulary import Intent

SHARE_WORDS = frozenset({
    "breakdown", "breakdowns", "share", "shares", "percent", "percentage", "percentages",
    "proportion", "proportions",
})  # fmt: skip
_ASKING = frozenset({Intent.WHO, Intent.WHO_OWNS})
# "a breakdown by person": each person's share; "a breakdown by file" (or month) is another
# question's, and "a share of all click commits" another total's (review41 F5): those end as
# words not understood, never the people's shares of the subject. "what share of commits to
# X did each make", "a breakdown of src/click/core.py" are the subject's own.
_BY_PERSON = frozenset({
    "person", "people", "author", "authors", "contributor", "contributors", "committer",
    "committers", "developer", "developers", "maintainer", "maintainers", "each", "everyone",
})  # fmt: skip
_OF_OTHER = frozenset({"all", "every", "everything", "total", "whole", "entire", "overall"})
SHARES_NOTE = (
    "each person's share is their commits and lines changed over everyone's in the window, as "
    f"git log --no-merges counts them; everyone is listed (up to {PEOPLE_LISTED} people)."
)
BY_OTHER_NOTE = (
    "a breakdown by anything but people is not computed for a who question: ask for each "
    'person\'s share ("with a breakdown by person") or "which files changed the most in X?".'
)


@dataclass(frozen=True, slots=True)
class Shares:
    """The question as read once shares are asked: its intent, kinds and what is said."""

    intent: Intent
    kinds: list[FactKind]
    unasked: tuple[meaning.Unasked, ...]
    asked: bool


def shares_asked(
    text: str,
    tokens: list[r.Token],
    intent: Intent,
    kinds: list[FactKind],
    unasked: tuple[meaning.Unasked, ...],
) -> Shares:
    """Shares asked: an ownership status ("ownership breakdown of X") is who owns X; the
    word is said beside the answer, never "not understood"."""
    at = next((t for t in tokens if t.norm in SHARE_WORDS), None)
    owned = intent == Intent.STATUS and FactKind.OWNERSHIP in kinds
    if at is None or not (intent in _ASKING or owned) or any(u.ends for u in unasked):
        return Shares(intent, kinds, unasked, False)
    after = tokens[tokens.index(at) + 1 :]
    if not _of_the_people(after):  # "breakdown by file": said not computed, never dropped
        by = after[1] if len(after) > 1 and after[0].norm == "by" else None
        phrase = text[at.start : (by or at).end]
        other = () if by is None else (meaning.Unasked(phrase, f'"{phrase}": {BY_OTHER_NOTE}'),)
        return Shares(intent, kinds, (*unasked, *other), False)
    intent = Intent.WHO_OWNS if owned else intent
    word = text[at.start : at.end]
    said = meaning.Unasked(word, f'"{word}": {SHARES_NOTE}', ends=False)
    return Shares(intent, kinds, (*unasked, said), True)


def _of_the_people(after: list[r.Token]) -> bool:
    """The share word is the people's part of the subject's own: not "by <file, month>",
    not "of <all click commits>"."""
    nxt = [t.norm for t in after[:3]]
    if nxt[:1] == ["by"]:
        return nxt[1:2] != [] and nxt[1] in _BY_PERSON
    if nxt[:1] == ["of"]:
        rest = nxt[2:3] if nxt[1:2] == ["the"] else nxt[1:2]
        return not _OF_OTHER.intersection(rest)
    return True
