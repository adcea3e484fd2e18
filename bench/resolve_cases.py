"""The labelled references of bench/resolve.py: the hard subjects it adds to the demo data,
an oracle that knows every handle, and the generated references with their expected outcome.

The oracle reads handles with the engine's one normalisation (engine.domain.text), so "expected"
means what the rules in docs/graphql.md (Resolution) promise, computed independently of the
resolver's search: an exact handle owned by one subject resolves to it, by two or more is
ambiguous; a reference one edit from exactly one subject's handle, when no subject has every
token of the reference, resolves to that subject; a first name shared by several people is
ambiguous; a name nobody has and nothing is one edit from is not found. A generated reference
the oracle cannot label that cleanly is left out, never guessed.
"""

from __future__ import annotations

import random
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.domain import gates
from engine.domain.text import handle_forms, handles, normalise

Record = dict[str, Any]
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 "

_ACCENTED_FIRST = ["Sebastián", "José", "Zoë", "Jürgen", "Raphaël", "Hólmar", "Krisztián",
                   "Rémy", "Sébastien", "Patryk", "Clément", "Máté", "Ionel", "Ellison"]
_ACCENTED_LAST = ["Ramírez", "García", "Brändt", "Gomès", "Löki", "Bęza", "Mărieș", "Núñez",
                  "Fievet", "Mézard", "Leão", "Nordén", "Mellström"]  # fmt: skip
_SHORT_FIRST = ["Ben Beasley", "Joe Freeman", "Tom Christie", "Ed Singleton", "Bob Kerns",
                "Jon Dufresne", "Ian Cordasco", "Amy Dunn", "Eli Bendersky", "Zac Hatfield"]
_SHARED_FIRST = ["Moritz Klein", "Moritz Maria Schmidt", "Moritz Vogel", "William Woodruff",
                 "William Ernest Henley", "William Chan", "Andrey Kuznetsov", "Andrey Petrov",
                 "Erik Wrede", "Erik Lundqvist"]  # fmt: skip
_MODULES = ["cli", "llm_client", "http", "aiohttp", "http_client", "core_utils", "testing",
            "termui", "shell_completion", "_compat", "decorators", "formatting"]  # fmt: skip


def hard_subjects() -> list[Record]:
    """Real-looking subjects the demo data lacks: accents, numeric and hex logins, three-letter
    first names, first names shared by several people, exact-name ties, short module names."""
    out: list[Record] = []

    def person(key: str, name: str, **extra: Any) -> None:
        out.append({"type": "subject", "key": f"person:{key}", "kind": "person", "name": name,
                    **extra})  # fmt: skip

    n = 0
    for i, first in enumerate(_ACCENTED_FIRST):
        for last in _ACCENTED_LAST[i % 3 :: 3][:3]:
            n += 1
            login = str(2_601_677_000 + n * 7_919) if n % 2 else f"{n * 2_654_435_761 % 2**32:08x}"
            email = f"{normalise(first)}.{normalise(last)}@example.org".replace(" ", "")
            person(f"accented-{n}", f"{first} {last}", aliases=[login],
                   attributes={"email": email})  # fmt: skip
    for n, name in enumerate(_SHORT_FIRST + _SHARED_FIRST):
        person(f"hard-{n}", name, attributes={"login": f"{normalise(name).replace(' ', '')}{n}"})
    person("erik", "Erik")
    person("andrei", "Andrei Popescu", aliases=["Andrei"])
    for name in _MODULES:
        out.append({"type": "subject", "key": f"module:{name}", "kind": "module", "name": name})
    for n in range(2):
        out.append({"type": "subject", "key": f"module:utils-{n}", "kind": "module",
                    "name": "utils"})  # fmt: skip
    return out


def _one_edit(text: str) -> Iterable[str]:
    for i in range(len(text) + 1):
        for c in _ALPHABET:
            yield text[:i] + c + text[i:]
            if i < len(text):
                yield text[:i] + c + text[i + 1 :]
        if i < len(text):
            yield text[:i] + text[i + 1 :]
        if i < len(text) - 1:
            yield text[:i] + text[i + 1] + text[i] + text[i + 2 :]


class Oracle:
    """Every handle form of every subject, and who owns it."""

    def __init__(self, subjects: list[Record]) -> None:
        self.owners: dict[str, set[str]] = defaultdict(set)
        self.forms_of: dict[str, list[str]] = defaultdict(list)
        self.by_token: dict[str, set[str]] = defaultdict(set)
        for s in subjects:
            named = handles(s["kind"], s["name"], s.get("aliases", []),
                            s.get("previous_names", []), s.get("attributes"))  # fmt: skip
            for handle in named:
                for form in handle_forms(handle, s["kind"]):
                    if form:
                        self.owners[form].add(s["key"])
                        self.forms_of[s["key"]].append(form)
                        for token in form.split():
                            self.by_token[token].add(s["key"])

    def with_every_token(self, ref: str) -> set[str]:
        words = normalise(ref).split()
        keys = set.intersection(*(self.by_token.get(w, set()) for w in words)) if words else set()
        return {k for k in keys if any(_contains(f.split(), words) for f in self.forms_of[k])}

    def one_edit_owners(self, ref: str) -> set[str]:
        norm = normalise(ref)
        if len(norm.replace(" ", "")) < gates.TYPO_MIN_CHARS:
            return set()
        out: set[str] = set()
        for variant in set(_one_edit(norm)) - {norm}:
            out |= self.owners.get(variant, set())
        return out

    def expect(self, ref: str) -> tuple[str, str | None] | None:
        """("resolved", key), ("ambiguous", None), ("not_found", None), or None: unclear."""
        exact = self.owners.get(normalise(ref), set())
        if len(exact) == 1:
            return "resolved", next(iter(exact))
        if exact:
            return "ambiguous", None
        every, near = self.with_every_token(ref), self.one_edit_owners(ref)
        if len(every) > 1 or (every and near - every):
            return "ambiguous", None  # an exact token outranks a typo: no commit either way
        if every:
            return None  # a partial match: commits or not by how much it covers
        if len(near) == 1:
            return "resolved", next(iter(near))
        if near:
            return "ambiguous", None
        return "not_found", None


def _contains(form: list[str], words: list[str]) -> bool:
    remaining = list(form)
    for w in words:
        if w not in remaining:
            return False
        remaining.remove(w)
    return True


@dataclass(frozen=True)
class Case:
    category: str
    reference: str
    expected: str  # resolved, ambiguous, not_found
    key: str | None  # the subject when resolved


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _swap(text: str, i: int) -> str:
    return text[:i] + text[i + 1] + text[i] + text[i + 2 :]


def _variants(s: Record, rng: random.Random) -> Iterable[tuple[str, str]]:
    """(category, reference) of the kinds people type, for one subject."""
    name = s["name"]
    yield "exact", name
    for alias in s.get("aliases", [])[:1]:
        yield ("numeric_handle" if alias.isalnum() and not alias.isalpha() else "alias"), alias
    for old in s.get("previous_names", [])[:1]:
        yield "previous", old
    email = (s.get("attributes") or {}).get("email")
    if email:
        yield "email", email
    yield "case", rng.choice([name.upper(), name.lower(), name.swapcase()])
    if _strip_accents(name) != name:
        plain = _strip_accents(name)
        yield "accents", rng.choice([plain, name.lower(), plain.upper()])
    letters = [i for i in range(len(name) - 1) if name[i].isalpha() and name[i + 1].isalpha()]
    words = name.split(" ")
    if letters and len(name) >= 5:
        yield "typo_swap", _swap(name, rng.choice(letters))
    spaces = [i for i, c in enumerate(name) if c == " " and 0 < i < len(name) - 1]
    if spaces:
        i = rng.choice(spaces)  # a letter moved across the space, either way
        moved = _swap(name, i) if rng.random() < 0.5 else _swap(name, i - 1)
        yield "typo_space", moved
    short = [n for n, w in enumerate(words) if len(w) == 3 and w.isalpha()]
    if short and len(words) > 1:
        n = rng.choice(short)
        words[n] = _swap(words[n], rng.choice([0, 1]))
        yield "typo_short_word", " ".join(words)


def labelled(subjects: list[Record], count: int, seed: int) -> list[Case]:
    """About `count` cases, spread over the categories, each with its expected outcome."""
    rng = random.Random(seed)
    oracle = Oracle(subjects)
    pool = subjects[:]
    rng.shuffle(pool)
    pool.sort(key=lambda s: s["key"].startswith(("person:hard", "person:accented", "module:")),
              reverse=True)  # the hard subjects first: they are few  # fmt: skip
    quota = max(count // 14, 1)
    taken: dict[str, int] = defaultdict(int)
    out: list[Case] = []

    def add(category: str, reference: str) -> None:
        label = oracle.expect(reference)
        if label is None or taken[category] >= quota:
            return
        expected, key = label
        wanted = {"exact_tie": "ambiguous", "shared_first_name": "ambiguous", "absent": "not_found"}
        if expected != wanted.get(category, "resolved"):
            return  # e.g. a typo one edit from two subjects: not this category's case
        taken[category] += 1
        out.append(Case(category, reference, expected, key))

    for s in pool:
        for category, reference in _variants(s, rng):
            add(category, reference)
    ties = sorted(h for h, keys in oracle.owners.items() if len(keys) > 1 and not h.isdigit())
    for handle in rng.sample(ties, min(len(ties), quota * 3)):
        add("exact_tie", handle)
    firsts = sorted({s["name"].split(" ")[0] for s in subjects if s["kind"] == "person"})
    for first in firsts:
        add("shared_first_name", first)
    lasts = sorted({s["name"].split(" ")[-1] for s in subjects if s["kind"] == "person"})
    for _ in range(quota * 20):
        add("absent", f"{rng.choice(firsts)} {rng.choice(lasts)}")
    return out
