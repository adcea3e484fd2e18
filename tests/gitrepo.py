"""A small real git repository, made with git, for the git import tests and the benchmark.

Its history has what real ones have: one person under several spellings and addresses
(joined by a .mailmap, by a shared address and by an identical full name), a directory renamed (query/ -> resolver/), a feature branch merged with a merge commit, a
binary file and a path with a space.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

ALEX = ("Alex Kim", "alex@corp.example")
ALEX_OLD = ("alex kim", "alex.kim@old.example")  # mapped to ALEX by .mailmap
ALEX_SHORT = ("A. Kim", "ALEX@corp.example")  # same address as ALEX: the same person
OTHER_ALEX = ("Alex Kim", "alex@elsewhere.example")  # the same full name: the same person
SAM = ("Sam Lee", "sam@corp.example")
JO = ("Jo Park", "jo@corp.example")

MAILMAP = "Alex Kim <alex@corp.example> alex kim <alex.kim@old.example>\n"


def require_git() -> None:
    """In a test: fail or skip (tests/system_tools.py) when git is missing."""
    from tests import system_tools

    system_tools.git()


class Repo:
    def __init__(self, path: Path, now: datetime | None = None) -> None:
        require_git()
        self.path = path
        self.now = now or datetime.now(UTC).replace(microsecond=0)
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, env: dict[str, str] | None = None, check: bool = True) -> str:
        done = subprocess.run(
            ["git", "-C", str(self.path), *args],
            capture_output=True,
            check=check,
            env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", **(env or {})},
        )
        return done.stdout.decode()

    def write(self, name: str, text: str | bytes) -> None:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text)

    def commit(self, who: tuple[str, str], days_ago: float, message: str, *extra: str) -> str:
        when = (self.now - timedelta(days=days_ago)).isoformat()
        env = {
            "GIT_AUTHOR_NAME": who[0],
            "GIT_AUTHOR_EMAIL": who[1],
            "GIT_COMMITTER_NAME": who[0],
            "GIT_COMMITTER_EMAIL": who[1],
            "GIT_AUTHOR_DATE": when,
            "GIT_COMMITTER_DATE": when,
        }
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, *extra, env=env)
        return self.git("rev-parse", "HEAD").strip()

    def raw_commit(self, author: bytes, days_ago: float, message: str) -> str:
        """Commits the work tree with an author line git itself would refuse to write
        (`author` followed by these bytes: an empty name or address, `=`, bytes that are
        no UTF-8), as old or foreign tools wrote them."""
        self.git("add", "-A")
        tree = self.git("write-tree").strip()
        parent = self.git("rev-parse", "--verify", "-q", "HEAD^{commit}", check=False).strip()
        stamp = int((self.now - timedelta(days=days_ago)).timestamp())
        body = b"tree " + tree.encode() + b"\n"
        body += b"parent " + parent.encode() + b"\n" if parent else b""
        body += b"author " + author + b" %d +0000\n" % stamp
        body += b"committer Robot <robot@example.org> %d +0000\n\n" % stamp
        body += message.encode() + b"\n"
        done = subprocess.run(
            ["git", "-C", str(self.path), "hash-object", "-t", "commit", "-w", "--literally",
             "--stdin"], input=body, capture_output=True, check=True,
        )  # fmt: skip
        sha = done.stdout.decode().strip()
        self.git("update-ref", "HEAD", sha)
        return sha

    def lines(self, name: str, count: int, tag: str) -> None:
        existing = (self.path / name).read_text() if (self.path / name).exists() else ""
        self.write(name, existing + "".join(f"{tag} {i}\n" for i in range(count)))


def build(path: Path, now: datetime | None = None) -> Repo:
    """The standard test history (14 commits, one of them a merge)."""
    repo = Repo(path, now)
    repo.write(".mailmap", MAILMAP)
    repo.lines("query/parse.py", 10, "parse")
    repo.lines("README.md", 3, "readme")
    repo.commit(ALEX_OLD, 60, "Start the query parser")
    repo.lines("query/plan.py", 20, "plan")
    repo.commit(SAM, 50, "Plan queries")
    repo.lines("engine/core.py", 30, "core")
    repo.write("engine/logo.png", b"\x89PNG\x00\x01\x02")
    repo.commit(OTHER_ALEX, 45, "Engine core and logo")
    repo.git("mv", "query", "resolver")
    repo.commit(ALEX, 40, "Rename query/ to resolver/")
    repo.lines("resolver/parse.py", 5, "fix")
    repo.commit(ALEX_SHORT, 20, "Fix parse of nested fields")
    repo.git("checkout", "-q", "-b", "feature")
    repo.lines("docs/user guide.md", 12, "guide")
    repo.commit(JO, 12, "Write the user guide")
    repo.lines("resolver/plan.py", 8, "feature")
    repo.commit(JO, 11, "Plan: cost hints")
    repo.git("checkout", "-q", "main")
    repo.lines("engine/core.py", 4, "hotfix")
    repo.commit(SAM, 10, "Engine hotfix")
    merge(repo, "feature", JO, 9)
    for day in (5, 4, 3, 2, 1):
        repo.lines("resolver/parse.py", 6, f"day{day}")
        repo.commit(ALEX, day, f"Resolver: refine parse (step {6 - day})")
    return repo


def merge(repo: Repo, branch: str, who: tuple[str, str], days_ago: float) -> None:
    when = (repo.now - timedelta(days=days_ago)).isoformat()
    env = {
        "GIT_AUTHOR_NAME": who[0],
        "GIT_AUTHOR_EMAIL": who[1],
        "GIT_COMMITTER_NAME": who[0],
        "GIT_COMMITTER_EMAIL": who[1],
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
    }
    repo.git("merge", "-q", "--no-ff", "-m", f"Merge branch '{branch}'", branch, env=env)


def build_python(path: Path, now: datetime | None = None) -> Repo:
    """A src-layout Python package (11 commits): modules in a nested subpackage, one module
    file renamed (router.py -> routing.py), a name two modules share (utils), a module named
    with an underscore (shell_completion), one named like a test directory (testing vs
    tests/), example packages named "completion" and "handlers" (like shop.api.handlers), and
    a merge."""
    repo = Repo(path, now)
    repo.write("src/shop/__init__.py", "")
    repo.lines("src/shop/router.py", 20, "route")
    repo.lines("src/shop/utils.py", 5, "util")
    repo.lines("README.md", 2, "readme")
    repo.commit(ALEX, 90, "Start the shop package")
    repo.write("src/shop/api/__init__.py", "")
    repo.lines("src/shop/api/handlers.py", 10, "handle")
    repo.lines("src/shop/api/utils.py", 4, "apiutil")
    repo.commit(SAM, 80, "API handlers")
    repo.lines("src/shop/router.py", 5, "tweak")
    repo.commit(JO, 70, "Router: tweak")
    repo.git("mv", "src/shop/router.py", "src/shop/routing.py")
    repo.commit(ALEX, 60, "Rename router to routing")
    repo.lines("src/shop/routing.py", 6, "params")
    repo.commit(SAM, 50, "Routing: params")
    repo.lines("src/shop/shell_completion.py", 8, "complete")
    repo.lines("examples/completion/pyproject.toml", 2, "toml")
    repo.lines("examples/completion/completion.py", 3, "example")
    repo.commit(JO, 40, "Shell completion and its example")
    repo.lines("examples/handlers/pyproject.toml", 2, "toml")
    repo.lines("examples/handlers/app.py", 4, "app")
    repo.lines("src/shop/testing.py", 7, "runner")
    repo.lines("tests/test_routing.py", 5, "test")
    repo.commit(SAM, 30, "Test helpers")
    repo.git("checkout", "-q", "-b", "utils")
    repo.lines("src/shop/api/utils.py", 2, "more")
    repo.lines("src/shop/utils.py", 1, "more")
    repo.commit(JO, 20, "Utils")
    repo.git("checkout", "-q", "main")
    repo.lines("src/shop/routing.py", 3, "late")
    repo.lines("src/shop/api/handlers.py", 2, "late")
    repo.commit(ALEX, 10, "Routing and handlers")
    merge(repo, "utils", SAM, 8)
    repo.lines("src/shop/routing.py", 1, "last")
    repo.commit(SAM, 5, "Routing: last fix")
    return repo
