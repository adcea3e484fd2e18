"""Every repository of the organisation, for the readers of what the repositories deleted
(engine/resolving/gonefiles.py, gonefolders.py): each repository keeps its deleted files and
folders as attributes, so a name is looked up in all of them. Both read only the first 50
before, unsaid: a deleted file of the 51st repository was "no subject known here"."""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery

_PAGE = 50  # repositories read per round trip


async def repositories(graph: OrgGraph) -> list[StoredSubject]:
    """All of them, a page at a time."""
    query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,))
    out: list[StoredSubject] = []
    page = await graph.find_subjects(query, _PAGE)
    out.extend(page.items)
    while page.has_next and page.positions:
        page = await graph.find_subjects(query, _PAGE, page.positions[-1])
        out.extend(page.items)
    return out
