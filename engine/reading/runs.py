"""Runs of words around what the question names, read once with the question, so nothing
after reading looks at its text again (engine/resolving reads these from the Interpretation).

Words beside a reference (`Beside`): known names are matched longest first, so a phrase
naming something the graph does not know can still match one of its words: "who should
review changes to shell completion?" finds a module named `completion` when nothing is named
`shell completion`. The phrase around a reference is the run of neighbouring content words
(joined by plain spaces; no stop, vocabulary, kind or time word, no other reference, no
filler such as "best") that holds it; the words of the run outside the reference are the
ones no name matched (engine.resolving.unmatchedwords says them, or tells a tie apart by them).

Where a run of words no rule read stands (`Placed`): at the question's start (capitalised as
any first word is), where a person stands in a list or after a word leaving someone out
("David Lord and kevin", "besides jaron"), or after a possessive ("werkzeug's frobnicator"):
engine.resolving.firstnames and engine.resolving.together decide from it whether the run names
someone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.meaning import Unasked
from engine.reading.verbs import DOING_VERBS
from engine.reading.vocabulary import FILLERS, Intent

# Where a word stands for a person ("David Lord and kevin", "besides jaron"): after a list's
# "and"/"or"/comma or a word leaving someone out.
_PERSON_PLACE = r"(?:\b(?:and|or|besides|except|excluding|than|from)|,)\s+"


# Words saying where a subject is ("the modules under src/click"), never a word qualifying
# its name: read as one, "under src/click" named no subject and the question ended (d34's
# rule for words before a name met r34's ranking by lines).
_PLACES = frozenset({"under", "inside", "within", "beneath", "below", "underneath"})


@dataclass(frozen=True, slots=True)
class Beside:
    """A reference inside a longer run of content words: the run, and its other words."""

    reference: str
    phrase: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a run of words no rule read stands in the question (see the module docstring)."""

    run: str
    opens: bool  # the question's first words
    listed: bool  # after "and", "or", a comma, "besides", "except", "excluding", "than", "from"
    possessed: bool  # right after a possessive ("werkzeug's frobnicator")


def _spans_of(text: str, phrases: list[str]) -> list[tuple[int, int]]:
    """Every occurrence of each phrase in the question."""
    out = []
    for phrase in phrases:
        at = text.find(phrase) if phrase else -1
        while at >= 0:
            out.append((at, at + len(phrase)))
            at = text.find(phrase, at + 1)
    return out


def beside(text: str, references: tuple[str, ...], timed: list[str]) -> tuple[Beside, ...]:
    """Each reference that is part of a longer run of content words, with the run and its
    words outside the reference. `timed`: the time phrases read or named (never a word of a
    run)."""
    out = []
    for reference in references:
        found = _beside(text, reference, [x for x in references if x != reference], timed)
        if found is not None:
            out.append(Beside(reference, *found))
    return tuple(out)


def _beside(
    text: str, reference: str, others: list[str], timed: list[str]
) -> tuple[str, tuple[str, ...]] | None:
    taken = _spans_of(text, [*others, *timed])
    read = r.tokens_of(r.blank_quotes(text, r.quoted(text)))
    # A copy of its own, the words of other references and time phrases taken ("the docs
    # other than jaron": "other" too, engine.resolving.together reads it).
    tokens = [
        replace(t, free=not (_within(t, taken) or _other_than(t, after)))
        for t, after in zip(read, [*read[1:], None], strict=False)
    ]
    for start, end in _spans_of(text, [reference]):
        first = next((i for i, t in enumerate(tokens) if t.start == start), None)
        last = next((i for i, t in enumerate(tokens) if t.end == end), None)
        if first is None or last is None:
            continue
        lo, hi = first, last
        while lo > 0 and r.adjacent(text, tokens[lo - 1], tokens[lo]) and _loose(tokens[lo - 1]):
            if tokens[lo - 1].norm in _PLACES:
                break  # "modules under src/click": where, no word of the name
            lo -= 1
        while hi + 1 < len(tokens) and r.adjacent(text, tokens[hi], tokens[hi + 1]):
            if not _loose(tokens[hi + 1]) or tokens[hi + 1].norm in DOING_VERBS:
                break  # "did pgjones add": a verb after a name is no word of it
            hi += 1
        words = tuple(text[t.start : t.end] for t in tokens[lo:first] + tokens[last + 1 : hi + 1])
        if not words:
            return None
        return text[tokens[lo].start : tokens[hi].end], words
    return None


def _within(token: r.Token, spans: list[tuple[int, int]]) -> bool:
    return any(token.start < end and token.end > start for start, end in spans)


def _other_than(token: r.Token, after: r.Token | None) -> bool:
    return token.norm == "other" and after is not None and after.norm == "than"


# Words that rank ("requests top contributors in 2025", "click biggest contributors"): the
# question's own (engine.reading.ranking, intents), never a part of the name before them
# (they made "requests top" a phrase naming no subject, and the question ended).
_RANKS = frozenset({"top", "most", "least", "fewest", "biggest", "busiest", "largest"}) | {
    "leading",
    "main",
    "primary",
}


# The sides of changed lines ("lines added/removed core.py may 2026"): a measure the question
# asks (engine.reading.factphrases reads them with "lines"), never a word of the name beside
# them: "removed core.py" was a phrase naming no subject, and the question ended (z39b B5).
_SIDES = frozenset(
    {"added", "removed", "deleted", "inserted", "insertions", "deletions", "additions"}
    | {"removals"}
)


def _loose(token: r.Token) -> bool:
    return (
        r.content(token)
        and token.norm not in FILLERS
        and token.norm not in _RANKS
        and token.norm not in _SIDES
    )


def placed(text: str, runs: tuple[str, ...]) -> tuple[Placed, ...]:
    """Where each run of words no rule read stands (any of its occurrences)."""
    opening = text.lstrip()
    return tuple(
        Placed(
            run,
            opens=opening[: len(run)] == run,
            listed=re.search(rf"{_PERSON_PLACE}{re.escape(run)}\b", text, re.IGNORECASE)
            is not None,
            possessed=re.search(rf"\w['\u2019]s\s+{re.escape(run)}\b", text) is not None,
        )
        for run in runs
    )


# Words no other rule reads that a question may hold in one place only, naming nothing and
# changing nothing asked there; anywhere else they end the question like any word no rule
# reads (engine.resolving.firstnames.UNKNOWN). The closed list of words passed over anywhere
# is engine.reading.vocabulary's FILLERS and NOT_NAMES.
# "how long since parser.py last changed?": the last change is asked (and answered).
_AFTER_HOW = frozenset({"long"})
# "who were the biggest contributors to click?": a "who" answer ranks them by commits.
_RANKING_PEOPLE = frozenset({"biggest", "busiest", "leading", "largest"})
# "when was serving.py first added?": its first change is asked (engine.reading.asked).
# "when did hynek first contribute?", "when did X start committing?": to contribute or commit
# is to change (no other verb of doing: "first removed" asks another change).
_MADE = frozenset({"added", "created", "introduced", "written"}) | {
    "contribute", "contributing", "contributed", "commit", "committing", "committed",
}  # fmt: skip
# "who else besides David Lord committed?": "else" says what "besides" does
# (engine.resolving.together leaves the person out, or the question ends, named).
_LEAVING_OUT = frozenset({"besides", "except", "apart", "other", "excluding"})
_PEOPLE = frozenset(
    {"contributor", "contributors", "committer", "committers", "author", "authors"}
    | {"developer", "developers", "devs", "people", "maintainers", "maintainer"}
)


def passed_over(text: str, span: tuple[int, int], intent: Intent, first: bool = False) -> bool:
    """A run of words no rule read that is one of the words passed over in their place
    (above)."""
    tokens = r.tokens_of(r.blank_quotes(text, r.quoted(text)))
    at = [i for i, t in enumerate(tokens) if span[0] <= t.start and t.end <= span[1]]
    if len(at) != 1:
        return False
    i = at[0]
    word = tokens[i].norm
    before = tokens[i - 1].norm if i else ""
    after = tokens[i + 1].norm if i + 1 < len(tokens) else ""
    if (word in _AFTER_HOW and before == "how") or (word in _MADE and first):
        return True
    if word == "else" and after in _LEAVING_OUT:  # "who else besides X": X is left out
        return True
    return word in _RANKING_PEOPLE and after in _PEOPLE and intent == Intent.WHO


# "edward g vs kevin in may": the run after (or before) "vs" is the other one compared, a
# name to resolve (a first name several people carry is asked back: engine.resolving
# .firstnames), never a word asking nothing ("kevin" ended the question: z38b c9).
_VERSUS = r"(?:\b(?:vs|versus)\.?\s+{run}\b|\b{run}\s+(?:vs|versus)\b)"


def asks_nothing(
    unread: tuple[str, ...], besides: tuple[Beside, ...], references: tuple[str, ...], text: str
) -> tuple[Unasked, ...]:
    """ "blorp werkzeug quantum", "werkzeug quantum": no question word, fact or health word
    read, and words no rule read beside what it names: the question asks nothing read here,
    and was answered with the subject's health over a default window. Ends, naming them; a
    question naming nothing known says its words through its no match. A run compared with
    "vs" is a name (`_VERSUS`)."""
    if not references:
        return ()
    unread = tuple(
        u for u in unread if not re.search(_VERSUS.format(run=re.escape(u)), text, re.I)
    )
    words = [*unread, *(w for b in besides for w in b.words)]
    if not words:
        return ()
    phrase = " ".join(dict.fromkeys(words))
    return (Unasked(phrase, f'"{phrase}": {v.ASKS_NOTHING}'),)
