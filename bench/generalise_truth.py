"""What a git history says, computed from git alone (standard library only: this module must
never import the project it measures).

Commits are `git log --no-merges --full-history -M --numstat HEAD`: author time (UTC epoch
seconds), the author as .mailmap maps them (%aN, %aE), and per file the lines added plus
removed as git counts them with rename detection. Windows are half-open [start, end).

People are grouped as `git shortlog` groups them (by mapped author name). The project joins
people also by a shared address and by a name folded for case, so every figure about people
is computed under both groupings (`by="name"` and `by="person"`, names and addresses linked
into one person); a case whose figure differs between the two has no single truth and is not
asked (see generalise_cases).

A subject is a path at the head (the repository is ""). Its commits are those touching the
path or a path it had before a move: a file's earlier paths (its renames, followed back), and
a directory's earlier directory when the directory moved whole (every file under the old one
renamed to the same place under the new one in one commit, none left). Files renamed into a
directory from elsewhere make its count uncertain (git log -- DIR leaves their earlier commits
out; following the files counts them): `commits(...)` gives both bounds and the cases use a
figure only where they agree.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

_UNSAFE = re.compile(r"[^a-z0-9._@+-]+")


def person_key(email: str) -> str:
    """The key the git import gives the person of an address (graph/git/identity.person_key,
    docs/git-import.md): lower case, each run of other characters one "-" ("dependabot[bot]"
    is person:49699333+dependabot-bot-@users.noreply.github.com)."""
    return "person:" + _UNSAFE.sub("-", email.strip().lower()).strip("-")


NOREPLY = re.compile(r"^(?:\d+\+)?([a-z0-9][a-z0-9-]*)@users\.noreply\.github\.com$")
# A part of a name in parentheses is no part of it (a login, a nickname, a tag): requests'
# "Tim Sweña (Swast)" and "Tim Sweña" are one person, as a reader of git shortlog takes them
# (docs/git-import.md, "Identities"); a one-word name joins no one by name.
_ASIDE = re.compile(r"\s*\([^()]*\)\s*")


def _bare(name: str) -> str:
    """The name a question's person is joined by: casefolded, its asides dropped when two
    words or more are left."""
    bare = " ".join(_ASIDE.sub(" ", name).split())
    return (bare if len(bare.split()) >= 2 else name).casefold()


@dataclass(frozen=True)
class Change:
    path: str
    old: str | None
    lines: int


@dataclass(frozen=True)
class Commit:
    sha: str
    at: int
    name: str
    email: str
    changes: tuple[Change, ...]


@dataclass
class History:
    name: str
    commits: list[Commit]
    head_files: list[str]
    person_of: dict[str, str] = field(default_factory=dict)  # author name -> person id
    names_of: dict[str, set[str]] = field(default_factory=dict)  # person id -> author names
    emails_of: dict[str, set[str]] = field(default_factory=dict)  # person id -> addresses
    file_aliases: dict[str, set[str]] = field(default_factory=dict)  # path -> earlier paths
    dir_aliases: dict[str, set[str]] = field(default_factory=dict)  # dir -> earlier dirs
    renamed_in: dict[str, set[str]] = field(default_factory=dict)  # new path -> old paths

    def who(self, commit: Commit, by: str) -> str:
        return commit.name if by == "name" else self.person_of[commit.name]


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def read(repo: Path, name: str) -> History:
    """The history of REPO's HEAD, as git tells it."""
    text = _git(
        repo,
        "log",
        "--no-merges",
        "--full-history",
        "-M",
        "--numstat",
        "-z",
        "--format=%x1e%H%x1f%at%x1f%aN%x1f%aE",
        "HEAD",
    )
    commits = [_commit(block) for block in text.split("\x1e")[1:]]
    head = [p for p in _git(repo, "ls-tree", "-r", "-z", "--name-only", "HEAD").split("\0") if p]
    history = History(name, commits, head)
    _group_people(history)
    _follow_moves(history)
    return history


def _commit(block: str) -> Commit:
    header, _, rest = block.partition("\0")
    sha, at, name, email = header.split("\x1f")
    tokens = rest.lstrip("\n").split("\0")
    changes: list[Change] = []
    i = 0
    while i < len(tokens):
        token = tokens[i].lstrip("\n")
        if not token:
            i += 1
            continue
        added, removed, path = token.split("\t", 2)
        lines = (int(added) if added.isdigit() else 0) + (int(removed) if removed.isdigit() else 0)
        if path:
            changes.append(Change(path, None, lines))
            i += 1
        else:  # a rename: the old and the new path follow as their own tokens
            changes.append(Change(tokens[i + 2], tokens[i + 1], lines))
            i += 3
    return Commit(sha, int(at), name, email.lower(), tuple(changes))


def _group_people(history: History) -> None:
    """Names and addresses linked into persons (union-find): an author name, its folded
    form, each address and the login of a GitHub noreply address are one node each."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        parent[find(a)] = find(b)

    for c in history.commits:
        union("n:" + c.name, "f:" + _bare(c.name))
        union("n:" + c.name, "e:" + c.email)
        login = NOREPLY.match(c.email)
        if login:
            union("e:" + c.email, "f:" + login.group(1))
    for c in history.commits:
        pid = find("n:" + c.name)
        history.person_of[c.name] = pid
        history.names_of.setdefault(pid, set()).add(c.name)
        history.emails_of.setdefault(pid, set()).add(c.email)


def _follow_moves(history: History) -> None:
    """Earlier paths of files (renames) and of directories moved whole."""
    renames_by_commit: list[list[tuple[str, str]]] = []
    for c in history.commits:
        pairs = [(ch.old, ch.path) for ch in c.changes if ch.old is not None]
        for old, new in pairs:
            history.renamed_in.setdefault(new, set()).add(old)
        if pairs:
            renames_by_commit.append(pairs)
    # A file's earlier paths, transitively.
    for new in list(history.renamed_in):
        seen: set[str] = set()
        todo = [new]
        while todo:
            for old in history.renamed_in.get(todo.pop(), ()):
                if old not in seen:
                    seen.add(old)
                    todo.append(old)
        history.file_aliases[new] = seen
    # A directory moved whole: in one commit, every file under OLD went to NEW (same suffix).
    for pairs in renames_by_commit:
        mapping: Counter[tuple[str, str]] = Counter()
        for old, new in pairs:
            o, n = old.split("/"), new.split("/")
            k = 0
            while k < min(len(o), len(n)) - 1 and o[-1 - k] == n[-1 - k]:
                k += 1
            if k and "/".join(o[: len(o) - k]) != "/".join(n[: len(n) - k]):
                mapping["/".join(o[: len(o) - k]), "/".join(n[: len(n) - k])] += 1
        for (old_dir, new_dir), count in mapping.items():
            if count >= 2:
                history.dir_aliases.setdefault(new_dir, set()).add(old_dir)


def under(path: str, root: str) -> bool:
    return root == "" or path == root or path.startswith(root + "/")


def earlier_dirs(history: History, root: str) -> set[str]:
    """ROOT and every directory it was before a whole-directory move (of it or a parent)."""
    out = {root}
    changed = True
    while changed:
        changed = False
        for new_dir, olds in history.dir_aliases.items():
            for d in list(out):
                if under(d, new_dir):
                    for old in olds:
                        moved = old + d[len(new_dir) :]
                        # docs/_docs moved up into docs: docs/_docs is not docs/_docs/_docs too
                        if moved not in out and not under(moved, d):
                            out.add(moved)
                            changed = True
    return out


@dataclass(frozen=True)
class Scope:
    """What counts for a subject: paths (and roots) it is or was."""

    roots: frozenset[str]
    files: frozenset[str] = frozenset()
    away: frozenset[str] = frozenset()  # paths under the roots that moved out of the subject

    def lines(self, commit: Commit) -> int | None:
        """The lines of COMMIT's files in scope, or None when it touches none."""
        cached = _TOUCHED.setdefault(self, {})
        if commit.sha not in cached:
            hit = [
                ch.lines
                for ch in commit.changes
                if self._in(ch.path) or (ch.old is not None and self._in(ch.old))
            ]
            cached[commit.sha] = sum(hit) if hit else None
        return cached[commit.sha]

    def _in(self, path: str) -> bool:
        if path in self.files:
            return True
        if "" not in self.roots and path not in self.roots and not path.startswith(self._roots):
            return False
        return path not in self.away and not path.startswith(self._away)

    @cached_property
    def _roots(self) -> tuple[str, ...]:
        return tuple(r + "/" for r in self.roots)

    @cached_property
    def _away(self) -> tuple[str, ...]:
        return tuple(a + "/" for a in self.away)


_TOUCHED: dict[Scope, dict[str, int | None]] = {}  # a scope's lines per commit, once


def scopes(history: History, path: str) -> tuple[Scope, Scope]:
    """The narrow and the wide scope of a head directory: the narrow one keeps only the
    earlier directories that were the same place (moved with its parent, or into a src
    layout) and leaves out what moved out of it; the wide one keeps every earlier directory
    and every file moved into it. They are equal unless something crossed its border, or a
    directory moved out of another subject into it (werkzeug/testsuite became tests)."""
    roots = earlier_dirs(history, path)
    wide_files: set[str] = set()
    away: set[str] = set()
    for f, olds in history.file_aliases.items():
        if under(f, path):
            wide_files |= olds
        else:
            away |= {o for o in olds if any(under(o, r) for r in roots)}
    for new_dir, olds in history.dir_aliases.items():
        if not under(new_dir, path):
            away |= {o for o in olds if any(under(o, r) for r in roots) and o not in roots}
    # A Python file X.py that became the package X/ (werkzeug's routing.py in 2022): the
    # import counts it for the package (graph/git/modules.py); the wide bound does too.
    wide_files |= {f"{r}.py" for r in roots if r}
    narrow = Scope(frozenset(same_place(history, path)), frozenset(), frozenset(away))
    return narrow, Scope(frozenset(roots), frozenset(wide_files))


def same_place(history: History, path: str) -> set[str]:
    """PATH and its earlier directories that were PATH under its parent's earlier names (or
    PATH before a move into src/)."""
    if not path:
        return {""}
    parent, _, base = path.rpartition("/")
    parents = same_place(history, parent)
    out = {path} | ({path[4:]} if path.startswith("src/") and "/" not in path[4:] else set())
    for e in earlier_dirs(history, path):
        e_parent, _, e_base = e.rpartition("/")
        if e_base == base and e_parent in parents:
            out.add(e)
    return out


def file_scopes(history: History, path: str) -> tuple[Scope, Scope]:
    """A file: its path, its earlier paths, and where a moved directory held it. The narrow
    scope leaves out a module that became a package and a package's __init__.py
    (werkzeug/wrappers.py, split into wrappers/request.py and others: which one continues it
    is git's guess)."""
    parent = path.rsplit("/", 1)[0] if "/" in path else ""
    olds = set(history.file_aliases.get(path, set()))
    for d in earlier_dirs(history, parent):
        olds.add(d + "/" + path.rsplit("/", 1)[-1] if d else path)
    package = parent.rsplit("/", 1)[-1]
    split = {o for o in olds if o.rsplit("/", 1)[-1] in (f"{package}.py", "__init__.py")}
    narrow = Scope(frozenset(), frozenset({path} | olds - split))
    return narrow, Scope(frozenset(), frozenset({path} | olds))


def file_scope(history: History, path: str) -> Scope:
    """A file's narrow scope (see file_scopes)."""
    return file_scopes(history, path)[0]


def is_bot(name: str) -> bool:
    """A bot's author name, as the docs say one is known (docs/graphql.md): it ends with
    "[bot]" (dependabot[bot]), its last word is "bot" (Step Security Bot), or it is GitHub's
    automation's ("github-actions", "GitHub Action")."""
    words = name.casefold().split()
    folded = " ".join(name.casefold().replace("-", " ").split())
    tool = folded in {"github actions", "github action"}
    return name.casefold().strip().endswith("[bot]") or words[-1:] == ["bot"] or tool


@dataclass(frozen=True)
class Figures:
    commits: int
    lines: int
    people: int
    top: tuple[frozenset[str], int]  # every name of the people with the most commits; how many
    bus_factor: int | None  # None: at the half exactly (no one reading), or nothing changed


def figures(
    history: History,
    scope: Scope | None,
    start: int,
    end: int,
    person: str | None = None,
    by: str = "person",
    bots: bool = True,
) -> Figures:
    """The figures of SCOPE (None: the whole repository) in [start, end), optionally only the
    commits of PERSON (a person id); without BOTS, only the commits of people who are no
    bots (is_bot)."""
    commits = lines = 0
    per_commits: Counter[str] = Counter()
    per_lines: Counter[str] = Counter()
    for c in history.commits:
        if not start <= c.at < end:
            continue
        if person is not None and history.person_of[c.name] != person:
            continue
        if not bots and is_bot(c.name):
            continue
        if scope is None:
            n: int | None = sum(ch.lines for ch in c.changes)
        else:
            n = scope.lines(c)
        if n is None:
            continue
        who = history.who(c, by)
        commits, lines = commits + 1, lines + n
        per_commits[who] += 1
        per_lines[who] += n
    most = max(per_commits.values(), default=0)
    leaders = {
        history.person_of[w] if by == "name" else w for w, k in per_commits.items() if k == most
    }
    # Every name of each leader: an answer may show any spelling of the same person.
    top = frozenset(name for pid in leaders for name in history.names_of[pid])
    return Figures(commits, lines, len(per_commits), (top, most), _bus(per_lines, per_commits))


def _bus(per_lines: Counter[str], per_commits: Counter[str]) -> int | None:
    basis = per_lines if sum(per_lines.values()) else per_commits
    total = sum(basis.values())
    if not total:
        return None
    running = 0
    for k, value in enumerate(sorted(basis.values(), reverse=True), 1):
        running += value
        if 2 * running == total:
            return None  # exactly half: ">= half" and "more than half" differ
        if 2 * running > total:
            return k
    return None


def people_named(history: History, first: str) -> list[str]:
    """Persons with an author name whose first word is FIRST (folded)."""
    out = {
        pid
        for name, pid in history.person_of.items()
        if name.split() and name.split()[0].casefold() == first.casefold()
    }
    return sorted(out)


def active(history: History, persons: Iterable[str], start: int, end: int) -> list[str]:
    wanted = set(persons)
    return sorted(
        {
            history.person_of[c.name]
            for c in history.commits
            if start <= c.at < end and history.person_of[c.name] in wanted
        }
    )


def last_change(history: History, scope: Scope | None, end: int) -> int | None:
    """The author time of the newest commit before END touching SCOPE."""
    times = [
        c.at
        for c in history.commits
        if c.at < end and (scope is None or scope.lines(c) is not None)
    ]
    return max(times, default=None)
