"""People named together with other subjects: "how many commits did David Lord make to the
parser?", "what did David Lord change in core.py?", "who changed the parser besides David
Lord?".

Every fact is about one subject: a person's commits are theirs anywhere, a module's are
everyone's, and adding the two up answers neither (it said "54 commit(s) to David Lord,
click.parser" where git counts 3). One person's part of a module or repository is computed
instead: the subject's own records whose actor is that person (`Part`). The git import writes
a commit's record for each module it touched with its author as the actor, and the author's
daily rollups of each module likewise (graph/git/records.py), so the part is the commits that
are both the person's and the module's, as `git log --author -- <path>` lists them (the
person's several addresses are one key: graph/git/identity.py). "Besides"/"except"/"other
than" the person asks for everyone else's part.

Only facts computed from those records are a part: the commits, their lines, the changes
themselves and the people who made them. Anything else asked of a person and a module
together (ownership, a status) is not intersected: the question stays a clarification naming
both and offering each alone, never an added-up number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.domain.facts import Fact, FactKind
from engine.domain.models import (
    Direction,
    Episode,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.domain.text import normalise
from engine.ports import Edge, FactSource, SubjectDirectory, TimeSpan
from engine.reading.interpretation import Interpretation
from engine.resolving.matching import handles
from engine.resolving.resolution import Candidate

# Facts computed from a subject's records, attributed by actor: a person's part of them is
# the same computation over that person's records.
PART_KINDS = frozenset(
    {FactKind.COMMIT_ACTIVITY, FactKind.CHURN, FactKind.CHANGES, FactKind.ACTIVE_CONTRIBUTORS}
)
HELD = frozenset({SubjectKind.MODULE, SubjectKind.REPOSITORY})


@dataclass(frozen=True)
class Part:
    """One person's part of other subjects' records (`others`: everyone else's, and with
    `also` everyone's but several people's: "besides Nate and dependabot")."""

    person: StoredSubject
    others: bool = False
    also: tuple[StoredSubject, ...] = ()

    @property
    def people(self) -> tuple[StoredSubject, ...]:
        return (self.person, *self.also)

    def keeps(self, record: SourceRecord) -> bool:
        return (record.actor in {p.key for p in self.people}) is not self.others

    def label(self, subject: StoredSubject) -> str:
        """The subject's name as the answer says it: "click.parser by David Lord"."""
        if self.others:
            return f"{subject.name} (people other than {_and(p.name for p in self.people)})"
        return f"{subject.name} by {self.person.name}"

    def fact(self, fact: Fact) -> Fact:
        """A fact computed over the part: its id and evidence selector say whose part."""
        also = tuple(p.key for p in self.also)
        selector = fact.evidence_selector
        if selector is not None:
            selector = selector.model_copy(
                update={"actor": self.person.key, "others": self.others, "also": also}
            )
        whose = "others-than" if self.others else "by"
        return fact.model_copy(
            update={
                "id": f"{fact.id}|{whose}:{'+'.join(p.key for p in self.people)}",
                "evidence_selector": selector,
                "actor_key": self.person.key,
                "others": self.others,
            }
        )

    def note(self, subjects: Sequence[StoredSubject]) -> str:
        names = ", ".join(f"{s.name} ({s.key})" for s in subjects)
        who = _and(f"{p.name} ({p.key})" for p in self.people)
        whose = f"anyone but {who}" if self.others else who
        theirs = "their" if self.also else "the person's"
        return (
            f"Counted: the records of {names} whose author is {whose} (each commit's own "
            f"record and daily rollups), not {theirs} changes elsewhere."
        )


def _and(names: Iterable[str]) -> str:
    listed = list(names)
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def part_of(
    subjects: Sequence[StoredSubject],
    kinds: Sequence[FactKind],
    excluding: tuple[str, str] | None,
) -> tuple[Part, list[StoredSubject]] | None:
    """One person and modules or repositories, asked about what their records hold: the
    person's part of them (or everyone else's), and the subjects to read. Several people
    all named after the word leaving them out ("besides Nate and dependabot", "other than A
    or B", "apart from A, B and C"): everyone's part but theirs. None otherwise."""
    people = [s for s in subjects if s.kind is SubjectKind.PERSON]
    held = [s for s in subjects if s.kind is not SubjectKind.PERSON]
    if not people or not held or any(s.kind not in HELD for s in held):
        return None
    if not kinds or not set(kinds) <= PART_KINDS:
        return None
    if len(people) == 1:
        return Part(people[0], excluding is not None), held
    out = left_out_people(people, excluding)
    if len(out) != len(people):
        return None
    return Part(out[0], True, tuple(out[1:])), held


def left_out_people(
    people: Sequence[StoredSubject], excluding: tuple[str, str] | None
) -> list[StoredSubject]:
    """The people named after the word leaving someone out, in the order named."""
    if excluding is None:
        return []
    rest = f" {excluding[1]} "
    at = [(min(i for f in _forms(p) if (i := rest.find(f" {f} ")) >= 0), p) for p in people
          if any(f" {f} " in rest for f in _forms(p))]  # fmt: skip
    return [p for _, p in sorted(at, key=lambda a: a[0])]


def only_left_out(subjects: Sequence[StoredSubject], excluding: tuple[str, str] | None) -> bool:
    """The question names only people, and leaves them all out ("besides David Lord, who
    committed in 2025?", "how many people other than X or Y committed?"): everyone else's
    part of the organisation is asked (the caller adds its repositories)."""
    if not subjects or any(s.kind is not SubjectKind.PERSON for s in subjects):
        return False
    if len(subjects) == 1:
        return left_out(subjects, None, excluding) is not None
    return len(left_out_people(subjects, excluding)) == len(subjects)


def left_out(
    subjects: Sequence[StoredSubject], part: Part | None, excluding: tuple[str, str] | None
) -> str | None:
    """The limitation of "besides"/"apart from"/"other than" X when X is not among the
    people whose part of modules is left out, None otherwise. Everyone else's part is the
    one exclusion computed; anything else asked without the word answered X itself ("how
    many commits in 2025 besides Kevin Deldycke?" counted Kevin Deldycke's, "what did David
    Lord work on apart from docs?" the docs without David Lord). X is the subject named
    first after the word; a word followed by no subject ("excluding merges") is read
    elsewhere. `excluding`: the word and the folded words after it (engine.reading.interpreter
    reads them)."""
    if excluding is None:
        return None
    word, after = excluding
    rest = f" {after} "
    at = [(rest.find(f" {form} "), s) for s in subjects for form in _forms(s)]
    named = min(((i, s) for i, s in at if i >= 0), key=lambda p: p[0], default=None)
    if named is None or (part is not None and part.others and named[1] in part.people):
        return None
    return (
        f'"{word} {named[1].name}": leaving a subject out is computed only for a '
        "person's part of modules or repositories (\"who changed X besides Y?\"); asking "
        "without it would answer another question. Ask about each subject in turn."
    )


def _forms(subject: StoredSubject) -> set[str]:
    """How the question may name a subject: its handles, and for a person each word of
    their name ("besides jaron": a first name engine.resolving.firstnames joined; it was taken for
    no name and "besides docs" was said not computed)."""
    forms = {normalise(h) for h in handles(subject)}
    if subject.kind is SubjectKind.PERSON:
        forms |= set(normalise(subject.name).split())
    return forms - {""}


_FIRST_NAME = re.compile(r"[A-Z][a-z]+")
FIRST_NAME_SAMPLE = 6  # people read to find everyone one first name names


async def first_names(
    directory: SubjectDirectory, runs: Sequence[str], understood: Interpretation
) -> tuple[list[tuple[str, list[StoredSubject]]], list[str]]:
    """Words no rule read beside other references ("what did Armin change in core.py?"),
    written as a name (one capitalised word), or one lower-case word where a person stands
    ("how many commits did David Lord and kevin make?": it was said not understood and
    David Lord's counted alone; "who changed the docs besides jaron?" ranked him): per word,
    every person carrying it as a whole word of a name (when the search saw them all); and
    the words naming no one."""
    found: list[tuple[str, list[StoredSubject]]] = []
    rest: list[str] = []
    for run in runs:
        people: list[StoredSubject] = []
        if tried_as_person(run, understood):
            hits, complete = await directory.search_all_tokens(
                run, [SubjectKind.PERSON], FIRST_NAME_SAMPLE
            )
            needle = normalise(run)
            people = [
                s for s, _ in hits if any(needle in normalise(h).split() for h in handles(s))
            ]
            people = people if complete else []
        if people:
            found.append((run, people))
        else:
            rest.append(run)
    return found, rest


def tried_as_person(run: str, understood: Interpretation) -> bool:
    """A word no rule read that stands where a name does: written as one (capitalised), or
    lower-case after "and", "besides", ... (engine.reading.runs reads where it stands)."""
    place = understood.placed_of(run)
    listed = place is not None and place.listed
    return bool(_FIRST_NAME.fullmatch(run) or (run.isalpha() and run.islower() and listed))


def named(subjects: Sequence[StoredSubject], part: Part | None) -> list[StoredSubject]:
    """The subjects as an answer over a part names them ("click.parser by David Lord")."""
    if part is None:
        return list(subjects)
    return [s.model_copy(update={"name": part.label(s)}) for s in subjects]


def holds(part: Part | None, episode: Episode) -> bool:
    """An episode (a commit) belongs to a person's part when it mentions the person (to
    everyone else's when it mentions none of the people left out)."""
    if part is None:
        return True
    return any(p.key in episode.mentions for p in part.people) is not part.others


def people_with_others(
    subjects: Sequence[StoredSubject], compares: bool = False
) -> tuple[str, tuple[Candidate, ...]] | None:
    """(the prompt, the subjects offered alone) when people and other subjects are named
    together and no part of one in the other is computed; None otherwise. People compared
    on a subject ("who changed core.py more, X or Y?") are offered nothing: choosing one
    would not compare them, so it is said plainly (it asked which one). `compares`: the
    question compares choices (engine.reading.asked.compares)."""
    people = [s for s in subjects if s.kind is SubjectKind.PERSON]
    others = [s for s in subjects if s.kind is not SubjectKind.PERSON]
    if not people or not others:
        return None
    who = _names(people)
    what = _names(others)
    if len(people) > 1 and compares:
        return (
            f"Comparing {who} on {what} is not computed: one person's part of a module or "
            "repository is, one person at a time. Ask how many commits each one made to it "
            f'("how many commits did {people[0].name} make to {others[0].name}?"), or "who '
            f'changed {others[0].name}?" for everyone\'s commits ranked.'
        ), ()
    whose = "their" if len(people) > 1 else "one person's"
    prompt = (
        f"The question names {who} together with {what}: one person's part of a module or "
        "repository is computed for its commits, their lines, its changes and who made "
        f"them, not for what was asked here, nor {whose} part of another kind of subject; "
        "adding them up would answer neither. Ask about one of them, or ask "
        f'"who changed {others[0].name}?" to see each person\'s part.'
    )
    return prompt, tuple(Candidate(s, 1.0) for s in (*people, *others))


def _names(subjects: Sequence[StoredSubject]) -> str:
    names = [f"{s.name} ({s.key})" for s in subjects]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class PartSource:
    """The graph as the providers read it for a part: each subject's records are those of
    the part only; everything else is read as it is."""

    def __init__(self, source: FactSource, part: Part) -> None:
        self._source = source
        self._part = part

    async def subjects_by_keys(
        self, keys: Sequence[str], at: TimeSpan | None = None
    ) -> dict[str, StoredSubject]:
        return await self._source.subjects_by_keys(keys, at)

    async def relationships_of(
        self,
        keys: Sequence[str],
        *,
        types: Sequence[RelationshipType] = (),
        direction: Direction = Direction.BOTH,
        at: TimeSpan | None = None,
        limit_per_subject: int = 100,
    ) -> dict[str, list[Edge]]:
        return await self._source.relationships_of(
            keys, types=types, direction=direction, at=at, limit_per_subject=limit_per_subject
        )

    async def source_records_of(
        self,
        keys: Sequence[str],
        *,
        kinds: Sequence[SourceRecordKind] = (),
        span: TimeSpan | None = None,
    ) -> dict[str, list[SourceRecord]]:
        found = await self._source.source_records_of(keys, kinds=kinds, span=span)
        return {key: [r for r in rs if self._part.keeps(r)] for key, rs in found.items()}
