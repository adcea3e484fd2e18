"""The life of a path as the git import keeps it: the commit that first wrote a path (where it
came from when git's rename detection says it was moved there), and the commit that deleted a
file the head no longer has. Written by graph/git/lives.py, read by engine/questions/lives.py
("when was core.py created?", "who deleted _unicodefun.py?", "where did X go?").

Two text attributes, one line a path, tab-separated:
- a module's `lineage`: its path and each earlier path git followed it through, newest first:
  "path<TAB>author time<TAB>hash<TAB>author<TAB>the path it came from (empty: added there)";
- a module's `earlier_lives`: each path of its lineage that lived before the life the
  lineage follows (created, then deleted or moved away, then created again: requests'
  test_requests.py, added in 2011, moved to tests/ in 2012, added again in 2012 and moved
  to tests/ in 2016), one line a life, oldest first: "path<TAB>its birth's author time<TAB>
  hash<TAB>author<TAB>the path it came from<TAB>its end's author time<TAB>hash<TAB>author<TAB>
  the path it moved to (empty: deleted)"; the repository's `earlier_lives`, likewise, those
  of its deleted files (attrs' AUTHORS.rst: added 2015-01, deleted 2015-12, added again);
- the repository's `gone_files`: each file the head no longer has, deleted (not moved) by
  the last commit that touched it, one line a commit (a release deleting hundreds of
  changelog fragments is one line): "author time<TAB>hash<TAB>author<TAB>path<TAB>path...".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.domain import gone

LINEAGE = "lineage"
EARLIER = "earlier_lives"
GONE_FILES = "gone_files"
# A repository holding any deleted file or folder (`gone_files`, or engine/domain/gone.py's
# `gone_folders`) is marked so, true, by the git import: their readers ask the graph for the
# marked repositories alone (engine/resolving/gonerepos.py), never every repository (a name no
# subject holds read them all: an organisation of 10k subjects doubled its p95).
DELETED = "deleted_paths"


@dataclass(frozen=True)
class Step:
    """One commit in a path's life: it wrote `path` first (from `came_from` when git found a
    rename), or deleted it."""

    path: str
    at: str  # author time, ISO 8601
    sha: str  # abbreviated
    by: str
    came_from: str = ""


@dataclass(frozen=True)
class Lived:
    """An earlier life of a path: the commit that wrote it (`born`) and the one that deleted
    it or moved it away (`ended`, to `moved_to`), before the path was written again."""

    born: Step
    ended: Step
    moved_to: str = ""


def encode_lived(lived: Sequence[Lived]) -> str:
    """One line a life, in the order given (oldest first)."""
    return gone.capped(
        _line((b.path, b.at, b.sha, b.by, b.came_from, e.at, e.sha, e.by, life.moved_to))
        for life in lived
        for b, e in [(life.born, life.ended)]
    )


def decode_lived(text: object) -> list[Lived]:
    out: list[Lived] = []
    for line in str(text or "").splitlines():
        parts = line.split("\t")
        if len(parts) == 9:
            path, moved_to = parts[0], parts[8]
            born = Step(path, *parts[1:5])
            out.append(Lived(born, Step(path, *parts[5:8]), moved_to))
    return out


def encode(steps: Sequence[Step]) -> str:
    """One line a step, in the order given (a lineage's newest path first)."""
    return gone.capped(_line((s.path, s.at, s.sha, s.by, s.came_from)) for s in steps)


def encode_gone(steps: Sequence[Step]) -> str:
    """The deleted files, one line a commit, the commits deleting the shallowest paths first
    (a vendored tree's depths are the first left out when they do not fit)."""
    by_commit: dict[tuple[str, str, str], list[str]] = {}
    for s in sorted(steps, key=lambda s: (s.path.count("/"), s.path)):
        by_commit.setdefault((s.at, s.sha, s.by), []).append(s.path)
    # a commit's line that does not fit is left out: a smaller commit's may still fit
    lines = (_line((*commit, *paths)) for commit, paths in by_commit.items())
    return gone.capped(lines, skipping=True)


def _line(cells: Sequence[str]) -> str:
    """One attribute line, its cells' own tabs and line ends made spaces."""
    return "\t".join(c.replace("\t", " ").replace("\n", " ") for c in cells)


def decode_gone(text: object) -> list[Step]:
    out: list[Step] = []
    for line in str(text or "").splitlines():
        parts = line.split("\t")
        if len(parts) >= 4:
            out += [Step(path, *parts[:3]) for path in parts[3:]]
    return out


def decode(text: object) -> list[Step]:
    out: list[Step] = []
    for line in str(text or "").splitlines():
        parts = line.split("\t")
        if len(parts) in (4, 5):
            out.append(Step(*parts))
    return out


def names(written: str, path: str) -> bool:
    """A reference naming a path: the whole path, its last segments, or its file name
    without ".py" ("_bashcomplete" for src/click/_bashcomplete.py)."""
    w = written.strip().strip("/").casefold()
    p = path.casefold()
    return bool(w) and (p == w or p.endswith(f"/{w}") or p.removesuffix(".py").endswith(f"/{w}"))


def deleted(attributes: Mapping[str, object], written: str) -> list[Step]:
    """What a repository (its `attributes`) deleted that `written` names: its deleted files,
    and its deleted folders, each with the commit that deleted the last of its files
    (werkzeug's src/werkzeug/contrib, 81e10efb; never werkzeug/contrib, whose files all moved
    to src/ and none was deleted there). A folder's last change need not be its deletion:
    src/werkzeug/contrib's was a branch merged after it (54939182)."""
    files = decode_gone(attributes.get(GONE_FILES))
    folders = []
    for folder, (_, _, _) in gone.decode(attributes.get(gone.ATTRIBUTE)).items():
        if not names(written, folder):
            continue
        inside = [s for s in files if s.path.startswith(f"{folder}/")]
        if inside:
            last = max(inside, key=lambda s: s.at)
            folders.append(Step(folder, last.at, last.sha, last.by))
    return [*(s for s in files if names(written, s.path)), *folders]
