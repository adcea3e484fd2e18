"""Words that change what a question asks, and that no rule here computes.

Stop words are skipped when names are read, but some of them turn the question into another
one: "who made the FIRST commit to X?" is not "who changed X most?", "who changed X BUT NOT
Y?" is not "who changed X or Y?", "how many NEW contributors?" is not "how many
contributors?", "commits PER MONTH" is not one total, "what did I change?" is not the whole
organisation's changes. Answering the question without the word answers a different one, so
such a question ends with a stated limitation naming the word (`Unasked.ends`). Words that
only qualify an answer that is still right ("why did X change?": what changed is known, why
is not recorded) are said beside the answer.

Each rule reads the free tokens (not quoted, not a time phrase, not part of a known name),
so "the first week of May" (a time phrase) and a person named "First" are not caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.domain.contract import PEOPLE_SHOWN as SHOWN
from engine.reading import references as r
from engine.reading.time.calendar import TIME_WORDS, count_of
from engine.reading.vocabulary import CHANGE_VERBS, Intent
from engine.reading.wordrules import READ_AS, least_note, weekday_note

# Intents that answer over one window with counts or lists: the ones a changed meaning breaks.
_COUNTING = frozenset({Intent.WHO, Intent.COUNT, Intent.WHAT_CHANGED, Intent.WHICH})
_FIRST = frozenset({"first", "earliest", "oldest"})
_NEGATION = frozenset({"not", "never", "except"})
_NEWCOMERS = frozenset(
    {"contributor", "contributors", "people", "person", "committers", "committer", "authors"}
    | {"engineers", "developers", "members", "folks", "faces", "hires", "joiners"}
)
_PERIODS = frozenset({"day", "week", "month", "quarter", "year", "days", "weeks", "months"})
_PERIODIC = frozenset({"daily", "weekly", "monthly", "quarterly", "yearly", "annually"})
_SELF = frozenset({"i", "my", "mine", "myself"})
_OBJECT_ME = frozenset({"tell", "show", "give", "let", "help", "get", "find"})  # "show me"
_SIZES = frozenset({"biggest", "largest", "smallest", "heaviest"})
_RANKS = frozenset({"top", "most", "biggest", "busiest", "main", "leading", "largest"})
_COMPARED = frozenset({"more", "less", "fewer"})
_LISTED = frozenset({"file", "files", "module", "modules", "package", "packages"})
_TOUCHED = CHANGE_VERBS | {"deleted", "removed", "added", "renamed", "created", "moved"}


@dataclass(frozen=True, slots=True)
class Unasked:
    """A phrase of the question (verbatim) whose meaning is not computed, the limitation the
    answer states, and whether answering without it would answer another question."""

    phrase: str
    note: str
    ends: bool = True


def unasked(
    text: str, tokens: list[r.Token], intent: Intent, references: Sequence[str]
) -> tuple[Unasked, ...]:
    """The phrases of `text` that change what it asks and are not computed, in order;
    `references`: the names the question gives."""
    named = bool(references)
    found: list[Unasked] = []
    free = [t for t in tokens if t.free]
    words = [t.norm for t in free]
    asker = _asker(text, free, intent)
    found += asker
    for i, token in enumerate(free):
        word, after = token.norm, words[i + 1] if i + 1 < len(words) else ""
        before = words[i - 1] if i else ""
        phrase = text[token.start : token.end]
        if word == "t" and before.endswith("n"):  # "hasn't", "didn't": a negation
            word, phrase = "not", text[free[i - 1].start : token.end]
        if word == "except" and _before_a_name(text, token.end, references):
            continue  # "except Kevin": engine.resolving.together leaves him out (or ends, named)
        note = None
        # A negation in a trend too: "which modules didn't change in 2026?" reads "change"
        # as a trend, and the negation went unsaid.
        negated = intent == Intent.TREND and word in _NEGATION
        if intent in _COUNTING or negated or (word in _FIRST and intent != Intent.WHY_BEHIND):
            note = _counting_note(word, before, after, words)
        note = note or least_note(word, before) or weekday_note(word)
        if note is None and intent != Intent.WHO_OWNS:
            note = _listing_note(word, words, named)
        if note is None and after == "than" and _between(word, before, tokens, free[i + 1]):
            note = _BETWEEN_NOTE
        if note is not None:
            if word in {"per", "each", "every", "a"} or word in _COMPARATIVES:
                phrase = text[token.start : free[i + 1].end]
            elif note is _BETWEEN_NOTE:  # "more active than": from "more"
                phrase = text[free[i - 1].start : free[i + 1].end]
            found.append(Unasked(phrase, f'"{phrase}": {note}'))
        elif word in _DEPENDS:
            found.append(_depends(text, free, i))
        elif asker and word in _SELF:
            continue  # "who should I ask about X?": the asker is not what is asked about
        elif word in _SELF or (word == "me" and before not in _OBJECT_ME):
            found.append(Unasked(phrase, f'"{phrase}": {_SELF_NOTE}'))
        elif word == "both" and _of_people(intent, words) and after not in TIME_WORDS and not named:
            found.append(Unasked(phrase, f'"{phrase}": {_BOTH_NOTE}'))
        elif word == "why" and intent != Intent.WHY_BEHIND:
            found.append(Unasked(phrase, f'"{phrase}": {_WHY_NOTE}', ends=False))
        elif word in READ_AS:
            found.append(Unasked(phrase, f'"{phrase}": {READ_AS[word]}', ends=False))
    return tuple({u.phrase.lower(): u for u in found}.values())


def _before_a_name(text: str, at: int, references: Sequence[str]) -> bool:
    rest = text[at:].lstrip().lower()
    rest = rest.removeprefix("the ")
    return any(rest.startswith(ref.lower()) for ref in references)


_DEPENDS = frozenset(
    {"depend", "depends", "depending", "dependency", "dependencies", "dependent", "dependents"}
)
_DEPENDS_NOTE = (
    "what a subject depends on, or what depends on it, is not answered here: the recorded "
    "dependencies are listed by the graph's neighbors query (DEPENDS_ON), not by an "
    "investigation. Ask about the subject's health or changes instead."
)


def _depends(text: str, free: list[r.Token], i: int) -> Unasked:
    """"what does X depend on?", "what depends on X?", "X's dependencies": not computed,
    and answering without the word gave a health summary of X with "depend" dropped."""
    after = free[i + 1] if i + 1 < len(free) else None
    end = after.end if after is not None and after.norm in {"on", "upon"} else free[i].end
    phrase = text[free[i].start : end]
    return Unasked(phrase, f'"{phrase}": {_DEPENDS_NOTE}')


# "who should I ask about X?", "who knows about X?", "who can help with X?": the people who
# know X, read as the people who changed it most (the asker is not what is asked about).
_ASKERS = (
    ("should", "i", "ask"), ("can", "i", "ask"), ("could", "i", "ask"), ("do", "i", "ask"),
    ("should", "i", "talk"), ("can", "i", "talk"), ("should", "i", "contact"),
    ("knows",), ("know",), ("can", "help"), ("could", "help"), ("can", "i", "contact"),
)
_ASKER_NOTE = (
    "read as the people who changed it most in the window, from its contributor records "
    '(who knows a subject is not recorded); its owning team is asked with "who owns X?".'
)


def _asker(text: str, free: list[r.Token], intent: Intent) -> list[Unasked]:
    """The phrase asking whom to turn to, in a "who" question: said beside the answer."""
    words = [t.norm for t in free]
    if intent != Intent.WHO or words[:1] != ["who"]:
        return []
    for shape in _ASKERS:
        n = len(shape)
        if tuple(words[1 : 1 + n]) == shape:
            phrase = text[free[1].start : free[n].end]
            return [Unasked(phrase, f'"{phrase}": {_ASKER_NOTE}', ends=False)]
    return []


def _of_people(intent: Intent, words: list[str]) -> bool:
    """A question about people ("who changed both X and Y?", "how many people changed both
    X and Y?"), where "both" asks for the people of each (an intersection); a count of
    commits "both" made is each one's."""
    return intent == Intent.WHO or (intent == Intent.COUNT and not _NEWCOMERS.isdisjoint(words))


_BOTH_NOTE = (
    "the people who changed every one of several subjects (an intersection) are not "
    "computed: the answer would rank or count everyone who changed any of them. Ask about "
    "each subject in turn."
)
_SELF_NOTE = (
    "a question is not tied to the person asking (no identity is known here), so it is not "
    "answered for anyone: name the person instead."
)
_WHY_NOTE = (
    "the reasons behind changes are not recorded here, only what changed, when and by whom "
    "(a change's own message, where listed, is its author's words): the answer does not "
    "say why."
)


_COMPARATIVES = _COMPARED | frozenset(
    {"busier", "quieter", "bigger", "larger", "smaller", "faster", "slower", "older", "newer"}
    | {"healthier", "riskier", "better", "worse", "higher", "lower", "greater", "hotter"}
)
_BETWEEN_NOTE = (
    "a comparison between subjects is not computed (each one's figures are, asked in "
    "turn); a period is compared with now (\"is X changing more than last year?\")."
)


def _between(word: str, before: str, tokens: list[r.Token], than: r.Token) -> bool:
    """"is core.py busier than types.py?": a comparative ("busier", or "more" and a word:
    "more active", "less often") and "than" followed by a name, not a period (that is
    engine.answering.compared's) nor a number (a threshold: `_counting_note`). It answered with one
    subject's figures, or with both subjects' status, the comparison unsaid."""
    following = next((t for t in tokens if t.start > than.start and t.norm != "the"), None)
    return (
        (word in _COMPARATIVES or before in _COMPARED)
        and before != "or"
        and following is not None
        and following.norm not in TIME_WORDS | {"in", "during", "for", "before"}
        and not following.norm.isdigit()
    )


def _counting_note(word: str, before: str, after: str, words: list[str]) -> str | None:
    """The limitation of a word that changes what a counting or listing question asks."""
    if word in _FIRST:
        return (
            "the earliest change (or first contributor) is not computed: answers count or "
            'list the changes of one window. Ask for the period instead ("who changed X in '
            '2014?").'
        )
    if word in _NEGATION:
        return (
            "leaving subjects or people out (a negation) is not computed; asking without it "
            "would answer another question. Ask about each subject in turn."
        )
    if (word == "new" and after in _NEWCOMERS) or word in {"newcomers", "joined", "joiners"}:
        return (
            "telling new people (whose first change falls in the window) from everyone "
            "active is not computed: the count would be everyone's."
        )
    if (word in {"per", "each", "every", "a"} and after in _PERIODS) or word in _PERIODIC:
        return (
            "a breakdown by period is not computed, only one total for the whole window: "
            'ask for each period in turn ("in March 2025").'
        )
    if word in _SIZES and after not in _NEWCOMERS:  # "the biggest contributors": the top
        return "ranking changes by their size is not computed."
    if word in _COMPARED and after == "than" and before != "or":
        return "a threshold or a comparison between subjects is not computed."
    return None


def _listing_note(word: str, words: list[str], named: bool) -> str | None:
    """"Which files did X change?", "which modules did X touch?": a list of what a subject's
    changes touched (a question naming no subject is answered, or says why, elsewhere:
    engine.resolving.subjectless)."""
    asked = words[:2] in (["which", word], ["what", word])  # the files are what is asked
    if named and asked and word in _LISTED and _TOUCHED.intersection(words):
        return (
            "the files or modules a subject's changes touched are not listed (only counted): "
            'ask "what did X change ...?" for the changes themselves, or about one module.'
        )
    return None


def reread(text: str, tokens: list[r.Token], intent: Intent) -> tuple[Intent, tuple[Unasked, ...]]:
    """The intent a question is answered with, and what the answer says about it: "why did
    X change?" lists the changes themselves (each with its date, author and message), the
    nearest the records come to a reason. ("Who changed X and when?" is two questions:
    engine.reading.clauses.)"""
    words = [t.norm for t in tokens if t.free]
    changed = bool(CHANGE_VERBS.intersection(words))
    if intent not in (Intent.WHY_BEHIND, Intent.WHAT_CHANGED) and words[:1] == ["why"] and changed:
        return Intent.WHAT_CHANGED, ()  # the "why" itself is said by `unasked`
    return intent, ()


def top(text: str, tokens: list[r.Token]) -> tuple[Unasked, ...]:
    """"the top 3 contributors": the number is read, never a name (it was tried as one, or
    said not understood). A who answer lists at most SHOWN people, ranked: the answer says
    which of them the number asks for. Its tokens are taken (no longer free)."""
    for left, right in pairwise(tokens):
        # "top 3", or a number before "most" / "biggest" ("the 2 most active people": "2"
        # was said not understood and 5 listed)
        word, number = (right, left) if right.norm in _RANKS else (left, right)
        count = count_of(number.norm) if number.norm != "a" else 0
        free = word.free or word.norm == "most"  # "most active" is a fact phrase too
        if not (free and number.free and word.norm in _RANKS and count > 0):
            continue
        if word.norm != "top" and word is left:
            continue
        word.free = number.free = False
        phrase = text[left.start : right.end]
        shown = (
            f"the first {count} listed are the top {count}"
            if count <= SHOWN
            else f"only the top {SHOWN} are listed, not {count}"
        )
        note = f'"{phrase}": an answer ranking people lists at most {SHOWN}: {shown}.'
        return (Unasked(phrase, note, ends=False),)
    return ()


def ending(found: tuple[Unasked, ...]) -> tuple[str, ...]:
    """The limitations of a question that ends unanswered (answering it without these words
    would answer another question)."""
    if not any(u.ends for u in found):
        return ()
    return tuple(u.note for u in found)


def notes(found: tuple[Unasked, ...]) -> list[str]:
    """The limitations an answered question states for the words it could not use."""
    return [u.note for u in found if not u.ends]
