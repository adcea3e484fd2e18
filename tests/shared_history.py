"""The shared real histories (../shared/data/*.bundle, beside the checkout; a worktree sits
one level deeper): where a bundle is, a clone of it, and its import into an in-memory
organisation. A test module needing one skips, naming it, when absent.

Each history is cloned and imported once per test process (`shared_clone`, `shared_import`),
not once per module: the ~50 modules asking about the same four histories spent most of the
suite's time importing them again (about 5 s each, 1-4 per module). The modules only read
them; the shared graph refuses writes, so a test that would change it fails, naming
`in_memory` (an organisation of its own) as the way."""

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


# The process's clones and imports, by history name (pytest-xdist: one per worker process).
_CLONES: dict[str, Path] = {}
_GRAPHS: dict[str, OrgGraph] = {}
_WRITES = ("write", "prepare_write", "delete_unseen", "save_checkpoint")


def shared_clone(name: str, factory: pytest.TempPathFactory) -> Path:
    """The process's one clone of history `name`, made on first use (tests read it only)."""
    if name not in _CLONES:
        _CLONES[name] = clone(name, factory.mktemp(f"shared-{name}"))
    return _CLONES[name]


async def shared_import(name: str, factory: pytest.TempPathFactory) -> OrgGraph:
    """The process's one import of history `name` (as `in_memory` makes it), made on first
    use and read-only: its writes raise, since every later module would see what one wrote.
    (Investigation results are still saved beside it; no shared module reuses answers.)"""
    if name not in _GRAPHS:
        graph = await in_memory(shared_clone(name, factory), name)
        for method in _WRITES:
            setattr(graph, method, _refused(name, method))
        _GRAPHS[name] = graph
    return _GRAPHS[name]


def _refused(name: str, method: str) -> Any:
    async def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError(
            f"the shared import of {name} is read-only ({method}): a test that writes imports "
            "its own with shared_history.in_memory(shared_history.shared_clone(...), name)"
        )

    return refuse


def fixtures(name: str, graph: str, *, clone_as: str = "clone") -> tuple[Any, Any]:
    """A module's two fixtures for history `name`: its clone (named `clone_as`) and its
    in-memory organisation (named `graph`), the process's shared ones (`shared_import`). Bind
    both to module names, as pytest finds fixtures there: `clone, click =
    shared_history.fixtures(...)`."""

    @pytest.fixture(scope="module", name=clone_as)
    def cloned(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return shared_clone(name, tmp_path_factory)

    @pytest.fixture(scope="module", name=graph)
    async def imported(tmp_path_factory: pytest.TempPathFactory) -> OrgGraph:
        return await shared_import(name, tmp_path_factory)

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
