"""Words opening a question that ask nothing of their own, as rows: a greeting or a filler
("Hey,", "Quick question:", "Out of curiosity,"), the measure's framing ("Judging by commits,",
"Based on lines changed,", "According to git,"), and a verb asking for people listed ("Rank
the people by lines changed", "Name the top 3 contributors", "List the top contributors").
They ended the question on their first word as a name ("\"Judging\" names no subject"), or
("List the top contributors in 2025") answered the organisation's health instead of its people.

Only at the question's start, each row's words whole. A framing row's words are taken with
the thing framed when that is the history itself ("git", "the history"); a measure after it
("commits", "lines changed") is left to the fact phrases; before anything else ("Based on the
outage") the framing is not taken, and ends the question unread. A verb asking for a list is
taken only before people ("Rank the modules by commits" is no ranking read here: "Rank" stays
unread, and ends it).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.reading import references as r

# Words that only open a question: each row a run of words, taken whole.
FILLERS = (
    ("hey",), ("hi",), ("hello",), ("ok",), ("okay",), ("so",), ("well",), ("quick", "question"),
    ("question",), ("out", "of", "curiosity"), ("just", "curious"), ("curious",), ("btw",),
    ("by", "the", "way"), ("also",), ("and",), ("now",),
    ("i", "wonder"), ("i", "was", "wondering"),
)  # fmt: skip
# The measure's framing: taken with the history framed, never with another thing.
FRAMINGS = (
    ("based", "on"), ("judging", "by"), ("judging", "from"), ("going", "by"),
    ("in", "terms", "of"), ("according", "to"), ("looking", "at"), ("measured", "by"),
)  # fmt: skip
FRAMED = (
    ("git",), ("the", "git", "history"), ("the", "history"), ("the", "git", "log"),
    ("the", "log"), ("the", "data"), ("the", "records"), ("the", "numbers"), ("history",),
)  # fmt: skip
# The measures a framing may name, read by the fact phrases ("Judging by lines changed").
MEASURES = frozenset(
    {"commits", "commit", "lines", "line", "changes", "churn", "activity", "contributions"}
)
# A verb asking for people listed, taken before them ("me" and "us" with it).
LISTING = frozenset(
    {"rank", "sort", "order", "name", "list", "show", "give", "display", "tell"}
)
_TO_WHOM = frozenset({"me", "us"})
# What may stand between the verb and the people ("the top 3", "all the main").
_BEFORE_PEOPLE = frozenset(
    {"the", "top", "main", "key", "biggest", "leading", "most", "all", "active", "busiest"}
)
PEOPLE = frozenset(
    {"people", "contributors", "contributor", "committers", "authors", "developers", "devs"}
    | {"maintainers", "persons"}
)
_EVERYONE = frozenset({"everyone", "everybody"})
# A question word after "show me", "tell us": the question it asks ("Show me who changed
# routing.py in 2025" was read as a trend, "show" its lead).
_ASKING = frozenset({"who", "how", "what", "which", "when", "whether", "if"})


def read(tokens: Sequence[r.Token]) -> int:
    """The opening words of the question taken (`Token.free = False`); how many tokens from
    the start they are, so the intent reads the question after them."""
    at = 0
    while at < len(tokens):
        taken = _row(tokens, at, FILLERS)
        if not taken and (framing := _row(tokens, at, FRAMINGS)):
            framed = _row(tokens, at + framing, FRAMED)
            measured = at + framing < len(tokens) and tokens[at + framing].norm in MEASURES
            taken = framing + framed if framed or measured else 0
        if not taken:
            taken = _listing(tokens, at)
        if not taken:
            break
        for token in tokens[at : at + taken]:
            token.free = False
        at += taken
    return at


def _row(tokens: Sequence[r.Token], at: int, rows: Sequence[tuple[str, ...]]) -> int:
    """The length of the longest row whose words stand free at `at`, or 0."""
    for row in sorted(rows, key=len, reverse=True):
        words = tokens[at : at + len(row)]
        if tuple(t.norm for t in words) == row and all(t.free for t in words):
            return len(row)
    return 0


def _listing(tokens: Sequence[r.Token], at: int) -> int:
    """ "Rank", "Show me", "Give us" before people ("the top 3 contributors"), or 0."""
    if at >= len(tokens) or tokens[at].norm not in LISTING or not tokens[at].free:
        return 0
    taken = 2 if at + 1 < len(tokens) and tokens[at + 1].norm in _TO_WHOM else 1
    if taken == 2 and at + 2 < len(tokens) and tokens[at + 2].norm in _ASKING:
        return taken  # "show me who ...", "tell us how many ..."
    for i, token in enumerate(tokens[at + taken :], start=at + taken):
        if token.norm in _EVERYONE:  # "List everyone who ...": the "who" after asks it
            asks = i + 1 < len(tokens) and tokens[i + 1].norm in ("who", "that")
            return i + 1 - at if asks else 0
        if token.norm in PEOPLE:
            return taken
        if token.norm not in _BEFORE_PEOPLE and not token.norm.isdigit():
            return 0
    return 0
