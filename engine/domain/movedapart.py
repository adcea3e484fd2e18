"""The commits of a moved folder made apart from its era: a folder module followed across
a move (click/ became src/click on 2020-03-06) counts every commit made at either path, but
`git log -- click/` lists only those that touched the earlier path. Most commits before the
move touched the earlier path and most after it the new one; the exceptions are few (a
branch authored in 2019 on src/click, merged after the move): kept as one text attribute
of the module, so what touched the earlier path in a window is the module's commits before
the move, less the early exceptions, plus the late ones. Written by graph/git/lives.py, read
by engine/resolving/formerfolders.py.

The attribute: "early<TAB>epoch seconds ..." (authored before the move, not touching the
earlier path) and "late<TAB>..." (authored at or after it, touching the earlier path), one
line each; a list cut to fit is marked "cut", and is then no figure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.domain import gone

ATTRIBUTE = "moved_apart"


@dataclass(frozen=True)
class Apart:
    early: tuple[int, ...]  # author instants (epoch seconds), before the move, new path only
    late: tuple[int, ...]  # at or after the move, touching the earlier path


def encode(early: Sequence[int], late: Sequence[int]) -> str:
    """Both lists, or "cut" when they do not fit one attribute text."""
    text = "\n".join(
        ["early\t" + " ".join(map(str, sorted(early))), "late\t" + " ".join(map(str, sorted(late)))]
    )
    return text if len(text) <= gone.MAX_CHARS else "cut"


def decode(text: object) -> Apart | None:
    """The exceptions; None when none were kept or they were cut."""
    lists: dict[str, tuple[int, ...]] = {}
    for line in str(text or "").splitlines():
        name, _, values = line.partition("\t")
        lists[name] = tuple(int(v) for v in values.split() if v.isdigit())
    if "early" not in lists or "late" not in lists:
        return None
    return Apart(lists["early"], lists["late"])


def within(instants: Sequence[int], start: int, end: int) -> int:
    """How many instants lie in the half-open [start, end) (epoch seconds)."""
    return sum(1 for at in instants if start <= at < end)
