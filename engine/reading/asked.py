"""What a question asks beyond its lead word: whether something is still changed ("is X still
maintained?", intent `still`: engine/questions/still.py), and a comparison with an earlier
period ("is X changing more than last year?": engine/questions/compared.py), and a choice
between people ("who changed core.py more, X or Y?": `compares`), and the last change asked
for ("when did X last commit?": `asks_last`). Read by
engine/reading/interpreter.py over its tokens; the words these read are marked read, so the
answer never names them as not understood.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from itertools import pairwise

from engine.domain import timecontext as tc
from engine.domain.facts import FactKind
from engine.domain.windows import preceding
from engine.reading import origins
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.time import phrases as tp
from engine.reading.verbs import DOING_VERBS
from engine.reading.vocabulary import Intent

# "Is X still maintained?", "does Armin still contribute?", "is X abandoned?": whether it is
# still changed (intent `still`), answered from its changes and its last one.
_STILL_AFTER = v.CHANGE_VERBS | v.CHANGE_NOUNS | {
    "maintained", "maintain", "active", "alive", "developed", "develop", "supported",
    "updated", "update", "used", "changing", "contributing", "contribute", "commit",
    "committing", "around", "being", "development", "maintenance", "activity", "work", "use",
    "maintaining", "getting",
}  # fmt: skip
_STILL_WORDS = frozenset({"maintained", "maintenance", "alive", "abandoned", "dormant"})
# Words between "still" and what it asks about ("still being worked on", "still actively
# developed", "still getting commits", "still under development", "still in active use").
_STILL_BETWEEN = frozenset(
    {"being", "getting", "receiving", "seeing", "under", "in", "actively", "regularly"}
    | {"any", "new", "much", "to", "gets", "get", "receives", "sees", "see", "receive"}
)


def asks_still(tokens: list[r.Token]) -> bool:
    """"Still" before a word of being changed, or a word of maintenance: the words are read
    (the answer never names them as not understood). Up to two words may stand between
    ("still being worked on", "still actively developed", "still getting commits")."""
    found = False
    for i, token in enumerate(tokens):
        if token.norm == "still" and (end := _still_end(tokens, i)) is not None:
            for t in tokens[i : end + 1]:
                t.free = False
            found = True
        elif token.norm in _STILL_WORDS:
            found = True
    return found


def _still_end(tokens: list[r.Token], i: int) -> int | None:
    """Where the words "still" at `i` asks about end: the first word of being changed within
    three words, through the words of it that follow ("still under active development")."""
    for j in range(i + 1, min(i + 4, len(tokens))):
        if tokens[j].norm in _STILL_AFTER:
            while j + 1 < len(tokens) and tokens[j + 1].norm in _STILL_AFTER:
                j += 1
            return j
        if tokens[j].norm not in _STILL_BETWEEN:
            return None
    return None


_MORE_OR_LESS = frozenset({"more", "less", "fewer", "than"})
_THAN = re.compile(r"\b(?:than|compared\s+(?:to|with)|vs\.?|versus)\s+(?:in\s+|during\s+)?$")


def comparison(
    text: str,
    time: tp.TimeMatch,
    now: datetime,
    intent: Intent,
    kinds: list[FactKind],
    tokens: list[r.Token],
) -> tuple[tp.TimeMatch, tuple[datetime, datetime] | None, Intent, list[FactKind]]:
    """A question about how much something changes, comparing now with a period ("is X
    changing more than last year?", "has X changed more compared to last month?"): the time
    read, the period compared with, the intent (trend) and the fact kinds (all: the answer
    compares its lines and commits, engine/questions/compared.py)."""
    words = {t.norm for t in tokens}
    listed = intent == Intent.WHAT_CHANGED and bool(words & (_MORE_OR_LESS - {"than"}))
    changes = set(kinds) <= v.CHANGE_KINDS or listed
    if not (intent in {Intent.STATUS, Intent.TREND} or listed) or not changes:
        return time, None, intent, kinds
    found = _compared(text, time, now)
    if found is None:
        return time, None, intent, kinds
    time, base = found
    if base is None:
        return time, None, intent, kinds
    for token in tokens:  # "more or less than": read
        token.free = token.free and token.norm not in _MORE_OR_LESS
    return time, base, Intent.TREND, [k for k in kinds if k in v.CHANGE_KINDS]


def direction(
    time: tp.TimeMatch | None,
    now: datetime,
    intent: Intent,
    kinds: list[FactKind],
    tokens: list[r.Token],
) -> tuple[datetime, datetime] | None:
    """Which way something moved over the time read ("did commits to X go up in 2026?", "has
    X's activity dropped since march?", "is X getting more or fewer commits?"): compared with
    the period as long, just before it (the time read counted up to now when it is under way),
    through the commits and lines of both (engine/questions/compared.py). They were answered
    with one window's total, or its health, and the direction asked was never given. The
    period compared with; None when no time with a start was read or something other than
    changes is asked."""
    if intent != Intent.TREND or time is None or time.start_at is None:
        return None
    if not kinds or not set(kinds) <= v.CHANGE_KINDS:  # "which files changed?": no count
        return None
    end = min(time.end_at or now, now)
    for token in tokens:  # "more or fewer": the direction asked, read
        token.free = token.free and token.norm not in _MORE_OR_LESS - {"than"}
    return preceding(time.start_at, end)


def _compared(
    text: str, time: tp.TimeMatch, now: datetime
) -> tuple[tp.TimeMatch, tuple[datetime, datetime] | None] | None:
    """"Is X changing more than last year?": the period named after "than" is what the time
    since its end (this year so far) is compared with, when it has ended and that time is no
    longer than it. The time read instead, and the period (None: not compared, as the time's
    note says). None when no period is named after "than"."""
    start, end = time.start_at, time.end_at
    if start is None or end is None or not _THAN.search(text[: time.start].lower()):
        return None
    phrase = text[time.start : time.end]
    if end > now or now - end > end - start:  # answered for the phrase's own time, and said
        note = f'"{phrase}" is not compared with the time since it (longer than it, or not over)'
        return replace(time, note=note), None
    note = f'"{phrase}" ({tc.iso(start)} to {tc.iso(end)}) is what the time since is compared with'
    since = replace(time, as_of=None, start_at=end, end_at=None, note=note, period=None)
    return since, (start, end)


# "Who changed core.py more, X or Y?", "X vs Y commits": people compared (on a subject,
# engine.resolving.together says it is not computed instead of offering one of them; alone,
# each one's commits, the most first: engine/questions/count.py, who.py).
_COMPARING = re.compile(
    r"\b(?:more|most|less|fewer|fewest|least)\b.*\bor\b|\bor\b.*\b(?:more|most|less|fewer)\b"
    r"|\b(?:vs|versus)\b",  # "David Lord vs pgjones commits in 2025"
    re.IGNORECASE,
)


_THAN_NAME = re.compile(
    r"\b(?:more|less|fewer)\s+(?:(?:commits|changes|contributions)\s+)?than\s+(?:the\s+)?",
    re.IGNORECASE,
)


def compares(text: str, references: tuple[str, ...] = ()) -> bool:
    """Whether the question compares choices ("more ... or", "or ... fewer"), or names one
    after "more than" ("did X commit more than Y?")."""
    if _COMPARING.search(text) is not None:
        return True
    return any(
        text[m.end() :].lower().startswith(ref.lower())
        for m in _THAN_NAME.finditer(text)
        for ref in references
    )


# "When did X first change?", "who first committed to X?", "the first commit to X", "the
# earliest change", "when was X added?": the first change (engine/questions/firstchange.py).
_FIRST = v.FIRST_WORDS  # "first-ever": one word
# Between the first-word and the change word: "ever" ("the first ever commit to X", read as
# asking when "first ever" was: not understood as a time) and the words of a name ("the first
# click commit" was a count of the whole history), as asks_last reads them.
_FIRST_BETWEEN = frozenset({"ever"})
_FIRST_OF = v.CHANGE_VERBS | v.CHANGE_NOUNS | {
    "commit", "committed", "change", "contribution", "contributor", "contributors",
    "committer", "committers", "author", "authors", "time", "added", "created", "introduced",
    "appeared", "written", "wrote", "edit", "version", "person",
}  # fmt: skip
# Nouns of a first-word no other rule reads: "the first version of sessions.py" is its
# first change, and "version" no name (it was read as src/requests/__version__.py).
_FIRST_NOUNS = frozenset({"version", "versions", "revision", "draft", "iteration"})
_MADE = frozenset({"added", "created", "introduced", "born", "written"})
# "Who created _termui_impl.py?", "who added wsgi.py?": made, the first change (it ended,
# "created" said not read so). Not when something else is made: "who added tests to X" (in
# X), "who created the most issues" (a ranking of records, never the first change).
_WHO_MADE = frozenset({"created", "added", "introduced", "originated", "founded", "started"})
_MADE_IN = frozenset({"to", "in", "into", "for", "on", "at"}) | v.LAST_WORDS
_MADE_ELSE = frozenset({"most", "more", "many", "fewest", "issue", "issues", "ticket"}) | {
    "tickets", "bug", "bugs", "pr", "prs", "pull", "branch", "branches", "tag", "tags", "test",
    "tests", "feature", "features", "option", "options", "support",
}  # fmt: skip


# "When did X start contributing?", "when did X begin committing to Y?": X's first change. A
# start word in a "when" question with a verb of doing within two words after it ("start to
# commit"); never "who started the project" (made: _WHO_MADE) nor a start alone ("when does
# the sprint start?").
_START = frozenset({"start", "started", "starting", "begin", "began", "beginning", "begun"})
_STARTED = DOING_VERBS | _FIRST_OF


def asks_first(
    tokens: list[r.Token], readable: list[r.Token], named: frozenset[str] = frozenset()
) -> r.Token | None:
    """The word asking for the first change (None: it is not asked), taken in both lists
    (never said as a ranking not computed): a first-word outside any time phrase ("the
    first week of May" is one), in a "when" question or before a change word ("first
    committed", "the first commit", "who was the first to commit"); or a "when" question
    asking when something was made ("when was X added?")."""
    at = _first_word(tokens, named)
    if at is None:
        return None
    tokens[at].free = readable[at].free = False
    came = origins.coming(tokens)  # "first show up": the verb of coming into being too
    for i in range(*came) if came is not None else ():
        tokens[i].free = readable[i].free = False
    return tokens[at]


def first_nouns(tokens: list[r.Token]) -> None:
    """Takes the noun of "the first version of X" ("the earliest revision") before names are
    looked up: it is the first change's, no name ("version": attrs' _version.py, requests'
    __version__.py)."""
    for before, token in pairwise(tokens):
        if token.free and token.norm in _FIRST_NOUNS and before.norm in _FIRST:
            token.free = False


def own_first(tokens: list[r.Token], i: int) -> bool:
    """ "Who made their first commit this year?", "which people committed for the first
    time in 2026?": each person's own first change falling in the window (people new to
    the subject), not the window's first change, which was answered in their place."""
    before = [t.norm for t in tokens[max(i - 2, 0) : i]]
    after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
    return before[-1:] == ["their"] or (before == ["for", "the"] and after == "time")


def first_and_last(tokens: list[r.Token], at: int) -> bool:
    """ "first and last change", "first and latest commit": both asked, at `at`'s word
    (engine/questions/firstlast.py answers them over a window named)."""
    after = [t.norm for t in tokens[at + 1 : at + 4]] + ["", "", ""]
    return after[0] == "and" and after[1] in v.LAST_WORDS and after[2] in _FIRST_OF


def _named(norm: str, named: frozenset[str]) -> bool:
    """A token of a name: a file's is one token of several words ("termui py" of
    "termui.py": "first termui.py change after xmas" was "a first that is not of a change")."""
    return bool(norm) and set(norm.split()) <= named


def _first_word(tokens: list[r.Token], named: frozenset[str]) -> int | None:
    when = bool(tokens) and tokens[0].norm == "when"
    who = bool(tokens) and tokens[0].norm == "who"
    for i, token in enumerate(tokens):
        if not (token.free and token.norm in _FIRST):
            continue
        j = i + 1
        while j < len(tokens) and (
            tokens[j].norm in _FIRST_BETWEEN or _named(tokens[j].norm, named)
        ):
            j += 1  # "the first ever click commit": "ever" and the name stand between
        after = [t.norm for t in tokens[j : j + 2]] + ["", ""]
        before = tokens[i - 1].norm if i else ""
        if not when and own_first(tokens, i):
            continue  # each person's own first: newcomers (engine.reading.wordrules)
        if when or after[0] in _FIRST_OF or (after[0] == "to" and after[1] in _FIRST_OF):
            return i
        if first_and_last(tokens, i):  # "the first and last change to X in 2025"
            return i
        if who and (before in _FIRST_OF or i == len(tokens) - 1):  # "who committed first"
            return i
    for i, token in enumerate(tokens):
        started = {t.norm for t in tokens[i + 1 : i + 3]} & _STARTED
        if when and token.free and token.norm in _START and started:
            return i
    came = origins.coming(tokens)  # "when did X show up?": when it came to be (origins.py)
    if came is not None and not {t.norm for t in tokens} & v.LAST_WORDS:
        return came[0]
    made = [i for i, t in enumerate(tokens) if t.free and t.norm in _MADE]
    if when and made and not {t.norm for t in tokens} & v.LAST_WORDS:
        return made[0]
    if who and len(tokens) > 2 and tokens[1].free and tokens[1].norm in _WHO_MADE:
        free = {t.norm for t in tokens[2:] if t.free}  # a time's "in 2014" is no place
        rest = {t.norm for t in tokens[2:]}
        return None if free & _MADE_IN or rest & (_MADE_ELSE | v.FACT_VOCABULARY.keys()) else 1
    return None


_LAST_OF = v.CHANGE_VERBS | {"commit", "commits", "committed"}
# "the last non-bot commit": the last change asked, the bots left out (engine.reading.bots
# reads the word); it was a count of the whole history, asked again for 400 days.
_NON_BOT = frozenset({"non bot", "non bots"})
# "The latest changes to X", "the most recent commits": a list of recent changes (newest
# first, over the default window: intent what_changed), not the one last change, which
# engine/questions/lastchange.py finds alone at any age (`one`); a "when" question asks
# for the last one whatever follows.
_LAST_MANY = frozenset(
    {"commits", "changes", "contributions", "edits", "updates", "modifications", "patches"}
    | {"revisions", "prs", "additions", "fixes"}
)


def asks_last(
    tokens: list[r.Token], named: frozenset[str] = frozenset(), *, one: bool = False
) -> bool:
    """ "When did X last commit?", "when was X last changed?", "the latest (most recent)
    change to X", "the last commit by X", "last time X committed": a last-word outside any
    time phrase ("last week" is one), in a "when" question or right before a change word,
    the words of a name (NAMED) between them ("latest werkzeug commit?", "last requests
    commit": they were a count or the people of the whole history). `one`: the one last
    change, not the latest changes ("the latest commits to X": a list)."""
    for i, token in enumerate(tokens):
        if not (token.free and token.norm in v.LAST_WORDS):
            continue
        j = i + 1
        while j < len(tokens) and (tokens[j].norm in named or tokens[j].norm in _NON_BOT):
            j += 1  # "the last werkzeug commit", "the last non-bot commit": between
        after = tokens[j].norm if j < len(tokens) else ""
        if token.norm == "recent" and (i == 0 or tokens[i - 1].norm != "most"):
            continue  # "recent changes to X" are a list; "the most recent change" is one
        if one and tokens[0].norm != "when" and after in _LAST_MANY:
            continue
        if tokens[0].norm == "when" or after in _LAST_OF or after == "time":
            return True
    return False
