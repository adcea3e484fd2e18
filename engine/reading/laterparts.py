"""The later part of a two-part question, read by what it asks from a closed set of rows: a
person's last (or first) commit ("..., and when was his last commit?"), the files someone
changed ("..., and which parts of the code did they touch?"), the changes themselves
("..., and what was the change?"), the lines of each subject ("..., and how many lines were
added and removed in each?"), each person's commits after a "who" ("..., and how many commits
did each make?"), the share of all commits a count is ("..., and what share of all commits
in that period was that?"), and who led each of two periods compared ("... spring 2026
compare with summer 2026, and who led each season?").

Why rows: each of these parts was answered here when asked on its own, yet asked after a
first question it was said not answered ("Only the first question is answered"), because the
later part was completed only by substituting the first's subject into its words, and these
words ("his last commit", "parts of the code", "share", "each season") do not read as the
question they are. Each row writes the part as the question the reader answers, over the
first's subject and time (or, for a last commit, at any age; for each period, over each),
and says what it must read as; a part that reads otherwise is not joined and stays named as
not answered (engine/investigation/parts.py). Nothing here answers another question: a row
that cannot find its subject or periods writes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from engine.reading import againparts, laterwork
from engine.reading.laterrow import PERSON as _PERSON
from engine.reading.laterrow import Row, Writer, Written
from engine.reading.laterrow import person as _person
from engine.reading.laterrow import row as _row
from engine.reading.laterrow import with_time as _with_time
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

_CHANGE = r"(?:commit|change|contribution|patch|edit)"


_ROWS = (
    # "when was his last commit?", "when did she last commit?", "what was their latest change?"
    _row("last", rf"(?:when|what)\s+(?:was|were|is)\s+{_PERSON}\s+(?:very\s+)?"
                 rf"(?:last|latest|most\s+recent|final|newest)\s+{_CHANGE}\b"),
    _row("last", rf"when\s+did\s+{_PERSON}\s+last\s+(?:commit|contribute|change)\b"),
    _row("first", rf"(?:when|what)\s+(?:was|were|is)\s+{_PERSON}\s+(?:very\s+)?"
                  rf"(?:first|earliest)\s+{_CHANGE}\b"),
    _row("first", rf"when\s+did\s+{_PERSON}\s+first\s+(?:commit|contribute|change)\b"),
    # "which files did he change?", "which parts of the code did they touch?", "what modules
    # has she worked on?": the files ranked by the subject's commits, as "which files did X
    # change most?" asks (without "most" a list of files is not read here)
    _row("files", r"(?:which|what)\s+(?:files|modules|parts|areas|bits|code)"
                  r"(?:\s+of\s+the\s+(?:code|codebase|code\s+base|repo\w*|project))?"
                  rf"\s+(?:did|has|have|had|were)\s+{_PERSON}\s+(?:been\s+)?"
                  r"(?:touch|chang|edit|modif|work|contribut)\w*"),
    # "what did they touch?", "what has he been touching?": what a change touches is files (it
    # was answered with the changes' titles, z40a R05)
    _row("touched", rf"what\s+(?:did|has|have|had)\s+{_PERSON}\s+(?:been\s+)?touch(?:ed|ing)?"
                    r"(?:\s+most)?\W*$"),
    # "what share of all commits ... was that?", "what percentage of the total were his?"
    _row("share", r"what\s+(?:share|percentage|proportion|fraction|percent|part)\s+of\b"),
    _row("share", r"how\s+much\s+of\s+(?:the\s+)?(?:all|total|overall)\b"),
    # "who led each season?", "who was most active in each quarter?", "who led each?"
    _row("each", r"who\s+(?:led|was\s+(?:the\s+)?(?:most\s+active|top|busiest|leading)"
                 r"|committed\s+(?:the\s+)?most|contributed\s+(?:the\s+)?most"
                 r"|made\s+the\s+most\s+commits)\s+(?:in\s+|for\s+|during\s+)?"
                 r"(?:each|both)\b"),
    # "what was the change?", "what were those commits?", "what did he change?": the changes
    # themselves, over the first's subject and time
    _row("changes", r"what\s+(?:was|were|are|is)\s+(?:the|that|those|these|his|her|their|its)"
                    r"\s+(?:change|commit|fix|patch|edit)s?\W*$"),
    _row("changes", rf"what\s+did\s+{_PERSON}\s+(?:change|do|fix)\W*$"),
    # "how many commits did each make?", "and how many commits each?" after a "who": the
    # "who" answer lists each person with their commits
    _row("listed", r"how\s+many(?:\s+(?:commits|changes|contributions))?\s+"
                   r"(?:did|has|have|had|were\s+made\s+by|by)?\s*each\b"),
    # "how many lines were added and removed in that folder over the same period?", "...
    # there?": the lines of the first's one subject over its time (of several, "in each" is
    # a count of each: engine.reading.parts)
    _row("lines", r"how\s+many\s+lines\s+(?:were|have\s+been|got|had\s+been)\s+"
                  r"(?:added|removed|deleted|changed)\b(?:\s+(?:and|or|&)\s+"
                  r"(?:added|removed|deleted|changed))?"
                  r"(?:\s+(?:in|to|under|for)\s+(?:that|this|it|the\s+same)"
                  r"(?:\s+(?:one|folder|directory|package|module|file|subject|area)s?)?)?"
                  r"(?:\s+(?:there|(?:over|in|during)\s+(?:the\s+same|that|this)\s+"
                  r"(?:period|time|window|span)))?\W*$"),
)  # fmt: skip


# The rows of other jobs first: a share "from bots" is not the share of a person's count.
ROWS: tuple[Row, ...] = (*laterwork.ROWS, *_ROWS, *againparts.ROWS)


def asks(rest: str) -> bool:
    """Whether `rest` is a later part of a row here: it is then written by its row or not at
    all (a "how many commits did each make?" completed as any "how many" would be everyone's
    count, another question)."""
    return any(r.matches(rest) for r in ROWS)


def read(question: str, rest: str, understood: Interpretation) -> Written | None:
    """The parts `rest` asks as written by its row, or None (no row, or no subject or periods
    to write them with)."""
    row = next((r for r in ROWS if r.matches(rest)), None)
    return None if row is None else _WRITERS[row.job](question, rest, row.job, understood)


def _change(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """A person's last or first commit, at any age: the first's time bounds only the first."""
    person = _person(question, understood)
    if person is None or (understood.acting and len(understood.references) > 1):
        return None
    asked = f"when was {person}'s {job} commit?"
    return Written((asked,), f'"{rest}" answered as "{asked}".', (job,), one_window=False)


def _files(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """The files the first's one subject changed most, over the first's time."""
    subject = _person(question, understood)
    if subject is None or len(understood.references) != 1:
        return None
    asked = _with_time(f"which files did {subject} change most", understood)
    said = f'"{rest}" answered as "{asked}".'
    return Written((asked,), said, (Intent.RANKED.value,))


def _touched(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """What one person's changes touched: the files they changed most (of a place's commits,
    "what did they touch?" is not read here: the note that it was not answered stays)."""
    return _files(question, rest, job, understood) if len(understood.acting) == 1 else None


def _share(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """All commits over the first's time (to the place it names, if any), for the share of
    them the first's count is: only after a count of one person's commits, or how much one
    subject did ("how much X contributed ...": its count of commits is asked too, the status
    answer counting more than commits)."""
    if understood.intent == Intent.STATUS:
        if len(understood.references) != 1 or len(understood.acting) > 1:
            return None
        mine = _with_time(f"how many commits by {understood.references[0]}", understood)
        every = _with_time("how many commits", understood)
        said = f'"{rest}" answered from "{mine}" and "{every}".'
        return Written((mine, every), said, (Intent.COUNT.value,) * 2, joins="share")
    if understood.intent != Intent.COUNT or len(understood.acting) != 1:
        return None
    places = [r for r in understood.references if r not in understood.acting]
    if len(places) > 1:
        return None
    asked = _with_time(f"how many commits{f' to {places[0]}' if places else ''}", understood)
    said = f'"{rest}" answered from "{asked}".'
    return Written((asked,), said, (Intent.COUNT.value,), joins="share")


def _each(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """Who committed most in each of the two periods the first compares, each written as its
    days (both ends included), over the first's one subject or everything."""
    if understood.compared is None or understood.start is None or understood.end is None:
        return None
    if len(understood.references) > 1:
        return None
    place = f" to {understood.references[0]}" if understood.references else ""
    periods = sorted([understood.compared, (understood.start, understood.end)])
    days = [_days(s, e) for s, e in periods]
    if None in days:
        return None
    asked = tuple(f"who committed most{place} {d}?" for d in days)
    said = f'"{rest}" answered as "{asked[0]}" and "{asked[1]}".'
    kinds = (Intent.WHO.value, Intent.WHO.value)
    return Written(asked, said, kinds, one_window=False)


def _days(start: datetime, end: datetime) -> str | None:
    """[start, end) as the days it covers, both ends included ("from 2026-03-01 to
    2026-05-31"); None when it does not end at a midnight (a window to now is not whole
    days)."""
    if (end.hour, end.minute, end.second, end.microsecond) != (0, 0, 0, 0):
        return None
    return f"from {start.date().isoformat()} to {(end - timedelta(days=1)).date().isoformat()}"


def _changes(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """The changes of the first's one subject (made by it, when it is who acted) over its
    time, newest first."""
    refs = understood.references
    if len(refs) != 1 or understood.intent == Intent.WHAT_CHANGED:
        return None
    words = f"what did {refs[0]} change" if refs[0] in understood.acting else (
        f"what changed in {refs[0]}")  # fmt: skip
    asked = _with_time(words, understood)
    said = f'"{rest}" answered as "{asked}".'
    return Written((asked,), said, (Intent.WHAT_CHANGED.value,))


def _listed(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """After a "who" answer, each person's commits are in it: nothing more to ask."""
    if understood.intent != Intent.WHO:
        return None
    said = f'"{rest}": the people listed are given with their commits.'
    return Written((), said, (), joins="listed")


def _lines(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """The lines added and removed in the first's one subject, over its time."""
    refs = understood.references
    if len(refs) != 1 or understood.acting:
        return None
    asked = tuple(_with_time(f"how many lines were added and removed in {r}", understood)
                  for r in refs)  # fmt: skip
    said = f'"{rest}" answered as ' + " and ".join(f'"{a}"' for a in asked) + "."
    return Written(asked, said, tuple(Intent.COUNT.value for _ in asked), joins="each")


_WRITERS: dict[str, Writer] = {
    **laterwork.WRITERS,
    **againparts.WRITERS,
    "last": _change,
    "first": _change,
    "files": _files,
    "touched": _touched,
    "share": _share,
    "each": _each,
    "listed": _listed,
    "changes": _changes,
    "lines": _lines,
}
