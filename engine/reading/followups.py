"""A follow-up by ellipsis in a session ("and in 2026?", "what about werkzeug?", "and last
month?", "what about werkzeug in 2024?"), after a full question: the previous question asked
again with the parts the fragment names in place of the same parts, the rest carried. Read
alone, such a fragment named nothing the question asks ("and in 2026?" ended NO_MATCH, or was
answered over 2026 for the whole organisation, "No subject was named").

Only a fragment is completed: it starts with "and", "what about", "how about" or "same for"
and holds a time phrase, a short name, or both, and nothing else. A question saying its own
subject, time or question is never changed by what was asked before. A name replaces the
previous question's only reference (with several, which one is meant is not said: the fragment
is left as asked); a time replaces its time phrase, or is added when it named none. The answer
says the question it answered (`Followed.note`). The previous question is the actor's own, kept
beside their recent references (engine/resolving/ring.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from engine.reading import earlier
from engine.reading.time import phrases as tp
from engine.reading.time.slots import of_time

# What opens a fragment: "and", "and what about", "what about", "how about", "same for".
_OPENS = re.compile(
    r"^\s*(?:(?:and|but|ok|okay|so)\s*,?\s+)?(?:(?:what|how)\s+about|same\s+(?:question\s+)?for)"
    r"\s+|^\s*and\s+(?:for\s+)?",
    re.IGNORECASE,
)
_END = re.compile(r"[\s?.!]+$")
# Words a fragment naming a subject never holds: it would be a question of its own ("and who
# changed it?", "and did it grow?").
_ASKING = frozenset(
    {"who", "what", "when", "where", "which", "why", "how", "did", "does", "do", "is", "are",
     "was", "were", "has", "have", "had", "can", "could", "should", "will", "would", "it",
     "its", "they", "them", "that", "this", "there", "not", "no", "many", "much", "also"}
)  # fmt: skip
_MOST_WORDS = 4  # a name of a subject is short ("the tests", "src/werkzeug/routing")


@dataclass(frozen=True, slots=True)
class Previous:
    """A full question an actor asked: as written, its time phrase and the references it
    named (engine.reading.interpretation.Interpretation), and where the window its answer
    covered started ("and in the quarter before that?" ends there: engine/reading/earlier.py)."""

    question: str
    time: str | None
    references: tuple[str, ...]
    start: datetime | None = None


@dataclass(frozen=True, slots=True)
class Followed:
    """The fragment completed: the question answered, the note saying so, and the previous
    question's references it carried (none when it named a subject of its own); for "the
    quarter before that", the exact window [start, end) and what the answer says of it."""

    question: str
    note: str
    carried: tuple[str, ...] = ()
    window: tuple[datetime, datetime] | None = None
    time_note: str | None = None


def is_fragment(question: str) -> bool:
    """Whether the question opens as a follow-up by ellipsis does ("and in 2026?")."""
    return _OPENS.match(question) is not None


def followed(question: str, previous: Previous | None, now: datetime) -> Followed | None:
    """The previous question with the fragment's parts in place of its own, or None when
    `question` is no fragment, there is no previous question, or the fragment's parts have no
    place in it (a name where several were named)."""
    opened = _OPENS.match(question)
    if opened is None or previous is None:
        return None
    rest = _END.sub("", question[opened.end() :]).strip(" ,")
    if not rest:
        return None
    if previous.start is not None and (before := earlier.earlier(rest, previous.start)):
        return _before(question, previous, before)
    time, name = _parts(rest, now)
    time = _placed(time, previous.time, now) if time else time
    asked, replaced = previous.question, list[tuple[str, str | None]]()
    if name:
        if len(previous.references) != 1 or not _names(name):
            return None
        asked = _replaced(asked, previous.references[0], name)
        replaced.append((name, previous.references[0]))
    if time:
        asked = _timed(asked, previous.time, time)
        replaced.append((time, previous.time))
    said = "; ".join(f'"{new}" in place of "{old}"' if old else f'"{new}" added'
                     for new, old in replaced)  # fmt: skip
    return Followed(
        asked,
        f'"{question.strip()}" follows the previous question, "{previous.question}": answered '
        f'as "{asked}" ({said}).',
        () if name else previous.references,
    )


def _before(question: str, previous: Previous, before: earlier.Earlier) -> Followed:
    """The previous question asked over the period before its window, said."""
    asked = _timed(previous.question, previous.time, before.written)
    old = previous.time or "its window"
    return Followed(
        asked,
        f'"{question.strip()}" follows the previous question, "{previous.question}": answered '
        f'as "{asked}" ("{before.phrase}" in place of "{old}").',
        previous.references,
        (before.start, before.end),
        before.note,
    )


def _parts(rest: str, now: datetime) -> tuple[str, str]:
    """The fragment's time phrase (a phrase the time reader reads or names, or a month alone:
    "and march?") and the words left, a name."""
    reading = tp.read_time(rest, now)
    match = reading.match
    if match is not None:
        phrase = rest[match.start : match.end]
        return phrase, " ".join(f"{rest[: match.start]} {rest[match.end :]}".split())
    if reading.not_understood:  # "and since the outage?": named not understood once asked
        phrase = reading.not_understood[0]
        at = rest.find(phrase)
        if at >= 0:
            return phrase, " ".join(f"{rest[:at]} {rest[at + len(phrase) :]}".split())
    prefixed = tp.read_time(f"in {rest}", now).match
    if prefixed is not None and prefixed.start == 0 and prefixed.end == len(rest) + 3:
        return f"in {rest}", ""
    return "", rest


def _placed(time: str, old: str | None, now: datetime) -> str:
    """A year or month alone ("and 2026?", "and march?") with the preposition the previous
    time phrase had ("in 2025": "in 2026"), or "in", when that reads whole as a time."""
    lead = (old or "in").split()[0].lower()
    if lead not in ("in", "during") or time.split()[0].lower() in _LEADS:
        return time
    placed = f"{lead} {time}"
    match = tp.read_time(placed, now).match
    whole = match is not None and (match.start, match.end) == (0, len(placed))
    return placed if whole else time


_LEADS = frozenset({"in", "during", "since", "before", "after", "from", "between", "over", "until"})


def _names(words: str) -> bool:
    """A short run of words naming a subject, no question of its own."""
    said = words.lower().split()
    return 0 < len(said) <= _MOST_WORDS and not _ASKING.intersection(said)


def _replaced(question: str, old: str, new: str) -> str:
    found = re.search(rf"(?<![\w./-]){re.escape(old)}(?![\w/-])", question)
    if found is None:
        return question
    return f"{question[: found.start()]}{new}{question[found.end() :]}"


def _timed(question: str, old: str | None, new: str) -> str:
    if old:
        slot = of_time(question, old)
        if slot.found:
            return slot.asked(new)
    body = _END.sub("", question)
    ends = question[len(body) :].strip() or "?"
    return f"{body} {new}{ends}"
