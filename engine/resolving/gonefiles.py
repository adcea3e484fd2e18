"""A reference naming a file (or folder) the repository no longer has, in a question asking
when or by whom it was deleted ("who killed _unicodefun.py?", "when was CHANGES.rst removed?")
or when it became another ("when did CHANGELOG.rst become CHANGELOG.md?"): the
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

# The life events asking of a deleted path: its deletion, and one file made another
# ("when did CHANGELOG.rst become CHANGELOG.md?": the first deleted by the commit adding the
# second; engine/questions/lifesteps.py).
DELETED_ASKED = frozenset({"removed", "replaced"})


async def deleted_file(graph: OrgGraph, reference: str) -> tuple[StoredSubject, str] | None:
    """The repository of the one deleted file or folder the reference names, and what is said
    of it; None when it names none, or several (each a different answer: never one of them)
    unless one alone lay in the shipped code (werkzeug's "contrib": src/werkzeug/contrib, the
    others in tests/, docs/ and examples/ named beside it)."""
    one = await _one(graph, reference)
    if one is None:
        return None
    repository, step, others = one
    note = (
        f'"{reference}" names {step.path}, which {repository.name} no longer has: its '
        "deletion is a commit of the repository, read there."
    )
    if others:
        note += (
            f" It is the one {_chosen(reference, step.path, others)}; {', '.join(others)} of "
            "that name were deleted too: name one by its path to ask about it."
        )
    return repository, note


async def _one(graph: OrgGraph, reference: str) -> tuple[StoredSubject, Step, list[str]] | None:
    """The repository and deletion of the one deleted path the reference names, with the
    others of its name; None when none or several."""
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
    return (*hits[0], others)


async def deleted_said(graph: OrgGraph, reference: str) -> str | None:
    """A file name written whole (with its extension) that names no subject and one deleted
    file: said deleted, with its deletion, never read as a description of another file by its
    words ("useragents.py": src/werkzeug/useragents.py, deleted in 2021; read by its words,
    "when was useragents.py first added?" was answered for src/werkzeug/user_agent.py)."""
    written = reference.strip()
    if "." not in written.strip(".").rpartition("/")[2]:
        return None
    one = await _one(graph, written)
    if one is None:
        return None
    repository, step, _ = one
    return (
        f'"{reference}" names {step.path}, which {repository.name} no longer has: it was '
        f"deleted at {step.at[:10]} ({step.sha[:7]}, by {step.by}). A file deleted since is not "
        "a subject here, so nothing else is answered of it: ask when it was deleted, or `git "
        f"log --no-merges --full-history -- {step.path}` lists its history."
    )


def its_path(reference: str, outcome: object) -> bool:
    """The reference resolved to a subject it names by name, or as its path: "who removed
    requests/packages?" resolved to src/requests/packages.py (made after the vendored folder
    went) names the folder deleted, not the file."""
    if not isinstance(outcome, Resolved):
        return False
    path = str(outcome.subject.attributes.get("path") or "")
    written = reference.strip().strip("/")
    return "/" not in written or path == written or path.endswith(f"/{written}")


def _chosen(reference: str, path: str, others: list[str]) -> str:
    """Why one deleted path of several of a name was taken (engine.questions.lifesteps.
    deleted_named): written whole, holding the others, or the shipped code's."""
    if reference.strip().strip("/").casefold() == path.casefold():
        return "at the path written"
    if all(o.startswith(f"{path}/") for o in others):
        return "holding the others"
    return "of the shipped code"
