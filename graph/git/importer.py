"""Importing a git repository's history into an organisation's graph, incrementally.

The checkpoint of a (repository, branch) names the head commit whose history is fully in the
graph; it moves only after the projection accepted every record of the run. The next run:

* no checkpoint: reads the whole history of the branch (or what `--since` admits);
* the checkpoint is an ancestor of the head: reads only the commits after it;
* otherwise the branch was rewritten (a force-push): reads the commits after the merge base,
  and retracts with tombstones what only the abandoned history contributed (its commit
  episodes, and daily rollups that no longer have a commit).

Daily rollups are recomputed whole for every day a run touches, from the commits git still
reaches, so a re-run after an interruption writes the same values instead of adding twice.
What a run writes, and in which order, is graph/git/stream.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import chain
from pathlib import Path

from engine.domain.models import MAX_NAME as MAX_SOURCE
from engine.domain.models import Relationship, StoredSubject, SubjectKind
from engine.ports import Checkpoint, OrgGraph
from graph.git import log, stream, tree, upgrade
from graph.git.history import History, RollupKey, module_key
from graph.git.identity import gathered, joined
from graph.git.log import GitError
from graph.git.modules import Modules
from graph.git.records import edge_id
from graph.git.stream import Progress

_READ_CHUNK = 5_000
# Every record names its source `git:<name>`, which holds at most 200 characters
# (engine.domain.models.Name): a longer name would have every record of the run rejected.
MAX_NAME = MAX_SOURCE - len("git:")
_LOOKUP = 20  # stored people read per name or address looked up

__all__ = ["GitError", "GitImportReport", "checked_name", "import_git"]


@dataclass
class GitImportReport:
    repository: str
    branch: str
    head: str
    previous_head: str | None = None
    mode: str = "full"  # full, incremental, force_push, up_to_date
    commits: int = 0
    people: int = 0
    modules: int = 0
    records: int = 0
    tombstones: int = 0  # retractions: an abandoned history's, an older import's keys
    abandoned_commits: int = 0
    invalid: int = 0
    # Commits per oddity of their author string (graph/git/identity.oddities): kept, each
    # author a person all the same.
    odd_authors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class GitImport:
    path: Path
    branch: str | None = None
    since: str | None = None
    depth: int = 1
    name: str | None = None


def repository_name(path: Path) -> str:
    resolved = path.resolve()
    name = resolved.name
    if name == ".git":
        name = resolved.parent.name
    return name.removesuffix(".git") or "repository"


def checked_name(name: str) -> str:
    """`name` when records can carry it; else a GitError says why, before anything is read
    or written (the records of such a run were all rejected, leaving its subjects alone)."""
    if len(name) > MAX_NAME:
        raise GitError(
            f"the repository's name is {len(name)} characters long, more than the {MAX_NAME} "
            "a record's source can hold: give a shorter one with --name"
        )
    if not name.isprintable() or name != name.strip():
        raise GitError(
            "the repository's name must not begin or end with a space or hold a control "
            "character: give another with --name"
        )
    return name


def _branch_label(path: Path, branch: str | None) -> str:
    if branch:
        return branch
    try:
        return log.git(path, "symbolic-ref", "--short", "-q", "HEAD").strip() or "HEAD"
    except GitError:
        return "HEAD"  # a detached head


async def import_git(
    graph: OrgGraph, spec: GitImport, progress: Progress | None = None
) -> GitImportReport:
    started = time.monotonic()
    report = _locate(spec)
    marker = f"git-head:{report.repository}@{report.branch}"
    old, saved = await _previous(graph, report, marker)
    if old == report.head:
        report.mode = "up_to_date"
        return report
    repo, head = report.repository, report.head
    revs, abandoned = _plan(spec.path, old, head, report)
    total = log.count(spec.path, revs, spec.since)
    roots = tree.layout(spec.path, head, spec.depth)
    report.warnings += roots.warnings
    new = History(repo, _modules(spec, roots))
    new.add_all(
        log.commits(spec.path, revs, spec.since),
        (lambda n: progress("commits", n, total)) if progress else None,
    )
    gone = _history(spec, repo, abandoned, roots) if abandoned else None
    kept = _kept(spec, new, head if old else None, gone, roots)
    await _join_people(graph, [new, kept, gone])
    values, stale = _rollups(new, kept, gone)
    stored = await _stored_subjects(graph, new)
    edges = await _stored_edges(graph, new)
    # Streamed to the projector: a long history's records are never all encoded at once.
    # Read whole: where its history starts (--since, a shallow clone), for a first change.
    start = None if old else {"history_since": spec.since or "", "shallow": log.shallow(spec.path)}
    opening = stream.header_and_subjects(new, stored, report.branch, head, start)
    head_lines = [stream.dump(r) for r in opening]
    tombstones = stream.tombstones(repo, gone, stale)
    changes = sum(2 + len(c.modules) for c in new.changes)  # graph/git/records.py
    legacy = len(stream.legacy(new))  # tombstones of the keys an older import gave them
    total = len(head_lines) + len(new.spans) + len(new.episodes) + len(values) + len(tombstones)
    total += changes + legacy
    total += sum(1 for m in new.modules.by_path.values() if m.parent)  # PART_OF
    report.commits, report.people = new.commits, len(new.people.by_key)
    report.odd_authors = dict(sorted(new.people.odd.items()))
    report.modules, report.records = len(new.modules.by_path), total - 1
    report.tombstones = len(tombstones) + legacy
    report.abandoned_commits = gone.commits if gone else 0
    lines = chain(head_lines, stream.body(new, edges, report.branch, values), tombstones)
    ingest = await stream.write(graph, repo, lines, total, progress)
    report.invalid = ingest.invalid_count
    report.warnings += [f"record {bad.line} rejected: {bad.reason}" for bad in ingest.invalid[:10]]
    if ingest.ok:  # only a fully accepted run may move the checkpoint
        done = (saved.cursor if saved else 0) + new.commits
        await graph.save_checkpoint(Checkpoint(marker, done, head, ingest.run_id, True))
    report.seconds = time.monotonic() - started
    return report


async def _previous(
    graph: OrgGraph, report: GitImportReport, marker: str
) -> tuple[str | None, Checkpoint | None]:
    """The head a finished import read before (None: the whole history is read) and its
    checkpoint; None for both, said, when an earlier version imported it differently."""
    saved = await graph.checkpoint(marker)
    old = report.previous_head = saved.digest if saved is not None and saved.finished else None
    why = await upgrade.read_again(graph, report.repository, report.head) if old else None
    if why is None:
        return old, saved
    # the whole history, once: an earlier version imported it differently
    report.warnings.append(why)
    # The run's first batch gives the repository its current marks, after which nothing
    # would call for reading it again: until the whole run is accepted, the checkpoint
    # says it is unfinished, so an interrupted re-read is read again in full.
    await graph.save_checkpoint(Checkpoint(marker, 0, "", "read-again", False))
    return None, None


def _locate(spec: GitImport) -> GitImportReport:
    """The repository, branch and head commit to import; a GitError names what is wrong."""
    log.git_dir(spec.path)
    if spec.branch is not None and (not spec.branch or spec.branch.startswith("-")):
        raise GitError("--branch must name a ref")  # never let it read as a git option
    if spec.depth < 1:
        raise GitError("module depth must be at least 1")
    head = log.resolve(spec.path, spec.branch or "HEAD")
    if head is None:
        raise GitError(f"{spec.branch or 'HEAD'} names no commit in {spec.path}")
    repo = checked_name(spec.name or repository_name(spec.path))
    return GitImportReport(repo, _branch_label(spec.path, spec.branch), head)


def _plan(
    path: Path, old: str | None, head: str, report: GitImportReport
) -> tuple[list[str], list[str]]:
    """The revisions to read and the abandoned ones (reachable from the old head only)."""
    if old is None:
        return [head], []
    if log.resolve(path, old) is None:
        report.mode = "force_push"
        report.warnings.append(
            "the previously imported head is no longer in the repository (rewritten and "
            "garbage-collected): the whole branch was re-read, and what only the old history "
            "contributed could not be retracted"
        )
        return [head], []
    if log.is_ancestor(path, old, head):
        report.mode = "incremental"
        return [head, f"^{old}"], []
    report.mode = "force_push"
    return [head, f"^{old}"], [old, f"^{head}"]


def _modules(spec: GitImport, roots: tree.Layout) -> Modules:
    """Modules by the package roots and Python modules of the imported head (see
    graph/git/modules.py)."""
    gone = lambda sha, p: not log.path_exists(spec.path, sha, p)  # noqa: E731
    return Modules(spec.depth, gone, roots)


def _history(spec: GitImport, repo: str, revs: Sequence[str], roots: tree.Layout) -> History:
    found = History(repo, _modules(spec, roots))
    found.add_all(log.commits(spec.path, revs), None)
    return found


def _kept(
    spec: GitImport,
    new: History,
    head: str | None,
    gone: History | None,
    roots: tree.Layout,
) -> History | None:
    """The commits already imported on the days this run touches: counted before, and
    counted again in the recomputed days. head: set on a run after an earlier one."""
    days = new.days | (gone.days if gone else set())
    if head is None or not days:
        return None
    # --since filters on the commit date, which is never before the author date git
    # writes; a day of margin covers a commit made just before midnight elsewhere.
    since = (min(days) - timedelta(days=1)).isoformat()
    kept = History(
        new.repo,
        _modules(spec, roots),
        keep=lambda c: c.authored.date() in days and c.sha not in new.shas,
    )
    kept.add_all(log.commits(spec.path, [head], since), None)
    return kept


def _rollups(
    new: History, kept: History | None, gone: History | None
) -> tuple[dict[RollupKey, int], set[RollupKey]]:
    """Whole-day values for every day this run touches, and keys left with no commit."""
    values = dict(new.rollups)
    for key, value in (kept.rollups if kept else {}).items():
        values[key] = values.get(key, 0) + value
    stale = set(gone.rollups) - set(values) if gone else set()
    return values, stale


async def _join_people(graph: OrgGraph, histories: Sequence[History | None]) -> None:
    """One key per person across this run's histories and what the organisation already
    holds (graph/git/identity.py), written back into every history."""
    read = gathered(pair for h in histories if h is not None for pair in h.people.by_key.items())

    async def lookup(text: str) -> list[StoredSubject]:
        found, _ = await graph.subjects_by_handle(text, [SubjectKind.PERSON], limit=_LOOKUP)
        return found

    keys = await joined(read.values(), lookup)
    for history in histories:
        if history is not None:
            history.remap(keys)


async def _stored_subjects(graph: OrgGraph, history: History) -> dict[str, StoredSubject]:
    keys = [history.repo_key, *history.people.by_key]
    for path, module in history.modules.by_path.items():
        keys.append(module_key(history.repo, path))
        keys += [module_key(history.repo, old) for old in module.previous]
    found: dict[str, StoredSubject] = {}
    for at in range(0, len(keys), _READ_CHUNK):
        found.update(await graph.subjects_by_keys(keys[at : at + _READ_CHUNK]))
    return found


async def _stored_edges(graph: OrgGraph, history: History) -> dict[str, Relationship]:
    ids = [(person, edge_id(history.repo, person, target)) for person, target in history.spans]
    found: dict[str, Relationship] = {}
    for at in range(0, len(ids), _READ_CHUNK):
        for (_, rel_id), edge in (await graph.edges_by_id(ids[at : at + _READ_CHUNK])).items():
            found[rel_id] = edge.relationship
    return found
