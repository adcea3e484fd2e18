"""Files and folders named by what they are or by part of their name, when the words name
nothing as written: "the README" (README.md), "the pre-commit config"
(.pre-commit-config.yaml), "the CI workflow" (.github/workflows/ci.yml), "the test
certificates" (tests/certs/), "the GitHub workflows" (.github/workflows/).

A description's words (articles and words for files or folders aside: "file", "folder",
"directory") are matched against the words of each module's path and of each folder
holding one (a path's words: its parts split at `/ . - _`, folded). A word matches a path
word written so or as its plural (2), as the path word's abbreviation ("certs" of
"certificates", "conf" of "config": 1), or by convention (WORDS: "ci" is the workflows'
folder, "config" a configuration file's extension: 0). A path is described when every word
matches a word of its path and one a word of its own name (tests/certs/README.md is in the
folder described, not described itself). The best scored are kept, and of those a folder
holding others as well scored is the one described ("the test certificates": tests/certs,
not its cert.cnf files); the finest wins only by a better score ("the CI workflow":
.github/workflows/ci.yml, where .github/workflows is the CI only by convention).

What is found: one module, answered and said; a folder that is no module of its own, said
not tracked (never answered for the module holding it: coarser, another question); several,
asked which (engine.resolving.aside answers the shipped one where the others lie beside it:
"the README" of click is README.md, examples/*/README offered). A word matching no path
leaves the description naming nothing, said as before ("the oauth middleware").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.ports.shapes import SubjectQuery

MAX_PATHS = 5_000  # modules read to match a description against
PAGE = 1_000
MAX_WORDS = 4  # a longer run is no description of a file
OFFERED = 5
_SPLIT = re.compile(r"[/._\-\s]+")
# Words saying what a path is, not which: left out of a description.
_PLAIN = frozenset(
    {"the", "a", "an", "our", "its", "file", "files", "folder", "folders", "directory"}
    | {"directories", "dir", "dirs", "subfolder", "subdirectory"}
)
# Words a path holds by convention instead (scored 0): the description word -> path words.
_CONFIG = frozenset({"config", "conf", "cfg", "configuration", "settings", "ini", "toml"})
WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("changelog", "changelogs"), frozenset({"changes", "history", "news"})),
    "ci": frozenset({"workflows"}),
    "actions": frozenset({"workflows"}),
    "pipeline": frozenset({"workflows"}),
    "pipelines": frozenset({"workflows"}),
    **dict.fromkeys(
        ("config", "configs", "configuration", "settings"),
        _CONFIG | {"yaml", "yml", "json"},
    ),
}
_FILE_WORDS = frozenset({"file", "files"})  # a description saying it names a file
# Words that say a file's kind, which its extension writes ("the ci config": a .yml file)
_KINDS = frozenset({"config", "configs", "configuration", "settings"})
_MIN_ABBREVIATION = 4  # "cert" of "certificates"; shorter is no abbreviation


@dataclass(frozen=True, slots=True)
class Described:
    """What a description was read as: the modules it names (`subjects`), or the folder it
    names that is no module (`folder`, with its repository), and the note saying so."""

    subjects: tuple[StoredSubject, ...]
    folder: str | None
    note: str
    alone: bool = False  # no folder that is no module is described as well as they are


def words_of(phrase: str) -> list[str]:
    """A description's words, plain words left out."""
    return [w for w in normalise(phrase).split() if w not in _PLAIN]


def _score(word: str, part: str) -> int | None:
    """How a description word matches one path word: 2 as written or its plural, 1 as the
    path word's abbreviation, 0 by convention (WORDS), None not at all."""
    if part in (word, word + "s", word + "es") or word in (part + "s", part + "es"):
        return 2
    stem = part.removesuffix("s")
    if len(stem) >= _MIN_ABBREVIATION and len(word) > len(part) and word.startswith(stem):
        return 1
    return 0 if part in WORDS.get(word, ()) else None


def _own(path: str, typed: bool) -> list[str]:
    """The words of a path's own name that can name it. Its extension names what kind of
    file it is, not which, so it names the file only in a description saying it is one ("the
    json file", "the ci config"): click's "json commits in 2025" was answered for
    .devcontainer/devcontainer.json (0 commits), the one path whose words held "json"."""
    name = path.rpartition("/")[2]
    stem, dot, _ = name.lstrip(".").rpartition(".")
    kept = name if typed or not dot else stem
    return [p.lower() for p in _SPLIT.split(kept) if p]


def _match(words: list[str], path: str, typed: bool = True) -> int | None:
    """The score of a path for the words (see the module docstring), or None."""
    parts = [p.lower() for p in _SPLIT.split(path) if p]
    own = _own(path, typed)
    total, named = 0, False
    for word in words:
        scores = [s for p in parts if (s := _score(word, p)) is not None]
        if not scores:
            return None
        total += max(scores)
        named = named or any(_score(word, p) is not None for p in own)
    return total if named and _whole(words, path) else None


def _whole(words: list[str], path: str) -> bool:
    """Whether a description naming a path by words of its own name holds more than one of
    them, or its only one: one word of a longer name names another thing ("requests" of
    .github/pull_request_template.md: attrs' "how many commits to requests in 2024?" was
    answered for that template, 2 commits); "the pull request template" still names it. A
    name matched by its extension alone ("the json file") is matched as before."""
    stem = _own(path, typed=False)
    held = [p for p in stem if any(_score(w, p) is not None for w in words)]
    return len(held) != 1 or len(stem) == 1


async def _modules(graph: OrgGraph) -> list[StoredSubject]:
    out: list[StoredSubject] = []
    after = None
    while len(out) < MAX_PATHS:
        page = await graph.find_subjects(SubjectQuery(kinds=(SubjectKind.MODULE,)), PAGE, after)
        out += page.items
        if not page.has_next or not page.positions:
            break
        after = page.positions[-1]
    return out


def _place(subject: StoredSubject) -> tuple[str, str] | None:
    repository, path = subject.attributes.get("repository"), subject.attributes.get("path")
    if not isinstance(repository, str) or not isinstance(path, str) or not path:
        return None
    return repository, path


async def read(graph: OrgGraph, phrase: str) -> Described | None:
    """The modules or the folder a description names (see the module docstring); None when
    it is no description of any path here."""
    words = words_of(phrase)
    if not words or len(words) > MAX_WORDS or "/" in phrase or phrase.startswith("."):
        return None
    modules = await _modules(graph)
    by_place = {p: s for s in modules if (p := _place(s)) is not None}
    places = set(by_place)
    places |= {
        (r, path.rsplit("/", n)[0]) for r, path in by_place for n in range(1, path.count("/") + 1)
    }
    typed = bool(_FILE_WORDS.intersection(normalise(phrase).split()) or _KINDS.intersection(words))
    scored = {p: s for p in places if (s := _match(words, p[1], typed)) is not None}
    if not scored:
        return None
    best = max(scored.values())
    top = [p for p, s in scored.items() if s == best]
    top = [p for p in top if not any(_inside(p, q) for q in top)]  # the folder described
    top.sort(key=lambda p: (p[1].count("/"), p))
    named = [by_place[p] for p in top if p in by_place]
    if len(top) == 1 and not named:
        repository, path = top[0]
        said = f'"{phrase}" was read as a description of'
        return Described((), path, _untracked(said, repository, path))
    if not named:
        return None
    said = ", ".join(f"{s.name}" for s in named[:OFFERED])
    note = (
        f'"{phrase}" names no subject as written: it was read as a description of {said}, '
        "the path whose words it holds."
    )
    return Described(tuple(named), None, note, alone=len(top) == len(named))


async def folder(graph: OrgGraph, path: str) -> str | None:
    """The note for a path written that is a folder of the head holding modules but no module
    itself (".github/workflows", "tests/certs"): never answered for the module holding it;
    None when no module lies in it."""
    written = path.strip("/")
    for subject in await _modules(graph):
        place = _place(subject)
        if place is not None and place[1] == written:
            return None
        if place is not None and place[1].startswith(written + "/"):
            return _untracked(f'"{path}" was read as', place[0], written)
    return None


def _untracked(said: str, repository: str, path: str) -> str:
    return (
        f"{said} the folder {path}/ (in {repository}), which is not tracked by "
        "itself: its commits count only with the module holding it, whose figures are not its "
        "own, so no answer is given for it. Ask about a file in it, or the module holding it."
    )


def _inside(place: tuple[str, str], folder: tuple[str, str]) -> bool:
    return place[0] == folder[0] and place[1].startswith(folder[1] + "/")
