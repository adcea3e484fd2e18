"""Folders the imported head no longer has: where each was last changed, kept on the
repository (attribute `gone_folders`) so that a question about one (werkzeug's contrib,
deleted in 2019; requests' vendored requests/packages, deleted in 2017) is told what the
folder was and where its history is, never "names no subject known here" with no way on.
Only the head's files and folders are subjects (graph/git/tree.py); a deleted folder's
commits are counted for the folders holding it that live on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.domain.gone import ATTRIBUTE, Gone, decode, encode
from graph.git.log import Commit

__all__ = ["ATTRIBUTE", "decode", "encode", "gone_folders"]


def gone_folders(
    commits: Sequence[Commit], present: frozenset[str], head_path: Callable[[str], str]
) -> dict[str, Gone]:
    """Each folder some commit wrote a path under that the head has no more, neither where
    it was nor where a move took it (werkzeug/testsuite is tests now: not gone), with its
    last change: (author time, abbreviated hash, author). Commits come newest first, so a
    folder's first sighting is its last change."""
    out: dict[str, Gone] = {}
    seen: set[str] = set()
    for commit in commits:
        for change in commit.files:
            for path in (change.path, change.old_path):
                for folder in folders_of(path):
                    if folder in seen:
                        continue
                    seen.add(folder)
                    if folder not in present and head_path(folder) not in present:
                        out[folder] = (commit.authored.isoformat(), commit.sha[:10], commit.name)
    return out


def folders_of(path: str | None) -> Iterable[str]:
    """The folders holding `path`, outermost first ("a/b/c.py": "a", "a/b")."""
    parts = (path or "").split("/")[:-1]
    return ("/".join(parts[: i + 1]) for i in range(len(parts)))
