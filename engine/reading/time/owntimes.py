"""A time for each subject: "who changed core.py in 2025 and parser.py in 2024?".

A question is read with one time (engine.reading.time.phrases: the first phrase; later ones are said
unused). When a later phrase follows a subject named after the first phrase, that subject
has a time of its own: the answer read both for 2025 ("Only the first time phrase is used"
beside it), so parser.py's figures were 2025's where 2024's were asked. Answering it would
give one subject the other's time, so the question ends, naming both pairs; each asked in
turn is answered. The same phrase twice ("core.py in 2025 and parser.py in 2025") is one
time.
"""

from __future__ import annotations

from collections.abc import Sequence


def ending(
    text: str, first: str | None, ignored: Sequence[str], references: Sequence[str]
) -> tuple[str, ...]:
    """The limitation ending a question whose subjects have times of their own, else ():
    `first` the time phrase used, `ignored` the later ones, `references` the subjects named
    (read by engine.reading.interpreter, which keeps the result as `own_times`)."""
    if not first or not ignored or len(references) < 2:
        return ()
    at = text.find(first)
    named = sorted((text.find(ref), ref) for ref in references)
    before = [ref for i, ref in named if 0 <= i < at]
    for i, ref in named:
        if i <= at:
            continue
        later = [(text.find(t, i + len(ref)), t) for t in ignored]
        own = min(((j, -len(t), t) for j, t in later if j >= 0), default=None)
        if own is None or own[2].lower() == first.lower() or not before:
            continue
        mine = text[text.find(before[-1]) : at + len(first)]
        theirs = text[i : own[0] + len(own[2])]
        return (
            f'"{mine}" and "{theirs}": each subject is asked about over a time of its own, '
            "and an answer reads one time for all its subjects, so one of them would be "
            "answered for the other's time. Ask about each in turn.",
        )
    return ()
