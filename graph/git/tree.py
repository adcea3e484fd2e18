"""What makes modules in the imported head's tree: package roots, Python modules, and the
directory modules holding package roots (graph/git/modules.py reads history by them).

The layout is the head's: a path of an older commit is counted by where its module lies now.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from graph.git.log import git


def _listing(repo: Path, rev: str) -> list[str]:
    return git(repo, "ls-tree", "-r", "-z", "--name-only", rev, "--").split("\0")


# A directory holding one of these is a package root: its files are one module, named by
# the directory's own name (src/click -> click), whatever its depth.
PACKAGE_MARKERS = frozenset(
    {"__init__.py", "package.json", "Cargo.toml", "go.mod", "pyproject.toml", "setup.py",
     "pom.xml", "build.gradle", "build.gradle.kts", "mix.exs", "composer.json", "Gemfile"}
)  # fmt: skip


def package_roots(listing: Sequence[str]) -> list[str]:
    """The outermost package roots of a tree's files (never the repository root itself):
    a package inside another package is part of it."""
    dirs = {
        path.rpartition("/")[0]
        for path in listing
        if path.rpartition("/")[2] in PACKAGE_MARKERS and "/" in path
    }
    outermost = []
    for candidate in sorted(dirs, key=lambda d: (d.count("/"), d)):
        parts = candidate.split("/")
        if not any("/".join(parts[:i]) in dirs for i in range(1, len(parts))):
            outermost.append(candidate)
    return outermost


MAX_FILE_MODULES = 5_000  # Python modules of one head made module subjects, at most


class Layout(NamedTuple):
    """What makes modules in the imported head: package roots, Python modules, and the
    directory modules holding package roots."""

    roots: list[str]
    files: dict[str, str]  # a Python module's path -> its dotted name
    warnings: list[str]
    holders: frozenset[str] = frozenset()


def layout(repo: Path, rev: str, depth: int = 1) -> Layout:
    """The head's package roots and Python modules; past MAX_FILE_MODULES Python modules,
    none (packages stay modules) and a warning: a repository that large asks by package."""
    listing = _listing(repo, rev)
    files = modules_of_tree(listing)
    warnings = []
    if len(files) > MAX_FILE_MODULES:
        warnings.append(
            f"{len(files)} Python modules is more than {MAX_FILE_MODULES}: only packages "
            "and directories are modules in this import"
        )
        files = {}
    roots = package_roots(listing)
    return Layout(roots, files, warnings, holders(listing, roots, depth))


def holders(listing: Sequence[str], roots: Sequence[str], depth: int) -> frozenset[str]:
    """The directory modules at `depth` that hold a package root deeper down (click's
    `tests`, holding `tests/test_utils`): a directory with a file of its own outside every
    package root. `src` of a src layout holds nothing else: no module of its own."""

    def top(path: str) -> str:
        return "/".join(path.split("/")[:depth])

    below = {top(root) for root in roots if root.count("/") >= depth}
    inside = tuple(f"{root}/" for root in roots)
    return frozenset(
        top(path)
        for path in listing
        if path.count("/") >= depth and top(path) in below and not path.startswith(inside)
    )


def python_modules(repo: Path, rev: str) -> dict[str, str]:
    """The Python modules of the tree at `rev` (see `modules_of_tree`)."""
    return modules_of_tree(_listing(repo, rev))


def modules_of_tree(listing: Sequence[str]) -> dict[str, str]:
    """The Python modules of a tree's files: each importable `.py` file directly in a
    package directory (one holding `__init__.py`), by path, with its dotted name (the
    package path from the outermost package directory above it: `src/click/parser.py` is
    `click.parser`). `__init__.py` is the package itself, not a module of its own; a file
    at the repository's root, or in a directory that is no package, is no module here.
    Test files (pytest's `test_*.py`, `*_test.py`, `conftest.py`) are left out: a test
    directory is a package or not by an accident of configuration, so the same tests would
    be modules in one repository and not in the next; they stay in their directory's module."""
    packages = {
        path.rpartition("/")[0]
        for path in listing
        if path.rpartition("/")[2] == "__init__.py" and "/" in path
    }
    out: dict[str, str] = {}
    for path in listing:
        folder, _, base = path.rpartition("/")
        stem = base.removesuffix(".py")
        if folder not in packages or stem == base or stem == "__init__":
            continue
        if not stem.isidentifier() or _test_file(stem):
            continue  # `my-script.py` cannot be imported: no module name to ask by
        parts = folder.split("/")
        top = len(parts) - 1
        while top > 0 and "/".join(parts[:top]) in packages:
            top -= 1
        out[path] = ".".join([*parts[top:], stem])
    return out


def _test_file(stem: str) -> bool:
    return stem == "conftest" or stem.startswith("test_") or stem.endswith("_test")
