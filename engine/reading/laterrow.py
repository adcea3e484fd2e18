"""What a row of a later part is (engine/reading/laterparts.py and the rows beside it,
engine/reading/againparts.py, engine/reading/laterwork.py): its words and its job, and the
part as its row writes it. Kept apart so that rows of several jobs live in modules of their
own, each registering its writers, without importing one another.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

AND = r"^\W*(?:and\s+)?(?:also\s+)?"
PERSON = r"(?:he|she|they|him|her|them|his|her|their)"


@dataclass(frozen=True, slots=True)
class Row:
    """A later part's words (`pattern`, matched on the part as written) and its job, the
    name of the writer that writes it ("last", "files", "share", "again", "owner", ...)."""

    job: str
    pattern: re.Pattern[str]
    fits: Callable[[str], bool] | None = None  # the part is the row's only if this holds

    def matches(self, rest: str) -> re.Match[str] | None:
        """The row's match of `rest`, when it is the row's part."""
        found = self.pattern.match(rest)
        return found if found is None or self.fits is None or self.fits(rest) else None


@dataclass(frozen=True, slots=True)
class Written:
    """A later part as written by its row: the questions to ask, how they were read (said
    beside the answer), what each must read as, whether each is of the first's window, and
    how they join the first (engine.reading.parts.Parts.joins)."""

    questions: tuple[str, ...]
    said: str
    reads_as: tuple[str, ...]
    one_window: bool = True
    joins: str = ""


# Writes a part matched by its row (question, the part, the row's job, the first's reading):
# its Written, or None when it has no subject or time to write it with.
Writer = Callable[[str, str, str, "Interpretation"], "Written | None"]


def row(job: str, pattern: str) -> Row:
    """A row whose pattern starts the part (after "and", "also")."""
    return Row(job, re.compile(AND + pattern, re.IGNORECASE))


def with_time(words: str, understood: Interpretation) -> str:
    """`words` over the first's time phrase, as a question."""
    return f"{words} {understood.time_expression}?" if understood.time_expression else f"{words}?"


def person(question: str, understood: Interpretation) -> str | None:
    """The one person (or subject) the first part asks about, as the question writes it (with
    a name in brackets after it: "Phil Jones (pgjones)"), or None when which reference is
    the person is not read (two references, none read as who acted)."""
    refs = understood.acting or understood.references
    if len(refs) != 1:
        return None
    found = re.search(rf"{re.escape(refs[0])}(?:\s*\([^()]{{1,60}}\))?", question)
    return found.group(0) if found else refs[0]
