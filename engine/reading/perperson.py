"""A breakdown by people: "requests commits past 90d by author", "attrs commits per person",
"commits in 2025 broken down by contributor", "lines changed for each author". It asks for the
people ranked by what they did in the window, each with their count, and how many in all: a
"who" question (engine/questions/who.py). "by author" was read as a person named "author"
(no match), "per person" as the kind word "person" and the window's total answered, unsaid.

Read as rows of words: a word asking for a breakdown right before a noun for people. "by"
takes a singular noun only ("commits by contributors" may ask their total, as "commits by
people" does: engine.resolving.kinded.counts_people); "per", "each", "every" and the phrases
"broken down by", "split by", "grouped by", "breakdown by" take either.
"""

from __future__ import annotations

from engine.reading.references import Token

PEOPLE_SINGULAR = frozenset(
    {"author", "person", "contributor", "committer", "developer", "dev", "engineer", "user"}
)
PEOPLE_PLURAL = frozenset(
    {"authors", "people", "persons", "contributors", "committers", "developers", "devs"}
    | {"engineers", "users"}
)
_EACH = frozenset({"per", "each", "every"})
# Words before "by" that make it a breakdown of any noun after it ("broken down by authors").
_BROKEN = frozenset({"down", "split", "grouped", "breakdown", "separated", "broken"})


def read_breakdown(tokens: list[Token]) -> tuple[int, int] | None:
    """The span of the words asking for a breakdown by people, taken; None when none."""
    for i, token in enumerate(tokens):
        if not token.free:
            continue
        words = token.norm.split()  # "per-author" is one token
        if len(words) == 2 and words[0] in _EACH and _people(words[1], plural=True):
            token.free = False
            return token.start, token.end
        if i == 0 or not (_people(token.norm, plural=False) or _people(token.norm, True)):
            continue
        before = tokens[i - 1]
        if not before.free:
            continue
        broken = before.norm == "by" and i > 1 and tokens[i - 2].norm in _BROKEN
        if before.norm in _EACH or broken or (before.norm == "by" and _people(token.norm, False)):
            first = i - 1
            while first > 0 and tokens[first - 1].free and _leads(tokens, first - 1, i):
                first -= 1
            for t in tokens[first : i + 1]:
                t.free = False
            return tokens[first].start, token.end
    return None


def _people(word: str, plural: bool) -> bool:
    return word in PEOPLE_SINGULAR or (plural and word in PEOPLE_PLURAL)


def _leads(tokens: list[Token], at: int, noun: int) -> bool:
    """The words leading the breakdown, taken with it: "broken down" before "by", "for"
    before "each"."""
    word = tokens[at].norm
    return word in _BROKEN or (word == "for" and tokens[at + 1].norm in _EACH and at + 1 < noun)
