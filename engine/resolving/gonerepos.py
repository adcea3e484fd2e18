"""The repositories holding deleted files or folders, for their readers
(engine/resolving/gonefiles.py, gonefolders.py): each repository keeps what it deleted as
attributes, and the git import marks the repositories that hold any (engine/domain/lives.py
`DELETED`), so a name is looked up in those alone. Every repository was read before, a page of
1000 at a time, for each name no subject holds: bench/investigate.py --subjects 10000 had a p95
of 112-115 ms (at 9ed6fed, load 5; 44.6 ms at 4b39642, which read the first 50 alone, unsaid),
52-60 ms reading the marked ones, wrong 0 both."""

from __future__ import annotations

from engine.domain.lives import DELETED
from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery

_PAGE = 1000  # repositories read per round trip (an organisation rarely marks more than one page)


async def holding_deleted(graph: OrgGraph) -> list[StoredSubject]:
    """The repositories marked as holding deleted files or folders, a page at a time."""
    query = SubjectQuery(kinds=(SubjectKind.REPOSITORY,), attributes=((DELETED, True),))
    out: list[StoredSubject] = []
    page = await graph.find_subjects(query, _PAGE)
    out.extend(page.items)
    while page.has_next and page.positions:
        page = await graph.find_subjects(query, _PAGE, page.positions[-1])
        out.extend(page.items)
    return out
