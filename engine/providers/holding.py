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


async def held(source: FactSource, subjects: Sequence[StoredSubject]) -> set[str]:
    """The keys of the subjects another of `subjects` holds."""
    keys = {s.key for s in subjects}
    modules = [s for s in subjects if s.kind is SubjectKind.MODULE]
    out = {s.key for s in modules if f"repository:{s.attributes.get('repository')}" in keys}
    rest = [s.key for s in modules if s.key not in out]
    if len(rest) < 2:
        return out
    found = await containers(source, rest)
    return out | {key for key in rest if found[key] & keys}


async def containers(source: FactSource, keys: Sequence[str]) -> dict[str, set[str]]:
    """The modules each of `keys` is in, by their PART_OF edges, up to the top however deep
    (click's cmd_init.py is four steps below examples). The edges are read one level at a
    time, each module once (a cycle ends the walk)."""
    up: dict[str, set[str]] = {}
    tops = set(keys)
    while tops:
        parts = await source.relationships_of(
            sorted(tops), types=[RelationshipType.PART_OF], direction=Direction.OUTGOING
        )
        up |= {key: {e.other.key for e in parts.get(key, [])} for key in tops}
        tops = {o for key in tops for o in up[key]} - up.keys()
    return {key: _above(key, up) for key in keys}


def _above(key: str, up: dict[str, set[str]]) -> set[str]:
    """The modules `key` is in, at any depth."""
    out: set[str] = set()
    todo = set(up.get(key, ()))
    while todo:
        out |= todo
        todo = {o for top in todo for o in up.get(top, ())} - out
    return out
