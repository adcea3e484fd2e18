"""A later part asking the first question again over another period: "Who were the main
contributors this year, and how does that compare with the whole of 2025?", "How many
commits did Tin Tvrtkovic make in 2025, and did he contribute anything in 2026?", "who
committed most in 2025, and what about 2024?".

Why a row: the later part names a time and nothing else to ask, so completed as any later
part (the first's subject put in its words) it read as no question, and it was said not
answered ("Only the first question is answered: ... ask it on its own", z39a W1, A7), though
the first question asked over that time is answered here. The row writes the first part
again with the later time in place of its own (or added, when it named none), read once
more by the reader: the answer then gives each period's figures, each over its own window,
and never one period's figures for the other. A time the row cannot read whole ("the same
period last year") writes nothing: the part stays said not answered.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from engine.reading.laterrow import AND, PERSON, Row, Writer, Written, row
from engine.reading.time import phrases as tp

if TYPE_CHECKING:
    from engine.reading.interpretation import Interpretation

_TIME = r"(?P<time>[^?;]+?)"
_THAT = r"(?:that|this|it|they|those|these|the\s+\w+|things)"

_BARE = re.compile(AND + _TIME + r"\W*$", re.IGNORECASE)


def fits(rest: str) -> bool:
    """Whether `rest` is a time alone ("2026?", "and in 2024?"), the first asked again."""
    found = _BARE.match(rest)
    return found is not None and _period(found.group("time")) is not None


ROWS: tuple[Row, ...] = (
    # "what about 2024?", "how about the first quarter?"
    row("again", rf"(?:what|how)\s+about\s+{_TIME}\W*$"),
    # "how does that compare with the whole of 2025?", "how did it compare to last year?"
    row("again", rf"how\s+(?:does|did|do|is|was|has|would|will)\s+{_THAT}\s+(?:\w+\s+)?"
                 rf"compared?\s+(?:with|to|against)\s+{_TIME}\W*$"),
    # "did he contribute anything in 2026?", "has she committed at all since March?"
    row("again", rf"(?:did|has|have|had|does|do)\s+{PERSON}\s+(?:\w+\s+)?"
                 r"(?:commit|contribut|chang|make|made|do|work|push)\w*"
                 r"(?:\s+(?:anything|any\s+\w+|at\s+all|again))?\s+" + _TIME + r"\W*$"),
    # "what was it in 2024?", "how many were there in 2024?", "what were they like in 2024?"
    row("again", rf"(?:what|how\s+many|how\s+much)\s+(?:was|were|is|are)\s+{_THAT}\s+"
                 rf"(?:like\s+)?{_TIME}\W*$"),
    # "2026?", "and in 2024?" (a time alone, split off by engine.reading.clauses)
    Row("again", _BARE, fits),
)  # fmt: skip

# Words around a period that say it is whole ("the whole of 2025", "2025 as a whole"): the
# period is the same without them.
_WHOLE = re.compile(r"^(?:the\s+)?(?:whole|entire|full|all)\s+(?:of\s+)?(?=\S)", re.IGNORECASE)
_AFTER = re.compile(r"\s+(?:as\s+a\s+whole|overall|in\s+full|too|as\s+well)$", re.IGNORECASE)
# Words qualifying the first's time that do not fit another ("so far this year").
_SO_FAR = re.compile(r"(?:\bso\s+far|\bto\s+date|\bthus\s+far|\byet)\s*$", re.IGNORECASE)
_LEADS = frozenset(
    {"in", "during", "since", "before", "after", "from", "between", "over", "until", "last"}
    | {"this", "the", "past", "previous", "next", "on", "for"}
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# Words of a period counted from now, which takes no year from another ("last month").
_FROM_NOW = re.compile(r"\b(?:last|this|past|previous|prior|next|ago|since|today|yesterday"
                       r"|recent\w*|now|current)\b", re.IGNORECASE)  # fmt: skip
_IN = re.compile(r"^(?:in|during)\s+", re.IGNORECASE)
_ENDS = re.compile(r"[\s,;:?.!]*(?:\b(?:and|but|also|so)\b[\s,;:]*)*$", re.IGNORECASE)


def _whole(words: str) -> str | None:
    """`words` as a time phrase read whole, "in" before a period alone ("2024": "in 2024")."""
    now = datetime.now(UTC)  # what the words are does not depend on the clock
    for said in (words, f"in {words}"):
        match = tp.read_time(said, now).match
        if match is not None and (match.start, match.end) == (0, len(said)):
            lead = said.split(maxsplit=1)[0].lower()
            return said if lead in _LEADS else f"in {said}"
    return None


def _period(words: str, old: str | None = None, end: datetime | None = None) -> str | None:
    """`words` as a time phrase read whole ("in 2024", "Q1 2025"), or None when they are not
    one. A period naming no year after a first time naming one (ending at `end`) takes its
    year when that puts it after the first ("..., in March 2025, and what about April?":
    April 2025; alone it read this year's April); None when it then reads no more or is not
    later ("December 2025, and what about January?": January 2025 was counted, the January
    after is 2026; which one is not guessed)."""
    read = _whole(_AFTER.sub("", _WHOLE.sub("", words.strip())))
    year = _YEAR.search(old or "")
    if read is None or year is None or _YEAR.search(read) or _FROM_NOW.search(read):
        return read
    dated = _whole(f"{read} {year.group(0)}")
    found = None if dated is None else tp.read_time(dated, datetime.now(UTC)).match
    if found is None or found.start_at is None or end is None or found.start_at < end:
        return None
    return dated


def _again(question: str, rest: str, job: str, understood: Interpretation) -> Written | None:
    """The first question as written, the later time in place of its own (or added)."""
    if understood.compared is not None or understood.union is not None:
        return None  # two periods already: which one the later time replaces is not said
    found = next((m for m in (r.matches(rest) for r in ROWS) if m is not None), None)
    if found is not None:
        period = _period(found.group("time"), understood.time_expression, understood.end)
    else:
        period = None
    at = question.rfind(rest)
    if period is None or at <= 0:
        return None
    first, old = question[:at], understood.time_expression
    if old is None:
        first = f"{_ENDS.sub('', first)} {period}"
    else:  # in its place, as written there ("this year's": the period's own possessive)
        slot = re.search(rf"(?<!\w){re.escape(old)}(?!\w)", first)
        if slot is None:
            return None
        before, after = _SO_FAR.sub("", first[: slot.start()]), first[slot.end() :]
        placed = _IN.sub("", period) if after.startswith("'s") else period
        first = f"{before}{placed}{after}"
    asked = re.sub(r"\s+", " ", _ENDS.sub("", first)).strip()
    if not asked:
        return None
    over = _IN.sub("", period)
    said = f'"{rest}" answered as "{asked}?", the first question asked over {over}.'
    return Written((f"{asked}?",), said, (understood.intent.value,), one_window=False,
                   joins="again")  # fmt: skip


WRITERS: dict[str, Writer] = {"again": _again}
