"""A person named in full whose name only partly matches someone known.

"how many commits has Hugo Ovsaldo Barrera made in May 2013?": known names are matched
longest first, so "Hugo" alone may commit to a person (Hugo van Kemenade) while "Ovsaldo
Barrera", the rest of the name as written, is in no name of theirs. For a module the words
left out are said beside the answer (engine.resolving.unmatchedwords: "shell completion" is
answered for `completion`); for a person they name someone else, so an answer for the person
matched would be about another person. It is a no match naming the words no name holds, with
the closest readings of the whole name to choose from (a misspelt "Ovsaldo" finds Hugo
Osvaldo Barrera), never an answer.

A first name several people committed under alone ("Michael": michael-k and
github@unlikely.org on requests) was a tie settled by the one active in the time asked, the
words written beside it passed over: "number of commits by Michael R. Brenstein in calendar
year 2018" was answered for michael-k (1 commit), where the name written is Michael R.
Bernstein's (a letter swap). Written with words none of them holds, the name is neither: it
is asked which, the closest readings of the whole name offered first (`other_people`). A
name written in full that is one person's with a middle initial left out or written without
its dot ("Michael Bernstein") is that person, said; an initial their name does not carry
("Michael Q. Bernstein") settles nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving.matching import handles
from engine.resolving.notnames import no_one_in
from engine.resolving.resolution import Ambiguous, Candidate, NotFound, Resolved
from engine.resolving.unmatchedwords import unmatched_words
from engine.resolving.within import Within

CLOSEST = 3  # readings of the whole name offered
SAMPLE = 50  # people read who carry every word of the name written


@dataclass(frozen=True)
class Folded:
    """The one person whose name is the name written, its middle initials folded."""

    person: StoredSubject
    note: str


def _tokens(word: str) -> set[str]:
    return set(normalise(word).split())


def _name_word(word: str, reference: str) -> bool:
    """A word written as part of the name: any word when the name is written in lower case
    ("hugo barrera"), a capitalised one when it is not ("what did Kevin ship?": "ship")."""
    return bool(_tokens(word)) and (reference.islower() or not word.islower())


def _initials(words: list[str]) -> tuple[list[str], set[str]]:
    """The words of a name apart from its one-letter initials, and its initials."""
    return [w for w in words if len(w) > 1], {w for w in words if len(w) == 1}


async def _folded(graph: OrgGraph, phrase: str, reference: str) -> Folded | None:
    """The one person whose name is `phrase` but for a middle initial it leaves out or
    writes without its dot; None when no one's or several people's is."""
    written, initials = _initials(normalise(phrase).split())
    if len(written) < 2 or len(initials) > 1:
        return None
    hits, _ = await graph.search_all_tokens(" ".join(written), [SubjectKind.PERSON], SAMPLE)
    fits: dict[str, StoredSubject] = {}
    for subject, _ in hits:
        for handle in handles(subject):
            words, carried = _initials(normalise(handle).split())
            if words == written and initials <= carried:
                fits[subject.key] = subject
    if len(fits) != 1:
        return None
    person = next(iter(fits.values()))
    return Folded(
        person,
        f'"{phrase}" is read as {person.name} ({person.key}), the one person of that name '
        f'(a middle initial folded); "{reference}" alone is another person\'s name.',
    )


async def other_person(
    graph: OrgGraph,
    reference: str,
    outcome: Resolved,
    understood: Interpretation,
) -> NotFound | Folded | None:
    """The no match (its first note says why) when `reference` committed to a person but
    the name around it holds words none of that person's names do, or the one person whose
    name that is, a middle initial folded (`Folded`); None otherwise."""
    person = outcome.subject
    if person.kind is not SubjectKind.PERSON:
        return None
    said, name = set(normalise(reference).split()), set(normalise(person.name).split())
    if not said < name:
        # The whole name was said, or an address or login ("did minhee@dahlia.kr author"):
        # words beside it are not more of the name. Only a part of it (a first name) is.
        return None
    found = await _beyond(graph, reference, [person], understood)
    if found is None or isinstance(found, Folded):
        return found
    phrase, unfound, verb, closest = found
    return NotFound(
        outcome.stage,
        (
            f'"{phrase}" names no one known here: "{reference}" matches {person.name} '
            f"({person.key}), but {unfound} {verb} in no name of theirs, so an answer for them "
            "would be about another person; none is given. Name the person as the history "
            "does (a name or an e-mail address), or choose one of the closest readings.",
        ),
        closest,
    )


async def other_people(
    graph: OrgGraph,
    reference: str,
    outcome: Ambiguous,
    understood: Interpretation,
) -> Within | Folded | None:
    """A name written in full around a first name several people committed under alone
    ("Michael": michael-k and github@unlikely.org on requests): "Michael R. Brenstein" is
    neither of them, so it is never settled as one of them (by the one active in the time
    asked); the one person whose name it is, a middle initial folded, or which is asked:
    the closest readings of the whole name and the people of the first name."""
    people = [c.subject for c in outcome.candidates]
    said = set(normalise(reference).split())
    if not people or outcome.total is None or outcome.total > len(people):
        return None
    if any(
        p.kind is not SubjectKind.PERSON
        or said != set(normalise(p.name).split())
        or len(said) != 1
        or not reference.replace("-", "").isalpha()
        for p in people
    ):
        return None
    found = await _beyond(graph, reference, people, understood)
    if found is None or isinstance(found, Folded):
        return found
    phrase, unfound, verb, closest = found
    seen = {c.subject.key for c in closest}
    offered = (*closest, *(Candidate(p, 0.5) for p in people if p.key not in seen))
    named = ", ".join(f"{c.subject.name} ({c.subject.key})" for c in offered)
    return Within(
        None,
        offered,
        f'"{phrase}": "{reference}" alone is the whole name of {len(people)} people, but '
        f"{unfound} {verb} in no name of theirs, so an answer for one of them would be about "
        f"another person. It could mean: {named}. Which one did you mean?",
    )


async def _beyond(
    graph: OrgGraph,
    reference: str,
    people: list[StoredSubject],
    understood: Interpretation,
) -> Folded | tuple[str, str, str, tuple[Candidate, ...]] | None:
    """When the name written around `reference` holds words none of `people`'s names do:
    the one person whose name it is, a middle initial folded, else (the phrase, the words
    said, their verb, the closest readings of the phrase); None when it holds none (or
    `reference` stands alone)."""
    found = unmatched_words(reference, understood)
    if found is None:
        return None
    phrase, words = found
    known = {t for p in people for h in handles(p) for t in normalise(h).split()}
    foreign = [w for w in words if _name_word(w, reference) and not _tokens(w) <= known]
    if not foreign:
        return None  # every word is one of theirs ("Lord David"): the same person
    if folded := await _folded(graph, phrase, reference):
        return folded  # "Michael Bernstein": Michael R. Bernstein
    hits = await graph.search_lexical(phrase, (SubjectKind.PERSON,), CLOSEST)
    closest = tuple(Candidate(s, min(score, 0.5)) for s, score in hits if not no_one_in(phrase, s))
    unfound = " and ".join(f'"{w}"' for w in foreign)
    return phrase, unfound, "is" if len(foreign) == 1 else "are", closest
