"""A reference naming a file (or folder) the repository no longer has, in a question asking
when or by whom it was deleted ("who killed _unicodefun.py?", "when was CHANGES.rst removed?"): the
deletion is a commit of the repository, so the reference is the repository and the answer
reads that commit (engine/questions/lives.py). Only then: any other question about a deleted
file ends as before (a file deleted since is no subject, and nothing is counted for it).
The files are the repository's attribute `gone_files` (engine/domain/lives.py, written by the
git import)."""

from __future__ import annotations

from engine.domain import lives
from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import OrgGraph, SubjectQuery
from engine.resolving.resolution import Resolved

_REPOSITORIES = 50  # repositories read for their deleted files, at most


async def deleted_file(graph: OrgGraph, reference: str) -> tuple[StoredSubject, str] | None:
    """The repository of the one deleted file or folder the reference names, and what is said of it;
    None when it names none, or several (each a different answer: never one of them)."""
    if " " in reference.strip():
        return None
    page = await graph.find_subjects(SubjectQuery(kinds=(SubjectKind.REPOSITORY,)), _REPOSITORIES)
    hits = [
        (repository, step)
        for repository in page.items
        for step in lives.deleted(repository.attributes, reference)
    ]
    if len(hits) != 1:
        return None
    repository, step = hits[0]
    note = (
        f'"{reference}" names {step.path}, which {repository.name} no longer has: its '
        "deletion is a commit of the repository, read there."
    )
    return repository, note


def its_path(reference: str, outcome: object) -> bool:
    """The reference resolved to a subject it names by name, or as its path: "who removed
    requests/packages?" resolved to src/requests/packages.py (made after the vendored folder
    went) names the folder deleted, not the file."""
    if not isinstance(outcome, Resolved):
        return False
    path = str(outcome.subject.attributes.get("path") or "")
    written = reference.strip().strip("/")
    return "/" not in written or path == written or path.endswith(f"/{written}")
