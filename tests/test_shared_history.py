"""The histories the modules share (tests/shared_history.py): one import per history per test
process, which refuses writes, since every module after a writer would read what it wrote; and
git's answers about the shared clones, asked once per process."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import gitrepo, shared_history

pytestmark = shared_history.present("attrs")


async def test_a_history_is_imported_once_and_read_only(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    graph = await shared_history.shared_import("attrs", tmp_path_factory)
    assert await shared_history.shared_import("attrs", tmp_path_factory) is graph
    assert shared_history.shared_clone("attrs", tmp_path_factory) == shared_history.shared_clone(
        "attrs", tmp_path_factory
    )
    counts = await graph.counts()
    for method in ("write", "prepare_write", "delete_unseen", "save_checkpoint"):
        with pytest.raises(AssertionError, match="read-only"):
            await getattr(graph, method)(None)
    assert await graph.counts() == counts


def test_git_output_is_kept_for_shared_clones_only(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A shared clone's log is asked of git once per process (the clone is only read); a
    repository a test changes is asked afresh, and sees its new commit."""
    clone = shared_history.shared_clone("attrs", tmp_path_factory)
    asked = ("log", "--no-merges", "--full-history", "--format=%at", "--", "README.md")
    first = shared_history.git(clone, *asked)
    assert first and shared_history.git(clone, *asked) is first  # kept, not asked again
    plain = subprocess.run(["git", "-C", str(clone), *asked], capture_output=True, text=True)
    assert first == plain.stdout
    repo = gitrepo.Repo(tmp_path / "own")
    repo.write("a.txt", "one\n")
    repo.commit(gitrepo.SAM, 2, "one")
    assert len(shared_history.git(repo.path, "log", "--format=%H").split()) == 1
    repo.write("a.txt", "two\n")
    repo.commit(gitrepo.SAM, 1, "two")
    assert len(shared_history.git(repo.path, "log", "--format=%H").split()) == 2
