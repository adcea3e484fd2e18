"""Aggregating commits (newest first) into what the projection needs.

One pass over the commits collects: the people and modules, each person's first and last
commit per module and per repository (the CONTRIBUTES_TO windows), one episode per commit, and
daily rollups (commits, lines added, lines removed) per module and person, per repository and
person, and per person. Merge commits become episodes but are left out of the rollups: they
carry no authored change of their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date, datetime

from engine.domain.lives import Lived, Step
from graph.git.gone import gone_folders
from graph.git.identity import People, gathered
from graph.git.lives import apart, gone_files, lived
from graph.git.log import Commit
from graph.git.modules import Modules

METRICS = ("commits", "lines_added", "lines_removed")
MAX_MENTIONS = 64
MAX_FILES_IN_TEXT = 40
MAX_SUBJECT = 2_000
MAX_TEXT = 20_000

# (subject key, actor key, day, metric) -> value
RollupKey = tuple[str, str, date, str]


@dataclass(frozen=True, slots=True)
class Change:
    """One authored commit, for its `commit` source records (graph/git/records.py)."""

    sha: str
    authored: datetime
    title: str
    person: str
    modules: tuple[str, ...]  # module keys
    # Lines changed (added + removed, as `git log -M --numstat` gives them): in all, and in
    # each of `modules`, in its order. Written on the commit's records, so that a window
    # cutting a day counts the lines of its commits to the instant.
    lines: int = 0
    module_lines: tuple[int, ...] = ()
    # Of those, the lines added (in all, and in each of `modules`): the rest were removed.
    added: int = 0
    module_added: tuple[int, ...] = ()


def module_key(repo: str, path: str) -> str:
    key = f"module:{repo}/{path}"
    return key if len(key) <= 200 else "module:" + hashlib.sha256(key.encode()).hexdigest()[:40]


@dataclass
class Span:
    first: datetime
    last: datetime
    commits: int = 0

    def add(self, moment: datetime) -> None:
        self.first = min(self.first, moment)
        self.last = max(self.last, moment)
        self.commits += 1


@dataclass
class History:
    """What a run of commits adds up to. `keep` filters which commits count in rollups."""

    repo: str
    modules: Modules
    keep: Callable[[Commit], bool] = lambda commit: True
    people: People = field(default_factory=People)
    rollups: dict[RollupKey, int] = field(default_factory=dict)
    spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    episodes: list[dict[str, object]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    days: set[date] = field(default_factory=set)
    shas: set[str] = field(default_factory=set)
    commits: int = 0
    first: datetime | None = None
    last: datetime | None = None
    # folders the head has no more -> (last change, hash, author) (graph/git/gone.py)
    gone: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    # every path -> the commit that wrote it in its latest life; files deleted (graph/git/lives.py)
    born: dict[str, Step] = field(default_factory=dict)
    earlier: dict[str, list[Lived]] = field(default_factory=dict)  # a path's earlier lives
    gone_files: list[Step] = field(default_factory=list)
    # a moved folder module -> its commits made apart from its era, (early, late) author
    # instants in epoch seconds (engine/domain/movedapart.py)
    apart: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)

    @property
    def repo_key(self) -> str:
        return f"repository:{self.repo}"

    def add_all(self, commits: Iterable[Commit], progress: Callable[[int], None] | None) -> None:
        """Reads every commit, learns their renames (graph/git/modules.py: a commit is
        counted where its paths are at the head, whatever order git lists it in), then
        counts them."""
        read: list[Commit] = []
        for commit in commits:
            read.append(commit)
            if progress is not None and len(read) % 500 == 0:
                progress(len(read))
        self.modules.learn(read)
        own = [c for c in read if len(c.parents) <= 1]  # a merge changes nothing of its own
        self.gone = gone_folders(own, self.modules.present, self.modules.head_path)
        self.born, self.earlier = lived(own)
        self.gone_files = gone_files(own, self.modules.head_files)
        for commit in read:
            self.add(commit)
        if progress is not None:
            progress(self.commits)

    def add(self, commit: Commit) -> None:
        self.commits += 1
        self.shas.add(commit.sha)
        moment = commit.authored
        self.first = moment if self.first is None else min(self.first, moment)
        self.last = moment if self.last is None else max(self.last, moment)
        person = self.people.add(commit)
        modules = self.modules.modules_of(commit)
        self._span(person, self.repo_key, moment)
        for path in modules:
            self._span(person, module_key(self.repo, path), moment)
        self.episodes.append(self._episode(commit, person, modules))
        if commit.is_merge:
            return
        paths = sorted(modules)
        keys = tuple(module_key(self.repo, p) for p in paths)
        added = sum(c.added for c in commit.files)
        removed = sum(c.removed for c in commit.files)
        lines = tuple(sum(modules[p]) for p in paths)
        plus = tuple(modules[p][0] for p in paths)
        change = Change(
            commit.sha, moment, commit.subject, person, keys, added + removed, lines, added, plus
        )
        self.changes.append(change)
        self._apart(commit, paths)
        if not self.keep(commit):
            return
        day = moment.date()
        self.days.add(day)
        self._roll(self.repo_key, person, day, (1, added, removed))
        self._roll(person, self.repo_key, day, (1, added, removed))
        for path, (m_added, m_removed) in modules.items():
            self._roll(module_key(self.repo, path), person, day, (1, m_added, m_removed))

    def _apart(self, commit: Commit, paths: list[str]) -> None:
        for path in paths:
            which = apart(self.modules.by_path[path], commit)
            if which is not None:
                early, late = self.apart.setdefault(path, ([], []))
                (early if which == "early" else late).append(int(commit.authored.timestamp()))
            elif self.modules.by_path[path].renamed_at is not None:
                self.apart.setdefault(path, ([], []))

    def remap(self, keys: dict[str, str]) -> None:
        """Rewrite every person key by `keys` (graph/git/identity.py's `joined`): people
        joined into one are one subject, with every record and window under one key."""
        if all(keys.get(k, k) == k for k in self.people.by_key):
            return
        self.people.by_key = gathered((keys.get(k, k), p) for k, p in self.people.by_key.items())

        def one(key: str) -> str:
            return keys.get(key, key)

        rollups: dict[RollupKey, int] = {}
        for (subject, actor, day, metric), value in self.rollups.items():
            moved = (one(subject), one(actor), day, metric)
            rollups[moved] = rollups.get(moved, 0) + value
        self.rollups = rollups
        spans: dict[tuple[str, str], Span] = {}
        for (who, target), span in self.spans.items():
            at = (one(who), target)
            if at in spans:
                spans[at].first = min(spans[at].first, span.first)
                spans[at].last = max(spans[at].last, span.last)
                spans[at].commits += span.commits
            else:
                spans[at] = Span(span.first, span.last, span.commits)
        self.spans = spans
        for episode in self.episodes:
            mentions = episode["mentions"]
            assert isinstance(mentions, list)
            episode["mentions"] = list(dict.fromkeys(one(m) for m in mentions))
        self.changes = [replace(c, person=one(c.person)) for c in self.changes]

    def _roll(self, subject: str, actor: str, day: date, values: tuple[int, int, int]) -> None:
        for metric, value in zip(METRICS, values, strict=True):
            key = (subject, actor, day, metric)
            self.rollups[key] = self.rollups.get(key, 0) + value

    def _span(self, person: str, target: str, moment: datetime) -> None:
        span = self.spans.get((person, target))
        if span is None:
            span = self.spans[(person, target)] = Span(moment, moment)
        span.add(moment)

    def _episode(
        self, commit: Commit, person: str, modules: dict[str, list[int]]
    ) -> dict[str, object]:
        paths = [c.path for c in commit.files]
        text = commit.subject[:MAX_SUBJECT]
        if paths:
            shown = ", ".join(paths[:MAX_FILES_IN_TEXT])
            more = (
                f" (+{len(paths) - MAX_FILES_IN_TEXT} more)"
                if len(paths) > MAX_FILES_IN_TEXT
                else ""
            )
            text += f"\n\nFiles touched ({len(paths)}): {shown}{more}"
        mentions = [self.repo_key, person] + [module_key(self.repo, p) for p in sorted(modules)]
        return {
            "type": "episode",
            "key": episode_key(self.repo, commit.sha),
            "occurred_at": commit.authored.isoformat(),
            "text": text[:MAX_TEXT],
            "mentions": [m for m in mentions if len(m) <= 256][:MAX_MENTIONS],
        }


def episode_key(repo: str, sha: str) -> str:
    return f"episode:git:{repo}:{sha}"
