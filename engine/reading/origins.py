"""Verbs of coming into being, as rows: "when did X show up?", "when did X appear?", "when did
X come in?" ask when X came to be, which the history answers with X's first change
(engine/questions/firstchange.py), as "when was X added?" and "when did X first change?"
already were.

Checkers asking as users do (z37a, z37b) had "when did _next_gen.py show up" answered as a
status (its health over the last 30 days and its last change: another question), while "when
did _winconsole.py first show up" named the first change; "appear" and "come in" ended as
words not understood. The verb alone says what is asked: something that shows up or appears
did so once, at its first change, counted over the module's history (a module moved or
renamed, or a file that became a package of its name, is one module over time:
graph/git/modules).

Each row is the words of one phrase (every inflection written out, no stemming: "shows" and
"showed" are rows as "show" is), read only in a question asking when (`WHEN`): "does X show up
in the logs?" or "what came in last week?" ask something else. `coming` finds the phrase and
engine/reading/asked.asks_first takes its words (claims.py: asked.asks_first), so none of them
is said not understood.
"""

from __future__ import annotations

from engine.reading import references as r

_SHOW = ("show", "shows", "showed", "shown", "turn", "turns", "turned", "pop", "pops", "popped")
_COME = ("come", "comes", "came", "coming")

# The phrases, each a tuple of words in order. Single verbs: the thing appears, arrives,
# emerges, is born (engine/reading/asked._MADE holds the made verbs: added, created, ...).
COMING: tuple[tuple[str, ...], ...] = (
    *((w,) for w in ("appear", "appears", "appeared", "arrive", "arrives", "arrived")),
    *((w,) for w in ("emerge", "emerged", "debut", "debuted", "originate", "originated")),
    *((w, "up") for w in _SHOW),
    *((w, "in") for w in _COME),
    *((w, "about") for w in _COME),
    *((w, "along") for w in _COME),
    *((w, "into", "being") for w in _COME),
    *((w, "into", "existence") for w in _COME),
    *((w, "to", "exist") for w in ("start", "started", "begin", "began")),
    *((w, "existing") for w in ("start", "started", "begin", "began")),
    *((w, "added") for w in ("get", "got", "gets")),
    *((w, "created") for w in ("get", "got", "gets")),
    *((w, "introduced") for w in ("get", "got", "gets")),
)
# Not "become a package": a file that became a package of its name is one module over time
# (graph/git/modules), so its first change is the file's ("when did datastructures become a
# package?" would name 2009 where the package came in 2023): said not understood instead.
_ROWS = frozenset(COMING)
_LONGEST = max(len(row) for row in COMING)
# A question counting or ranking what appeared ("which year did the most files appear?") asks
# no one thing's coming into being.
_MANY = frozenset({"most", "more", "many", "fewest", "least", "how", "files", "modules"})

# What makes a question ask when: its first words. "When did X appear?", "what year did X show
# up?", "on what date did X come in?": the time something came to be.
WHEN: tuple[tuple[str, ...], ...] = (
    ("when",),
    *((w, u) for w in ("what", "which") for u in ("date", "day", "year", "month")),
    *(("in", w, u) for w in ("what", "which") for u in ("year", "month")),
    *(("on", w, u) for w in ("what", "which") for u in ("date", "day")),
    ("at", "what", "point"),
    ("since", "when"),
)


def asks_when(tokens: list[r.Token]) -> bool:
    """Whether the question opens asking when (a row of WHEN)."""
    words = [t.norm for t in tokens[:3]]
    return any(tuple(words[: len(row)]) == row for row in WHEN)


def coming(tokens: list[r.Token]) -> tuple[int, int] | None:
    """The span (first index, index after the last) of the first free phrase of COMING in a
    question asking when, None when there is none: "when did X show up?" -> "show up"."""
    if not asks_when(tokens) or {t.norm for t in tokens} & _MANY:
        return None
    for i in range(len(tokens)):
        for n in range(min(_LONGEST, len(tokens) - i), 0, -1):
            span = tokens[i : i + n]
            # the verb free; a kind word after it ("a package") may be read as a hint
            if span[0].free and tuple(t.norm for t in span) in _ROWS:
                return i, i + n
    return None
