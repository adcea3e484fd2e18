"""The subjects and people of one history that bench/generalise.py's questions name, and
how a question may name them (standard library only). A name is offered only where the
catalogue can tell what it must mean: a package's last name only when no other directory has
it, a file's name only when no other file has it and no directory or repository is named so;
a person only when git's grouping by name and the project's by person agree (one author name,
whatever addresses), a login only when one person's GitHub noreply address holds it."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bench import generalise_truth as truth
from bench.generalise_truth import History, Scope

TESTLIKE = ("test_", "conftest")
_WORD = re.compile(r"[^\W_]+")
_LOCAL = re.compile(r"[a-z][a-z0-9]{3,}")  # a handle of one word, as a question writes it


@dataclass(frozen=True)
class Subject:
    kind: str
    path: str  # "" for the repository
    refs: tuple[str, ...]  # how a question may name it
    narrow: Scope | None
    wide: Scope | None


class Catalogue:
    """The subjects and people of one history a question may name."""

    def __init__(self, history: History) -> None:
        self.h = history
        files = history.head_files
        py_dirs = sorted(
            {f.rsplit("/", 1)[0] for f in files if f.endswith("/__init__.py") and not _aside(f)}
        )
        dirs_named = Counter(d.rsplit("/", 1)[-1] for d in _all_dirs(files))
        bases = Counter(f.rsplit("/", 1)[-1] for f in files)
        self.subjects: dict[str, list[Subject]] = {
            k: []
            for k in (
                "repo",
                "package",
                "subpackage",
                "file",
                "tests",
                "docs",
                "moved",
                "shared_file",
                "described",
            )
        }
        self.subjects["repo"].append(
            Subject(
                "repo",
                "",
                (history.name, f"the {history.name} repository", f"the {history.name} repo"),
                None,
                None,
            )
        )
        for d in py_dirs:
            parent = d.rsplit("/", 1)[0] if "/" in d else ""
            last = d.rsplit("/", 1)[-1]
            kind = "subpackage" if parent in py_dirs else "package"
            refs = [d] + ([f"the {last} package"] if dirs_named[last] == 1 else [])
            if kind == "subpackage":
                refs.append(_dotted(d))
            narrow, wide = truth.scopes(history, d)
            self.subjects[kind].append(Subject(kind, d, tuple(refs), narrow, wide))
        modules = [
            f
            for f in files
            if f.endswith(".py")
            and "/" in f
            and f.rsplit("/", 1)[0] in py_dirs
            and not _testlike(f)
            and not f.endswith("__init__.py")
        ]
        module_bases = Counter(f.rsplit("/", 1)[-1] for f in modules)
        for f in modules:
            base = f.rsplit("/", 1)[-1]
            refs = [f, _dotted(f)]
            if bases[base] == 1 and dirs_named[base[:-3]] == 0 and base[:-3] != history.name:
                refs.append(base)
            narrow, wide = truth.file_scopes(history, f)
            self.subjects["file"].append(Subject("file", f, tuple(refs), narrow, wide))
            if module_bases[base] > 1:
                self.subjects["shared_file"].append(Subject("shared_file", f, (base,), None, None))
        for top in ("tests", "docs"):
            if any(f.startswith(top + "/") for f in files):
                narrow, wide = truth.scopes(history, top)
                named = (f"the {top}", f"{top}/", f"the {top} directory")
                self.subjects[top].append(Subject(top, top, named, narrow, wide))
        self._moved(modules, py_dirs)
        self._described(files)
        self._people()

    def _described(self, files: list[str]) -> None:
        """Conventional files named by what they are: the one root file of a kind (DESCRIBED)
        when no other path outside docs, examples and tests has a name of that kind."""
        paths = set(files) | set(_all_dirs(files))
        for refs, kind in DESCRIBED:
            mine = [f for f in files if kind(f)]
            rooted = [f for f in mine if "/" not in f.lstrip(".").rstrip("/") or f in FIXED]
            others = [p for p in paths if kind(p) and p not in rooted and not _beside(p)]
            if len(rooted) != 1 or others:
                continue
            narrow, wide = truth.file_scopes(self.h, rooted[0])
            self.subjects["described"].append(
                Subject("described", rooted[0], refs, narrow, wide)
            )

    def _moved(self, modules: list[str], py_dirs: list[str]) -> None:
        """Old paths of a head module or package that name nothing else at the head."""
        heads = set(self.h.head_files) | set(_all_dirs(self.h.head_files))
        owners: dict[str, set[str]] = {}
        for f in modules:
            for old in self.h.file_aliases.get(f, set()) | (
                truth.file_scope(self.h, f).files - {f}
            ):
                owners.setdefault(old, set()).add(f)
        for d in py_dirs:
            for old in truth.earlier_dirs(self.h, d) - {d}:
                owners.setdefault(old, set()).add(d)
        for old, new in sorted(owners.items()):
            if len(new) != 1 or old in heads or "/" not in old:
                continue
            (path,) = new
            if path.endswith(".py"):
                narrow, wide = truth.file_scopes(self.h, path)
            else:
                narrow, wide = truth.scopes(self.h, path)
            self.subjects["moved"].append(Subject("moved", path, (old,), narrow, wide))

    def _people(self) -> None:
        h = self.h
        self.clean = sorted(
            pid
            for pid, names in h.names_of.items()
            if len(names) == 1 and len(next(iter(names)).split()) >= 2
        )
        names = {n.casefold() for n in h.person_of}
        logins: Counter[str] = Counter()
        for emails in h.emails_of.values():
            for e in emails:
                m = truth.NOREPLY.match(e)
                if m:
                    logins[m.group(1)] += 1
        self.logins = {
            pid: m.group(1)
            for pid in self.clean
            for e in sorted(h.emails_of[pid])
            if (m := truth.NOREPLY.match(e)) and logins[m.group(1)] == 1 and m.group(1) not in names
        }
        self.names = names
        firsts: dict[str, set[str]] = {}
        for name, pid in h.person_of.items():
            if name.split():
                firsts.setdefault(name.split()[0].casefold(), set()).add(pid)
        self.first_names = {f: pids for f, pids in firsts.items() if len(pids) > 1 and len(f) > 2}
        self._handles()

    def _handles(self) -> None:
        """People named another way than their name as written (issue 32, checks c33, z33):
        `decomposed`, people whose one name has a letter that decomposes (asked in the other
        Unicode form: NFD where git holds NFC, NFC where it holds NFD); `local_parts`, the
        one local part of an address no other name, address or file holds a word starting
        with ("davidism"); `bots`, a bot's name without "[bot]" that no other name starts a
        word with ("dependabot", beside .github/dependabot.yml)."""
        h = self.h
        self.decomposed = [
            pid
            for pid in self.clean
            if unicodedata.normalize("NFD", next(iter(h.names_of[pid])))
            != unicodedata.normalize("NFC", next(iter(h.names_of[pid])))
        ]
        words: dict[str, set[str]] = {}  # a word of a name, an address or a path -> whose
        for pid, names in h.names_of.items():
            for text in (*names, *h.emails_of[pid]):
                for w in _WORD.findall(text.casefold()):
                    words.setdefault(w, set()).add(pid)
        for path in h.head_files:
            for w in _WORD.findall(path.casefold()):
                words.setdefault(w, set()).add("")

        def alone(word: str, pid: str, files: bool = True) -> bool:
            mine = {pid} if files else {pid, ""}  # a bot's name may be a file's: that is asked
            return all(who <= mine for w, who in words.items() if w.startswith(word))

        self.local_parts: dict[str, str] = {}
        for pid in self.clean:
            for email in sorted(h.emails_of[pid]):
                local = email.partition("@")[0].casefold()
                if _LOCAL.fullmatch(local) and not truth.NOREPLY.match(email) and alone(local, pid):
                    self.local_parts[pid] = local
                    break
        self.bots = {  # a bot's name is one word: not among `clean`
            pid: name[: -len("[bot]")]
            for pid, names in sorted(h.names_of.items())
            if len(names) == 1
            and (name := next(iter(names))).endswith("[bot]")
            and _LOCAL.fullmatch(name[: -len("[bot]")])
            and alone(name[: -len("[bot]")], pid, files=False)
        }


def _words(path: str) -> list[str]:
    """The words of a path's own name: `.pre-commit-config.yaml` -> pre, commit, config, yaml."""
    return [w for w in re.split(r"[._\-]+", path.rsplit("/", 1)[-1].lower()) if w]


FIXED = frozenset({".github/dependabot.yml", ".github/dependabot.yaml"})
CHANGELOGS = frozenset({"change", "changes", "changelog", "changelogs", "history", "news"})
BESIDE = frozenset({"tests", "test", "docs", "doc", "examples", "example", "benchmarks"})
# (how a question names it, which paths are of the kind): a path's own name decides.
DESCRIBED: list[tuple[tuple[str, ...], Callable[[str], bool]]] = [
    (("the README", "the readme"), lambda p: "readme" in _words(p)),
    (("the changelog",), lambda p: bool(CHANGELOGS & set(_words(p)))),
    (("the pre-commit config",), lambda p: _words(p)[:3] == ["pre", "commit", "config"]),
    (("the tox config",), lambda p: "tox" in _words(p)),
    (("the dependabot config",), lambda p: "dependabot" in _words(p)),
]


def _beside(path: str) -> bool:
    """In docs, examples or tests (a dot directory is not: the engine asks about those)."""
    return bool(BESIDE & set(path.split("/")[:-1]))


def _aside(path: str) -> bool:
    parts = path.split("/")
    return parts[0] in ("tests", "docs", "examples", "test") or any(
        p.startswith(".") or p in ("tests", "test") for p in parts
    )


def _testlike(path: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    return base.startswith(TESTLIKE) or base.endswith("_test.py")


def _all_dirs(files: list[str]) -> list[str]:
    return sorted({f.rsplit("/", i)[0] for f in files for i in range(1, f.count("/") + 1)})


def _dotted(path: str) -> str:
    path = path[4:] if path.startswith("src/") else path
    return path.removesuffix(".py").replace("/", ".")


def misspell(name: str, others: set[str]) -> str | None:
    """NAME with two neighbouring letters of its longest word swapped, when the result is one
    edit from no other author name."""
    words = name.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    word = words[i]
    for k in range(1, len(word) - 2):
        if word[k] != word[k + 1] and word[k].isalpha() and word[k + 1].isalpha():
            words[i] = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
            typo = " ".join(words)
            near = [o for o in others if one_edit(typo.casefold(), o)]
            if near == [name.casefold()]:
                return typo
    return None


def one_edit(a: str, b: str) -> bool:
    """Whether A and B are at most one insertion, deletion, substitution or swap apart."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (
            a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1]
        )
    return a[i:] == b[i + 1 :] if len(b) > len(a) else a[i + 1 :] == b[i:]
