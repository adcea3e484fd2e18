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

from engine.domain.contract import InvestigationResult, Outcome
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
    """git's output for `args` in the repository at `path`. A shared clone's (`shared_clone`)
    is kept for the process: tests only read those, so the same command gives the same output,
    and the suite asked the same logs again and again (one per window counted: a whole
    history's `--numstat` takes seconds)."""
    key = (str(path), args)
    if key in _LOGS:
        return _LOGS[key]
    done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, check=True)
    out = done.stdout.decode("utf-8", "replace")
    if Path(path) in _CLONES.values():
        _LOGS[key] = out
    return out


def bus_factor(clone: Path, file: str, start: datetime, end: datetime) -> tuple[int, int]:
    """(commits, bus factor) of one file in [start, end) by author time, by git: `git log
    --no-merges --full-history --numstat -- FILE`; the bus factor is the fewest authors (by
    address) whose changed lines make at least half of the window's."""
    text = git(clone, "log", "--no-merges", "--full-history", "--format=@%at %aE", "--numstat",
               "--", file)  # fmt: skip
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
_LOGS: dict[tuple[str, tuple[str, ...]], str] = {}  # git's outputs in the shared clones
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
        _GRAPHS[name] = read_only(await in_memory(shared_clone(name, factory), name), name)
    return _GRAPHS[name]


def read_only(graph: OrgGraph, name: str) -> OrgGraph:
    """`graph` with its writes refused (raising, naming `name`): for a graph several modules
    share, which each only read."""
    for method in _WRITES:
        setattr(graph, method, _refused(name, method))
    return graph


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


def graphs(*names: str) -> Any:
    """A module fixture `graphs`: each named history's graph by name, from the fixtures `each`
    made in the same module (`graphs = shared_history.graphs("click", "attrs")`)."""

    @pytest.fixture(scope="module", name="graphs")
    def by_name(request: pytest.FixtureRequest) -> dict[str, OrgGraph]:
        return {n: request.getfixturevalue(n) for n in names}

    return by_name


def clones(*names: str) -> Any:
    """A module fixture `clones`: each named history's clone by name (the shared ones)."""

    @pytest.fixture(scope="module", name="clones")
    def by_name(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
        return {n: shared_clone(n, tmp_path_factory) for n in names}

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
    out = git(clone, "log", "--no-merges", "--full-history", "--format=%at", *by, "--", *paths)
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


# Periods and the figures git gives for them, as several modules assert answers against them
# (folded from test_periods_compared, test_time_*_asked, test_point_questions,
# test_whole_history, which each kept a copy).


def on(year: int, month: int = 1, day: int = 1, hour: int = 0) -> datetime:
    """An instant in UTC as the tests write periods' bounds (the first of a month, at 0 h)."""
    return datetime(year, month, day, hour, tzinfo=UTC)


def year(y: int) -> tuple[datetime, datetime]:
    """Calendar year `y`, as [start, end)."""
    return on(y), on(y + 1)


def stamp(at: datetime | int) -> str:
    """An instant as answers write it, to the second in UTC (`at` may be epoch seconds)."""
    when = at if isinstance(at, datetime) else datetime.fromtimestamp(at, UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def changes(
    clone: Path, *paths: str, author: str = "", until: datetime | None = None
) -> list[tuple[int, str, str]]:
    """(author time, short hash, author name) of the commits (no merges) to PATHS (by AUTHOR,
    git's case-blind --author) before `until`, oldest first, by git."""
    by = ["-i", f"--author={author}"] if author else []
    out = git(clone, "log", "--no-merges", "--full-history", "--format=%at %h %aN", *by, "--",
              *paths)  # fmt: skip
    rows = [(int(at), sha, name) for at, sha, name in (r.split(" ", 2) for r in out.splitlines())]
    return sorted(r for r in rows if until is None or r[0] < until.timestamp())


def first(clone: Path, *paths: str, author: str = "") -> datetime:
    """The author time of the first commit (no merges) to PATHS (by AUTHOR), by git."""
    return datetime.fromtimestamp(changes(clone, *paths, author=author)[0][0], UTC)


def churn(clone: Path, start: datetime, end: datetime, *paths: str, author: str = "") -> int:
    """Lines added and removed in [start, end) by author time, as `git log --no-merges
    --full-history --numstat` counts them (one path: --follow; binary files count none)."""
    by = [f"--author={author}"] if author else []
    follow = ["--follow"] if len(paths) == 1 else []
    out = git(clone, "log", "--no-merges", "--full-history", *follow, "--format=@%at",
              "--numstat", *by, "--", *paths)  # fmt: skip
    total, inside = 0, False
    for line in out.splitlines():
        if line.startswith("@"):
            inside = start <= datetime.fromtimestamp(int(line[1:]), UTC) < end
        elif inside and line.strip() and not line.startswith("-"):
            added, removed, _ = line.split("\t", 2)
            total += int(added) + int(removed)
    return total


def compared_as_git(
    result: InvestigationResult,
    clone: Path,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
    *paths: str,
) -> None:
    """`result` answers over `later` and gives both periods' commits as git counts them."""
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == later
    said = result.direct_judgment or ""
    for (start, end), then in ((later, ", against "), (earlier, ". Over ")):
        counted = commits(clone, start, end, *paths)
        assert f" {counted} commit(s) from {stamp(start)} to {stamp(end)}{then}" in said, said


def monthly(clone: Path, months: list[datetime], end: datetime, *paths: str) -> str:
    """The months ranked as an answer lists them, from git's counts: the most first, equal
    counts in calendar order; the last one cut at `end` when it is under way."""
    bounds = [*months[1:], end]
    counts = [(m, commits(clone, m, b, *paths)) for m, b in zip(months, bounds, strict=True)]
    cut = end not in (months[-1], on(end.year, end.month)) or end.time() != datetime.min.time()

    def month(m: datetime) -> str:
        part = cut and m == months[-1]
        return f"{m:%Y-%m} (its part from {stamp(m)} to {stamp(end)})" if part else f"{m:%Y-%m}"

    order = sorted(counts, key=lambda c: (-c[1], c[0]))
    return "; ".join(f"{month(m)}: {n} commit(s)" for m, n in order)
