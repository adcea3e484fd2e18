"""What a count question counts: the people ("how many people made commits?"), lines ("how
many lines did X change?"), commits and lines ("how much did X do?"), people again when
nothing else is named, else the facts named.
The intent is read first (engine/reading/intents.py).
"""

from __future__ import annotations

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading.intents import PEOPLE, did_do

# What "how many" counts may be qualified first ("how many different people").
_QUALIFIED = frozenset({"different", "unique", "individual", "separate", "distinct"})
_PEOPLE_COUNTED = PEOPLE | {"persons", "person", "engineers", "contributors", "committers"}


def counts_people(words: list[str]) -> bool:
    """ "How many people made commits?": the noun "how many" (or "number of") counts is a
    people noun, so the people are counted, whatever verb and object follow ("made
    commits", "authored commits"). It counted the commits of the 10 busiest people."""
    for i in range(len(words) - 2):
        if words[i : i + 2] in (["how", "many"], ["number", "of"]):
            counted = [w for w in words[i + 2 :] if w not in _QUALIFIED]
            return bool(counted) and counted[0] in _PEOPLE_COUNTED
    return False


# The facts a count of people ("how many people made commits?") is the contributors of.
_PEOPLE_KINDS = frozenset({FactKind.ACTIVE_CONTRIBUTORS, FactKind.COMMIT_ACTIVITY})
# Commits and lines asked together, by "and" ("how many commits and lines went into X?", "how
# many commits and how many lines ...": the second "how many" is blanked by
# engine.reading.clauses). Not lines qualifying commits ("commits changing 100 lines").
_BOTH = (" commits and lines ", " lines and commits ", " commits and the lines ")


def counted(
    words: list[str], kinds: list[FactKind], kind_hint: SubjectKind | None
) -> list[FactKind]:
    """What a count question counts: the people ("how many people made commits?"), lines
    ("how many lines did X, or people, change?": read before the person kind word, which
    counted the people), people again when nothing else is named ("how many people worked
    on X?"), else the facts named."""
    joined = " ".join(words)
    if counts_people(words) and set(kinds) <= _PEOPLE_KINDS:
        return [FactKind.ACTIVE_CONTRIBUTORS]
    if not kinds and did_do(words) and not {"line", "lines"}.intersection(words):
        return [FactKind.COMMIT_ACTIVITY, FactKind.CHURN]  # "how much did X do in Y?"
    if not kinds and ({"line", "lines"}.intersection(words) or " how much " in f" {joined} "):
        return [FactKind.CHURN]
    if kinds == [FactKind.COMMIT_ACTIVITY] and any(b in f" {joined} " for b in _BOTH):
        return [FactKind.COMMIT_ACTIVITY, FactKind.CHURN]  # lines were read and dropped
    if not kinds and kind_hint is SubjectKind.PERSON:
        return [FactKind.ACTIVE_CONTRIBUTORS]
    return kinds
