"""Modules: the code's packages at every depth, its directories of Python files, Python
modules, every other file, else directories at a configurable depth, each followed through
renames.

Every directory of the imported head holding Python files is a module (a package: it holds
`__init__.py` or another package marker, tree.PACKAGE_MARKERS; else a directory of them), and
so are the top-level tests/, docs/ and examples/, and every directory at the module depth
unless it holds nothing but module directories (a src layout's `src`). A file counts for
every module directory holding it, its innermost package up to the top (a PART_OF chain):
`src/werkzeug/routing/rules.py` for werkzeug.routing.rules, werkzeug.routing and werkzeug,
as `git log -- src/werkzeug/routing` and `git log -- src/werkzeug` count it.

Python modules are modules too: each `.py` file directly in a package directory of the
imported head (tree.modules_of_tree) is a module subject of its own, named by its dotted
name (`click.parser`). A file renamed (git's rename detection, `-M`) keeps its history, as
`git log --follow` does, unless the old path is a module of the head itself.

Every other file of the head is a module too (kind "file", no dotted name), named by its
path: HISTORY.md, pyproject.toml, docs/conf.py, tests/test_make.py, src/click/__init__.py.
Like a Python module it is followed through renames and counted as `git log --follow
--no-merges --full-history -- PATH` counts it; one no commit of the imported history touched
is no subject (a module is made by the first change counted for it), nor is a file deleted
before the head.

Paths are the head's: before counting, every commit of the run is read for renames (learn),
so a commit on a side branch merged after a move counts where its files are now, whatever
order git lists it in. A commit that moved a whole directory A to B (nothing left of A after
it, renames out of A all going into B) makes A an earlier name of B; each directory of an
older path is translated on its own, so `werkzeug/testsuite/x.py` (before testsuite/ moved
to tests/, and werkzeug/ to src/werkzeug/) counts for src/werkzeug and for tests, as
`git log -- PATH EARLIER-PATHS` of each counts it. A moved file's entry counts for the
modules of its old and of its new path, once each, with the lines git's `-M` gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from graph.git.log import Commit, FileChange
from graph.git.modulenames import Module, taken_names
from graph.git.tree import Layout, within

__all__ = ["Module", "Modules", "module_of", "taken_names"]


def module_of(path: str, depth: int) -> str | None:
    """The directory at the module depth a file lies in; None for files above it."""
    parts = path.split("/")
    if len(parts) <= depth:
        return None
    return "/".join(parts[:depth])


class Modules:
    """Maps a file path at some point of history to the modules it counts for now."""

    def __init__(
        self, depth: int, gone_after: Callable[[str, str], bool], layout: Layout | None = None
    ) -> None:
        self.depth = depth
        layout = layout or Layout([], {}, [])
        self.roots = frozenset(layout.roots)
        self.files = dict(layout.files)  # a Python module's head path -> its dotted name
        self.other = layout.other  # every other file of the head: a file module of its own
        # every file of the head, once: read for each attribute written (records.py)
        self._head_files = frozenset(self.files) | frozenset(self.other)
        self.dirs = dict(layout.dirs)  # a module directory of the head -> its kind
        self.dotted = dict(layout.dotted)  # a Python package's head path -> its dotted name
        self.bare = layout.bare  # directories at the depth that are no module
        self._present = layout.present  # every directory of the head: never renamed away
        self._gone_after = gone_after  # (sha, path) -> the path no longer exists after sha
        self._moved: dict[str, tuple[str, datetime]] = {}  # older directory -> (newer, when)
        self._follows: dict[str, tuple[str, datetime]] = {}  # older file -> (newer, when)
        self._became: dict[str, str] = {}  # a Python file gone -> the package that took its name
        self._where: dict[str, str] = {}  # a directory -> its head path (memo)
        self._counts: dict[str, tuple[str, ...]] = {}  # a path -> its modules (memo)
        self._earlier: dict[str, list[tuple[str, datetime]]] = {}  # module -> earlier paths
        self.by_path: dict[str, Module] = {}

    @property
    def present(self) -> frozenset[str]:
        """Every directory of the head."""
        return self._present

    @property
    def head_files(self) -> frozenset[str]:
        """Every file of the head (the head's layout: never changed once read)."""
        return self._head_files

    def learn(self, commits: Sequence[Commit]) -> None:
        """Reads the renames of every commit (newest first) before any is counted: the
        paths of a side branch's commits are the head's, however git orders them."""
        for commit in commits:
            renames = [c for c in commit.files if c.old_path is not None and c.old_path != c.path]
            for change in renames:
                assert change.old_path is not None
                if not self._is_file(change.old_path):  # a module of the head lives on
                    self._follows.setdefault(change.old_path, (change.path, commit.authored))
            for old, new in _directory_moves(renames):
                if old in self._moved or old in self._present:
                    continue
                if self._gone_after(commit.sha, old):
                    self._moved[old] = (new, commit.authored)
        self._where.clear()
        self._counts.clear()
        for old, (_, when) in self._moved.items():
            self._earlier.setdefault(self.head_path(old), []).append((old, when))
        for old, (_, when) in self._follows.items():
            now = self._file(old)
            if self._is_file(now):
                self._earlier.setdefault(now, []).append((old, when))
        self._learn_packages(commits)

    def _learn_packages(self, commits: Sequence[Commit]) -> None:
        """A Python file `X.py` the head has no more, beside which the head has a package
        `X/`, became that package (werkzeug's routing.py became routing/ in 2022,
        datastructures.py datastructures/ in 2023): `import X` names one module over time, so
        the package counts the file's commits and keeps its paths as earlier names, the
        newest change to each path (the commit that removed it) as when it moved."""
        for commit in commits:  # newest first: a path's first sighting is its last change
            for change in commit.files:
                for path in (change.path, change.old_path):
                    if path is None or path in self._became:
                        continue
                    package = self._package_of_file(self._file(path))
                    if package is not None:
                        self._became[path] = package
                        self._earlier.setdefault(package, []).append((path, commit.authored))

    def _package_of_file(self, path: str) -> str | None:
        """The head's package a Python file no module of the head names by its stem."""
        stem = path.rpartition("/")[2].removesuffix(".py")
        if not path.endswith(".py") or not stem.isidentifier() or self._is_file(path):
            return None
        package = self.head_path(path.removesuffix(".py"))  # where a directory X is now
        return package if self.dirs.get(package) == "package" else None

    def head_path(self, directory: str) -> str:
        """Where a directory of some commit is at the head, through every move learnt."""
        if not directory:
            return ""
        found = self._where.get(directory)
        if found is not None:
            return found
        self._where[directory] = directory  # a cycle of moves ends where it began
        if directory in self._moved:
            found = self.head_path(self._moved[directory][0])
        else:
            parent, _, base = directory.rpartition("/")
            above = self.head_path(parent)
            found = f"{above}/{base}" if above else base
        self._where[directory] = found
        return found

    def _is_file(self, path: str) -> bool:
        """A file module of the head: a Python module or any other file."""
        return path in self.files or path in self.other

    def _file(self, path: str) -> str:
        seen = {path}
        while path in self._follows:
            path = self._follows[path][0]
            if path in seen:
                break
            seen.add(path)
        return path

    def counts_for(self, path: str) -> tuple[str, ...]:
        """The modules (head paths) a change to `path`, as some commit wrote it, counts for,
        outermost first: each module directory holding it, the directory at the module
        depth, and the file module it is (a Python module or another file)."""
        found = self._counts.get(path)
        if found is not None:
            return found
        parts = path.split("/")
        out: list[str] = []
        for i in range(1, len(parts)):
            now = self.head_path("/".join(parts[:i]))
            if i == self.depth:  # the directory at the depth, unless it holds only modules
                top = "/".join(now.split("/")[: self.depth])
                if top not in self.bare:
                    out.append(top)
            if now in self.dirs:
                out.append(now)
        module = self._file(path)
        if self._is_file(module):
            out.append(module)
        elif path in self._became:  # a file that became a package counts for it
            out.append(self._became[path])
        found = self._counts[path] = tuple(dict.fromkeys(out))
        return found

    def modules_of(self, commit: Commit) -> dict[str, list[int]]:
        """Module (current path) -> [added, removed] for one commit: each file's entry once
        for every module of its path, and of its old path when it moved."""
        out: dict[str, list[int]] = {}
        for change in commit.files:
            for path in self._modules_of_change(change):
                totals = out.setdefault(path, [0, 0])
                totals[0] += change.added
                totals[1] += change.removed
        return out

    def _modules_of_change(self, change: FileChange) -> list[str]:
        paths = [change.path] if change.old_path is None else [change.old_path, change.path]
        found = list(dict.fromkeys(m for p in paths for m in self.counts_for(p)))
        for path in found:
            if path not in self.by_path:
                self.by_path[path] = self._module(path)
        return found

    def _module(self, path: str) -> Module:
        earlier = sorted(self._earlier.get(path, []), key=lambda pair: pair[1], reverse=True)
        module = Module(
            path,
            previous=[old for old, _ in earlier],
            renamed_at=earlier[0][1] if earlier else None,
            package=path in self.roots,
            dotted=self.files.get(path),
            parent=self._parent(path),
        )
        if module.dotted is not None or path in self.other:
            module.kind = "file"
        elif self.dirs.get(path) == "package":
            module.kind = "package"
            dotted = self.dotted.get(path)
            if path not in self.roots and dotted is not None and "." in dotted:
                module.subpackage = dotted
        return module

    def _parent(self, path: str) -> str | None:
        """The module directory holding a module of the head, else the module at the
        depth holding it; None for a module at the depth or one the head has no more."""
        if path not in self.dirs and not self._is_file(path):
            return None
        inner = within(path, self.dirs)
        if inner is not None:
            return inner
        top = module_of(path, self.depth)
        return top if top is not None and top not in self.bare else None


def _directory_moves(renames: Sequence[FileChange]) -> list[tuple[str, str]]:
    """The directory moves one commit's renames suggest: each old directory and the new one
    its files went to, walking up while both keep the same name (`werkzeug/debug` to
    `src/werkzeug/debug`, `werkzeug` to `src/werkzeug`), the innermost pair whatever their
    names (`query` to `resolver`). A directory whose files went to several is no move."""
    targets: dict[str, set[str]] = {}
    for change in renames:
        assert change.old_path is not None
        old, new = change.old_path.rpartition("/")[0], change.path.rpartition("/")[0]
        first = True
        while old and new and old != new:
            same = old.rpartition("/")[2] == new.rpartition("/")[2]
            if not (same or first):
                break
            targets.setdefault(old, set()).add(new)
            old, new, first = old.rpartition("/")[0], new.rpartition("/")[0], False
            if not same:
                break
    # Every rename out of a directory must have gone into the same one: a directory that
    # sent files to two places split, it did not move.
    out = []
    for old, news in targets.items():
        if len(news) != 1:
            continue
        (new,) = news
        inside = [c for c in renames if c.old_path is not None and c.old_path.startswith(f"{old}/")]
        if all(c.path.startswith(f"{new}/") for c in inside):
            out.append((old, new))
    return out
