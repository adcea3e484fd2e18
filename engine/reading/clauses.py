"""A question asking two questions ("who changed core.py in 2025, and how many commits were
there in total?", "who changed core.py in 2025 and who changed parser.py in 2024?").

An answer answers one question (one intent, one time, its subjects). Read whole, two
questions mix: the count answered and the "who" dropped, or parser.py answered for 2025 when
2024 was asked of it. So the first question is the one answered, read on its own, and the
rest is named in the answer as not answered, as a whole, for the asker to ask on its own.

A second question starts after a comma, semicolon or question mark ("and" may follow) with a
question word or an auxiliary verb ("..., and is it stable?", "...? who authored them?"), or
after a plain "and" with a question word ("... and who changed parser.py?", "... and when?");
never after "if so" ("If so, who?").
Only a question that itself starts with a question word is split: "In 2025, who changed
core.py?" is one question; but after an opening phrase set off by a comma ("Over the last six
months, how many commits touched src/attr, and how many lines were added?") the question
starts at its question word, and its second question is split as any other's (left whole, the
lines were read as no word and dropped unsaid).
Two amounts asked with the same words before one predicate ("how many commits and how many
lines changed in X in 2025?") are one question of both: split, the first ("How many commits")
had neither subject nor time.
"""

from __future__ import annotations

import re

from engine.reading import againparts, laterparts

_WH = r"who|whom|whose|what|which|when|where|why|how"
_AUX = r"is|are|was|were|did|does|do|has|have|had|can|could|will|would|should"
# A preposition a second question may start with ("..., and by whom?", "..., and over what
# period was he active?"): left unsplit, its question word was read as no word at all.
_BEFORE = r"by|over|during|in|for|from|since|until|to"
_LEADS = re.compile(rf"^\W*(?:{_WH}|{_AUX}|list|show|tell|give)\b", re.IGNORECASE)
# Not after "if so" ("Did anyone commit in May? If so, who?"): the question after it asks the
# first's answer in its own words, one question (the "who?" was said not answered, and was).
_SECOND = re.compile(
    rf"(?<!if so)\s*[,;?]\s*(?:and\s+|but\s+|also\s+)?"
    rf"(?=(?:(?:{_BEFORE})\s+(?:{_WH})|{_WH}|{_AUX})\b)"
    rf"|\s+and\s+(?:also\s+)?(?=(?:{_WH})\b)",
    re.IGNORECASE,
)


# An opening phrase before the question word, set off by a comma ("In 2025, how many ...").
_OPENER = re.compile(rf"^[^,;?]{{1,80}}?,\s*(?=(?:{_WH}|{_AUX})\b)", re.IGNORECASE)
# A first question of question words alone after an opener ("who" of "..., who and how many?").
_ASKING_ONLY = re.compile(rf"^\W*(?:(?:{_WH}|many|much)\W*)+$", re.IGNORECASE)
# "how many A and how many B ...": the second amount's question words repeat the first's.
_SHARED = re.compile(r"^(\W*how\s+(?:many|much)\s+\w+\s+and\s+)(how\s+(?:many|much)\s+)(?=\w)",
                     re.IGNORECASE)  # fmt: skip


def split(text: str) -> tuple[int, int] | None:
    """Where the first question ends and the second starts, or None when `text` asks one
    question. `text` has its quoted parts blanked (engine.reading.references.blank_quotes), so no
    quoted word splits it and the offsets are the question's."""
    start = 0
    if not _LEADS.match(text):
        opener = _OPENER.match(text)
        if opener is None:
            return _after_words(text)
        start = opener.end()
    found = _SECOND.search(text, start)
    if found is None:
        return _time_alone(text, start)
    if not text[start : found.start()].strip() or not text[found.end() :].strip():
        return None
    if start and _ASKING_ONLY.match(text[start : found.start()]):
        return None  # "_make.py changes in 2025, who and how many?": a pair (engine.reading.parts)
    return found.start(), found.end()


# A question of words with no question word first ("Kevin Deldycke's commits this summer and
# what share of all commits?"): its second question starts at "and" with a question word
# (read whole, "share" was a name no one has, and the question ended on it), when a later
# part's row reads it (engine/reading/laterparts.py).
_AFTER_WORDS = re.compile(rf"\s*[,;]?\s+and\s+(?:also\s+)?(?=(?:{_WH})\b)", re.IGNORECASE)
# A time alone after the question ("Tin Tvrtkovic's commits in 2025, and 2026?", "how many
# commits in 2025, and in 2024?"): the first question asked again over it
# (engine/reading/againparts.py); read whole, the two times were refused as two times named.
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_TIME_ALONE = re.compile(r"\s*[,;]\s*(?:and|or)\s+(?=[^,;]+$)", re.IGNORECASE)


def _after_words(text: str) -> tuple[int, int] | None:
    """Only a second question a later part's row reads ("what share of all commits"): read
    whole, others are answered as the first's words mean ("changes to utils.py in 2024 and
    what were they" lists them), split they were not."""
    found = _AFTER_WORDS.search(text)
    words = 0 if found is None else len(text[: found.start()].split())
    if found is not None and words > 1 and laterparts.asks(text[found.end() :]):
        return found.start(), found.end()
    return _time_alone(text, 0)


def _time_alone(text: str, start: int) -> tuple[int, int] | None:
    found = _TIME_ALONE.search(text, start)
    if found is None or not text[start : found.start()].strip():
        return None
    first, rest = text[start : found.start()], text[found.end() :]
    if _YEAR.search(rest) and not _YEAR.search(first):
        return None  # "in March, and July 2025": the year may be the first's too, read whole
    return (found.start(), found.end()) if againparts.fits(rest) else None


def _shared(text: str) -> str:
    """`text` with a repeated "how many" blanked (same length: offsets stay the question's)."""
    found = _SHARED.match(text)
    if found is None:
        return text
    a, b = found.span(2)
    return f"{text[:a]}{' ' * (b - a)}{text[b:]}"


# A second question that is one word set off by commas ("who changed core.py, and when, in
# 2025?"): what follows the comma belongs to the first (its time was left in the rest, and
# the answer covered the default window).
_LONE = re.compile(rf"\s*(?:{_WH})\s*,\s*(?=\S)", re.IGNORECASE)


def first_and_rest(text: str, unquoted: str) -> tuple[str, str, str | None]:
    """The first question of two, its blanked twin, and the rest (None: one question)."""
    text, unquoted = _shared(text), _shared(unquoted)
    cut = split(unquoted)
    if cut is None:
        return text, unquoted, None
    lone = _LONE.match(unquoted, cut[1])
    if lone is None:
        return text[: cut[0]], unquoted[: cut[0]], text[cut[1] :].strip()
    word = text[cut[1] : lone.end()].strip(" ,")
    return (
        f"{text[: cut[0]]}, {text[lone.end() :]}",
        f"{unquoted[: cut[0]]}, {unquoted[lone.end() :]}",
        word,
    )


def unanswered_note(rest: str | None) -> list[str]:
    """What the answer says about the question it did not answer."""
    if not rest:
        return []
    return [f'Only the first question is answered: "{rest}" was not; ask it on its own.']
