"""Word rows about verbs: verbs read as another one, roles no history records, verbs of
making something, and the verb of the question (engine/reading/wordrules.py holds the rows).

Verbs read as another one: what git records is who authored a commit, and the commits of the
branch imported. "pushed" is read as authored: who pushed a commit is not in the history.
"landed" is read as committed: "how many commits landed in 2025?" named "landed" as not
understood; the commits of the branch imported are the ones that landed, counted by author
time (no landing time is kept).

The verb of the question: a word standing where it is due ("who X core.py?", "how many
people X ...", a command's first word before what it acts on: "frobnicate the termui
module") that no row reads and no name holds ends the question, named; it was answered as
who changed the subject (or its health), the word said unused. One slip of the keys from a
verb's form ("chnaged") is read as it, said (engine/reading/verbs.py: `verb_slot`,
`misspelt`).
"""

from __future__ import annotations

from engine.reading import references as r
from engine.reading.time.calendar import NUMBERS, TIME_WORDS
from engine.reading.verbs import misspelt, verb_slot
from engine.reading.vocabulary import (
    FILLERS,
    LEADS_SPELT,
    LINE_WORDS,
    NEWCOMERS,
    NOT_NAMES,
    Intent,
)
from engine.reading.wordrow import At

_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "my", "our", "all"})
PUSHES = frozenset({"push", "pushed", "pushes", "pushing"})
PUSH_NOTE = (
    "read as authored: who pushed a commit is not in the history, only who authored it "
    "(a push is not recorded by git)."
)
# Roles no history here records: git keeps who authored a commit, a pull request who opened
# and merged it, never who reviewed or approved it. "Who reviewed parser changes?" was
# answered as who changed the parser, "reviewed" said unused: another question.
UNRECORDED_ROLES = frozenset(
    {"reviewed", "reviewing", "approved", "approving", "triaged", "triaging", "vetted"}
    | {"audited", "auditing", "okayed", "greenlit", "signed-off"}
)
ROLE_NOTE = (
    "not recorded: the history keeps who authored each change, never who reviewed or approved "
    'it; answering who changed it would answer another question (ask "who changed X?").'
)
# Verbs of making something ("who added core.py?", "who created the parser?"): the first
# change, as "first" asks (the row after it reads the verb only where a verb is due).
CREATION = frozenset(
    {"created", "creates", "create", "creating", "added", "adds", "introduced", "introduces"}
    | {"founded", "originated", "initiated", "invented", "started", "starts"}
)
CREATION_NOTE = (
    'who made or added something is not read as its first change here ("who added tests to '
    'X" asks who changed it). Ask "who first committed to X?" or "when was X added?" for its '
    "first change."
)
# "how many came from bots?", "which commits come from Hynek?": from whom they came is who
# authored them, read as "by" is (engine/reading/wordrules.py, "came from").
CAME = frozenset({"came", "come", "comes", "coming"})
LAND_NOTE = (
    "read as committed: every commit imported is in the history of the branch imported, so "
    "it has landed; commits are counted by their author time (when each one landed, its merge "
    "or commit time, is not recorded)."
)


def in_verb_slot(a: At) -> bool:
    """The word stands where the verb of a question asking who acted is due ("who X
    core.py?", "how many people X core.py?"), or opens it before what it acts on, as a
    command's verb does ("frobnicate the termui module", "blorp werkzeug"), and no rule read
    it: not a verb of a row, a fact or stop word, nor a name (its tokens are not free)."""
    token = a.free[a.i]
    if a.asker or not r.content(token) or token.norm in FILLERS | NOT_NAMES:
        return False  # "who can help with X?": whom to ask (engine.reading.meaning reads it)
    if " " in token.norm or "_" in a.text[token.start : token.end]:
        return False  # "pre-commit config changes", "_dunders removed": no verb
    if token.norm in NUMBERS or token.norm.isdigit():
        return False  # "who has exactly one commit?": a number is no verb
    at = verb_slot([LEADS_SPELT.get(t.norm, t.norm) for t in a.tokens], NEWCOMERS)
    if at is not None and a.tokens[at] is token:
        return not _named_after_be(a, at)
    after = a.tokens[1] if len(a.tokens) > 1 and a.tokens[0] is token else None
    if after is not None and (after.norm[:1].isdigit() or after.norm in TIME_WORDS):
        return False  # "hynek 2024 vs 2025 commits": a name before its time, no command
    return after is not None and (after.norm in _DETERMINERS or not after.free)


# "who is Ada Lovelace?": after a form of "be", a capitalised word is who is asked about, no
# verb ("Ada" was said not understood as a verb, though the question names a person no history
# here knows: engine/resolving/nobody.py says so).
_BE = frozenset({"is", "was", "are", "were"})


def _named_after_be(a: At, at: int) -> bool:
    """The verb slot's word follows "is"/"was" and is written as a name (capitalised)."""
    first = a.text[a.tokens[at].start : a.tokens[at].start + 1]
    return at > 0 and a.tokens[at - 1].norm in _BE and first.isupper()


def misspelt_verb(a: At) -> bool:
    return in_verb_slot(a) and misspelt(a.word) is not None


# Lines added (or removed) by each person: the people's lines are counted added and removed
# together, so "who added the most lines?" ranked by lines changed answered another question.
_ADDING = frozenset(
    {"add", "adds", "added", "adding", "remove", "removes", "removed", "removing", "delete"}
    | {"deletes", "deleted", "deleting", "wrote", "write"}
)
LINES_EACH_NOTE = (
    "lines added or removed by each person are not counted apart here: each person's lines "
    'changed (added and removed together) are. Ask "who changed the most lines ...?" for '
    'those, or "how many lines were added to X ...?" for a subject\'s lines added.'
)


def lines_each(a: At) -> bool:
    """A person's lines added or removed asked ("who added the most lines?", "how many lines
    did each person add?"): a "who" question about lines with a verb of adding."""
    return a.word in _ADDING and a.intent == Intent.WHO and bool(LINE_WORDS & set(a.words))
