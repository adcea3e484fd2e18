"""The tokens of a question, and its quoted text: what every reading of engine/reading runs
over (engine/reading/references.py finds the names among them).

Tokens are runs of letters, digits and `- _ / . @ +` (so `payments-api`, `api.v2` and
`jo@corp.example` stay whole), with `. - / @ +` trimmed from their edges (`@davidism` is
`davidism`; one leading dot before a name stays: `.github/workflows`,
`.pre-commit-config.yaml`) and a possessive `'s` dropped; control characters (NUL included)
separate tokens. Words joined by a slash that are sides of changed lines ("added/removed",
"insertions/deletions": `SLASHED`) are one token each.
Words are compared after `engine.domain.text.normalise`. Tokens join into one phrase only
across plain spaces, never across punctuation (an initial's period excepted: "C. Sachs":
`adjacent`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.domain.text import normalise
from engine.reading.time import phrases as tp
from engine.reading.vocabulary import LINE_SIDES

MAX_REFERENCE = 200  # the resolver refuses longer references
_EDGES = ".-/@+"
# The signs of lines added and removed ("lines +/-"): all edge, they were dropped unread.
SIGNS = frozenset({"+/-", "-/+", "+-"})
_TOKEN = re.compile(r"[\w\-/.@+\[\]]+")
# A dot file or directory written from its leading dot (never "...so", never a lone ".").
_DOTFILE = re.compile(r"\.[A-Za-z_][\w-]*(?:[./][\w.-]*\w)*")
_POSSESSIVE = re.compile(r"['\u2019]s?(?!\w)")
_QUOTED = re.compile(
    r"(?<!\w)(?:\"([^\"\x00]+)\"|'([^'\x00]+)'|`([^`\x00]+)`|\u201c([^\u201d\x00]+)\u201d)(?!\w)"
)


@dataclass(slots=True)
class Token:
    start: int
    end: int
    norm: str
    free: bool = True  # not quoted, not part of the time expression, not a fact phrase


def tokens_of(text: str) -> list[Token]:
    out = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        if raw in SIGNS:  # "lines +/- in 2025": the lines added and removed, one word
            out.append(Token(match.start(), match.end(), "+/-"))
            continue
        left = len(raw) - len(raw.lstrip(_EDGES))
        right = len(raw.rstrip(_EDGES))
        if left == 1 and _DOTFILE.fullmatch(raw, 0, right):
            left = 0  # ".github/workflows", ".pre-commit-config.yaml": the dot is the name's
        if right <= left:
            continue
        start = match.start()
        if raw[left:right] == "s" and _POSSESSIVE.match(text, start - 1):
            continue  # the "s" of "click's"
        out.extend(_words(raw[left:right], start + left))
    return out


# Words joined by a slash that are read one by one ("lines added/removed", "add/delete"): the
# sides of changed lines and their verbs. Read as one token, "added/removed" was a path
# naming no subject ("lines added/removed in src/werkzeug/sansio in 2025" ended on it).
SLASHED = LINE_SIDES | {"additions", "removals"}


def _words(written: str, start: int) -> list[Token]:
    """One token, or one per word of words joined by a slash (SLASHED)."""
    parts = written.split("/")
    if len(parts) < 2 or not all(normalise(p) in SLASHED for p in parts):
        return [Token(start, start + len(written), normalise(written))]
    out = []
    for part in parts:
        out.append(Token(start, start + len(part), normalise(part)))
        start += len(part) + 1
    return out


def quoted(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(inner span without edge spaces, whole span with the quotes) of each quoted text."""
    spans = []
    for match in _QUOTED.finditer(text):
        group = next(g for g in range(1, 5) if match.group(g) is not None)
        start, end = match.span(group)
        inner = text[start:end]
        start, end = start + len(inner) - len(inner.lstrip()), start + len(inner.rstrip())
        if 0 < end - start <= MAX_REFERENCE:
            spans.append(((start, end), match.span()))
    return spans


def blank_quotes(text: str, spans: list[tuple[tuple[int, int], tuple[int, int]]]) -> str:
    """Quoted text blanked with NULs (never in a quote): no token, phrase or time expression
    can see into it or reach across it, and every offset still points into `text`."""
    blanked = list(text)
    for _, (start, end) in spans:
        blanked[start:end] = "\x00" * (end - start)
    return "".join(blanked)


def free_tokens(unquoted: str, reading: tp.TimeReading) -> list[Token]:
    """Tokens, those of time phrases (understood or not) taken: a phrase about time is
    never read as a name or a fact word ("since the outage" asks no incident question)."""
    spans = list(reading.unknown_spans)
    if reading.match is not None:
        spans.append((reading.match.start, reading.match.end))
    tokens = tokens_of(unquoted)
    for token in tokens:
        if any(token.start < end and token.end > start for start, end in spans):
            token.free = False
    return tokens


def adjacent(text: str, left: Token, right: Token) -> bool:
    """Only plain spaces between two tokens join them into one reference, and the period of
    an initial before a capitalised word ("C. Sachs", "John T. Wodder II"): the name was
    cut at it, and "C" asked which of everyone whose name holds a C was meant."""
    if right.start <= left.end:
        return False
    gap = text[left.end : right.start]
    if not gap.strip(" \t"):
        return True
    initial = text[left.start : left.end]
    return (
        gap[0] == "." and gap[1:] != "" and not gap[1:].strip(" \t")
        and len(initial) == 1 and initial.isupper() and text[right.start].isupper()
    )  # fmt: skip
