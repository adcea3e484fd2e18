"""Which modules a ranking asks for by their place in the code, read from its words:
"which subpackage changed the most?" (the packages inside a top package), "the busiest
packages" (Python packages only), "the busiest part of the repo", "top-level folders" (the
folders and packages at the top of a repository).

Each ranked every module, files included, or the repository itself: werkzeug's "which
subpackage changed the most in H1 2026?" put src/werkzeug, CHANGES.rst and pyproject.toml
before werkzeug.sansio, and attrs' "what's the busiest part of the repo lately?" ranked the
one repository. What each place holds is engine/resolving/rankplaces.py.
"""

from __future__ import annotations

from engine.domain.models import SubjectKind
from engine.reading.verbs import BUSIEST

SUBPACKAGE, PACKAGE, TOP = "subpackage", "package", "top"

_SUBPACKAGES = frozenset({"subpackage", "subpackages", "sub package", "sub packages"})
_PACKAGES = frozenset({"package", "packages", "pkg", "pkgs"})
_PLACE_WORDS = {**dict.fromkeys(_SUBPACKAGES, SUBPACKAGE), **dict.fromkeys(_PACKAGES, PACKAGE)}
_TOP_LEVEL = frozenset({"top level", "toplevel"})
# What "top-level" is said of ("top-level folders", "the top level parts"). Not "package":
# TOP ranks every top-level folder, docs/ and tests/ too, so "which top-level package
# changed most?" ranked docs first (r42 F2); no place here is the top packages alone, so
# "top-level" is left unread there and said so.
_TOP_NOUNS = frozenset(
    {"folder", "folders", "directory", "directories", "dirs"}
    | {"part", "parts", "area", "areas", "component", "components"}
)
_PARTS = frozenset({"part", "parts", "area", "areas", "component", "components", "section"})
_REPO = frozenset({"repo", "repository", "codebase", "project"})
_OF = frozenset({"of", "in"})
_DETERMINERS = frozenset({"the", "this", "our", "its"})
# A singular kind word asks what is ranked only after these ("which subpackage", "the most
# active package"); else it is a name's kind word ("the sansio subpackage").
_ASKING = frozenset({"which", "what", "most", "top", "active", "changed", "edited"}) | BUSIEST


def read(words: list[str], kind_hint: SubjectKind | None) -> tuple[str, set[int]]:
    """The place asked for (SUBPACKAGE, PACKAGE, TOP, or "" for none) and the positions of
    the words saying it, which the ranking consumes."""
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if word in _TOP_LEVEL and after in _TOP_NOUNS:
            return TOP, {i, i + 1}
        third = words[i + 2] if i + 2 < len(words) else ""
        if (word, after) == ("top", "level") and third in _TOP_NOUNS:  # written apart (r42 F3)
            return TOP, {i, i + 1, i + 2}
        if word in _PARTS and kind_hint is SubjectKind.REPOSITORY:
            said = _of_the_repo(words, i + 1)
            if said:
                return TOP, {i, *said}
    for i, word in enumerate(words):
        before = words[i - 1] if i else ""
        plural = word.endswith("s")
        if word in _PLACE_WORDS and (plural or before in _ASKING):
            return _PLACE_WORDS[word], {i}
    return "", set()


def _of_the_repo(words: list[str], at: int) -> set[int]:
    """The positions of "of the repo" ("in this codebase") from `at`, else none."""
    if at >= len(words) or words[at] not in _OF:
        return set()
    nxt = at + 1 + (at + 1 < len(words) and words[at + 1] in _DETERMINERS)
    return set(range(at, nxt + 1)) if nxt < len(words) and words[nxt] in _REPO else set()
