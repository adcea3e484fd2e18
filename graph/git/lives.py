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

from collections.abc import Mapping, Sequence

from engine.domain import lives, movedapart
from engine.domain.lives import Lived, Step
from graph.git.gone import folders_of
from graph.git.log import Commit, FileChange
from graph.git.modules import Module

_DEPTH = 8  # earlier paths followed in one lineage, at most


def births(commits: Sequence[Commit]) -> dict[str, Step]:
    """Every path (file or folder) -> the commit that wrote it in its latest life; `commits`
    newest first (merges left out: they write nothing of their own)."""
    return lived(commits)[0]


def lived(commits: Sequence[Commit]) -> tuple[dict[str, Step], dict[str, list[Lived]]]:
    """Every path -> the commit that wrote it in its latest life, and every file path that
    lived before that -> its earlier lives, oldest first. A life begins with the first commit
    writing the path, or one git says created it (status A, or a rename into it) after a
    commit deleted it or moved it away, and ends with the last such commit before the next
    creation: requests' test_requests.py, added by 75b499d (2011), moved to tests/ by 0b9a2a1
    (2012-02), added again by 82cce02 (2012-12), moved to tests/ again by 18b26d2 (2016). A
    change after a deletion that creates nothing (a line of work merged later) is no new life.
    A folder's birth stays its first writing."""
    born: dict[str, Step] = {}
    ended: dict[str, tuple[Step, str]] = {}
    earlier: dict[str, list[Lived]] = {}
    for commit in reversed(commits):
        for change in commit.files:
            path = change.path
            came = change.old_path if change.old_path not in (None, path) else ""
            if change.deleted:
                if path in born:
                    ended[path] = (_step(commit, path, ""), "")
            elif path not in born:
                born[path] = _step(commit, path, came or "")
            elif path in ended and (change.created or came):
                end, moved_to = ended.pop(path)
                earlier.setdefault(path, []).append(Lived(born[path], end, moved_to))
                born[path] = _step(commit, path, came or "")
            if came and came in born:
                ended[came] = (_step(commit, came, ""), path)
            for folder in folders_of(path):
                if folder not in born:
                    born[folder] = _step(commit, folder, _folder_from(change, folder))
    return born, earlier


def lineage(
    path: str, born: dict[str, Step], earlier: Mapping[str, Sequence[Lived]] | None = None
) -> list[Step]:
    """The births of `path` and of each earlier path git's renames lead back to, newest
    first, each the life of that path that was written before the step after it (with
    `earlier`: a path moved away and written again later is followed into the life it moved
    from); empty when this run did not see it written (an incremental run: kept as stored)."""
    out: list[Step] = []
    seen: set[tuple[str, str]] = set()
    step = born.get(path)
    while step is not None and (step.path, step.sha) not in seen and len(out) < _DEPTH:
        out.append(step)
        seen.add((step.path, step.sha))
        step = _life_before(step, born, earlier or {}) if step.came_from else None
    return out


def _life_before(
    step: Step, born: dict[str, Step], earlier: Mapping[str, Sequence[Lived]]
) -> Step | None:
    """The birth of the life of `step.came_from` that `step` moved from: its latest life
    written before `step`, else its latest life (as kept before earlier lives were)."""
    latest = born.get(step.came_from)
    lives_of = [*(life.born for life in earlier.get(step.came_from, ())), latest]
    before = [s for s in lives_of if s is not None and s.at <= step.at]
    return before[-1] if before else latest


def earlier_lives(
    path: str, born: dict[str, Step], earlier: Mapping[str, Sequence[Lived]]
) -> list[Lived]:
    """The earlier lives of each path of `path`'s lineage, that lineage's oldest path first."""
    paths = dict.fromkeys(s.path for s in reversed(lineage(path, born, earlier)))
    return [life for p in paths for life in earlier.get(p, ())]


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


def lineage_attribute(
    path: str, born: dict[str, Step], earlier: Mapping[str, Sequence[Lived]] | None = None
) -> dict[str, str]:
    """A module's `lineage` attribute, with its `earlier_lives` when a path of it lived
    more than once; nothing when this run did not see its path written (what an earlier
    import stored stays)."""
    text = lives.encode(lineage(path, born, earlier))
    if not text:
        return {}
    before = lives.encode_lived(earlier_lives(path, born, earlier or {}))
    return {lives.LINEAGE: text, **({lives.EARLIER: before} if before else {})}


def gone_attribute(found: Sequence[Step], stored: object, head: frozenset[str]) -> dict[str, str]:
    """The repository's `gone_files`: those this run found, and those stored before that
    the head has not made again (an incremental run reads only the new commits)."""
    new = {s.path for s in found}
    kept = [s for s in lives.decode_gone(stored) if s.path not in head and s.path not in new]
    text = lives.encode_gone([*found, *kept])
    return {lives.GONE_FILES: text} if text else {}


def gone_lives_attribute(
    found: Sequence[Step],
    earlier: Mapping[str, Sequence[Lived]],
    stored: object,
    head: frozenset[str],
) -> dict[str, str]:
    """The repository's `earlier_lives`: those of each deleted file this run found (attrs'
    AUTHORS.rst, deleted in 2015 and again in 2022), and those stored before of files the
    head has not made again nor this run found (an incremental run reads only the new
    commits)."""
    new = {s.path for s in found}
    mine = [life for s in found for life in earlier.get(s.path, ())]
    kept = [
        life
        for life in lives.decode_lived(stored)
        if life.born.path not in head and life.born.path not in new
    ]
    text = lives.encode_lived([*mine, *kept])
    return {lives.EARLIER: text} if text else {}


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
