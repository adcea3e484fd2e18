"""Which spans of a question are a known subject's name, looked up before the question's
vocabulary is read (engine.reading.interpreter reads the question with them): a name the
organisation uses is never read as a word ("Shipping Store Service"). The lookups are
bounded, since every span of a long question could be a name.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from itertools import groupby

from engine.ports import OrgGraph
from engine.reading.lookups import HandleCandidate

MAX_NAME_PROBES = 16  # spans of one question looked up as known names


async def known_handles(graph: OrgGraph, candidates: Sequence[HandleCandidate]) -> set[str]:
    """The spans of the question that are a known subject's name: looked up longest
    first, one round per length (the spans of a round together), never a span inside
    a longer one already found; at most MAX_NAME_PROBES lookups."""
    known: set[str] = set()
    taken: list[tuple[int, int]] = []
    probes = 0
    for _, group in groupby(candidates, key=lambda c: c.size):
        spans = [
            c for c in group if not any(c.start < end and c.end > start for start, end in taken)
        ][: max(MAX_NAME_PROBES - probes, 0)]
        probes += len(spans)
        found = await asyncio.gather(
            *(graph.subjects_by_handle(c.text, (), 1) for c in spans)
        )
        for c, (_, total) in zip(spans, found, strict=True):
            if total:
                known.add(c.text)
                taken.append((c.start, c.end))
    return known
