"""Reading a repository's history with `git` itself (a subprocess), one commit at a time.

`git log -z --numstat -M` is streamed and parsed incrementally, so a history of tens of
thousands of commits never sits in memory as one string. Author names and e-mails come both
as written (`%an`, `%ae`) and as mapped through the repository's `.mailmap` (`%aN`, `%aE`;
git reads `HEAD:.mailmap` itself in a bare repository).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

# One header per commit: record separator, then unit-separated fields; the subject is last
# because it is the only field that may contain separators of its own.
_FORMAT = "%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%an%x1f%ae%x1f%at%x1f%s"
_FIELDS = 8
_CHUNK = 1 << 20


class GitError(Exception):
    """A repository that cannot be read; the message is safe to show a user."""


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    added: int  # 0 for binary files (git reports "-")
    removed: int
    old_path: str | None = None  # set when git detected a rename


@dataclass(slots=True)
class Commit:
    sha: str
    parents: tuple[str, ...]
    name: str  # mailmapped
    email: str  # mailmapped
    raw_name: str
    raw_email: str
    authored: datetime
    subject: str
    files: list[FileChange] = field(default_factory=list)

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1


def executable() -> str:
    found = shutil.which("git")
    if found is None:
        raise GitError("git is not installed (the .ci/run step 'install git' installs it)")
    return found


def _run(repo: Path, args: Sequence[str]) -> subprocess.CompletedProcess[bytes]:
    command = [executable(), "-C", str(repo), *args]
    return subprocess.run(command, capture_output=True, check=False, timeout=600)  # noqa: S603 - an argument list, no shell


def git(repo: Path, *args: str) -> str:
    """Run one git command in `repo` and return its standard output."""
    done = _run(repo, args)
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {args[0]} failed: {reason[-1] if reason else done.returncode}")
    return done.stdout.decode("utf-8", "replace")


def git_dir(path: Path) -> Path:
    """The repository's git directory; a clear error when `path` is not a repository."""
    if not path.exists():
        raise GitError(f"no such directory: {path}")
    try:
        found = Path(git(path, "rev-parse", "--absolute-git-dir").strip())
        bare = git(path, "rev-parse", "--is-bare-repository").strip() == "true"
    except GitError:
        raise GitError(f"not a git repository: {path}") from None
    if bare or path.resolve() == found.resolve():
        return found
    # A directory inside a work tree would silently import the whole enclosing repository.
    top = Path(git(path, "rev-parse", "--show-toplevel").strip())
    if path.resolve() != top.resolve():
        raise GitError(f"{path} is inside the repository at {top}; give its top directory")
    return found


def resolve(repo: Path, ref: str) -> str | None:
    """The commit a ref names, or None when it names none (unborn branch, unknown ref)."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip() or None
    except GitError:
        return None


def is_ancestor(repo: Path, older: str, newer: str) -> bool:
    return _run(repo, ["merge-base", "--is-ancestor", older, newer]).returncode == 0


def count(repo: Path, revs: Sequence[str], since: str | None = None) -> int:
    extra = [f"--since={since}"] if since else []
    return int(git(repo, "rev-list", "--count", *extra, *revs, "--").strip() or 0)


def path_exists(repo: Path, sha: str, path: str) -> bool:
    return bool(git(repo, "ls-tree", "--name-only", sha, "--", path).strip())


# A directory holding one of these is a package root: its files are one module, named by
# the directory's own name (src/click -> click), whatever its depth.
PACKAGE_MARKERS = frozenset(
    {"__init__.py", "package.json", "Cargo.toml", "go.mod", "pyproject.toml", "setup.py",
     "pom.xml", "build.gradle", "build.gradle.kts", "mix.exs", "composer.json", "Gemfile"}
)  # fmt: skip


def package_roots(repo: Path, rev: str) -> list[str]:
    """The outermost package roots of the tree at `rev` (never the repository root itself):
    a package inside another package is part of it."""
    listing = git(repo, "ls-tree", "-r", "-z", "--name-only", rev, "--")
    dirs = {
        path.rpartition("/")[0]
        for path in listing.split("\0")
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
    """What makes modules in the imported head: package roots and Python modules."""

    roots: list[str]
    files: dict[str, str]  # a Python module's path -> its dotted name
    warnings: list[str]


def layout(repo: Path, rev: str) -> Layout:
    """The head's package roots and Python modules; past MAX_FILE_MODULES Python modules,
    none (packages stay modules) and a warning: a repository that large asks by package."""
    files = python_modules(repo, rev)
    warnings = []
    if len(files) > MAX_FILE_MODULES:
        warnings.append(
            f"{len(files)} Python modules is more than {MAX_FILE_MODULES}: only packages "
            "and directories are modules in this import"
        )
        files = {}
    return Layout(package_roots(repo, rev), files, warnings)


def python_modules(repo: Path, rev: str) -> dict[str, str]:
    """The Python modules of the tree at `rev`: each importable `.py` file directly in a
    package directory (one holding `__init__.py`), by path, with its dotted name (the
    package path from the outermost package directory above it: `src/click/parser.py` is
    `click.parser`). `__init__.py` is the package itself, not a module of its own; a file
    at the repository's root, or in a directory that is no package, is no module here.
    Test files (pytest's `test_*.py`, `*_test.py`, `conftest.py`) are left out: a test
    directory is a package or not by an accident of configuration, so the same tests would
    be modules in one repository and not in the next; they stay in their directory's module."""
    listing = git(repo, "ls-tree", "-r", "-z", "--name-only", rev, "--").split("\0")
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


def commits(repo: Path, revs: Sequence[str], since: str | None = None) -> Iterator[Commit]:
    """Commits reachable from `revs` (git rev syntax, e.g. ["new", "^old"]), newest first."""
    extra = [f"--since={since}"] if since else []
    args = [
        executable(),
        "-C",
        str(repo),
        "-c",
        "core.quotepath=off",
        "log",
        "-z",
        "--numstat",
        "-M",
    ]
    # A user's configuration must not change the stream: no signatures, drivers or colour.
    args += ["--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-color"]
    args += [f"--format={_FORMAT}", *extra, *revs, "--"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # noqa: S603 - an argument list, no shell
    assert proc.stdout is not None
    try:
        yield from _parse(_tokens(proc.stdout))
    finally:
        proc.stdout.close()
        stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        if proc.wait() != 0 and stderr:
            raise GitError(f"git log failed: {stderr.strip().splitlines()[-1]}")


def _tokens(stream: object) -> Iterator[str]:
    read = stream.read  # type: ignore[attr-defined]
    rest = b""
    while chunk := read(_CHUNK):
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        for part in parts:
            yield part.decode("utf-8", "replace")
    if rest:
        yield rest.decode("utf-8", "replace")


def _parse(tokens: Iterator[str]) -> Iterator[Commit]:
    current: Commit | None = None
    for token in tokens:
        token = token.lstrip("\n")
        if not token:
            continue
        if token.startswith("\x1e"):
            if current is not None:
                yield current
            current = _header(token[1:])
            continue
        if current is None:
            continue
        added, removed, path = _numstat(token)
        if path:
            current.files.append(FileChange(path, added, removed))
        else:  # a rename: the old and the new path follow as their own tokens
            old, new = next(tokens, ""), next(tokens, "")
            current.files.append(FileChange(new, added, removed, old))
    if current is not None:
        yield current


def _numstat(token: str) -> tuple[int, int, str]:
    added, removed, path = ([*token.split("\t", 2), "", "", ""])[:3]
    return _number(added), _number(removed), path


def _number(text: str) -> int:
    return int(text) if text.isdigit() else 0


def _header(text: str) -> Commit:
    values = text.split("\x1f", _FIELDS - 1)
    values += [""] * (_FIELDS - len(values))
    sha, parents, name, email, raw_name, raw_email, stamp, subject = values
    return Commit(
        sha=sha,
        parents=tuple(parents.split()),
        name=name.strip() or raw_name.strip() or "unknown",
        email=email.strip().lower(),
        raw_name=raw_name.strip(),
        raw_email=raw_email.strip().lower(),
        authored=datetime.fromtimestamp(int(stamp or 0), UTC),
        subject=subject,
    )
