"""A module named by a form of its name or by what it is, when the words name nothing as
written: "the debugger" (werkzeug's `debug` package), "the router" (`routing`), "the
converter" (`converters.py`), "the test suite" (`tests/`), "the CI" (`.github/`).

Two rules, as data:
- word forms: a word is cut to its stem (a plural, an agent noun, a gerund: "debugger" ->
  "debug", "router" -> "rout"), and the stem's usual endings ("", -s, -er, -ing, -e, -ion)
  are looked up as module names, exactly (engine.ports.OrgGraph.subjects_by_handle), in one
  round; a phrase in lower case of up to MAX_WORDS words, each word and its forms ("the dev
  server": serving, "the cookie handling code": cookies);
- descriptions (engine.reading.vocabulary.DESCRIPTIONS, one reference as read): a phrase
  naming a conventional directory by what it holds, with the name looked up for it.
What is found is then told apart by time (engine.resolving.existed: only modules with a commit
before the question's window ends existed then): exactly one resolves, and the answer says
how the word was read; several are asked about; none leaves the reference naming nothing, as
before. Never the repository or a module of another name in its place.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.vocabulary import DESCRIPTIONS

MIN_STEM = 4  # a stem shorter than this names too many things ("rout" is the shortest kept)
MAX_FORMS = 16  # lookups for one word (twice as many for a phrase)
MAX_WORDS = 3  # a longer phrase is not read word by word
LOOKED_UP = 10  # modules read per form
_SUFFIXES = ("ers", "er", "ings", "ing", "es", "s", "ions", "ion", "ed")
_ENDINGS = ("", "s", "e", "es", "er", "ers", "ing", "ion")
_VOWELS = frozenset("aeiouy")



@dataclass(frozen=True, slots=True)
class Reading:
    """The names a reference was looked up by instead (`names`), how (`how`: "a form of"
    or "a description of"), and the modules of those names."""

    reference: str
    names: tuple[str, ...]
    how: str
    found: tuple[StoredSubject, ...]

    def note(self, chosen: StoredSubject) -> str:
        where = chosen.attributes.get("path") or chosen.key.partition(":")[2]
        names = " or ".join(f'"{n}"' for n in self.names)
        return (
            f'"{self.reference}" names no subject as written: it was read as {self.how} '
            f"{names}, {chosen.name} ({where}), the one module of that name then."
        )


def forms(word: str) -> list[str]:
    """The names a word may stand for by its form (the word itself left out): its plural,
    then the stems it may be cut to, then each stem with the usual endings."""
    w = normalise(word)
    if not w.isalpha() or len(w) <= MIN_STEM:
        return []
    stems: list[str] = []
    for suffix in _SUFFIXES:
        stem = w.removesuffix(suffix)
        if stem == w or len(stem) < MIN_STEM:
            continue
        stems.append(stem)
        if stem[-1] == stem[-2]:  # "debugg" of "debugger"
            stems.append(stem[:-1])
        if stem.endswith("i"):  # "librari" of "libraries"
            stems.append(stem[:-1] + "y")
    endings = [s + e for s in stems for e in _ENDINGS[1:]]
    # a last consonant doubled before an ending ("formatter": formatting)
    endings += [s + s[-1] + e for s in stems if s[-1] not in _VOWELS for e in ("ing", "er")]
    plural = () if w.endswith("s") else (w + ("es" if w.endswith(("x", "z", "ch", "sh")) else "s"),)
    out = dict.fromkeys(f for f in (*plural, *stems, *endings) if len(f) >= MIN_STEM)
    out.pop(w, None)
    return list(out)[:MAX_FORMS]


def described(phrase: str) -> str | None:
    """The directory name a description stands for ("the test suite": tests); none for a
    path as written (".github/workflows" is no description of .github: it names less)."""
    if "/" in phrase or phrase.startswith("."):
        return None
    return DESCRIPTIONS.get(normalise(phrase).removeprefix("the "))


def _names(reference: str) -> list[str]:
    """The names to look up for a reference: its word's forms; for a phrase in lower case
    ("the dev server", "the cookie handling code"), each word and its forms (a capitalised
    phrase is a person's name, never read so)."""
    words = reference.split()
    if len(words) == 1:
        return forms(reference)
    if reference != reference.lower() or len(words) > MAX_WORDS:
        return []
    names = [n for w in words if len(w) > MIN_STEM for n in (normalise(w), *forms(w))]
    return list(dict.fromkeys(names))[: 2 * MAX_FORMS]


async def read(graph: OrgGraph, reference: str, phrase: str | None = None) -> Reading | None:
    """The modules a reference naming nothing as written stands for, by description (of
    the reference, or of the run of words holding it: `phrase`, "test suite"), else by word
    form; None when neither finds any."""
    name = described(phrase or reference)
    if name is not None:
        found, _ = await graph.subjects_by_handle(name, [SubjectKind.MODULE], LOOKED_UP)
        said = phrase or reference  # "the test suite", not its "test"
        return Reading(said, (name,), "a description of", tuple(found)) if found else None
    names = _names(reference)
    if not names:
        return None
    looked = await asyncio.gather(
        *(graph.subjects_by_handle(n, [SubjectKind.MODULE], LOOKED_UP) for n in names)
    )
    found_by = [(n, subjects) for n, (subjects, _) in zip(names, looked, strict=True) if subjects]
    if not found_by:
        return None
    subjects = {s.key: s for _, found in found_by for s in found}
    return Reading(reference, tuple(n for n, _ in found_by), "a form of", tuple(subjects.values()))
