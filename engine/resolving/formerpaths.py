"""A path as it was before a move: "attr/exceptions.py" after attr/ moved to src/attr/,
"werkzeug/datastructures/csp.py" after werkzeug/ moved to src/werkzeug/.

The git import keeps a moved directory's earlier paths as its previous names (a package's
too, when the earlier path is spelled as its name: attrs' attr/ became src/attr/). A path no
subject is named by is read through them, longest directory first, as git's own history of
the files under it reads: a directory module that was once at the path's leading directories
holds now what was under them, so the path is the module at the same place under it. Each
step must land on a module of the head by its current path; several moves read in turn
("a/b/x.py": a/ moved to src/a/, then src/a/b/ to src/a/c/), at most `MAX_STEPS` of them.
The answer names the current path and says the path asked was its former one, never
answering for the directory in its place (engine.resolving.within.holder_of_path says that).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.ports import SubjectDirectory

MAX_STEPS = 4
_SAMPLE = 10  # modules read per directory prefix (a handle is rarely several modules')


@dataclass(frozen=True)
class Moved:
    """The module a former path became, and what the answer says about it."""

    subject: StoredSubject
    note: str


def folded_path(reference: str, matched: str | None) -> bool:
    """A path that named a subject only once punctuation was folded: "click/_utils.py" is
    not src/click/utils.py (once click/utils.py), though the two fold alike; it is read as
    the path it is (through the moves, else not tracked). Case and a trailing slash are no
    difference ("docs/" is docs)."""
    if matched is None or "/" not in reference:
        return False
    return reference.strip().strip("/").casefold() != matched.strip().strip("/").casefold()


async def moved(graph: SubjectDirectory, reference: str) -> Moved | None:
    """The module of the head `reference` (a path) became through the moves the import
    learnt, None when it names none (or several)."""
    path = reference.strip().strip("/")
    steps: list[str] = []
    for _ in range(MAX_STEPS):
        step = await _one_move(graph, path)
        if step is None:
            return None
        path, holder, former = step
        steps.append(f"{former} is now {_path(holder)}")
        found = await _module_at(graph, path, holder)
        if found is not None:
            return Moved(
                found,
                f'"{reference}" is a path from before a move ({"; ".join(steps)}): '
                f"answered for {found.name}, its path now {_path(found)}.",
            )
    return None


async def _one_move(graph: SubjectDirectory, path: str) -> tuple[str, StoredSubject, str] | None:
    """The path with its longest leading directories that are a directory module's former
    path replaced by that module's path; the module and the former path."""
    parts = path.split("/")
    for n in range(len(parts) - 1, 0, -1):
        former, rest = "/".join(parts[:n]), "/".join(parts[n:])
        found, _ = await graph.subjects_by_handle(former, [SubjectKind.MODULE], _SAMPLE)
        holders = [
            m
            for m in found
            if former in m.previous_names
            and m.attributes.get("module_kind") != "file"
            and _path(m) != former
        ]
        if len(holders) == 1:
            return f"{_path(holders[0])}/{rest}", holders[0], former
        if holders:
            return None  # several directories were once there: the path cannot say which
    return None


async def _module_at(
    graph: SubjectDirectory, path: str, holder: StoredSubject
) -> StoredSubject | None:
    """The one module of the holder's repository whose current path is `path`."""
    found, _ = await graph.subjects_by_handle(path, [SubjectKind.MODULE], _SAMPLE)
    repository = holder.attributes.get("repository")
    at = [m for m in found if _path(m) == path and m.attributes.get("repository") == repository]
    return at[0] if len(at) == 1 else None


def _path(module: StoredSubject) -> str:
    return str(module.attributes.get("path") or module.key.partition(":")[2])
