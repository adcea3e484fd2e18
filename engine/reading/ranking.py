"""Reading a question that asks for subjects ranked by how much they changed ("which modules
changed the most in 2024?", "top 5 most active modules", "the most changed files last year",
"which parts of click had the most commits?").

Only the reading is here: which kind is ranked, whether files are asked for, how many the
question wants, and the words that said so, which are consumed so that no rule reads "top 5"
or "files" as a name. The ranking itself (commits per subject, never daily rollups) is
engine/resolving/rankedsubjects.py. People ranked by their changes ("who changed X the most?") are
the `who` intent and are not read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import rankplaces
from engine.reading import rankwords as rw
from engine.reading.numbers import NUMBER_WORDS
from engine.reading.references import Token
from engine.reading.verbs import BUSIEST, CHANGE_NOUNS
from engine.reading.vocabulary import CHANGE_KINDS, CHANGE_VERBS, LINE_WORDS

_RANKED_KINDS = frozenset(
    {SubjectKind.MODULE, SubjectKind.REPOSITORY, SubjectKind.SERVICE, SubjectKind.PROJECT}
)
_FILES = frozenset({"file", "files"})
# Folders ranked ("most active folders", "which directories changed most"): the modules
# that are directories, packages included, never files. They were fillers, and "most
# active folders last 90 days" ranked the organisation's people.
_FOLDERS = frozenset({"folders", "directories", "dirs", "subfolders", "subdirectories"})
_FOLDER, _WHICH = frozenset({"folder", "directory", "subfolder"}), frozenset({"which", "what"})
# Words that ask for modules without the kind word ("which parts of click ...").
_PARTS = frozenset(
    {"parts", "areas", "components", "subsystems", "part", "area", "component", "subsystem"}
)
# "hotspots" is what is ranked too ("the top 5 hotspots"): engine/reading/rankwords.py
_HOT = rw.words_of("hotspot")
_NOUNS = (
    _FILES | _PARTS | _FOLDERS | _HOT | {rw.HOT}
    | {"modules", "repositories", "repos", "services", "projects"}
)  # fmt: skip
_PEOPLE = frozenset(
    {"contributor", "contributors", "developer", "developers", "dev", "devs", "committer"}
    | {"committers", "author", "authors", "person", "people", "engineer", "engineers"}
    | {"maintainer", "maintainers"}
)
_CHANGE_WORDS = CHANGE_VERBS | CHANGE_NOUNS | {"commit", "active", "activity", "churn"}
# The size of churn asked for ("which modules saw the heaviest churn?"): the most churn,
# asked for, by lines: not computed, said (engine.resolving.rankedsubjects.LINES_NOTE).
_SIZES = frozenset({"heaviest", "biggest", "largest", "highest", "greatest"})
_CHURN = frozenset({"churn", "churning"})
_LINES = frozenset({"line", "lines", "code"})
_SOURCE = frozenset({"source", "code"})
# The language of what is ranked ("Python modules", "python files"): only its files.
_LANGUAGE = frozenset({"python"})
_LANGUAGE_NOUNS = _FILES | {"module", "modules"}
# "Changed most recently" asks for the latest change, not a ranking.
_NOT_AMOUNTS = frozenset({"recent", "recently", "lately"})
# The size asked, in digits or words (engine/reading/numbers.py): none of zero.
_NUMBERS = {str(n): n for n in range(1, 100)} | {w: n for w, n in NUMBER_WORDS.items() if n}


@dataclass(frozen=True, slots=True)
class Ranking:
    """phrase: the words asking for a ranking, as normalised ("the most", "top 5");
    kind: the kind ranked; files: files asked for (modules that are files);
    size: how many the question asks for ("top 5", "the 3 most"), None if it names none."""

    phrase: str
    kind: SubjectKind
    files: bool = False
    size: int | None = None
    # "source" before what is ranked ("the source modules under src/click"): which files are
    # source is known only from a directory named (engine.resolving.rankedsubjects).
    source: bool = False
    # "modules" (or "packages") asked for by the kind word, not "files" or "parts": inside a
    # repository or a package, its Python modules (engine.resolving.rankedsubjects).
    python: bool = False
    # "Which Python module changed most?", "top python files": only Python's own files (.py)
    # are ranked (engine.resolving.rankable). "Python" was read as a name and asked which of
    # two people whose addresses hold python.org was meant.
    language: bool = False
    # "folders" or "directories" asked for: the modules that are no file
    # (engine.resolving.rankable).
    folders: bool = False
    # "the full ranking", "all of them": every subject that qualifies (up to the most one
    # answer ranks), never the first SHOWN (engine.resolving.rankedsubjects).
    whole: bool = False
    # What the ranking's own words were read as, said beside it ("hotspots": the files
    # changed most, by commits; "biggest": by commits, not by size): engine/reading/rankwords.py
    said: tuple[str, ...] = ()
    # The modules asked for by their place ("subpackages", "packages", "the parts of the
    # repo": engine/reading/rankplaces.py), "" for none.
    place: str = ""


def read(
    tokens: list[Token], kinds: list[FactKind], kind_hint: SubjectKind | None
) -> Ranking | None:
    """The ranking the question asks for, or None: "most" (or "top") with a change word,
    about modules, repositories, services, projects, files or parts, asking no fact other
    than changes, and not "who". Its own words ("top", the size, "files", "parts") are
    consumed (no longer free)."""
    words = [t.norm for t in tokens]
    hot = _hot(words)
    at = _marker(words, hot)
    # "top files", "the top 5 modules": ranked as the busiest are (by commits, said);
    # "hotspots", "the file ranking": a ranking by changes by themselves (rankwords.py)
    changed = bool(_CHANGE_WORDS.intersection(words) or BUSIEST.intersection(words)) or (
        at is not None and (_top_of(words, at) or bool(hot) or words[at] in _RANKS)
    )
    if at is None or not changed or words[:1] == ["who"] or _people_after(words, at):
        return None
    if not all(k in CHANGE_KINDS for k in kinds):
        return None
    # "the hotspots" are files unless modules or folders are asked ("which modules ...")
    hot_files = bool(hot) and not rw.MODULES_ASKED.intersection(words)
    place, placed = rankplaces.read(words, kind_hint)
    files = (kind_hint is None or hot_files) and bool(_FILES.intersection(words))
    files = files and not place
    parts = kind_hint is None and bool(_PARTS.intersection(words)) and not place
    folders = kind_hint is None and not files and not place and _folders(words)
    files = files or (hot_files and not parts and not folders and not place)
    kind = SubjectKind.MODULE if files or parts or folders or place else kind_hint
    if kind is None or kind not in _RANKED_KINDS:
        return None
    size, said = _size(tokens, at)
    if size is None:  # "which 3 modules changed most?" ("3" ended the question, unread)
        size, said = _counted_noun(tokens)
    own, notes, whole = _own_words(tokens, words, hot)
    source = language = False
    for i, token in enumerate(tokens):
        after = words[i + 1] if i + 1 < len(words) else ""
        if token.norm in _SOURCE and after in _NOUNS:  # "source modules"
            source = token.free
        elif token.norm in _LANGUAGE and after in _LANGUAGE_NOUNS and token.free:
            language = True  # "Python module": Python's files, never a name
        elif not (
            (token.norm in _LINES and after in _CHURN)  # "line churn", "code churn"
            or i in said
            or i == at
            or i in own
            or i in placed
            or token.norm in _FILES | _PARTS | _FOLDERS
            or (folders and token.norm in _FOLDER)
        ):
            continue
        token.free = False
    first, last = min(said | {at}), max(said | {at})
    first -= 1 if first and words[first - 1] == "the" else 0
    python = kind is SubjectKind.MODULE and not (files or parts or folders or place)
    phrase = " ".join(words[first : last + 1])
    return Ranking(
        phrase, kind, files, size, source, python, language, folders, whole, notes, place
    )


_RANKS = rw.words_of("rank")
_LINES_ASKED = LINE_WORDS  # as engine.reading.steps.asking reads a ranking by lines
_SIZE_WORDS = rw.words_of("size")
_MAIN = rw.words_of("main")
_WHOLE = rw.words_of("whole")


def _hot(words: list[str]) -> list[int]:
    """Where a hotspot word is ("hotspots", "hot spots": the second word)."""
    return [
        i
        for i, w in enumerate(words)
        if w in _HOT or (w in rw.SPOTS and i and words[i - 1] == rw.HOT)
    ]


def _own_words(
    tokens: list[Token], words: list[str], hot: list[int]
) -> tuple[set[int], tuple[str, ...], bool]:
    """The positions of the ranking's business words (engine/reading/rankwords.py), what
    they were read as (said beside the answer), and whether the whole ranking is asked
    ("the full ranking", "all of them")."""
    own: set[int] = set()
    notes: list[str] = []
    for i in hot:
        own |= {i, i - 1} if words[i] in rw.SPOTS else {i}
    lines = bool(_LINES_ASKED.intersection(words))  # "by lines": the interpreter ranks so
    if hot:
        said = " ".join(words[min(own) : max(own) + 1])
        notes.append(f'"{said}": {rw.note_of("hotspot", lines)}')
    whole = False
    for i, word in enumerate(words):
        after = words[i + 1 : i + 3]
        if word in _SIZE_WORDS and after[:1] and after[0] in _NOUNS and tokens[i].free:
            own.add(i)  # "the biggest hotspots", "the largest areas of change"
            sized = rw.note_of("size", lines)
            notes += [f'"{word}": {sized}'] if sized else []
        elif word in _MAIN and after[:1] and after[0] in _NOUNS and tokens[i].free:
            own.add(i)  # "the main hotspots": the first of the ranking
        elif word in _RANKS and tokens[i].free:
            own.add(i)  # "the file ranking", "rank the files"
        elif word in _WHOLE and after[:1] and after[0] in _NOUNS | rw.WHOLE_OF:
            own |= {i, i + 1} if after[0] in rw.WHOLE_OF else {i}
            whole = True  # "the full ranking", "a complete list", "all files"
        elif word == "all" and after[:1] == ["of"] and after[1:] and after[1] in rw.WHOLE_PRONOUNS:
            own |= {i, i + 1, i + 2}
            whole = True  # "all of them"
    return own, tuple(dict.fromkeys(notes)), whole


def _folders(words: list[str]) -> bool:
    """Folders asked for: "folders", "directories", or "which folder" (a folder alone is the
    kind word of a name: "the docs folder")."""
    if _FOLDERS.intersection(words):
        return True
    return any(w in _WHICH and after in _FOLDER for w, after in pairwise(words))


def _marker(words: list[str], hot: list[int]) -> int | None:
    """Where "most" (else "top", else "busiest": verbs.BUSIEST, else a size of churn:
    "the heaviest churn"; else a hotspot word, else a word of size or ranking beside what
    is ranked: engine/reading/rankwords.py) is, unless it asks for the latest ("most
    recently")."""
    for marker in ("most", "top", *sorted(BUSIEST)):
        if marker in words:
            first = words.index(marker)
            after = words[first + 1] if first + 1 < len(words) else ""
            return None if after in _NOT_AMOUNTS else first
    pairs = list(pairwise(words))
    at = next((i for i, (w, after) in enumerate(pairs) if w in _SIZES and after in _CHURN), None)
    if at is not None or hot:
        return at if at is not None else hot[0]
    # "the biggest areas of change" (a change word is asked too)
    at = next((i for i, (w, after) in enumerate(pairs) if w in _SIZES and after in _NOUNS), None)
    if at is not None:
        return at
    # "the full ranking of files in X", "rank the modules of X": never of people
    nouns = _NOUNS.intersection(words) and not _PEOPLE.intersection(words)
    return next((i for i, w in enumerate(words) if w in _RANKS), None) if nouns else None


def _people_after(words: list[str], at: int) -> bool:
    """ "the busiest developer on the routing package", "top 3 contributors to X": people
    are ranked (the `who` intent), not the package's modules."""
    following = [w for w in words[at + 1 : at + 4] if w not in _NUMBERS and w != "active"]
    return bool(following) and following[0] in _PEOPLE


def _top_of(words: list[str], at: int) -> bool:
    """ "top" right before what is ranked, a number between them or not ("top files", "the
    top 5 modules")."""
    following = words[at + 1 : at + 4]
    if following[:1] and following[0] in _NUMBERS:
        following = following[1:]
    if following[:1] and following[0] in _LANGUAGE:  # "top 5 python files"
        following = following[1:]
    return words[at] == "top" and following[:1] != [] and following[0] in _NOUNS


def _counted_noun(tokens: list[Token]) -> tuple[int | None, set[int]]:
    """A number right before the noun naming what is ranked ("which 3 modules", "the 5
    files"), and its position."""
    for i in range(1, len(tokens)):
        before = tokens[i - 1]
        if before.free and before.norm in _NUMBERS and tokens[i].norm in _NOUNS:
            return _NUMBERS[before.norm], {i - 1}
    return None, set()


def _size(tokens: list[Token], at: int) -> tuple[int | None, set[int]]:
    """The size asked and the positions of the words saying it: "top 5 most", "the 3
    most", "top 5" ("top" without a number asks no size, and is said too)."""

    def number(i: int) -> int | None:
        ok = 0 <= i < len(tokens) and tokens[i].free
        return _NUMBERS.get(tokens[i].norm) if ok else None

    if tokens[at].norm == "top":
        size = number(at + 1)
        return size, {at, at + 1} if size is not None else {at}
    size = number(at - 1)
    said = {at - 1} if size is not None else set()
    top = at - 1 - len(said)
    if top >= 0 and tokens[top].norm == "top" and tokens[top].free:
        said.add(top)
    return size, said
