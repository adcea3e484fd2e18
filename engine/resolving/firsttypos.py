"""A first name typed one letter off, written where a person acts ("Hyenk commits 2025",
"how many commits did davd make?", "amrin commits 2010"): read as the name it is one edit
from, said, then resolved as that name is (one person of it, namesakes, a clarification).

The typo stage (engine.resolving.matching) compares the whole reference with whole handles:
"kenneht reitz" is one edit from "Kenneth Reitz" and commits, said; but one word is one edit
from no whole name, and the search's fuzzy arm never commits, so a first name with one
transposition or omission ended as naming nothing ("Smauel", "Kdair": generalise seed 57;
"Hyenk" on attrs). A slip is two neighbouring letters swapped or one left out (engine.reading.
verbs.slip), never a letter changed or added: "by hand" is no slip of "Hans" (it answered
"0 commit(s) to click.core by Hans Lehnert"). The rule reads the word as a first name only
when it is certain which: every name word of the people the search finds that is one slip
from it is the same word
(none is the word itself: that was found as written), the word has MIN_LETTERS letters or
more, and it stands where the question's actor does (engine.reading.acting): an ordinary word
one slip from a name is never taken for a person elsewhere. Two different names one slip
away ("amrin" on click: Armin, and Amin with a letter added) ask which person, offering those
the search found, never choosing.

An ordinary word is no slip of a name (`ordinary`): requests "core commits 2025" answered "0
commit(s) by Corey Farwell", "shell commits 2025" Jonas Schell's 0, "rant commits 2025" Grant
Birkinbine's 1, each another question. So a slip keeps the name's first letter (a slip inside
a name, never of its start: "rant" is no slip of "Grant"); the word is none the reader knows
(engine.reading.slips.QUESTION_WORDS) and no word of a subject's name here (a module, file,
repository: "core", "json", "shell" name code); and a word one letter short of the name, the
slip an ordinary word most often is ("core": Corey, "davd": David), is asked back offering the
person, never read as the name: no word list here tells "core" from "davd". Two letters
swapped ("Hyenk", "Kennteh", "amrin", "Ntae", "Smauel") are read as the name, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.reading.slips import QUESTION_WORDS
from engine.reading.verbs import slip
from engine.resolving import handleprefix
from engine.resolving.resolution import Candidate, Resolved, Stage, handles
from engine.resolving.within import Within

MIN_LETTERS = 4  # "Davd", "Ntae": shorter words are one edit from too many names
SAMPLE = 20  # people the search finds for the word, typos forgiven
# Subjects a word can be a word of the name of: code and what holds it, never a person.
NAMED = (SubjectKind.MODULE, SubjectKind.REPOSITORY, SubjectKind.SERVICE, SubjectKind.PROJECT,
         SubjectKind.TEAM)  # fmt: skip
OFFERED = 6


@dataclass(frozen=True)
class Near:
    """The name words one edit from a word, and the people the search found carrying them."""

    names: tuple[str, ...]
    people: tuple[StoredSubject, ...]
    short: bool = False  # the word is a name with a letter left out: maybe an ordinary word


async def near(graph: OrgGraph, reference: str, understood: Interpretation) -> Near | None:
    """The name words `reference` is one edit from and their people; None when the rule does
    not apply (see the module docstring)."""
    word = normalise(reference)
    if reference not in understood.acting or not word.isalpha() or len(word) < MIN_LETTERS:
        return None
    if await ordinary(graph, word):
        return None
    hits = await graph.search_lexical(word, [SubjectKind.PERSON], SAMPLE)
    names: set[str] = set()
    people: list[StoredSubject] = []
    for person, _ in hits:
        words = normalise(person.name).split()
        if word in words:
            return None  # found as written: not a typo (another rule said why not)
        one = {w for w in words if len(w) >= MIN_LETTERS and w[0] == word[0] and slip(word, w) == 1}
        names |= one
        people += [person] if one else []
    short = any(len(n) > len(word) for n in names)
    return Near(tuple(sorted(names)), tuple(people), short) if names else None


async def ordinary(graph: OrgGraph, word: str) -> bool:
    """Whether `word` is one the reader knows or a word of a subject's name here ("core" of
    click.core, "json" of a .json file): then it is no slip of a person's name."""
    if word in QUESTION_WORDS:
        return True
    hits = await graph.search_lexical(word, NAMED, SAMPLE)
    return any(word in re.split(r"[^0-9a-z]+", normalise(s.name)) for s, _ in hits)


def note(reference: str, name: str) -> str:
    """What the answer says of the word read as another."""
    return (
        f'"{reference}" names no one here as written; it is one letter from the name '
        f'"{name.capitalize()}", and was read as that.'
    )


def asked(reference: str, found: Near) -> Within:
    """Several names one letter from the word, or one a letter longer (the word may be an
    ordinary one): which person is asked, never chosen."""
    names = " and ".join(f'"{n.capitalize()}"' for n in found.names)
    offered = found.people[:OFFERED]
    who = "; ".join(f"{p.name} ({p.key})" for p in offered)
    more = f" (and {len(found.people) - OFFERED} more)" if len(found.people) > OFFERED else ""
    many = len(found.names) > 1
    said = f"the names {names}" if many else f"the name {names}"
    short = (
        f', and may be a word of its own rather than "{found.names[0].capitalize()}" with a '
        "letter left out"
        if found.short and not many
        else ""
    )
    which = "Which one did you mean?" if len(offered) > 1 else "Did you mean them?"
    prompt = (
        f'"{reference}" names no one here as written; it is one letter from {said}{short}: '
        f"{who}{more}. {which}"
    )
    return Within(None, tuple(Candidate(p, 0.5) for p in offered), prompt)


async def otherwise(
    graph: OrgGraph, reference: str, understood: Interpretation, notes: list[str]
) -> Within | str | None:
    """A reference naming nothing as written, written otherwise: the start of people's
    handles, asked (engine.resolving.handleprefix; tried first: "lukasa" is also one letter
    from "Lukas"); a first name one letter off, the name to read instead (said in `notes`),
    or which of two names, asked; None when it is neither."""
    if short := await handleprefix.offered(graph, reference, understood):
        return short
    found = await near(graph, reference, understood)
    if found is None:
        return None
    if len(found.names) > 1 or found.short:
        return asked(reference, found)
    notes.append(note(reference, found.names[0]))
    return found.names[0]


async def ordinary_person(graph: OrgGraph, reference: str, outcome: Resolved) -> Within | None:
    """One word the search took for a person by a near spelling, no handle of theirs nor a
    word of one: the person is asked back, never answered for, as a name with a letter left
    out is (`asked`): the word may be one of its own. requests "json commits in 2025"
    answered "0 commit(s) by jason" (jjmaldonis: "json" is "jason" a letter short), "what
    did json change in 2024" likewise. A word that is one of the person's handles or a word
    of one ("dependabot", "kennethreitz") is theirs as written and stays; several words
    ("kenneht reitz") stay read as the name, said (engine.resolving.disclosures)."""
    word = normalise(reference)
    person = outcome.subject
    if outcome.stage is not Stage.HYBRID or person.kind is not SubjectKind.PERSON:
        return None
    if not word.isalpha() or any(word in normalise(h).split() for h in handles(person)):
        return None
    ordinary_word = await ordinary(graph, word)
    why = "a word of code or of questions here" if ordinary_word else "no name or login here"
    prompt = (
        f'"{reference}" names no one here as written: it is {why}, and only near the name '
        f"of {person.name} ({person.key}). Did you mean them?"
    )
    return Within(None, (Candidate(person, 0.5),), prompt)
