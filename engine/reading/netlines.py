"""Net lines: "By how many lines did attrs' tests grow in 2025 (added minus removed)?", "the
net change in lines in attrs in 2025", "how many lines did X shrink by". The lines added less
the lines removed, from the churn already computed (engine/questions/count.py says it with
both sides). "minus" was said not understood and the question ended, "net" was tried as a name
(people whose address ends in .net were offered), and "grow" answered the lines changed, added
and removed together: another figure.

Read only where lines are asked (the churn's words: "lines", "loc", a fact phrase of churn);
"grow"/"shrink" only as a measure ("grow by", "by how many lines did X grow", "how much did
X shrink"): "did the lines changed grow?" asks whether activity grew
(engine.reading.asked.direction).
"""

from __future__ import annotations

from engine.reading.references import Token
from engine.reading.vocabulary import LINE_SIDES

# Said beside net lines of a module: git's rename detection counts a file moved in or out by
# the lines edited in it (attrs' tests in 2025: typing_example.py moved out with 515 lines;
# `git log -- tests` counts them removed, the import's rollups do not).
MOVES = (
    "Net lines are the lines added less those removed by the commits counted; a file moved "
    "into or out of a module counts only the lines edited in it (git's rename detection), so "
    "where files moved the module's size changed by more than this."
)
_NET = frozenset({"net"})
_MINUS = frozenset({"minus", "less"})  # "added minus removed", "added less removed"
GROWING = frozenset(
    {"grow", "grew", "grown", "grows", "growing", "shrink", "shrank", "shrunk", "shrinks"}
    | {"shrinking", "growth"}
)
_SIDES = LINE_SIDES | {"additions", "removals"}


def read_net(tokens: list[Token], lines: bool) -> bool:
    """Whether the question asks for net lines, the words taken ("by" after a verb of
    growing too: "shrink by"); `lines`: the question asks about lines."""
    if not lines:
        return False
    taken: list[int] = []
    norms = [t.norm for t in tokens]
    measured = any(norms[i : i + 2] in (["how", "many"], ["how", "much"])
                   for i in range(len(norms)))
    for i, token in enumerate(tokens):
        if not token.free:
            continue
        before = tokens[i - 1].norm if i else ""
        after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
        if token.norm in _NET:
            taken.append(i)
        elif token.norm in GROWING and (after == "by" or measured):
            taken.append(i)
            if after == "by" and tokens[i + 1].free:
                taken.append(i + 1)
        elif token.norm in _MINUS and before in _SIDES and after in _SIDES:
            taken.append(i)
    for i in taken:
        tokens[i].free = False
    return bool(taken)
