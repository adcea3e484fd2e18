"""Nouns that decide a question's intent by themselves, for the rows of
engine/reading/intents.py (INTENT_ROWS): a ranking of people ("the contributor ranking", "the
leaderboard": who), a volume of commits ("the commit throughput", "how much activity": how
many). Each ended a clear question on a word not understood, or answered a count as a health
(z39a A8, werkzeug A4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.domain.facts import FactKind
from engine.reading import vocabulary as v

if TYPE_CHECKING:
    from engine.reading.intents import Asked

# People nouns (engine.reading.intents.PEOPLE, kept here to import nothing back from it).
PEOPLE = frozenset(
    {"contributors", "committers", "authors", "developers", "devs", "people"}
    | {"contributor", "committer", "author", "developer", "dev"}
)


# "the full contributor ranking", "the leaderboard of X": people ranked, a "who" answer
PEOPLE_RANKED = frozenset({"ranking", "rankings", "leaderboard"})


def people_ranked(a: Asked) -> bool:
    """ "the full contributor ranking for click in 2025", "ranking of authors": people
    ranked by their commits (it was a status, "ranking" not understood: z39a A8)."""
    people = bool(PEOPLE.intersection(a.words))
    ranked = people and bool(PEOPLE_RANKED.intersection(a.words))
    # "list the contributors", "a complete list of contributors": the people, ranked
    listed = people and (a.lead == "list" or " list of " in a.joined)
    return ranked or listed or "leaderboard" in a.words


# Words for how many commits a window had ("the commit throughput", "how much activity"):
# the count; with "what was" or "how much" they were a status, which opened with "The health
# of X is not judged" before the count (z39a werkzeug A4).
VOLUME = frozenset({"throughput", "activity", "volume", "output", "rate", "pace", "velocity"})


def volume(a: Asked) -> bool:
    """ "What was the commit throughput in X last month?", "how much activity was there in X
    in Q2?": the window's commits, counted."""
    asked = a.lead == "what" or " how much " in a.joined
    health = bool(v.HEALTH_WORDS.intersection(a.words))
    only_commits = set(a.kinds) == {FactKind.COMMIT_ACTIVITY}
    return asked and only_commits and bool(VOLUME.intersection(a.words)) and not health
