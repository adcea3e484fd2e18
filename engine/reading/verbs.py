"""The verbs and nouns a question says "changed" with, as rows: each row a verb's base form,
its irregular forms, and why it is read as a change, its inflections made by one rule
(`forms`), so a verb is one row, never a list of spellings kept by hand in several places.

What they are read as: commits to the subject, whoever authored them. "Who reworked
routing?", "which modules churned the most?", "what was refactored in the debug package?",
"who has been tinkering with wsgi.py?" ask what "who changed", "which changed the most" and
"what changed" ask; git records only that a commit changed a file, never how the author
would describe it (a rewrite, a fix, a refactoring), so no verb here narrows what is counted.
A verb no row knows stays a word nobody read, and the answer names it as not understood.

Light verbs ("which files SAW the most edits", "which modules GOT the most commits") and
adverbs of how much or how often ("touched most OFTEN") carry no meaning of their own beside
a change noun: they are read and said nothing about (vocabulary.STOP_WORDS holds them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

_SIBILANT = ("s", "sh", "ch", "x", "z")
_VOWELS = frozenset("aeiou")


@dataclass(frozen=True, slots=True)
class VerbRow:
    """One verb: its base form, its irregular forms (past, participle), whether its last
    consonant doubles ("commit": committed), and why it is read as changing code."""

    base: str
    irregular: tuple[str, ...] = ()
    double: bool = False
    note: str = "a change to the code"


def forms(row: VerbRow) -> frozenset[str]:
    """The base form and its inflections: -s, -ed, -ing (e dropped, y to i, a consonant
    doubled where the row says so), and the irregular forms (which replace -ed)."""
    base = row.base
    stem = base + base[-1] if row.double else base
    if base.endswith("e"):
        out = {base + "s", base + "d", base[:-1] + "ing"}
    elif base.endswith("y") and base[-2:-1] not in _VOWELS:
        out = {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    else:
        plural = base + "es" if base.endswith(_SIBILANT) else base + "s"
        out = {plural, stem + "ed", stem + "ing"}
    if row.irregular:  # its own past ("made", "rewrote"), never "maked"
        out = {f for f in out if not f.endswith(("ed", "d")) or f in row.irregular}
    return frozenset({base, *out, *row.irregular})


# Verbs of changing code. "commit" and "churn" are fact words too (vocabulary.FACT_VOCABULARY:
# "commits" counts commits, "churn" asks for lines), so only their verb forms are here.
CHANGE_ROWS = (
    VerbRow("change"),
    VerbRow("touch"),
    VerbRow("modify"),
    VerbRow("edit"),
    VerbRow("fix"),
    VerbRow("work"),
    VerbRow("make", ("made",)),
    VerbRow("push"),
    VerbRow("land"),
    VerbRow("rework"),
    VerbRow("refactor"),
    VerbRow("rewrite", ("rewrote", "rewritten")),
    VerbRow("revise"),
    VerbRow("update"),
    VerbRow("alter"),
    VerbRow("tweak"),
    VerbRow("patch"),
    VerbRow("hack"),
    VerbRow("tinker"),
    VerbRow("poke"),
    VerbRow("hammer"),
    VerbRow("overhaul"),
    VerbRow("restructure"),
    VerbRow("revamp"),
    VerbRow("adjust"),
    VerbRow("amend"),
    VerbRow("polish"),
    VerbRow("improve"),
    VerbRow("develop"),
    VerbRow("rewire"),
    VerbRow("reshape"),
    VerbRow("redo", ("redid", "redone", "redoes")),
    VerbRow("fiddle"),
    VerbRow("clean"),
    VerbRow("tidy"),
    VerbRow("ship", double=True, note="shipped code is code committed: what git records"),
)
# Forms of fact words that are verbs only ("committed to X", "churned"): the fact words
# themselves ("commits", "churn") stay fact words.
_FACT_VERB_FORMS = frozenset({"committed", "committing", "churned"})

CHANGE_VERBS: frozenset[str] = frozenset().union(*map(forms, CHANGE_ROWS)) | _FACT_VERB_FORMS

# Verbs of what a person did to code that are no change verbs here ("added" asks a first
# change, "commit" is a fact word): with CHANGE_VERBS, the verbs that end a name read by
# position ("how many lines did hynek add to the docs": "hynek", not "hynek add").
_DOING_ROWS = (
    VerbRow("add"),
    VerbRow("remove"),
    VerbRow("delete"),
    VerbRow("write", ("wrote", "written")),
    VerbRow("author"),
    VerbRow("contribute"),
    VerbRow("create"),
    VerbRow("introduce"),
    VerbRow("commit", double=True),
    VerbRow("merge"),
    VerbRow("rename"),
    VerbRow("move"),
    # "when did hynek start contributing?": the first change (engine.reading.asked); "hynek
    # start" was read as one name
    VerbRow("start"),
    VerbRow("begin", ("began", "begun"), double=True),
)
DOING_VERBS: frozenset[str] = CHANGE_VERBS.union(*map(forms, _DOING_ROWS))

# Nouns naming changes, besides the verbs' own ("edits", "fixes", "updates"): what a ranking
# or a list of changes is asked by ("which files saw the most modifications?").
CHANGE_NOUNS = frozenset(
    {"modifications", "modification", "revisions", "revision", "contributions", "edits"}
    | {"refactors", "refactorings", "rewrites", "tweaks", "patches", "commits", "changes"}
    | {"attention", "cleanups", "cleanup", "history", "changelog"}
)
# Nouns that ask for the changes themselves without a question word ("changes to X last
# friday", "X changes since june", "X's history in 2025"): what changed, never X's health.
LISTED = frozenset({"changes", "history", "changelog"})

# Light verbs: beside a change noun they say nothing more ("saw the most edits", "received
# the most commits", "underwent the most changes").
LIGHT_VERBS = frozenset(
    {"see", "sees", "saw", "seen", "seeing", "receive", "receives", "received", "receiving"}
    | {"undergo", "undergoes", "underwent", "undergone", "experience", "experienced"}
    | {"attract", "attracted", "attracts", "gets", "gotten", "went", "gone", "goes", "into"}
    # "did activity go up or down?": "go" was read as a name and the question ended on it
    | {"go"}
)
# How much or how often: "touched most often", "still actively developed".
ADVERBS = frozenset(
    {"often", "frequently", "heavily", "actively", "regularly", "constantly", "repeatedly"}
    | {"intensively", "busily", "steadily"}
)
# Superlatives that rank subjects by their changes without a change word ("the busiest
# modules", "the hottest files").
BUSIEST = frozenset({"busiest", "hottest", "liveliest"})

# What may stand between a question's lead ("who", "how many people") and its verb:
# auxiliaries, modals, and words of how or when ("who has been", "who else", "who can",
# "who recently"); any word ending in -ly is one too ("who quietly rewrote X").
BEFORE_VERB = frozenset(
    {"has", "have", "had", "is", "was", "were", "are", "be", "been", "being", "s", "ve", "d"}
    | {"did", "does", "do", "should", "would", "could", "can", "will", "might", "must", "may"}
    | {"ll", "else", "all", "ever", "even", "just", "also", "still", "last", "first", "then"}
    | {"most", "mostly", "recently", "actually", "really", "originally", "initially", "got"}
    | {"get", "gets", "getting", "keeps", "kept", "keep", "never", "not", "t", "cannot"}
    | {"didn", "doesn", "don", "hasn", "haven", "hadn", "isn", "wasn", "weren", "aren", "won"}
    | {"couldn", "wouldn", "shouldn"}
)
# The note of a word standing where a verb is due that no row reads and no name holds.
UNREAD_VERB = (
    "not understood: no rule here reads it as a verb (the changes git records are read: "
    "changed, touched, refactored, fixed ...) and it names no subject known here; answering "
    'who changed it would answer another question (ask "who changed X?").'
)


def verb_slot(words: list[str], people: frozenset[str]) -> int | None:
    """Where the verb of a question asking who acted stands among its `words`: after "who",
    or after "how many" or "which" and a noun of `people` ("how many developers ..."), past
    the words of BEFORE_VERB; None when it asks no one."""
    if "who" in words:
        at = words.index("who") + 1
    elif words[:2] == ["how", "many"] and words[2:3] and words[2] in people:
        at = 3
    elif words[:1] == ["which"] and words[1:2] and words[1] in people:
        at = 2
    else:
        return None
    while at < len(words) and (words[at] in BEFORE_VERB or _adverb(words, at)):
        at += 1
    return at if at < len(words) else None


def _adverb(words: list[str], at: int) -> bool:
    """A word ending in -ly with a word after it ("who quietly rewrote X")."""
    return words[at].endswith("ly") and len(words[at]) > 4 and at + 1 < len(words)


def misspelt(word: str) -> str | None:
    """The one verb form of a row `word` is a slip of, for words of six letters or more:
    two letters swapped or one left out ("chnaged": changed, "refactord": refactored), else
    one added, else one mistyped, the first letter kept ("taking" is no slip of "making");
    None when none or several are as near."""
    return nearest(word, (f for f in CHANGE_VERBS if f[:1] == word[:1]))


def nearest(word: str, forms: Iterable[str], *, edges_kept: bool = False) -> str | None:
    """The one word of `forms` that `word` (six letters or more) is a slip of, at the least
    cost (`slip`); None when none or several are as near. `edges_kept`: only slips that
    keep the first and the last letter ("chnages", "comits"; never "taking" for "making" nor
    "released" for "releases", a word of its own)."""
    if len(word) < 6:
        return None
    for cost in (1, 2, 3):
        near = [
            f
            for f in forms
            if abs(len(f) - len(word)) <= 1
            and slip(word, f) == cost
            and (not edges_kept or (f[0], f[-1]) == (word[0], word[-1]))
        ]
        if near:
            return near[0] if len(near) == 1 else None
    return None


def slip(a: str, b: str) -> int:
    """How `a` is `b` with one slip: 1 two letters swapped or one left out, 2 one added, 3
    one mistyped; 0 otherwise (`b` itself too)."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return 3
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1
        return 1 if swapped and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]] else 0
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if not any(long[:i] + long[i + 1 :] == short for i in range(len(long))):
        return 0
    return 1 if short == a else 2
