"""The shared real histories (../shared/data/*.bundle, beside the checkout; a worktree sits
one level deeper): where a bundle is, a clone of it, and its import into a new organisation
of the session's embedded FalkorDB. A test module needing one skips, naming it, when absent."""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from engine.memory.store import MemoryStore
from engine.ports import OrgGraph
from graph.git.importer import GitImport, import_git

_ROOT = Path(__file__).resolve().parents[1]


def bundle(name: str) -> Path:
    """`FABRIC_TEST_<NAME>_BUNDLE`, else ../shared/data/<name>.bundle above the checkout."""
    given = os.environ.get(f"FABRIC_TEST_{name.upper()}_BUNDLE")
    if given:
        return Path(given)
    for parent in _ROOT.parents:
        found = parent / "shared" / "data" / f"{name}.bundle"
        if found.exists():
            return found
    return Path(f"{name}.bundle")


def present(*names: str) -> pytest.MarkDecorator:
    """Skips a test module when one of the bundles is absent, naming it."""
    missing = [str(bundle(n)) for n in names if not bundle(n).exists()]
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} not present")


def clone(name: str, into: Path) -> Path:
    path = into / name
    subprocess.run(["git", "clone", "-q", str(bundle(name)), str(path)], check=True)
    return path


def git(path: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def bus_factor(clone: Path, file: str, start: datetime, end: datetime) -> tuple[int, int]:
    """(commits, bus factor) of one file in [start, end) by author time, by git: `git log
    --no-merges --full-history --numstat -- FILE`; the bus factor is the fewest authors (by
    address) whose changed lines make at least half of the window's."""
    text = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=@%at %aE",
         "--numstat", "--", file],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    lines: Counter[str] = Counter()
    commits, author = 0, None
    for line in text.splitlines():
        if line.startswith("@"):
            at, email = line[1:].split(" ", 1)
            inside = start <= datetime.fromtimestamp(int(at), UTC) < end
            author, commits = (email.lower() if inside else None), commits + inside
        elif author is not None and line.strip() and not line.startswith("-"):
            plus, minus, _ = line.split("\t", 2)
            lines[author] += int(plus) + int(minus)
    factor, covered = 0, 0
    for amount in sorted(lines.values(), reverse=True):
        factor, covered = factor + 1, covered + amount
        if 2 * covered >= sum(lines.values()):
            break
    return commits, factor


async def in_memory(clone: Path, name: str) -> OrgGraph:
    """The clone imported as repository `name` into a new in-memory store's organisation
    `name` (the engine under test, not a backend)."""
    store = MemoryStore()
    await store.bootstrap(name)
    graph = store.org(name)
    await import_git(graph, GitImport(clone, name=name))
    return graph


def fixtures(name: str, graph: str, *, clone_as: str = "clone") -> tuple[Any, Any]:
    """A module's two fixtures for history `name`, imported once for the module: its clone
    (named `clone_as`) and its in-memory organisation (named `graph`). Bind both to module
    names, as pytest finds fixtures there: `clone, click = shared_history.fixtures(...)`."""

    @pytest.fixture(scope="module", name=clone_as)
    def cloned(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return clone(name, tmp_path_factory.mktemp(name))

    @pytest.fixture(scope="module", name=graph)
    async def imported(request: pytest.FixtureRequest) -> OrgGraph:
        return await in_memory(request.getfixturevalue(clone_as), name)

    return cloned, imported


def histories(*names: str) -> Any:
    """A module fixture `histories`: each named history's (graph, clone), from the fixtures
    `each` made in the same module, for tests parametrized by a history's name:
    `histories = shared_history.histories("werkzeug", "attrs")`. (A sync fixture: an async
    test cannot ask for the async import fixtures by name while its loop runs.)"""

    @pytest.fixture(scope="module", name="histories")
    def by_name(request: pytest.FixtureRequest) -> dict[str, tuple[OrgGraph, Path]]:
        return {n: (request.getfixturevalue(n), request.getfixturevalue(f"{n}_clone")) for n in names}

    return by_name


def each(*names: str) -> tuple[Any, ...]:
    """The fixtures of several histories, each as `fixtures(name, name, clone_as=NAME_clone)`
    gives them, in order: `werkzeug_clone, werkzeug, attrs_clone, attrs = each("werkzeug",
    "attrs")`."""
    return tuple(f for name in names for f in fixtures(name, name, clone_as=f"{name}_clone"))


def commits(clone: Path, start: datetime, end: datetime, *paths: str, author: str = "") -> int:
    """Commits (no merges) in [start, end) by author time, as git counts them (by `author`'s
    address, when given): `git log --no-merges --full-history -- PATHS`."""
    by = [f"--author={author}"] if author else []
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at", *by,
         "--", *paths],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return sum(start <= datetime.fromtimestamp(int(t), UTC) < end for t in out.split())


def lines(
    clone: Path, start: datetime, end: datetime, *paths: str, author: str = ""
) -> tuple[int, int]:
    """(added, removed) in [start, end) by author time, as `git log --no-merges --full-history
    --numstat` counts them (git's rename detection; binary files: 0)."""
    by = [f"--author={author}"] if author else []
    out = git(clone, "log", "--no-merges", "--full-history", "--format=@%at", "--numstat", *by,
              "--", *paths)  # fmt: skip
    added = removed = 0
    inside = False
    for line in out.splitlines():
        if line.startswith("@"):
            inside = start <= datetime.fromtimestamp(int(line[1:]), UTC) < end
        elif inside and line.strip() and not line.startswith("-"):
            plus, minus, _ = line.split("\t", 2)
            added, removed = added + int(plus), removed + int(minus)
    return added, removed
