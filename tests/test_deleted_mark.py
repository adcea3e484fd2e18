"""The repositories holding deleted files or folders are marked so by the git import
(engine/domain/lives.py `DELETED`), and the readers of what was deleted
(engine/resolving/gonefiles.py, gonefolders.py) ask the graph for the marked ones alone
(engine/resolving/gonerepos.py): before, every repository was read, a page at a time, for each
name no subject holds. The mark is git's: a repository whose history deleted a file
(`git log --diff-filter=D`) carries it, one that deleted nothing does not; the answers about
deleted files and folders are unchanged (tests/test_gone_folders, test_gone_packages,
test_path_lives). On the real histories (../shared/data) and a small one of our own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.domain.lives import DELETED
from engine.ports import OrgGraph
from engine.resolving.gonerepos import holding_deleted
from tests import shared_history
from tests.gitrepo import JO, Repo
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "requests")

werkzeug_clone, werkzeug, requests_clone, requests = shared_history.each("werkzeug", "requests")
histories = shared_history.histories("werkzeug", "requests")

ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize("history", ["werkzeug", "requests"])
async def test_a_repository_that_deleted_files_is_marked_and_found_by_the_mark(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, clone = histories[history]
    deleted = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "--diff-filter=D", "--name-only",
        "--format=",
    )  # fmt: skip
    assert deleted.strip()  # git: the history deleted files
    key = f"repository:{history}"
    found = (await graph.subjects_by_keys([key]))[key]
    assert found.attributes.get(DELETED) is True
    assert [r.key for r in await holding_deleted(graph)] == [key]


async def test_a_repository_that_deleted_nothing_is_not_marked(tmp_path: Path) -> None:
    """One commit adding two files: nothing deleted (git log --diff-filter=D is empty), no
    mark, no repository read for a name no subject holds, which still names nothing."""
    repo = Repo(tmp_path / "kept", datetime(2026, 8, 1, tzinfo=UTC))
    repo.write("src/kept/core.py", "x = 1\n")
    repo.write("README.md", "kept\n")
    repo.commit(JO, 1, "Add kept")
    assert not repo.git("log", "--diff-filter=D", "--name-only", "--format=").strip()
    graph = await shared_history.in_memory(repo.path, "kept")
    found = (await graph.subjects_by_keys(["repository:kept"]))["repository:kept"]
    assert DELETED not in found.attributes
    assert await holding_deleted(graph) == []
    result = await ask(graph, "how many commits to contrib in the last 30 days?")
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment


async def test_a_deleted_file_is_marked_on_a_history_of_our_own(tmp_path: Path) -> None:
    """A file added then deleted (git's status D): the repository is marked, and the question
    about who deleted it is read from the deleting commit, as before."""
    now = datetime(2026, 8, 1, tzinfo=UTC)
    repo = Repo(tmp_path / "lab", now)
    repo.write("src/lab/core.py", "x = 1\n")
    repo.write("src/lab/old.py", "y = 1\n")
    repo.commit(JO, 10, "Add lab")
    (repo.path / "src/lab/old.py").unlink()
    deleting = repo.commit(JO, 5, "Remove old.py")
    assert repo.git("log", "--diff-filter=D", "--format=%H").split() == [deleting]
    graph = await shared_history.in_memory(repo.path, "lab")
    assert [r.key for r in await holding_deleted(graph)] == ["repository:lab"]
    result = await ask(graph, "who deleted old.py?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    day = (now - timedelta(days=5)).date().isoformat()
    assert day in (result.direct_judgment or ""), result.direct_judgment
