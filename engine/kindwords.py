"""Kind words beside a reference ("click's testing module", "the repository click"): the
name right before a singular kind word, which is a reference even when no trigger word
precedes it (rule 3 of engine/references.py), and the kind a kind word next to a reference
names, which the reference is then resolved with.
"""

from __future__ import annotations

from engine.models import SubjectKind
from engine.references import Token, adjacent, content
from engine.vocabulary import KIND_WORDS, NOT_NAMES, PLURAL_KINDS


def before_kind_words(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """A name right before a singular kind word ("who changed the foo module"): a subject
    is named, even when no trigger word precedes it."""
    spans = []
    for i, token in enumerate(tokens):
        if not (token.free and token.norm in KIND_WORDS) or token.norm in PLURAL_KINDS:
            continue
        j = i
        while j > 0 and i - j < 3 and _unnamed(tokens[j - 1]):
            if not adjacent(text, tokens[j - 1], tokens[j]):
                break
            j -= 1
        if j < i:
            spans.append((tokens[j].start, tokens[i - 1].end))
    return spans


def _unnamed(token: Token) -> bool:
    """A content word that may be (part of) a name before a kind word."""
    return content(token) and token.norm not in NOT_NAMES


def kind_after(text: str, tokens: list[Token], end: int) -> SubjectKind | None:
    """The kind a kind word right after a reference names ("httpx module", "api service");
    a kind word inside the reference ("Shipping Store Service") counts too."""
    after = next((t for t in tokens if t.start >= end), None)
    if after is not None and after.norm in KIND_WORDS and not text[end : after.start].strip():
        return KIND_WORDS[after.norm]
    inside = [t for t in tokens if t.end == end]
    return KIND_WORDS.get(inside[0].norm) if inside else None


def kind_of(text: str, tokens: list[Token], start: int, end: int) -> SubjectKind | None:
    """The kind a kind word beside a reference names: after it (`kind_after`), or a
    singular one right before it ("the repository click", "module core.py")."""
    kind = kind_after(text, tokens, end)
    if kind is not None:
        return kind
    before = next((t for t in reversed(tokens) if t.end <= start), None)
    if before is None or not before.free or before.norm not in KIND_WORDS:
        return None
    if before.norm in PLURAL_KINDS or text[before.end : start].strip():
        return None
    return KIND_WORDS[before.norm]
