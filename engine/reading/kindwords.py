"""Kind words beside a reference ("click's testing module", "the repository click"): the
name right before a singular kind word, which is a reference even when no trigger word
precedes it (rule 3 of engine/reading/references.py), and the kind a kind word next to a reference
names, which the reference is then resolved with. A singular kind word standing alone
beside other references ("who changed the repo and the docs?") names a subject of its own
(`alone`): engine.resolving.kinded reads it as the organisation's one subject of that kind.
"""

from __future__ import annotations

from engine.domain.models import SubjectKind
from engine.reading.references import Token, adjacent, content
from engine.reading.vocabulary import (
    CHANGE_NOUNS,
    CHANGE_VERBS,
    KIND_WORDS,
    NOT_NAMES,
    PLURAL_KINDS,
)


def before_kind_words(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """A name right before a singular kind word ("who changed the foo module"): a subject
    is named, even when no trigger word precedes it."""
    spans = []
    for i, token in enumerate(tokens):
        kind = token.norm in KIND_WORDS or token.norm in FOLDERS  # "the contrib folder"
        if not (token.free and kind) or token.norm in PLURAL_KINDS:
            continue
        j = i
        while j > 0 and i - j < 3 and _unnamed(tokens[j - 1]):
            if not adjacent(text, tokens[j - 1], tokens[j]):
                break
            j -= 1
        if j == i and (_worded(text, tokens, i) or _kind_named(text, tokens, i)):
            j = i - 1  # "the make module": a name, though "make" is a verb
        if j < i:
            spans.append((tokens[j].start, tokens[i - 1].end))
    return spans


# Words for a folder after a name: a module, a directory of the code (`kind_after`); a
# filler everywhere else (vocabulary.FILLERS).
FOLDERS = frozenset({"folder", "directory", "dir"})

def _kind_named(text: str, tokens: list[Token], i: int) -> bool:
    """A kind word right before a folder word at `i` ("the packages folder": requests'
    requests/packages, the vendored libraries): the folder's name, where "folder" alone
    named nothing."""
    if i < 1 or tokens[i].norm not in FOLDERS:
        return False
    word = tokens[i - 1]
    return word.free and word.norm in KIND_WORDS and adjacent(text, word, tokens[i])


# Determiners before a name and its kind word ("the make module", "this patch package").
_NAMING = frozenset({"the", "this", "that", "our", "its", "their", "your", "my"})


def _worded(text: str, tokens: list[Token], i: int) -> bool:
    """A change verb or noun alone between a determiner and the kind word at `i` ("the make
    module": attr._make): a name, never the verb ("who refactored the make module?" was
    answered for the whole organisation, no subject named)."""
    if i < 2 or not tokens[i - 1].free or not tokens[i - 2].free:
        return False
    word, before = tokens[i - 1], tokens[i - 2]
    worded = word.norm in CHANGE_VERBS or word.norm in CHANGE_NOUNS
    return (
        worded
        and before.norm in _NAMING
        and adjacent(text, before, word)
        and adjacent(text, word, tokens[i])
    )


# What makes a kind word stand for one subject ("the repo", "this repository", "the whole
# repo", "the docs and repo").
_DETERMINERS = frozenset({"the", "this", "our", "that", "and", "or"})
_WHOLE = frozenset({"whole", "entire"})
_JOINS = frozenset({"and", "or"})


def alone(
    text: str, tokens: list[Token], spans: list[tuple[int, int]]
) -> list[tuple[str, SubjectKind | None]]:
    """ "the repo" beside other references and next to none ("who changed the repo and the
    docs?"): the span from its determiner to the singular kind word (not a person's: "the
    person" is who is asked for), with its kind. It was dropped silently, the docs answered
    alone. Its kind word is taken (no longer free): it no longer narrows the other
    references. "The code" joined to another subject ("the code and the docs") is one too,
    of no kind (which code is not known); elsewhere "code" qualifies ("knows the code")."""
    out: list[tuple[str, SubjectKind | None]] = []
    for i, token in enumerate(tokens):
        code = token.norm == "code" and _joined(tokens, i)
        if not token.free or not (code or _singular(token)):
            continue
        j = _determiner(text, tokens, i)
        if j is None or any(_beside(text, token, start, end) for start, end in spans):
            continue  # "the repository click": the name's kind (`kind_of`)
        if text[token.end : token.end + 1] in ("'", "\u2019"):
            continue  # "the repo's docs": what holds the docs (engine.reading.scopes)
        token.free = False
        if _placed(tokens, j, spans, KIND_WORDS.get(token.norm)):
            continue  # "when did X first appear in the repo?": where X is, no second subject
        out.append((text[tokens[j].start : token.end], None if code else KIND_WORDS[token.norm]))
    return out


# "X in the repo", "X added to the repository": the repository holding the names before it,
# no subject of its own. Taken as one, "when was _termui_impl.py added to the repo?" named the
# first change of click and _termui_impl.py together: click's initial commit (2014-04-24),
# where git gives 2014-05-25 for the module (a silent wrong). Only after every name, none
# joined to it ("commits to the docs and to the repo" asks both).
_PLACES = frozenset({"in", "into", "to", "within", "inside", "across", "throughout"})
_HOLDERS = frozenset({SubjectKind.REPOSITORY, SubjectKind.PROJECT})


def _placed(
    tokens: list[Token], j: int, spans: list[tuple[int, int]], kind: SubjectKind | None
) -> bool:
    """Whether the kind word whose determiner is at `j` is the place of the names before it
    ("in the repo"), a holder kind after a place word and after every name, none joined."""
    if kind not in _HOLDERS or j == 0 or tokens[j - 1].norm not in _PLACES:
        return False
    start = tokens[j - 1].start
    between = {t.norm for t in tokens if max(e for _, e in spans) <= t.start < start}
    return all(e <= start for _, e in spans) and not between & _JOINS


def _singular(token: Token) -> bool:
    kind = KIND_WORDS.get(token.norm)
    return kind not in (None, SubjectKind.PERSON) and token.norm not in PLURAL_KINDS


def _determiner(text: str, tokens: list[Token], i: int) -> int | None:
    """The determiner before the kind word at `i` ("the", "the whole"), or None."""
    j = i - 1
    while j >= 0 and tokens[j].norm in _WHOLE and adjacent(text, tokens[j], tokens[j + 1]):
        j -= 1
    if j < 0 or tokens[j].norm not in _DETERMINERS:
        return None
    return j if adjacent(text, tokens[j], tokens[j + 1]) else None


def _joined(tokens: list[Token], i: int) -> bool:
    near = [t.norm for t in tokens[max(i - 2, 0) : i + 2] if t is not tokens[i]]
    return bool(_JOINS.intersection(near))


def _beside(text: str, token: Token, start: int, end: int) -> bool:
    """Whether only spaces lie between the kind word and the span [start, end)."""
    if start >= token.end:
        return not text[token.end : start].strip()
    return end <= token.start and not text[end : token.start].strip()


def _unnamed(token: Token) -> bool:
    """A content word that may be (part of) a name before a kind word."""
    return content(token) and token.norm not in NOT_NAMES


def kind_after(text: str, tokens: list[Token], end: int) -> SubjectKind | None:
    """The kind a kind word right after a reference names ("httpx module", "api service");
    a kind word inside the reference ("Shipping Store Service") counts too. A word for a
    folder ("the attrs folder", "the requests/ directory") names a module, a directory of
    the code: read as no kind, "attrs" was the whole repository (211 commits in 2024, said)
    where the folder src/attrs had 6."""
    after = next((t for t in tokens if t.start >= end), None)
    if after is not None and after.norm in KIND_WORDS and not text[end : after.start].strip():
        return KIND_WORDS[after.norm]
    if after is not None and after.norm in FOLDERS and not text[end : after.start].strip("/ "):
        return SubjectKind.MODULE  # "the attrs folder", "requests/ directory": never the repo
    if text[end : end + 1] == "/" and not text[end + 1 : end + 2].strip():
        return SubjectKind.MODULE  # "commits under werkzeug/ in 2018": a folder, never the repo
    inside = [t for t in tokens if t.end == end]
    return KIND_WORDS.get(inside[0].norm) if inside else None


def code_after(text: str, tokens: list[Token], end: int) -> bool:
    """The word "code" right after a reference ("the views code", "the routing code"): it
    names no kind (a repository's code is code too), but among same-named subjects it means
    the package (engine.resolving.kinded.package_first)."""
    after = next((t for t in tokens if t.start >= end), None)
    return after is not None and after.norm == "code" and not text[end : after.start].strip()


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
