"""Word rows about how big or how many (engine/reading/wordrules.py holds the rows).

The size of a subject (its lines of code now) is not recorded here.

"The biggest contributors", "the main committers": the people ranked by their commits, the
most active first (each one's changed lines beside), said; "biggest" was tried as a name when
the question named nothing else, and the question ended on it.

"Anything big in auth in 2017?", "any major changes to X?": the window's changes listed, with
their lines in all; no change is judged big or small here, said. The question ended on "big"
as asking nothing read.

"Who has exactly one commit?", "which people made only one commit to X?": a threshold on each
person's count, not computed (a "who" answer ranks the most active, at most five); the
question ends naming it. It ended on "one" as a verb not understood, or as a name.
"""

from __future__ import annotations

from engine.domain.contract import PEOPLE_LISTED
from engine.reading.time.calendar import count_of
from engine.reading.vocabulary import CHANGE_VERBS, LINE_SIDES, NEWCOMERS, Intent
from engine.reading.wordrow import At

# "how many lines of code are in attrs?", "the codebase in loc": a subject's size now
_LOC = frozenset({"loc", "sloc"})
SIZE_NOTE = (
    "the size of a subject (its lines of code) is not recorded here: the history gives the "
    'lines changed over a period ("how many lines changed in X in 2026?").'
)


def subject_size(a: At) -> bool:
    """ "How many lines of code are in attrs?": its size, never the lines changed over the
    default year, which answered it (21,993 lines changed in attrs). Not with a word of
    change ("lines of code added to X in May" are changed lines)."""
    of_code = a.word in {"line", "lines"} and a.words[a.i + 1 : a.i + 3] == ["of", "code"]
    changed = (CHANGE_VERBS | LINE_SIDES).intersection(a.words)
    return (of_code or a.word in _LOC) and not changed


# Words of size that rank people by how much they did ("the biggest contributors").
PEOPLE_SIZES = frozenset(
    {"biggest", "largest", "major", "main", "leading", "chief", "principal", "heaviest"}
)
PEOPLE_SIZES_NOTE = (
    "read as the most active: the people ranked by their commits, most first, each one's "
    'changed lines given beside (ask "by lines changed" to rank them by lines).'
)
# Words asking whether any change was big ("anything big in X?"); "biggest" ranks changes by
# size, which ends (the "sizes" row).
BIG = frozenset(
    {"big", "major", "significant", "notable", "noteworthy", "large", "huge", "important"}
    | {"substantial", "interesting", "serious"}
)
BIG_NOTE = (
    "no change is judged big or small here: the window's changes are listed, newest first "
    "(each one's date, author and message), with the lines changed in all, for the reader "
    "to judge."
)
# "exactly one commit", "only 2 commits", "just one commit", "a single commit".
_HELD = frozenset({"exactly", "only", "just", "precisely"})
_COUNTED = frozenset({"commit", "commits", "change", "changes", "contribution", "contributions"})
HELD_NOTE = (
    "a count held to a figure (people with exactly N commits) is not computed: a \"who\" "
    "answer ranks the most active people and lists at most five. Ask \"who committed to X "
    'in <period>?" for each one\'s count, or ask about one person.'
)


def people_sized(a: At) -> bool:
    """ "the biggest contributors" in a question asking who."""
    return a.intent == Intent.WHO and a.word in PEOPLE_SIZES and a.after in NEWCOMERS


def big_changes(a: At) -> bool:
    """ "anything big in X?", "any major changes to X?": its changes asked for."""
    return a.intent == Intent.WHAT_CHANGED and a.word in BIG


# People of one commit named by a word: "how many one-off contributors this yr" ended on
# "one-off" not understood (z38b r9); the count held to one commit is not computed either.
ONE_OFF = frozenset({"one off", "one time", "drive by", "oneoff", "onetime"})


def held_count(a: At) -> bool:
    """ "exactly one commit", "only 2 commits", "a single commit", "one-off contributors"."""
    if a.word in ONE_OFF:
        return True
    if a.word == "single":
        return a.after in _COUNTED
    following = a.words[a.i + 2] if a.i + 2 < len(a.words) else ""
    return a.word in _HELD and _number(a.after) and following in _COUNTED


def held_extent(a: At) -> tuple[int, int]:
    """From the word through the noun counted ("exactly one commit")."""
    last = a.i + (0 if a.word in ONE_OFF else 1 if a.word == "single" else 2)
    last = min(last, len(a.free) - 1)
    return a.free[a.i].start, a.free[last].end


def _number(word: str) -> bool:
    try:
        return count_of(word) > 0
    except ValueError:
        return False


# "the full contributor ranking", "a complete list of contributors", "who committed? all of
# them": every person. "full" and "complete" ended it as words not understood (z39a A8), then
# as a list not given (wave 40: a "who" answer listed PEOPLE_SHOWN). A "who" answer not asking
# who led lists everyone up to PEOPLE_LISTED, above it the first of them and how many in all,
# said (engine/questions/who.py): the words are read, and the list's reach is said beside.
_WHOLE = frozenset({"full", "complete", "entire", "exhaustive"})
_WHOLE_OF = frozenset({"list", "listing", "ranking", "rankings", "breakdown", "leaderboard"})
_THEM = frozenset({"them", "those", "these"})
WHOLE_PEOPLE_NOTE = (
    f"everyone who committed is listed, most commits first, up to {PEOPLE_LISTED} people; "
    f"above that the first {PEOPLE_LISTED} and how many there were in all."
)


def whole_people(a: At) -> bool:
    """ "the full contributor ranking", "a complete list of contributors", "all of them" in
    a question asking who."""
    if a.intent != Intent.WHO:
        return False
    following = a.words[a.i + 2] if a.i + 2 < len(a.words) else ""
    if a.word == "all":
        return a.after == "of" and following in _THEM
    return a.word in _WHOLE and (a.after in _WHOLE_OF | NEWCOMERS or following in _WHOLE_OF)


def whole_people_extent(a: At) -> tuple[int, int]:
    """ "all of them": through "them"; else the word alone."""
    last = a.i + 2 if a.word == "all" else a.i
    return a.free[a.i].start, a.free[min(last, len(a.free) - 1)].end


# "who else changes the same files as Rebecca Chen?", "who works on the same code as Tin
# Tvrtković?": the people who changed what a person changed (co-changers), not computed here.
# It was answered (outcome ANSWERED) with a judgment saying who a person works with is not
# computed (z40a A-C03 and three more, on all four histories): another outcome than what was
# given. The question ends, naming what is not computed and the questions that are.
_SAME_THINGS = frozenset({
    "files", "file", "code", "modules", "module", "areas", "area", "parts", "packages",
    "paths", "places", "things", "stuff", "components",
})  # fmt: skip
CO_CHANGERS_NOTE = (
    "who else changed the files a person changed (their co-changers) is not computed here. "
    'Ask "which files did <person> change most in <period>?", then "who changed <file> in '
    '<period>?" for each.'
)


def co_changers(a: At) -> bool:
    """ "the same files as X", "the same code as X" in a question asking who."""
    return (
        a.intent == Intent.WHO and a.word == "same" and a.after in _SAME_THINGS
        and "as" in a.words[a.i + 2 :]
    )  # fmt: skip
