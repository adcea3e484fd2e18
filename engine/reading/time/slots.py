"""The question around a time phrase, for asking it again with other words in its place: a
phrase wider than one answer may cover ("since 2010": engine.resolving.questiontime offers the
last 400 days) or a slash date two of whose readings may be meant ("07/01/2026": each day
written as an ISO date, engine/reading/time/slashdates.py). Read once here with the question,
so nothing after reading splices the question's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Words a time phrase starting with them is a prepositional phrase ("since 2010"): it stands
# anywhere a time may, so the other words take its place.
_PREPOSITIONS = frozenset(
    {"in", "since", "before", "after", "between", "from", "over", "during", "for", "until"}
    | {"through", "of", "on", "at", "within", "to", "till", "up", "the", "last", "past"}
)
_SENTENCE_END = re.compile(r"\s*[?.!;]+(?=\s|$)")
_SPACE_BEFORE = re.compile(r"\s+(?=[,;:?.!])")


@dataclass(frozen=True, slots=True)
class Slot:
    """The question as asked around `phrase`: `before` + other words + `after` asks it again
    (the question unchanged, in `before`, when the phrase was not found in it)."""

    phrase: str
    before: str
    after: str
    found: bool = True

    def asked(self, words: str) -> str:
        """The question with `words` in the phrase's place."""
        return f"{self.before}{words}{self.after}" if self.found else self.before


def of_time(question: str, phrase: str) -> Slot:
    """Where other words stand for the time phrase: in its place when it is a prepositional
    phrase ("since 2010", "of all time"). Any other ("all-time", "ever") qualifies a word or
    the verb: spliced in its place it read "who are the in the last 400 days top contributors
    to core.py?", so it is left out and the other words end its sentence ("who are the top
    contributors to core.py in the last 400 days?")."""
    # As a whole phrase: "ever" inside "everyone's" is not the phrase.
    found = re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", question)
    if found is None:
        return Slot(phrase, question, "", found=False)
    at = found.start()
    if phrase.split(maxsplit=1)[0].lower() in _PREPOSITIONS:
        return Slot(phrase, question[:at], question[at + len(phrase) :])
    before, after = question[:at].rstrip(" "), question[at + len(phrase) :]
    rest = _SENTENCE_END.search(after)
    cut = rest.start() if rest else len(after)
    said = _SPACE_BEFORE.sub("", f"{before} {after[:cut].strip(' ')}").strip(" ,;:")
    return Slot(phrase, f"{said} ", after[cut:])


def of_date(question: str, phrase: str) -> Slot:
    """Where a slash date stands: its first occurrence not inside a longer number."""
    found = re.search(rf"(?<![\d/]){re.escape(phrase)}(?![\d/])", question)
    if found is None:
        return Slot(phrase, question, "", found=False)
    return Slot(phrase, question[: found.start()], question[found.end() :])


_CLOSING = re.compile(r"[\s?.!]*$")


def at_end(question: str) -> Slot:
    """Where words naming a time stand in a question naming none: at its end, before its
    closing mark ("how many commits to click in the last 400 days?": a whole history wider
    than one answer may cover is asked again so, engine/resolving/wholehistory.py)."""
    closing = _CLOSING.search(question)
    at = closing.start() if closing else len(question)
    return Slot("", f"{question[:at]} ", question[at:].strip())
