"""The life of each path, from the commits read: which commit first wrote it, and which
deleted a file the head no longer has (engine/domain/lives.py keeps them as text attributes).

Why: a module is one subject over its renames and moves (graph/git/modules.py), so its first
change is the first change of its oldest path: click's core.py counts click.py's "Initial
commit" (2014-04-24), where core.py itself was written first on 2014-04-26 by the commit that
split click.py up (git: click.py => click/core.py). "When was core.py created?" asks for that
commit, said with where git says the path came from; "who deleted _unicodefun.py?" asks for
the commit that removed a file no subject holds any more. Both are read from git as `git log
--no-merges --full-history --diff-filter=A|D` gives them:

- a path's birth is the oldest commit writing it (under it, for a folder: the first commit
  with the folder in that form, as "when did datastructures.py become a package?" asks);
  when that commit's entry is a rename (`-M`), the earlier path is where it came from, and
  that path's own birth is the step before (a module's `lineage`, newest first);
- a file the head has no more was deleted by the newest commit git gives status D for it
  (graph/git/log.py reads `--summary`): a rename away is a move, no deletion.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain import lives, movedapart
from engine.domain.lives import Step
from graph.git.gone import folders_of
from graph.git.log import Commit, FileChange
from graph.git.modules import Module

_DEPTH = 8  # earlier paths followed in one lineage, at most


def births(commits: Sequence[Commit]) -> dict[str, Step]:
    """Every path (file or folder) -> the commit that first wrote it; `commits` newest first
    (merges left out: they write nothing of their own)."""
    out: dict[str, Step] = {}
    for commit in reversed(commits):
        for change in commit.files:
            if change.path not in out:
                came = change.old_path if change.old_path not in (None, change.path) else ""
                out[change.path] = _step(commit, change.path, came or "")
            for folder in folders_of(change.path):
                if folder not in out:
                    out[folder] = _step(commit, folder, _folder_from(change, folder))
    return out


def lineage(path: str, born: dict[str, Step]) -> list[Step]:
    """The births of `path` and of each earlier path git's renames lead back to, newest
    first; empty when this run did not see it written (an incremental run: kept as stored)."""
    out: list[Step] = []
    seen: set[str] = set()
    step = born.get(path)
    while step is not None and step.path not in seen and len(out) < _DEPTH:
        out.append(step)
        seen.add(step.path)
        step = born.get(step.came_from) if step.came_from else None
    return out


def gone_files(commits: Sequence[Commit], head: frozenset[str]) -> list[Step]:
    """Each file path some commit wrote that the head has no more, with the newest commit
    git says deleted it (status D, `--summary`'s "delete mode"); `commits` newest first. A
    path only renamed away was moved, not deleted. Not the last touch: werkzeug's
    src/werkzeug/contrib/sessions.py, deleted by 81e10efb (2019-03-19), was changed after on
    a branch merged later (54939182, 2019-09-12), and a file emptied before its deletion was
    read as deleted by the commit that emptied it."""
    out: list[Step] = []
    seen: set[str] = set()
    for commit in commits:
        for change in commit.files:
            path = change.path
            if change.deleted and path not in seen and path not in head:
                out.append(_step(commit, path, ""))
            if change.deleted:
                seen.add(path)
    return out


def _step(commit: Commit, path: str, came_from: str) -> Step:
    return Step(path, commit.authored.isoformat(), commit.sha[:10], commit.name, came_from)


def _folder_from(change: FileChange, folder: str) -> str:
    """The folder a renamed file came from when its path inside both is the same
    (werkzeug/debug/tbtools.py => src/werkzeug/debug/tbtools.py: werkzeug/debug), else ""."""
    old = change.old_path
    if old is None or old == change.path:
        return ""
    inner = change.path[len(folder) :]  # "/tbtools.py"
    return old[: -len(inner)] if old.endswith(inner) and len(old) > len(inner) else ""


def lineage_attribute(path: str, born: dict[str, Step]) -> dict[str, str]:
    """A module's `lineage` attribute; nothing when this run did not see its path written
    (what an earlier import stored stays)."""
    text = lives.encode(lineage(path, born))
    return {lives.LINEAGE: text} if text else {}


def gone_attribute(found: Sequence[Step], stored: object, head: frozenset[str]) -> dict[str, str]:
    """The repository's `gone_files`: those this run found, and those stored before that
    the head has not made again (an incremental run reads only the new commits)."""
    new = {s.path for s in found}
    kept = [s for s in lives.decode_gone(stored) if s.path not in head and s.path not in new]
    text = lives.encode_gone([*found, *kept])
    return {lives.GONE_FILES: text} if text else {}


def apart(module: Module, commit: Commit) -> str | None:
    """Whether a commit counted for a moved folder module was made apart from its era
    (engine/domain/movedapart.py): "early" authored before the move touching only the new
    path, "late" authored at or after it touching the earlier path; None otherwise (or for a
    file, or a module never moved)."""
    if module.kind == "file" or module.renamed_at is None or not module.previous:
        return None
    before = module.previous[0]
    touched = any(
        p is not None and (p == before or p.startswith(f"{before}/"))
        for change in commit.files
        for p in (change.path, change.old_path)
    )
    if commit.authored < module.renamed_at:
        return None if touched else "early"
    return "late" if touched else None


def apart_attribute(found: tuple[list[int], list[int]] | None, stored: object) -> dict[str, str]:
    """A moved folder module's `moved_apart`: this run's exceptions, with those stored before
    (an incremental run reads only the new commits); nothing for a module never moved."""
    kept = movedapart.decode(stored)
    if found is None and kept is None:
        return {}
    early, late = found or ([], [])
    if kept is not None:
        early, late = [*early, *kept.early], [*late, *kept.late]
    text = movedapart.encode(sorted(set(early)), sorted(set(late)))
    return {movedapart.ATTRIBUTE: text}
