"""A name given in brackets after the words describing it: "the debugger (werkzeug.debug)",
"the attrs package (src/attrs, not attr)", "the attrs namespace package (src/attrs)".

The bracket names the subject exactly (a path or a dotted module name, or a known name), so
the bracket is the reference and the words right before it are its description: they are
said as read so, never looked up as names of their own ("debugger" and "namespace" ended the
question as words naming nothing, "attrs namespace" asked which module of attrs was meant). A
kind word among them ("package", "module", "file") is the kind the name is resolved with, so
a description of another kind is checked as "the attrs module" is (engine.resolving.kinded).

"not X" after the name inside the bracket tells the name from another subject X names (a
known name or a written one): it leaves nothing out ("not attr" of src/attrs: attr is
another package), so it is no negation (engine.reading.wordrules ended the question on
"not"). A bracket holding anything else is not read here: "Tim Sweña (Swast)" is a person's
name (engine.reading.references reads it whole), "(since 2020)" a time phrase.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.domain.models import SubjectKind
from engine.domain.text import normalise
from engine.reading import references as r
from engine.reading.meaning import Unasked
from engine.reading.vocabulary import KIND_WORDS, PLURAL_KINDS

_BRACKET = re.compile(r"\(([^()\x00]{1,200})\)")
_NOT = re.compile(r"not\s+(?:the\s+)?(\S.*)", re.IGNORECASE)
_DESCRIBING = 5  # words of a description read at most


@dataclass(frozen=True, slots=True)
class Bracketed:
    """A name given in brackets: the name (verbatim), the words describing it, the kind a
    kind word among them names, and the other names "not X" tells it from."""

    name: str
    span: tuple[int, int]
    description: str
    kind: SubjectKind | None
    others: tuple[str, ...]
    # A word of the description that is another subject's name ("the routing package
    # (werkzeug.debug)": routing): the question names two things, and ends saying so.
    other_name: str | None = None

    def said(self) -> tuple[Unasked, ...]:
        """What the answer says of how the bracket was read: beside the answer, or ending
        the question when the description names another subject."""
        if self.other_name is not None:
            note = (
                f'"{self.description}" names {self.other_name}, and the brackets name '
                f"{self.name}: which one is asked about is not known, so neither is answered. "
                "Ask about one of them."
            )
            return (Unasked(self.description, note),)
        parts = []
        if self.description:
            parts.append(
                f'"{self.description}" was read as describing {self.name}, the name given in '
                "brackets: the answer is about what that name names"
            )
        if self.others:
            told = ", ".join(self.others)
            parts.append(
                f'"not {told}" tells {self.name} from {told}, which names another subject: '
                "nothing is left out"
            )
        if not parts:
            return ()
        return (Unasked(self.description or self.name, "; ".join(parts) + ".", ends=False),)


def candidates(text: str) -> list[tuple[int, int]]:
    """The spans inside brackets worth looking up as known names (the name and each "not
    X"), for engine.reading.lookups."""
    out = []
    for match in _BRACKET.finditer(text):
        at = match.start(1)
        for part in match.group(1).split(","):
            stripped = part.strip()
            words = _NOT.fullmatch(stripped)
            name = words.group(1).strip() if words else stripped
            start = text.find(name, at)
            if name and start >= 0:
                out.append((start, start + len(name)))
            at += len(part) + 1
    return out


def read(text: str, tokens: list[r.Token], known: Callable[[str], bool] | None) -> list[Bracketed]:
    """Each name given in brackets after its description; the tokens of the description,
    the name and "not X" are taken (no longer free)."""
    found = []
    for match in _BRACKET.finditer(text):
        inside = [t for t in tokens if match.start(1) <= t.start and t.end <= match.end(1)]
        if not inside or not all(t.free for t in inside):
            continue
        parts = _parts(text, match, known)
        if parts is None:
            continue
        (name, span), others = parts
        before = _description(text, tokens, match.start())
        if known is not None and any(known(text[t.start : match.end()]) for t in before):
            continue  # "Tim Sweña (Swast)": one known name, brackets and all
        for token in [*before, *inside]:
            token.free = False
        description = text[before[0].start : before[-1].end] if before else ""
        kinds = [KIND_WORDS[t.norm] for t in before if t.norm in KIND_WORDS]
        kind = kinds[-1] if kinds else None
        other = _other_name(text, before, name, known)
        found.append(Bracketed(name, span, description, kind, others, other))
    return found


_PARTS = re.compile(r"[/._@+\-]+")


def _other_name(
    text: str, before: list[r.Token], name: str, known: Callable[[str], bool] | None
) -> str | None:
    """A word of the description that is a known name and no part of the bracket's name
    (a part, or a word starting with one, agrees: "the werkzeug debugger (werkzeug.debug)";
    a word naming nothing known is a description only: "the attrs namespace package")."""
    if known is None:
        return None
    parts = [p for p in _PARTS.split(normalise(name).replace(" ", ".")) if p]
    for token in before:
        word = text[token.start : token.end]
        if token.norm in KIND_WORDS or not known(word):
            continue
        if not any(token.norm.startswith(p) or p.startswith(token.norm) for p in parts):
            return word
    return None


def _parts(
    text: str, match: re.Match[str], known: Callable[[str], bool] | None
) -> tuple[tuple[str, tuple[int, int]], tuple[str, ...]] | None:
    """The bracket's name and its span, and the names after "not"; None unless the bracket
    holds exactly a name and any number of "not X" naming other subjects."""
    first, *rest = match.group(1).split(",")
    name = first.strip()
    if not _names(name, known):
        return None
    others = []
    for part in rest:
        words = _NOT.fullmatch(part.strip())
        other = words.group(1).strip() if words else ""
        if not _names(other, known) or normalise(other) == normalise(name):
            return None
        others.append(other)
    start = match.start(1) + match.group(1).index(name)
    return (name, (start, start + len(name))), tuple(others)


def _names(words: str, known: Callable[[str], bool] | None) -> bool:
    """Written as a path or a dotted module name, or a known name (one token at most: a
    phrase in brackets is an aside, not a name)."""
    if not words or len(words.split()) > 1:
        return False
    return r.is_written_name(words) or (known is not None and known(words))


def _description(text: str, tokens: list[r.Token], bracket: int) -> list[r.Token]:
    """The words right before the bracket describing what it names: content words and
    singular kind words joined by plain spaces, back to the first word that is neither
    ("to the debugger (...)": "debugger"; "touched the attrs package (...)": "attrs
    package")."""
    before = [t for t in tokens if t.end <= bracket]
    if not before or text[before[-1].end : bracket].strip(" \t"):
        return []
    taken: list[r.Token] = []
    for token in reversed(before):
        if taken and not r.adjacent(text, token, taken[0]):
            break
        kind = token.free and token.norm in KIND_WORDS and token.norm not in PLURAL_KINDS
        if len(taken) == _DESCRIBING or not (r.content(token) or kind):
            break
        taken.insert(0, token)
    return taken
