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
SHARES_NOTE = (
    "each person's share is their commits and lines changed over everyone's in the window, as "
    f"git log --no-merges counts them; everyone is listed (up to {PEOPLE_LISTED} people)."
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
    intent = Intent.WHO_OWNS if owned else intent
    word = text[at.start : at.end]
    said = meaning.Unasked(word, f'"{word}": {SHARES_NOTE}', ends=False)
    return Shares(intent, kinds, (*unasked, said), True)
