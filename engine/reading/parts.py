"""A question asking several things of one subject over one time, read as its parts: "how many
commits went into attrs last month, and who made them?" (a count and who), "routing changes in
2021, how many and by who" (the same, as two question words), "when were X's first and last
commits?" (the first change and the last), "when was X last changed, and who made that
change?" (a last change, whose answer names who made it).

An answer answers one question (engine.reading.clauses): the first of two was answered and the
second said not answered (or, with two question words, dropped), though each part alone is a
question answered here. So each part is written as a question of its own, as the reader
reads it, and all are answered in one result (engine/investigation/parts.py); a part that is
not answered as read here is named with its reason. A later part is completed with the
first's subject and time (its "them", "he", "that change" stand for them). The words standing
for the first part's subject, and the pairs of question words each part is asked with, are
rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.reading import heldparts, laterparts
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

# Words of a later part standing for the first part's subject or its changes ("who made
# them?", "which files did he touch?", "who made that change?"), longest first.
STANDING_FOR = (
    "each of them", "each of those", "both of them", "each", "both", "those commits",
    "these commits", "the commits", "that commit", "that change",
    "those changes", "these changes", "them", "those", "these", "they", "he", "she", "him",
    "it",
)  # fmt: skip
_STANDING = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in STANDING_FOR) + r")\b", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Pair:
    """Two question words asked together, each its own part: the words as written (a
    pattern), the words each part is asked with, what each part must be read as ("first",
    "last", or an intent's value), and whether the parts are of one window (else each is one
    change, at any age)."""

    pattern: str
    written: tuple[str, str]
    reads_as: tuple[str, str]
    one_window: bool


PAIRS = (
    # "first and last commits", "earliest and latest change": one change each, at any age
    # ("latest commits" is a list, so each is asked with "first" or "last")
    Pair(r"(?:first|earliest|oldest)\s+(?:and|&|/)\s+(?:the\s+)?"
         r"(?:last|latest|most\s+recent|final|newest)", ("first", "last"),
         ("first", "last"), one_window=False),
    # "how many and by who", "how many and who made them": a count and who, of one window
    Pair(r"how\s+many\s+(?:and|&)\s+(?:by\s+)?(?:who|whom)", ("how many", "who"),
         (Intent.COUNT.value, Intent.WHO.value), one_window=True),
    Pair(r"(?:by\s+)?(?:who|whom)\s+(?:and|&)\s+how\s+many", ("how many", "who"),
         (Intent.COUNT.value, Intent.WHO.value), one_window=True),
    # A path's making and its deletion ("X first commit and deletion", "X's creation and
    # removal"): each a life event of its own (engine/questions/lives.py),
    # one commit each, at any age; read as one, the first was dropped unsaid (z40b B-W07).
    # Never "lines added and removed": "first commit" or "creation" is written. ("when was
    # X added, and when removed?" is a later part: engine/reading/laterwork.py.)
    Pair(r"(?:first\s+(?:commit|change)|creation)\s+(?:and|&)\s+(?:its\s+|the\s+)?"
         r"(?:deletion|removal)", ("first commit", "deletion commit"), ("", ""),
         one_window=False),
)  # fmt: skip

# The change noun after a first-and-last pair, plural for the two changes: each part asks
# for one.
_PLURAL = re.compile(r"^(\s+(?:commit|change|contribution|edit))s\b", re.IGNORECASE)

# A later part asking only who made, or when was made, the one change the first part's answer
# gives ("..., and who made that change?", "..., and when?"): that answer says both.
_WHO_OR_WHEN = re.compile(
    r"^\W*(?:and\s+)?(?:who|by\s+whom|when|at\s+what\s+time|on\s+what\s+(?:day|date))\b"
    r"(?:\s+(?:made|did|authored|wrote|committed|pushed|landed|was|were))?"
    r"(?:\s+(?:that|this|the|it|them)\b)?"
    r"(?:\s+(?:change|commit|one|made|done|committed|authored|landed))?\W*$",
    re.IGNORECASE,
)
# After a life question ("When was X removed, and who removed it?", "..., and who did that
# work?"): the commit that did it is given with its author, so the "who" is answered (it was
# said not answered: z39a, four answers that named the author). Only a verb of the event
# asked, or one of any ("did", "that work"): "When was X added, and who removed it?" asks of
# another commit, said not answered.
_WHO_DID_IT = re.compile(
    r"^\W*(?:and\s+)?who\s+(?P<verb>\w+)"
    r"(?:\s+(?:it|that|this|them|the\s+move|the\s+split|that\s+work|the\s+work))?\W*$",
    re.IGNORECASE,
)
_ANY_EVENT = frozenset({"did", "done", "started"})
_EVENT_VERBS = {  # the life event (engine/reading/origins.py) each verb names
    "made": {"made", "created", "added", "introduced", "wrote"},
    "removed": {"removed", "deleted", "killed", "dropped"},
    "moved": {"moved", "renamed"},
    "into_src": {"moved"},
    "became": {"split", "converted", "made", "created"},
}


def _who_did_it(rest: str, event: str | None) -> bool:
    """Whether `rest` asks who did the life event asked (`event`), named by its commit."""
    found = _WHO_DID_IT.match(rest) if event else None
    if found is None or event is None:
        return False
    verb = found.group("verb").lower()
    return verb in _ANY_EVENT or verb in _EVENT_VERBS.get(event, set())


# A later part asking over what time the first part's subject was active ("over what period
# was he active?", "how long was she active?", "when was he active?"): its first change and
# its last, at any age.
_ACTIVE = re.compile(
    r"^\W*(?:and\s+)?(?:(?:over|during|for|in)\s+)?(?:what|which|how\s+long|when)\b"
    r"(?:\s+(?:period|years?|time\s*span|span|dates?|time))?"
    r"\s+(?:was|were|has|have|did)\s+(?:he|she|they|it|\w+)\s+(?:been\s+)?"
    r"(?:active|committing|contributing|around)\b\W*$",
    re.IGNORECASE,
)


# What a later part must be read as, by the words it starts with: a part read as anything else
# ("by whom in attrs last month?" read as attrs' health) is another question, not joined.
LATER_READS = (
    (re.compile(r"^\W*(?:and\s+)?(?:by\s+)?(?:who|whom)\b", re.IGNORECASE), Intent.WHO),
    (re.compile(r"^\W*(?:and\s+)?how\s+many\b", re.IGNORECASE), Intent.COUNT),
    (re.compile(r"^\W*(?:and\s+)?(?:which|what)\s+(?:files|modules|folders|directories)\b",
                re.IGNORECASE), Intent.RANKED),
)  # fmt: skip
# A count asked of each of several subjects ("..., and how many lines in each?"): each one's
# figure is what a count of several gives; "in total" (their union) is not, nor a "who".
_EACH = re.compile(r"\beach\b", re.IGNORECASE)


def _each(expected: str, rest: str) -> bool:
    return expected == Intent.COUNT.value and _EACH.search(rest) is not None


# "..., and by whom?": who made the first part's commits, asked in the words read as such.
_BY_WHOM = re.compile(r"^\W*(?:and\s+)?by\s+(?:whom|who)\W*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Parts:
    """The parts of a question, each a question of its own, and how they were read (said
    beside the answer).

    questions: the parts still to ask; `whole`: they are every part (a pair of question
    words), else they follow the question read, which is the first part.
    reads_as: what each must be read as ("first", "last", an intent's value; "" anything).
    one_window: every part is of the first's window (a first and a last change are not).
    named_by_first: the later part asks who made or when was made the one change the first
    part's answer gives; nothing more is asked.
    joins: how a part written by engine/reading/laterparts.py joins the first ("" as any
    part: of the first's subjects; "share": all commits, the share of them the first's count
    is said; "each": one of the first's subjects each; "listed": the first's "who" answer
    lists each person's commits, nothing more is asked).
    """

    questions: tuple[str, ...]
    said: str
    whole: bool = False
    reads_as: tuple[str, ...] = ()
    one_window: bool = True
    named_by_first: bool = False
    joins: str = ""


def read(question: str, understood: Interpretation) -> Interpretation:
    """`understood` with the parts of `question` (None: it asks one thing)."""
    found = _pair(question, understood) or _later(question, understood)
    return understood if found is None else replace(understood, parts=found)


def reads_as(understood: Interpretation, expected: str) -> bool:
    """Whether a part was read as `expected` ("first", "last", an intent's value)."""
    if expected == "first":
        return understood.asks_first
    if expected == "last":
        return understood.asks_last
    return not expected or understood.intent.value == expected


def _pair(question: str, understood: Interpretation) -> Parts | None:
    """Two question words asked together: the question once with each. A first and a last
    change with a time named are of that window, one question (engine/questions/firstlast.py)."""
    if understood.unanswered:
        return None
    for pair in PAIRS:
        found = re.search(rf"\b{pair.pattern}\b", question, re.IGNORECASE)
        if found is None or (not pair.one_window and understood.time_expression is not None):
            continue
        a, b = found.span()
        after = question[b:] if pair.one_window else _PLURAL.sub(r"\1", question[b:], count=1)
        asked = tuple(f"{question[:a]}{w}{after}" for w in pair.written)
        said = f'"{found.group(0)}" read as two questions: "{asked[0]}" and "{asked[1]}".'
        return Parts(asked, said, True, pair.reads_as, pair.one_window)
    return None


def _later(question: str, understood: Interpretation) -> Parts | None:
    """The question after the first, as a question of its own: its word standing for the
    first's subject replaced by that subject as written, the first's time added when it names
    none. None when the first lists changes, or names more than one subject and the later part
    is no count of each (which one a "who made them" stands for is not read, and "in total"
    is their union); a count of each of several ("..., and how many lines were added and
    removed in each?") is asked of them all (it was dropped unsaid when the first began with
    its time)."""
    rest = understood.unanswered
    if not rest:
        return None
    held = heldparts.read(question, rest, understood)  # "..., and who did the most?"
    if held is not None:  # the first's answer holds it (engine/investigation/heldjoins.py)
        return Parts((), held.said, joins=held.joins)
    if understood.asks_last or understood.asks_first or understood.life:
        named = _WHO_OR_WHEN.match(rest) or _who_did_it(rest, understood.life)
        if understood.time_expression is None and named:
            return Parts((), f'"{rest}": the change given names who made it and when.',
                         named_by_first=True)  # fmt: skip
        if not laterparts.asks(rest):  # "..., and when was it last modified?": its row
            return None
    if laterparts.asks(rest):  # "when was his last commit?", ...: its row writes it, or none
        row = laterparts.read(question, rest, understood)
        if row is None:
            return None  # the note that it was not answered stays
        return Parts(row.questions, row.said, reads_as=row.reads_as,
                     one_window=row.one_window, joins=row.joins)  # fmt: skip
    if understood.intent == Intent.WHAT_CHANGED:
        return None
    subject = " and ".join(understood.references)
    if _ACTIVE.match(rest):  # its first and last change, when the first names no time
        if len(understood.references) != 1 or understood.time_expression is not None:
            return None
        asked = (f"when was {subject}'s first commit?", f"when was {subject}'s last commit?")
        said = f'"{rest}" answered as "{asked[0]}" and "{asked[1]}".'
        return Parts(asked, said, reads_as=("first", "last"), one_window=False)
    expected = next((i.value for p, i in LATER_READS if p.match(rest)), None)
    if expected is None or (len(understood.references) > 1 and not _each(expected, rest)):
        return None  # the note that it was not answered stays
    rest = "who committed" if _BY_WHOM.match(rest) else rest
    found = _STANDING.search(rest)
    bare = rest.rstrip(" ?.!")
    if found is not None:
        written = f"{rest[: found.start()]}{subject}{rest[found.end() :]}".rstrip(" ?.!")
    else:
        written = f"{bare} in {subject}" if subject else bare
    written = re.sub(r"^\W*(?:and|but|also)\s+", "", written, flags=re.IGNORECASE)
    if understood.time_expression:
        written = f"{written} {understood.time_expression}"
    written = re.sub(r"\s+", " ", written).strip() + "?"
    said = f'"{understood.unanswered}" answered as "{written}".'
    return Parts((written,), said, reads_as=(expected,))
