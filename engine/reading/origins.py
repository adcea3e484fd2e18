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


# The events of a path's life, as rows: the event and the words of each phrase saying it
# (engine/questions/lives.py answers them with the commit that did it). "Made" is read where
# the first change is asked by a verb of making or coming into being (asked.asks_first):
# "when was core.py created?", "who added wsgi.py?", "when did X show up?".
_GONE = ("deleted", "delete", "deletes", "removed", "remove", "removes", "killed", "kill")
_GONE2 = ("dropped", "erased", "axed", "scrapped", "nuked", "purged", "deletion", "removal")
_RID = ("got", "get", "gets", "gotten", "getting")
_BECOME = ("become", "became", "becomes", "turned", "turn", "turns", "split", "splits")
_INTO = (("a",), ("into", "a"), ("up", "into", "a"), ("into",), ("to", "a"), ("its", "own"))
_FORM = ("package", "folder", "directory", "subpackage", "dir")
_MOVE = ("moved", "move", "moves", "renamed", "rename", "relocated", "relocate", "migrated")
_TO_SRC = tuple(
    (w, *moved, to, *the, "src", *what)
    for w in (*_MOVE, "migrate", "went", "go")
    for moved in ((), ("the", "code"), ("its", "code"), ("the", "package"))  # "moved the code to"
    for to in ("to", "into", "under", "in")
    for the in ((), ("the",))
    for what in ((), ("folder",), ("directory",), ("dir",), ("layout",))
)
# One file made another ("when did CHANGELOG.rst become CHANGELOG.md?", "when was README.rst
# replaced by README.md?", "renamed to"): read only between two paths written (`_between`),
# so "what did Hynek become responsible for?" asks something else.
_REPLACED = (
    *((w,) for w in ("become", "became", "becomes")),
    *((w, "into") for w in ("turn", "turned", "turns", "converted", "changed")),
    *((w, by) for w in ("replaced", "superseded", "succeeded") for by in ("by", "with")),
    *((w, "to") for w in ("renamed", "switched", "converted", "changed", "moved")),
)
# "Where did X go?", "where did X end up?": only in a question asking where (_WHERE).
_GO: tuple[tuple[str, ...], ...] = (
    ("go",),
    ("went",),
    ("gone",),
    ("end", "up"),
    ("ended", "up"),
    ("live",),
    ("lives",),
)
LIFE_ROWS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    ("removed", tuple((w,) for w in (*_GONE, *_GONE2))),
    ("removed", tuple((w, "rid", "of") for w in _RID)),
    ("removed", tuple((w, "out") for w in ("taken", "took", "ripped", "ripping"))),
    ("became", tuple((w, *between, f) for w in _BECOME for between in _INTO for f in _FORM)),
    ("became", tuple(("converted", *between, f) for between in _INTO for f in _FORM)),
    ("moved", tuple((w,) for w in _MOVE)),
    ("into_src", _TO_SRC),  # "when did the code move to src/?": no name needed
    ("replaced", _REPLACED),  # "when did CHANGELOG.rst become CHANGELOG.md?": two paths
)
_LIFE = {words: event for event, rows in LIFE_ROWS for words in rows}
_LIFE_LONGEST = max(len(words) for words in _LIFE)
# The words asking when or by whom, anywhere ("_dunders removed, when/who"); a count or a
# ranking of what was deleted asks about no one path.
_ASKING = frozenset({"when", "who", "whom", "date", "year", "commit", "which", "what"})
_WHERE: dict[tuple[str, ...], str] = {words: "moved" for words in _GO}


def _rows(words: set[str]) -> tuple[dict[tuple[str, ...], str], int]:
    """The rows a question may hold, and the longest's length."""
    rows = {**_LIFE, **_WHERE} if "where" in words else _LIFE
    return rows, _LIFE_LONGEST


def life(
    text: str, tokens: list[r.Token], readable: list[r.Token], first: r.Token | None, named: bool
) -> tuple[str, str] | None:
    """The event of a path's life asked and the phrase saying it, its words taken (never
    said not understood, nor a word beside a name), None when none is; `first`: the word
    asking for the first change (asked.asks_first), "made" when it is a verb of making or
    coming into being; `named`: the question names a subject (only a move into src/ is
    asked of none: "when did the code move to src/?")."""
    words = {w for t in tokens for w in t.norm.split()}  # "when/who": "when who"
    if not words & (_ASKING | {"where"}) or words & _MANY:
        return None
    rows, longest = _rows(words)
    for i in range(len(tokens)):
        for n in range(min(longest, len(tokens) - i), 0, -1):
            span = tokens[i : i + n]
            event = rows.get(tuple(t.norm for t in span))
            # "src" of "move to src/" may have been read as a name: the place, no subject
            free = all(t.free or (event == "into_src" and t.norm == "src") for t in span)
            if event == "replaced" and not _between(text, tokens, i, i + n):
                continue  # "when was X renamed?": a move, read by a shorter row
            if event is not None and (named or event == "into_src") and free:
                for j in range(i, i + n):
                    tokens[j].free = readable[j].free = False
                for j, t in enumerate(tokens):  # "when/who": both asked, read
                    if t.free and set(t.norm.split()) <= _ASKING and " " in t.norm:
                        tokens[j].free = readable[j].free = False
                return event, text[span[0].start : span[-1].end]
    norms = [t.norm for t in tokens]  # a coming verb asks_first took: no longer free
    came = any(tuple(norms[i : i + n]) in _ROWS for i in range(len(norms)) for n in (1, 2, 3))
    made = named and first is not None and bool(words & _MADE_WORDS or came)
    return ("made", "") if made else None


def _between(text: str, tokens: list[r.Token], i: int, j: int) -> bool:
    """Whether a path is written before tokens[i] and after tokens[j - 1] (a word with a dot
    or a slash in it: "CHANGELOG.rst", "src/attr")."""

    def path(t: r.Token) -> bool:
        written = text[t.start : t.end].strip(".")
        return "/" in written or "." in written

    return any(path(t) for t in tokens[:i]) and any(path(t) for t in tokens[j:])


_MADE_WORDS = frozenset({"added", "created", "introduced", "born", "written", "founded"})


def unnamed(text: str, spans: list[tuple[int, int]], phrase: str) -> list[tuple[int, int]]:
    """The name spans without the words of the life phrase read by a name before it was
    ("who removed _dunders?" read "removed _dunders" as one name), without any inside the
    phrase ("when did the code move into the src directory?" read "move" as a name and ended
    on it), and without question words joined by a slash ("_dunders removed, when/who":
    "when/who" is no name)."""
    out = []
    said = phrase.casefold()
    at = text.casefold().find(said) if said else -1
    for a, b in spans:
        written = text[a:b].casefold()
        if at >= 0 and at <= a and b <= at + len(said):
            continue  # a word of the phrase itself ("move" of "move into the src directory")
        if said and written.startswith(f"{said} "):
            a += len(said) + 1
        elif said and written.endswith(f" {said}"):
            b -= len(said) + 1
        elif written == said or set(written.split("/")) <= _ASKING | {"where", "how"}:
            continue
        out.append((a, b))
    return out


def unnamed_note(phrase: str) -> str:
    """What ends a question asking a path's life of no path ("what moved in 2025?")."""
    return (
        f'"{phrase}": when a file or folder was {phrase} is asked of one path, and none was '
        f'named: ask it of one ("when was X {phrase}?"); a list of what was {phrase} is not '
        "computed here."
    )
