"""Every file of the imported head a commit touched is a subject (graph/git/modules.py), not
only packages, directories and Python modules: independent checks (c33a S1/F1, z32a w04) had
"what changed in HISTORY.md" and "pyproject.toml between Christmas and New Year" end on
"names no subject known here", and "which files changed the most" rank only the Python
modules while git's busiest files were uv.lock, tox.ini, pyproject.toml, CHANGES.rst. Now a
file's count is git's (`git log --follow --no-merges --full-history -- PATH`, author time),
a ranking of files ranks every file as git's busiest files do (equal counts in path order),
and a bare file name several files hold asks which, listing them. On attrs' and werkzeug's
real histories (../shared/data), in memory.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from graph.git.modules import Module
from tests import shared_history
from tests.test_investigate import answer
from tests.test_two_periods import on

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "attrs")

werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each("werkzeug", "attrs")

ask = partial(answer, now=CLOCK)


def followed(clone: Path, path: str, start: datetime, end: datetime) -> int:
    """A file's commits in [start, end) by author time, as `git log --follow --no-merges
    --full-history -- PATH` lists them."""
    out = shared_history.git(
        clone, "log", "--follow", "--no-merges", "--full-history", "--format=%at", "--", path
    )
    return sum(start <= datetime.fromtimestamp(int(t), UTC) < end for t in out.split())


def busiest(clone: Path, start: datetime, end: datetime, size: int) -> list[tuple[str, int]]:
    """git's busiest files of the head in [start, end) by author time: each file's commits
    (no merges, renames detected), most first, equal counts in path order."""
    text = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "-M", "--format=@%at",
         "--name-only"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    head = set(shared_history.git(clone, "ls-files").splitlines())
    counts: Counter[str] = Counter()
    inside = False
    for line in text.splitlines():
        if line.startswith("@"):
            inside = start <= datetime.fromtimestamp(int(line[1:]), UTC) < end
        elif line and inside and line in head:
            counts[line] += 1
    return sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))[:size]


def ranked(judgment: str) -> list[tuple[str, int]]:
    return [(p, int(n)) for p, n in re.findall(r"\d+\. (\S+) \((\d+) commit", judgment)]


CASES = [
    ("attrs", "how many commits touched pyproject.toml in 2025?", "pyproject.toml",
     on(2025, 1), on(2026, 1)),
    ("attrs", "how many commits to docs/conf.py in 2024?", "docs/conf.py",
     on(2024, 1), on(2025, 1)),
    ("werkzeug", "how many commits touched uv.lock in 2025?", "uv.lock", on(2025, 1),
     on(2026, 1)),
    ("werkzeug", "how many commits to .pre-commit-config.yaml in 2024?",
     ".pre-commit-config.yaml", on(2024, 1), on(2025, 1)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "path", "start", "end"), CASES)
async def test_a_file_that_is_no_python_module_is_counted_as_git_counts_it(
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
    history: str,
    question: str,
    path: str,
    start: datetime,
    end: datetime,
) -> None:
    graph, clone = (attrs, attrs_clone) if history == "attrs" else (werkzeug, werkzeug_clone)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == (f"module:{history}/{path}",)
    expected = followed(clone, path, start, end)
    assert expected > 0
    assert result.direct_judgment is not None
    assert result.direct_judgment.startswith(f"{expected} commit(s) to {path} "), (
        result.direct_judgment
    )


GONE = [
    ("attrs", "how many commits to changelog.d/1496.change.md in 2025?",
     "changelog.d/1496.change.md"),
    ("werkzeug", "who changed src/werkzeug/contrib/cache.py in 2019?",
     "src/werkzeug/contrib/cache.py"),
]  # fmt: skip
# werkzeug's src/werkzeug/datastructures.py is no longer here: it became the package
# datastructures/ in 2023, and its path names the package (tests/test_module_lineage.py).


@pytest.mark.parametrize(("history", "question", "path"), GONE)
async def test_a_file_deleted_before_the_head_is_named_as_gone_not_as_untracked(
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
    history: str,
    question: str,
    path: str,
) -> None:
    """A path git deleted (an attrs changelog fragment; werkzeug's contrib/cache.py, deleted
    in 2019) is no subject, and the no match says why: it said "Files are not tracked as
    modules unless they are a Python module of a package", false since every file of the
    head is a subject, and asked about "the repository" in its place. Now it names the
    commit that deleted the file, as git gives it."""
    graph, clone = (attrs, attrs_clone) if history == "attrs" else (werkzeug, werkzeug_clone)
    assert path not in shared_history.git(clone, "ls-files").splitlines()
    assert shared_history.git(clone, "log", "--no-merges", "--format=%h", "--", path).split()
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH
    said = [n for n in result.limitations if n.startswith(f'"{path}" names ')]
    assert len(said) == 1, result.limitations
    # The note names the commit git deleted it in (a20ea0b: the deletion, not "deleted or
    # moved since" in general), and never the old "Python module" reason.
    deleted = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--diff-filter=D", "--format=%h",
        "--abbrev=7", "-1", "--", path,
    ).strip()
    assert deleted, path
    assert "no longer has: it was deleted at" in said[0], said[0]
    assert f"({deleted}, by " in said[0] and "Python module" not in said[0], said[0]


RANKINGS = [
    ("attrs", "which files changed the most in attrs in H2 2025?", on(2025, 7), on(2026, 1), 10),
    ("werkzeug", "top 5 busiest files in werkzeug in 2024", on(2024, 1), on(2025, 1), 5),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "start", "end", "size"), RANKINGS)
async def test_a_ranking_of_files_ranks_every_file_as_git_does(
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
    history: str,
    question: str,
    start: datetime,
    end: datetime,
    size: int,
) -> None:
    """attrs' H2 2025: uv.lock 14, then pyproject.toml and tox.ini 12 each (in path order),
    the tenth place tied at 5 (pypi-package.yml before src/attr/_make.py and
    tests/test_make.py); werkzeug's 2024: CHANGES.rst 62, pyproject.toml 24, ..., the fifth
    tied at 9 (.pre-commit-config.yaml before tests/test_datastructures.py)."""
    graph, clone = (attrs, attrs_clone) if history == "attrs" else (werkzeug, werkzeug_clone)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED
    assert result.direct_judgment is not None
    expected = busiest(clone, start, end, size)
    assert ranked(result.direct_judgment) == expected
    assert result.subject_keys == tuple(f"module:{history}/{p}" for p, _ in expected)
    assert not any("tracked one by one" in note for note in result.limitations)


SHARED = [
    ("attrs", "who changed README.md in 2025?", "README.md"),
    ("werkzeug", "who changed index.rst?", "index.rst"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "name"), SHARED)
async def test_a_file_name_several_files_hold_asks_which_listing_them(
    werkzeug: OrgGraph,
    werkzeug_clone: Path,
    attrs: OrgGraph,
    attrs_clone: Path,
    history: str,
    question: str,
    name: str,
) -> None:
    """attrs' README.md is the root's and typing_tests/'s; werkzeug's index.rst is docs/'s,
    docs/deployment/'s and docs/middleware/'s: every one is offered, none chosen."""
    graph, clone = (attrs, attrs_clone) if history == "attrs" else (werkzeug, werkzeug_clone)
    result = await ask(graph, question)
    holding = [p for p in shared_history.git(clone, "ls-files").splitlines() if
               p.rpartition("/")[2] == name]  # fmt: skip
    assert len(holding) > 1
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {c.subject_key for c in result.candidates} == {
        f"module:{history}/{p}" for p in holding
    }
    assert result.clarification_prompt is not None
    assert all(p in result.clarification_prompt for p in holding)


def test_an_earlier_bare_file_name_is_no_name_of_the_file() -> None:
    """requests' AUTHORS.rst was AUTHORS: kept as a former name, "how many authors touched
    src/requests/adapters.py" (generalise, seed 31) was answered for AUTHORS.rst and
    adapters.py together. An earlier path names the file only as a path or a file name."""
    moved = Module("AUTHORS.rst", previous=["AUTHORS", "docs/AUTHORS", "AUTHORS.txt"])
    moved.kind = "file"
    assert moved.previous_names() == ["docs/AUTHORS", "AUTHORS.txt"]
