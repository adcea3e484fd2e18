"""Which of the subjects asked about hold another one's changes: a repository holds its
modules', a package module its Python modules' (their PART_OF edge, graph/git/records.py).
Over several subjects a person's changes are counted only over the subjects no other one
holds, so nothing is counted twice: "who changed the click module and core.py in 2025?"
gave Kevin Deldycke 2627 lines, where he changed 1486 in src/click (core.py's counted again).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.models import Direction, RelationshipType, StoredSubject, SubjectKind
from engine.ports import FactSource


async def held(source: FactSource, subjects: Sequence[StoredSubject]) -> set[str]:
    """The keys of the subjects another of `subjects` holds."""
    keys = {s.key for s in subjects}
    modules = [s for s in subjects if s.kind is SubjectKind.MODULE]
    out = {s.key for s in modules if f"repository:{s.attributes.get('repository')}" in keys}
    rest = [s.key for s in modules if s.key not in out]
    if len(rest) > 1:
        parts = await source.relationships_of(
            rest, types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
        )
        out |= {key for key, edges in parts.items() if any(e.other.key in keys for e in edges)}
    return out
