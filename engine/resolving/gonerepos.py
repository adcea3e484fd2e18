"""Every repository of the organisation, for the readers of what the repositories deleted
(engine/resolving/gonefiles.py, gonefolders.py): each repository keeps its deleted files and
folders as attributes, so a name is looked up in all of them. Both read only the first 50
before, unsaid: a deleted file of the 51st repository was "no subject known here"."""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery

# Repositories read per round trip. A name no subject holds is looked up in every
# repository's deleted files and folders: at 50 a page, a no-match in an organisation of
# 10k subjects (bench/investigate.py) made ~20 round trips and its p95 went from 45 ms
# (4b39642, the first 50 only, unsaid) to 242 ms; at 1000, 99 ms.
_PAGE = 1000


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
