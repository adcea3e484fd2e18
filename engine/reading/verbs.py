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
)
# Forms of fact words that are verbs only ("committed to X", "churned"): the fact words
# themselves ("commits", "churn") stay fact words.
_FACT_VERB_FORMS = frozenset({"committed", "committing", "churned"})

CHANGE_VERBS: frozenset[str] = frozenset().union(*map(forms, CHANGE_ROWS)) | _FACT_VERB_FORMS

# Nouns naming changes, besides the verbs' own ("edits", "fixes", "updates"): what a ranking
# or a list of changes is asked by ("which files saw the most modifications?").
CHANGE_NOUNS = frozenset(
    {"modifications", "modification", "revisions", "revision", "contributions", "edits"}
    | {"refactors", "refactorings", "rewrites", "tweaks", "patches", "commits", "changes"}
    | {"attention", "cleanups", "cleanup"}
)

# Light verbs: beside a change noun they say nothing more ("saw the most edits", "received
# the most commits", "underwent the most changes").
LIGHT_VERBS = frozenset(
    {"see", "sees", "saw", "seen", "seeing", "receive", "receives", "received", "receiving"}
    | {"undergo", "undergoes", "underwent", "undergone", "experience", "experienced"}
    | {"attract", "attracted", "attracts", "gets", "gotten", "went", "gone", "goes", "into"}
)
# How much or how often: "touched most often", "still actively developed".
ADVERBS = frozenset(
    {"often", "frequently", "heavily", "actively", "regularly", "constantly", "repeatedly"}
    | {"intensively", "busily", "steadily"}
)
# Superlatives that rank subjects by their changes without a change word ("the busiest
# modules", "the hottest files").
BUSIEST = frozenset({"busiest", "hottest", "liveliest"})
