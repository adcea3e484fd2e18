"""Reading a repository's history with `git` itself (a subprocess), one commit at a time.

`git log -z --numstat --summary -M` is streamed and parsed incrementally, so a history of tens of
thousands of commits never sits in memory as one string. Author names and e-mails come both
as written (`%an`, `%ae`) and as mapped through the repository's `.mailmap` (`%aN`, `%aE`;
git reads `HEAD:.mailmap` itself in a bare repository).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

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
    deleted: bool = False  # git's status D (`--summary`: "delete mode"), not lines counted
    created: bool = False  # git's status A (`--summary`: "create mode"): a path written anew


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


def shallow(repo: Path) -> bool:
    """Whether `repo` is a shallow clone (its history cut off at a depth)."""
    return git(repo, "rev-parse", "--is-shallow-repository").strip() == "true"


def is_ancestor(repo: Path, older: str, newer: str) -> bool:
    return _run(repo, ["merge-base", "--is-ancestor", older, newer]).returncode == 0


def count(repo: Path, revs: Sequence[str], since: str | None = None) -> int:
    extra = [f"--since={since}"] if since else []
    return int(git(repo, "rev-list", "--count", *extra, *revs, "--").strip() or 0)


def path_exists(repo: Path, sha: str, path: str) -> bool:
    return bool(git(repo, "ls-tree", "--name-only", sha, "--", path).strip())


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
        "--summary",  # "delete mode": a deletion as git says it (FileChange.deleted)
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
        if token.startswith(" "):  # the commit's summary (`--summary`), then the next header
            summary, _, token = token.partition("\x1e")
            if current is not None:
                _summarised(current, summary)
            if not token:
                continue
            token = "\x1e" + token
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


def _summarised(commit: Commit, summary: str) -> None:
    """Marks the files `git log --summary` says the commit deleted ("delete mode 100644
    PATH"): a deletion is git's status D, never guessed from the lines counted (a file
    emptied by one commit and deleted by a later one, or deleted and then changed on a
    branch merged after, was read as deleted by the wrong commit); and those it created
    ("create mode"), a path written again after its deletion or move (graph/git/lives.py)."""
    gone = _summary_paths(summary, "delete mode ")
    made = _summary_paths(summary, "create mode ")
    if gone or made:
        commit.files[:] = [
            replace(f, deleted=f.path in gone, created=f.path in made)
            if f.path in gone or f.path in made
            else f
            for f in commit.files
        ]


def _summary_paths(summary: str, mode: str) -> set[str]:
    """The paths of `--summary`'s lines of one kind ("delete mode 100644 PATH")."""
    return {
        line.strip().split(" ", 3)[3]
        for line in summary.splitlines()
        if line.strip().startswith(mode) and line.strip().count(" ") >= 3
    }


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
        name=name.strip() or raw_name.strip() or email.strip() or "unknown",
        email=email.strip().lower(),
        raw_name=raw_name.strip(),
        raw_email=raw_email.strip().lower(),
        authored=datetime.fromtimestamp(int(stamp or 0), UTC),
        subject=subject,
    )
