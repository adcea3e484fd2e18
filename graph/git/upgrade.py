"""What an import does, once, for a repository an earlier version of it imported differently.

The repository's subject carries marks of how it was imported (graph/git/records.py): an
incremental run over a repository stored without a current mark would leave its older
history as the earlier version wrote it, so the whole branch is read again, once, and said.
Re-reading is idempotent: rollups are whole-day values and records merge on their keys. The
importer marks the checkpoint unfinished first: the run's first batch writes the marks, so a
re-read stopped after it would otherwise never be finished.

* `module_layout`: Python modules were not modules; an incremental run would give them only
  the new commits' history.
* `module_layout` 2: a package inside a directory module (click's tests/test_utils in
  tests) did not count for it; an incremental run would count only the new commits.
* `module_layout` 3: subpackages and directories of Python files below the top were not
  modules, and a directory moved before a side branch's commits were listed was not
  followed for them.
* `module_layout` 4: a package's earlier path spelled as its name was not kept (attrs'
  `attr` for `src/attr`), so a path from before the move named nothing
  (engine/resolving/formerpaths.py).
* `module_layout` 5: a commit record did not say how many of its lines were added, so churn
  left out the days a window cuts.
* `module_layout` 6 and 7: only directories of Python files (and the top-level tests/, docs/,
  examples/) were modules, so ".github/workflows" or "tests/certs" named no subject (6: nor
  did any file other than a Python module).
* `module_layout` 8: a Python file that became a package of its name (werkzeug's routing.py,
  routing/ since 2022) was no part of it, so the package's history began with the package.
* `module_layout` 9: the folders the head no longer has were not kept (`gone_folders`): an
  incremental run would know only those the new commits deleted.
* `module_layout` 10: which commit first wrote each path and which deleted a file the head
  no longer has were not kept (`lineage`, `gone_files`: graph/git/lives.py).
* `module_layout` 14: a repository holding deleted files or folders was not marked so
  (`deleted_paths`, engine/domain/lives.py): their readers ask for the marked repositories
  alone, so what an unmarked one deleted would be "no subject known here".
* `commit_keys`: a commit record whose key was too long was keyed by a digest alone, which
  named no commit (engine/domain/commits.py), so a commit touching several modules counted once per
  module. Read again only when the repository holds a subject whose key was that long: the
  re-read writes the new keys and retracts the old ones (graph/git/stream.py).
"""

from __future__ import annotations

from engine.domain.commits import legacy_commit_key
from engine.domain.models import Direction, RelationshipType, SubjectKind
from engine.ports import OrgGraph, SortKey, SubjectQuery
from graph.git.records import COMMIT_KEYS, MODULE_LAYOUT

_PAGE = 1_000
_PEOPLE = 100_000  # people read per repository

PYTHON_MODULES = (
    "imported before Python modules were modules: the whole history was read again "
    "to count them (once)"
)
NESTED_PACKAGES = (
    "imported when a package inside a directory module did not count for it: the whole "
    "history was read again to count it (once)"
)
SUBPACKAGES = (
    "imported when subpackages and directories of Python files were not modules and a "
    "directory moved on a side branch was not followed: the whole history was read again "
    "(once)"
)
FORMER_PATHS = (
    "imported when a package's earlier path spelled as its name was not kept: the whole "
    "history was read again so that a path from before its move names it (once)"
)
LINES_ADDED = (
    "imported when a commit record did not say how many of its lines were added: the whole "
    "history was read again so that churn counts to the instant (once)"
)
FOLDERS = (
    "imported when only directories of Python files were modules: the whole history was "
    "read again so that every directory holding a file (.github/workflows, tests/certs) "
    "counts its own commits (once)"
)
LIVES = (
    "imported when the commit first writing each path and the one deleting each file were "
    "not kept: the whole history was read again to keep them (once)"
)
DELETED_MARK = (
    "imported when a repository holding deleted files or folders was not marked so: the "
    "whole history was read again to mark it (once)"
)
LONG_KEYS = (
    "imported when a commit record's key too long to write whole named no commit: the whole "
    "history was read again to key them by their commits (once)"
)


async def read_again(graph: OrgGraph, repository: str, head: str) -> str | None:
    """Why the whole history of `repository` is read again (a warning), or None."""
    key = f"repository:{repository}"
    stored = (await graph.subjects_by_keys([key])).get(key)
    if stored is None:
        return None
    layout = stored.attributes.get("module_layout")
    if layout != MODULE_LAYOUT:
        if layout == 13:
            return DELETED_MARK
        if layout in (8, 9, 10):
            return LIVES
        if layout in (6, 7):
            return FOLDERS
        if layout == 5:
            return LINES_ADDED
        if layout == 4:
            return FORMER_PATHS
        if layout == 3:
            return SUBPACKAGES
        return NESTED_PACKAGES if layout == 2 else PYTHON_MODULES
    if stored.attributes.get("commit_keys") == COMMIT_KEYS:
        return None
    subjects = [key, *await _people(graph, key), *await _modules(graph, repository)]
    if any(legacy_commit_key(repository, head, s) is not None for s in subjects):
        return LONG_KEYS
    return None


async def _people(graph: OrgGraph, key: str) -> list[str]:
    found = await graph.relationships_of(
        [key],
        types=[RelationshipType.CONTRIBUTES_TO],
        direction=Direction.INCOMING,
        limit_per_subject=_PEOPLE,
    )
    return [edge.other.key for edge in found.get(key, [])]


async def _modules(graph: OrgGraph, repository: str) -> list[str]:
    """Every module the repository's imports stored (renamed ones too)."""
    query = SubjectQuery(
        kinds=(SubjectKind.MODULE,), attributes=(("repository", repository[:200]),), brief=True
    )
    keys: list[str] = []
    after: SortKey | None = None
    while True:
        page = await graph.find_subjects(query, _PAGE, after)
        keys += [s.key for s in page.items]
        if not page.has_next or not page.positions:
            return keys
        after = page.positions[-1]
