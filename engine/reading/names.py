"""The spans a question names its subjects with, in the order they are tried: quoted and
known names, names before kind words and paths, who acted beside them ("did davidism make"),
a file described, by position, words nothing read; at most MAX_REFERENCES. How each kind of
span is found: engine/reading/references.py and engine/reading/kindwords.py.
"""

from __future__ import annotations

from engine.reading import (
    kindwords,
)
from engine.reading import references as r

MAX_REFERENCES = 8


def doer(text: str, start: int) -> bool:
    """Whether the words at `start` follow "did" or "does" (engine.reading.references reads
    them)."""
    before = text[:start].rstrip().rsplit(maxsplit=1)
    return bool(before) and before[-1].lower() in ("did", "does")


def named_spans(
    text: str,
    tokens: list[r.Token],
    spans: list[tuple[int, int]],
    notes: list[str],
    actors: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Quoted and known names (`spans`), then names before kind words and paths beside
    them, and unread words right after "did" or "by" beside them (added to `actors` too);
    by position only when none of these named anything."""
    for named in (kindwords.before_kind_words(text, tokens), r.paths(text, tokens)):
        spans += [s for s in named if not overlaps(s, spans)]
    doers = [s for s in r.filler_doers(text, tokens) if not overlaps(s, spans)]
    actors += doers  # "did development author": a name, not a filler
    if spans:  # who acted, unknown beside a known name ("did davidism make to core.py")
        actors += r.after_actor_words(text, tokens, spans)
        spans += actors
    if not spans:  # "when was the changelog last changed?": a file described
        spans = r.file_nouns(tokens)
    if not spans:
        spans = r.fallback(text, tokens)
        if spans:
            notes.append("references_by_position")
    if not spans:  # words nothing read, in a question naming nothing else ("parsr")
        spans = r.unread(text, tokens, [])
        if spans:
            notes.append("references_unread")
    spans = sorted(set(spans) | {s for s in doers if not overlaps(s, spans)})
    if len(spans) > MAX_REFERENCES:
        notes.append("references_truncated")
        spans = spans[:MAX_REFERENCES]
    return spans


def overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and span[1] > start for start, end in spans)
