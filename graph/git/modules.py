"""Modules: the code's own packages, else directories at a configurable depth, followed
through renames.

A file under a package root (a directory holding __init__.py, package.json, Cargo.toml,
go.mod, ...; see tree.PACKAGE_MARKERS) belongs to that package's module, named by the
directory's own name with the directory path as an alias: a src layout's `src/click/` is the
module `click`, not `src`. Other files belong to their directory at the module depth.

History is read newest first, so when a commit is seen that moved a whole directory A to B,
every older commit touching A is attributed to B's lineage: one module subject keeps the whole
history, with A recorded as a previous name. A move counts as a rename only when A no longer
exists after that commit; a directory that lost some files to another is two modules.

A package root below a directory module that has files of its own at the head (click's
`tests/test_utils` in `tests`; tree.holders) is a module of its own and part of the
directory's: its changes count for it and for the directory, once per commit, as
`git log -- tests` counts them (a package inside a package is part of the outer one and no
module of its own). `src` of a src layout, holding only its package, is no module.

Python modules are modules too: each `.py` file directly in a package directory of the
imported head (tree.python_modules) is a module subject of its own, named by its dotted name
(`click.parser`), part of the package module holding it. Its changes count for it and for
its package. A file renamed (git's rename detection, `-M`) keeps its history, as
`git log --follow` does: older commits touching the old path count for the module, whose
previous names record that path, unless the old path is a module of the head itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from graph.git.log import Commit, FileChange


def module_of(path: str, depth: int) -> str | None:
    """The module a file belongs to; None for files above the module depth."""
    parts = path.split("/")
    if len(parts) <= depth:
        return None
    return "/".join(parts[:depth])


@dataclass
class Module:
    path: str  # the current path (the newest name)
    previous: list[str] = field(default_factory=list)
    renamed_at: datetime | None = None  # when it got its current path, if renamed
    package: bool = False  # a package root: named by its directory's own name
    dotted: str | None = None  # a Python module (a file): its dotted name, `click.parser`
    # A Python module: the path of the package module holding it; a package: the path of
    # the directory module holding it, if any.
    parent: str | None = None

    @property
    def name(self) -> str:
        if self.dotted is not None:
            return self.dotted
        return self.path.rpartition("/")[2] if self.package else self.path

    def aliases(self, repo: str) -> list[str]:
        """What a user would type for it: its path (with and without the repository); for
        a Python module also its file name and the name without `.py` (`parser`), and its
        dotted name once its package's name is dropped (`commands.cmd_init`)."""
        own = [self.path, f"{repo}/{self.path}"]
        if self.dotted is not None:
            base = self.path.rpartition("/")[2]
            own += [base, base.removesuffix(".py"), self.dotted.partition(".")[2]]
        return [a for a in dict.fromkeys(own) if a and a != self.name]

    def previous_names(self, taken: frozenset[str] = frozenset()) -> list[str]:
        """Its earlier paths; for a Python module also the earlier file names without `.py`
        ("router" for a routing.py that was router.py), as a user who knew it by them types,
        unless a name of the head is `taken` by them: click's core.py was click.py, and
        "click" is the package (and the repository), not an old name of click.core."""
        names = list(self.previous)
        if self.dotted is not None:
            stems = [p.rpartition("/")[2].removesuffix(".py") for p in self.previous]
            names += [n for n in stems if n not in taken]
        return list(dict.fromkeys(names))


def taken_names(repo: str, modules: Modules) -> frozenset[str]:
    """The names the head's packages and Python modules (by file name without `.py` too),
    the modules this run saw and the repository go by: an earlier file name equal to one of
    them names that, not the module renamed."""
    names = {repo, *(root.rpartition("/")[2] for root in modules.roots)}
    for path, dotted in modules.files.items():
        names.update((dotted, path.rpartition("/")[2].removesuffix(".py")))
    names.update(module.name for module in modules.by_path.values())
    return frozenset(names)


class Modules:
    """Maps a file path at some point of history to the module lineage it belongs to."""

    def __init__(
        self,
        depth: int,
        gone_after: Callable[[str, str], bool],
        roots: Iterable[str] = (),
        files: Mapping[str, str] | None = None,
        holders: Iterable[str] = (),
    ) -> None:
        self.depth = depth
        self.roots = frozenset(roots)
        self.holders = frozenset(holders)  # directory modules holding package roots
        self.files = dict(files or {})  # a Python module's head path -> its dotted name
        self._follows: dict[str, str] = {}  # an older file path -> the module's head path
        self._gone_after = gone_after  # (sha, path) -> the path no longer exists after sha
        self._lineage: dict[str, str] = {}  # an older path -> the current path of its module
        self.by_path: dict[str, Module] = {}

    def module_of(self, path: str) -> str | None:
        """The package root holding `path`, else its directory at the module depth."""
        parts = path.split("/")
        for i in range(1, len(parts)):
            prefix = "/".join(parts[:i])
            if prefix in self.roots:
                return prefix
        return module_of(path, self.depth)

    def _holder(self, path: str, module: str) -> str | None:
        """The directory module holding the package `module` that `path` is in, if any:
        the file counts for it too (tests/test_utils/x.py for tests)."""
        directory = module_of(path, self.depth)
        if directory is None or not module.startswith(f"{directory}/"):
            return None
        current = self.current(directory)
        return current if current in self.holders else None

    def _module(self, path: str) -> Module:
        return self.by_path.setdefault(path, Module(path, package=path in self.roots))

    def current(self, path: str) -> str:
        return self._lineage.get(path, path)

    def modules_of(self, commit: Commit) -> dict[str, list[int]]:
        """Module (current path) -> [added, removed] for one commit; notes directory renames."""
        out: dict[str, list[int]] = {}
        moves: dict[str, set[str]] = {}
        for change in commit.files:
            module = self.module_of(change.path)
            if change.old_path is not None:
                old = self.module_of(change.old_path)
                if old is not None and old != module:
                    moves.setdefault(old, set()).add(module or "")
            if module is None:
                continue
            current = self.current(module)
            holder = self._holder(change.path, module)
            for path in (current, holder) if holder is not None else (current,):
                totals = out.setdefault(path, [0, 0])
                totals[0] += change.added
                totals[1] += change.removed
                self._module(path)
            if holder is not None and self.by_path[current].parent is None:
                self.by_path[current].parent = holder
        for old, targets in moves.items():
            self._maybe_rename(commit, old, targets)
        for change in commit.files:
            self._file_change(commit, change, out)
        return out

    def _file_change(self, commit: Commit, change: FileChange, out: dict[str, list[int]]) -> None:
        """Counts a change to a Python module for that module; follows its renames."""
        path = self._follows.get(change.path, change.path)
        if path not in self.files:
            return
        totals = out.setdefault(path, [0, 0])
        totals[0] += change.added
        totals[1] += change.removed
        module = self.by_path.get(path)
        if module is None:
            package = self.module_of(path)
            parent = self.current(package) if package is not None else None
            module = self.by_path[path] = Module(path, dotted=self.files[path], parent=parent)
        old = change.old_path
        if old is None or old == path or old in self.files or old in self._follows:
            return  # a module of the head keeps its own history, and a path one lineage
        self._follows[old] = path
        module.previous.append(old)
        if module.renamed_at is None:
            module.renamed_at = commit.authored

    def _maybe_rename(self, commit: Commit, old: str, targets: set[str]) -> None:
        if len(targets) != 1 or "" in targets or old in self._lineage:
            return
        if old in self.by_path:
            return  # touched by a newer commit under its own name: it lived on
        if any(self.module_of(c.path) == old for c in commit.files if c.old_path is None):
            return
        if not self._gone_after(commit.sha, old):
            return
        new = self.current(next(iter(targets)))
        self._lineage[old] = new
        module = self._module(new)
        module.previous.append(old)
        if module.renamed_at is None:
            module.renamed_at = commit.authored
