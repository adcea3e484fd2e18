"""What makes modules in the imported head's tree: package roots, every directory of Python
files (packages at every depth), Python modules, every other file (a file module named by its
path: HISTORY.md, pyproject.toml, docs/conf.py), and the directories at the module depth that
are no module (graph/git/modules.py reads history by them).

The layout is the head's: a path of an older commit is counted by where its module lies now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
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
MAX_OTHER_FILES = 20_000  # other files of one head made module subjects, at most
MAX_MODULE_DIRS = 5_000  # directories of one head made modules, at most
# Top-level directories that are modules whatever they hold: people ask about them by name.
TOP_DIRECTORIES = ("tests", "docs", "examples")


class Layout(NamedTuple):
    """What makes modules in the imported head: package roots (the outermost), Python
    modules, every module directory and the directories at the module depth that hold
    nothing but module directories (a src layout's `src`: no module)."""

    roots: list[str]
    files: dict[str, str]  # a Python module's path -> its dotted name
    warnings: list[str]
    dirs: Mapping[str, str] = MappingProxyType({})  # module directory -> "package"/"directory"
    dotted: Mapping[str, str] = MappingProxyType({})  # a Python package's path -> dotted name
    bare: frozenset[str] = frozenset()
    present: frozenset[str] = frozenset()  # every directory of the head
    # Every other file of the head (no Python module of `files`): a file module named by its
    # path, README.md, pyproject.toml, docs/conf.py, tests/test_x.py, a package's __init__.py.
    other: frozenset[str] = frozenset()


def layout(repo: Path, rev: str, depth: int = 1) -> Layout:
    """The head's package roots, module directories, Python modules and other files; past
    MAX_FILE_MODULES Python modules, none (packages stay modules) and a warning: a
    repository that large asks by package; past MAX_OTHER_FILES other files, none of them
    either; past MAX_MODULE_DIRS module directories, only the outermost package roots and
    the top-level directories are."""
    listing = [path for path in _listing(repo, rev) if path]
    files = modules_of_tree(listing)
    warnings = []
    if len(files) > MAX_FILE_MODULES:
        warnings.append(
            f"{len(files)} Python modules is more than {MAX_FILE_MODULES}: only packages "
            "and directories are modules in this import"
        )
        files = {}
    other = frozenset(path for path in listing if path not in files)
    if len(other) > MAX_OTHER_FILES:
        warnings.append(
            f"{len(other)} files is more than {MAX_OTHER_FILES}: files other than Python "
            "modules are no modules of their own in this import"
        )
        other = frozenset()
    roots = package_roots(listing)
    dirs = module_dirs(listing)
    if len(dirs) > MAX_MODULE_DIRS:
        warnings.append(
            f"{len(dirs)} directories of Python files is more than {MAX_MODULE_DIRS}: only "
            "the outermost packages are modules in this import"
        )
        dirs = {d: kind for d, kind in dirs.items() if d in roots or d in TOP_DIRECTORIES}
    present = frozenset(p.rpartition("/")[0] for p in listing if "/" in p)
    present |= {d.rsplit("/", n)[0] for d in present for n in range(1, d.count("/") + 1)}
    return Layout(
        roots, files, warnings, dirs, dotted_packages(listing), bare(listing, dirs, depth),
        frozenset(present), other,
    )  # fmt: skip


def module_dirs(listing: Sequence[str]) -> dict[str, str]:
    """Every directory that is a module: a package ("package": it holds `__init__.py` or
    another package marker), any other directory holding a file of its own ("directory": a
    namespace package, a test or example directory, .github/workflows, tests/certs,
    docs/_static), and the top-level tests/, docs/ and examples/ whatever they hold. The
    repository's root is none, nor a directory holding only directories (a src layout's
    `src`). Before `module_layout` 8 only directories of Python files were: "who changed
    .github/workflows" and "commits to tests/certs" ended as no module of their own."""
    out: dict[str, str] = {}
    for path in listing:
        folder, _, base = path.rpartition("/")
        if not folder:
            continue
        if base in PACKAGE_MARKERS:
            out[folder] = "package"
        else:
            out.setdefault(folder, "directory")
    for path in listing:
        top = path.partition("/")[0]
        if top in TOP_DIRECTORIES and "/" in path:
            out.setdefault(top, "directory")
    return out


def within(path: str, dirs: Mapping[str, str]) -> str | None:
    """The innermost module directory holding `path` (itself excepted), if any."""
    parts = path.split("/")
    for i in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:i])
        if prefix in dirs:
            return prefix
    return None


def bare(listing: Sequence[str], dirs: Mapping[str, str], depth: int) -> frozenset[str]:
    """The directories at `depth` that are no module: holding module directories and no file
    outside them, themselves none (a src layout's `src`, holding only its package)."""

    def top(path: str) -> str:
        return "/".join(path.split("/")[:depth])

    below = {top(d) for d in dirs if d.count("/") >= depth}
    own = {
        top(path)
        for path in listing
        if path.count("/") >= depth and within(path, dirs) is None
    }
    return frozenset(below - own - set(dirs))


def dotted_packages(listing: Sequence[str]) -> dict[str, str]:
    """Each Python package directory (one holding `__init__.py`) with its dotted name, from
    the outermost package directory above it: `src/werkzeug/routing` is `werkzeug.routing`."""
    packages = {
        path.rpartition("/")[0]
        for path in listing
        if path.rpartition("/")[2] == "__init__.py" and "/" in path
    }
    return {folder: _dotted(folder, packages) for folder in packages}


def _dotted(folder: str, packages: set[str] | frozenset[str]) -> str:
    parts = folder.split("/")
    top = len(parts) - 1
    while top > 0 and "/".join(parts[:top]) in packages:
        top -= 1
    return ".".join(parts[top:])


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
        out[path] = f"{_dotted(folder, packages)}.{stem}"
    return out


def _test_file(stem: str) -> bool:
    return stem == "conftest" or stem.startswith("test_") or stem.endswith("_test")
