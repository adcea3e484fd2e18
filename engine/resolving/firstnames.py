"""First names beside other references ("what did Armin change in core.py?", "how many
commits did David Lord and kevin make?"): engine.resolving.together finds the people each word
names; here the one person carrying it joins the question's subjects, said, and several ask which.
engine.resolving.subjects calls it once the references have resolved.

A first name asked alone ("what did jaron do in 2025?") that search offers one person for is
that person when it is certain (`sole_carrier`): the word is a whole word of that person's
name, or the whole local part of an address or a login of theirs (`own_handle`: "davidism"
of davidism@gmail.com asked which of one person, c33 and z33), and no other subject's name,
alias or handle has a word starting with it ("Lord" starts "lord63": still asked; "tin" in
"Martin" does not count: "how many commits did tin make" asked which of one person, Tin
Tvrtković, c33b a09). It asked which person, offering one.

Any other run of words no rule read beside what the question names ends the question, named
(`UNKNOWN`), wherever it stands: "who touched the blorptastic in werkzeug yesterday?" was
answered for the whole repository werkzeug, "blorptastic" said unused, while the same question
without "in werkzeug" ended. A word is dropped while answering only when it is one of the
closed list of words that qualify a question and name nothing (engine.reading.vocabulary's
FILLERS and NOT_NAMES: "best", "times", "folder"): those never reach `unread`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine.domain.contract import InvestigationResult
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph, SubjectQuery
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.resolving import activity, outcomes, soleactive, together
from engine.resolving.disclosures import Disclosures
from engine.resolving.matching import handles
from engine.resolving.notnames import no_one_in
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Ambiguous, Candidate

UNKNOWN = (
    "was not understood: no rule here reads it, and it names no one and nothing known here "
    "(no person, module or repository of that name): an answer without it would be about "
    "something the question does not ask, so none is given."
)


def _which(
    run: str,
    offered: tuple[Candidate, ...],
    signer: ReceiptSigner,
    allow_clarification: bool,
    beside: str = "",
) -> Callable[..., InvestigationResult]:
    """Asking which of `offered` the words `run` mean, saying what else was found
    (`beside`: a comparison's other side); where no clarification is allowed, the no match
    saying so."""
    if not allow_clarification:
        which = (outcomes.prompt_for(run, offered),)
        return lambda frame, trace: outcomes.no_match(frame, trace, which)
    return lambda frame, trace: outcomes.clarification(
        frame, run, offered, signer, trace, beside=beside
    )


async def joined(
    graph: OrgGraph,
    signer: ReceiptSigner,
    understood: Interpretation,
    subjects: list[StoredSubject],
    told: Disclosures,
    allow_clarification: bool = True,
    named: Callable[[str], Awaitable[object]] | None = None,
    window: Window | None = None,
) -> tuple[Callable[..., InvestigationResult] | None, Interpretation]:
    """The clarification to ask (None when none is allowed), or the no match saying which
    words name no one; and the interpretation without the words read. `named` resolves a
    run as any reference is (engine.resolving.subjects): a run it commits to a person
    ("dependabot commits": dependabot[bot], said how) joins `subjects`; one it finds several
    for asks which; any other ends ("werkzeug's debugger" would be the repository and its
    debug package side by side, not the one inside the other). `window`: the question's,
    where only one of a first name's people committed (engine.resolving.soleactive)."""
    found, rest = await together.first_names(graph, understood.unread, understood)
    for run, people in found:
        if any(p.key in {s.key for s in subjects} for p in people):
            continue  # a receipt chose one of them (engine.resolving.choice)
        settled = await soleactive.settled(graph, run, people, understood, window)
        if settled is not None:  # "kevin vs edward g in may 2026": only one Kevin committed
            subjects.append(settled[0])
            told.notes.append(settled[1])
            continue
        if len(people) > 1:  # answered without them, it was everyone's
            offered = tuple(Candidate(p, 0.9) for p in people)
            beside = await activity.beside(graph, subjects, window) if understood.compares else ""
            return _which(run, offered, signer, allow_clarification, beside), understood
        subjects.append(people[0])
        told.notes.append(
            f'"{run}" was taken to mean {people[0].name} ({people[0].key}), the one '
            "person of that name."
        )
    absent = []
    for run in rest:
        outcome = None if named is None else await named(run)
        if isinstance(outcome, StoredSubject) and outcome.kind is SubjectKind.PERSON:
            subjects.append(outcome)  # "dependabot commits": whose commits
        elif isinstance(outcome, Ambiguous) and (
            settled := await soleactive.of_tie(graph, run, outcome, understood, window)
        ):
            subjects.append(settled[0])  # only one of the people of the name committed then
            told.notes.append(settled[1])
        elif isinstance(outcome, Ambiguous):
            beside = await activity.beside(graph, subjects, window) if understood.compares else ""
            offered = tuple(outcome.candidates)
            return _which(run, offered, signer, allow_clarification, beside), understood
        else:
            absent.append(run)
    if absent:  # words no rule read that name nothing known: never answered without them
        said, closest = await _absent(graph, absent)
        return (
            lambda frame, trace: outcomes.no_match(frame, trace, said, closest, signer),
            understood,
        )
    return None, replace(understood, unread=())


async def _absent(graph: OrgGraph, runs: list[str]) -> tuple[tuple[str, ...], list[Candidate]]:
    """What a no match says of words naming nothing known, and the closest readings of
    them (a typo's person or module), to choose from with receipts. Answered without them,
    the answer was everyone's ("what did Zed change in werkzeug?": all 115 changes of 2024,
    with a limitation) or the whole repository's ("werkzeug's frobnicator", "the
    blorptastic in werkzeug", "the quux widget in attrs")."""
    said = tuple(f'"{run}" {UNKNOWN}' for run in runs)
    closest: list[Candidate] = []
    for run in runs:
        hits = await graph.search_lexical(run, (), 3)
        closest += [Candidate(s, min(score, 0.5)) for s, score in hits if not no_one_in(run, s)]
    return said, list({c.subject.key: c for c in closest}.values())


_SAMPLE = 50  # subjects whose names hold the word, read to find another carrier


def _starts_a_word(needle: str, subject: StoredSubject) -> bool:
    """A word of one of its names starts with `needle`: "lord63" with "lord", not
    "Martin" with "tin" (engine.resolving.matching.handles: names, aliases, handles)."""
    return any(w.startswith(needle) for h in handles(subject) for w in normalise(h).split())


async def sole_carrier(
    graph: OrgGraph, reference: str, outcome: Ambiguous
) -> tuple[StoredSubject, str] | None:
    """The one person a single word names for certain, and the note saying so; None when
    it is not certain (see the module docstring)."""
    if len(outcome.candidates) != 1:
        return None
    person = outcome.candidates[0].subject
    needle = normalise(reference)
    if person.kind is not SubjectKind.PERSON:
        return None
    if reference.isalpha() and needle in normalise(person.name).split():
        how = "the one person of that name"
    elif (handle := own_handle(reference, person)) is not None:
        how = f"the one person {handle}"  # "davidism": davidism@gmail.com's
    else:
        return None
    page = await graph.find_subjects(SubjectQuery(search=reference), _SAMPLE)
    if page.has_next or any(
        other.key != person.key and _starts_a_word(needle, other) for other in page.items
    ):
        return None  # another subject's names start a word with it too ("lord63" for "Lord")
    return person, (
        f'"{reference}" was taken to mean {person.name} ({person.key}), {how} (no other '
        "name known here holds it)."
    )


_HANDLE = re.compile(r"[a-z0-9][a-z0-9._+-]{2,63}")  # a login or an address's local part


def own_handle(reference: str, person: StoredSubject) -> str | None:
    """How `reference` is one of `person`'s own handles, when it is, whole: the local part
    of an address they committed from ("davidism" of davidism@gmail.com) or a login an alias
    holds (a GitHub no-reply address's). A clarification offering that one person asked for
    nothing; other people's names holding the word are checked by the caller."""
    word = reference.strip().lower()
    if not _HANDLE.fullmatch(word):
        return None
    for alias in (person.name, *person.aliases):
        handle = alias.strip().lower()
        local, at, _ = handle.partition("@")
        if at and local.rpartition("+")[2] == word:
            return f"whose e-mail address is {alias}"
        if handle == word:
            return f"known by the login {alias}"
    return None
