"""Which of the subjects asked about hold another one's changes: a repository holds its
modules', a package module its Python modules', a directory module the packages' inside it
(their PART_OF edges, graph/git/records.py), and so on up: examples holds the package
examples/complex, which holds complex.cli. Over several subjects a person's changes are
counted only over the subjects no other one holds, so nothing is counted twice: "who changed
the click module and core.py in 2025?" gave Kevin Deldycke 2627 lines, where he changed 1486
in src/click (core.py's counted again).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.models import Direction, RelationshipType, StoredSubject, SubjectKind
from engine.ports import FactSource

# PART_OF steps followed up from a module: a Python module, its package, the directory.
_LEVELS = 3


async def held(source: FactSource, subjects: Sequence[StoredSubject]) -> set[str]:
    """The keys of the subjects another of `subjects` holds."""
    keys = {s.key for s in subjects}
    modules = [s for s in subjects if s.kind is SubjectKind.MODULE]
    out = {s.key for s in modules if f"repository:{s.attributes.get('repository')}" in keys}
    rest = [s.key for s in modules if s.key not in out]
    if len(rest) < 2:
        return out
    above = {key: {key} for key in rest}  # a module -> the modules it is in, so far
    for _ in range(_LEVELS):
        tops = {top for tops in above.values() for top in tops}
        parts = await source.relationships_of(
            sorted(tops), types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
        )
        up = {key: {e.other.key for e in edges} for key, edges in parts.items()}
        above = {key: {o for top in tops for o in up.get(top, ())} for key, tops in above.items()}
        out |= {key for key, tops in above.items() if tops & keys}
        if not any(above.values()):
            break
    return out
