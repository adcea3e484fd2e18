"""A reference naming a file (or folder) the repository no longer has, in a question asking
when or by whom it was deleted ("who killed _unicodefun.py?", "when was CHANGES.rst removed?"): the
deletion is a commit of the repository, so the reference is the repository and the answer
reads that commit (engine/questions/lives.py). Only then: any other question about a deleted
file ends as before (a file deleted since is no subject, and nothing is counted for it).
The files are the repository's attribute `gone_files` (engine/domain/lives.py, written by the
git import)."""

from __future__ import annotations

from engine.domain.lives import Step
from engine.domain.models import StoredSubject
from engine.ports import OrgGraph
from engine.questions.lifesteps import deleted_named
from engine.resolving.gonerepos import holding_deleted
from engine.resolving.resolution import Resolved


async def deleted_file(graph: OrgGraph, reference: str) -> tuple[StoredSubject, str] | None:
    """The repository of the one deleted file or folder the reference names, and what is said
    of it; None when it names none, or several (each a different answer: never one of them)
    unless one alone lay in the shipped code (werkzeug's "contrib": src/werkzeug/contrib, the
    others in tests/, docs/ and examples/ named beside it)."""
    if " " in reference.strip():
        return None
    hits: list[tuple[StoredSubject, Step]] = []
    others: list[str] = []
    for repository in await holding_deleted(graph):
        found, beside = await deleted_named(graph, repository, [reference])
        hits += [(repository, step) for step in found]
        others += beside
    if len(hits) != 1:
        return None
    repository, step = hits[0]
    note = (
        f'"{reference}" names {step.path}, which {repository.name} no longer has: its '
        "deletion is a commit of the repository, read there."
    )
    if others:
        note += (
            f" It is the one of the shipped code; {', '.join(others)} of that name were "
            "deleted too: name one by its path to ask about it."
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
