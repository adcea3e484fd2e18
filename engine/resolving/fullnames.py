"""A person named in full whose name only partly matches someone known.

"how many commits has Hugo Ovsaldo Barrera made in May 2013?": known names are matched
longest first, so "Hugo" alone may commit to a person (Hugo van Kemenade) while "Ovsaldo
Barrera", the rest of the name as written, is in no name of theirs. For a module the words
left out are said beside the answer (engine.resolving.unmatchedwords: "shell completion" is
answered for `completion`); for a person they name someone else, so an answer for the person
matched would be about another person. It is a no match naming the words no name holds, with
the closest readings of the whole name to choose from (a misspelt "Ovsaldo" finds Hugo
Osvaldo Barrera), never an answer.
"""

from __future__ import annotations

from engine.domain.models import SubjectKind
from engine.domain.text import normalise
from engine.ports import OrgGraph
from engine.reading.interpretation import Interpretation
from engine.resolving.matching import handles
from engine.resolving.notnames import no_one_in
from engine.resolving.resolution import Candidate, NotFound, Resolved
from engine.resolving.unmatchedwords import unmatched_words

CLOSEST = 3  # readings of the whole name offered


def _tokens(word: str) -> set[str]:
    return set(normalise(word).split())


def _name_word(word: str, reference: str) -> bool:
    """A word written as part of the name: any word when the name is written in lower case
    ("hugo barrera"), a capitalised one when it is not ("what did Kevin ship?": "ship")."""
    return bool(_tokens(word)) and (reference.islower() or not word.islower())


async def other_person(
    graph: OrgGraph,
    reference: str,
    outcome: Resolved,
    understood: Interpretation,
) -> NotFound | None:
    """The no match (its first note says why) when `reference` committed to a person but
    the name around it holds words none of that person's names do; None otherwise."""
    person = outcome.subject
    if person.kind is not SubjectKind.PERSON:
        return None
    said, name = set(normalise(reference).split()), set(normalise(person.name).split())
    if not said < name:
        # The whole name was said, or an address or login ("did minhee@dahlia.kr author"):
        # words beside it are not more of the name. Only a part of it (a first name) is.
        return None
    found = unmatched_words(reference, understood)
    if found is None:
        return None
    phrase, words = found
    known = {t for h in handles(person) for t in normalise(h).split()}
    foreign = [w for w in words if _name_word(w, reference) and not _tokens(w) <= known]
    if not foreign:
        return None  # every word is one of theirs ("Lord David"): the same person
    hits = await graph.search_lexical(phrase, (SubjectKind.PERSON,), CLOSEST)
    closest = tuple(Candidate(s, min(score, 0.5)) for s, score in hits if not no_one_in(phrase, s))
    unfound = " and ".join(f'"{w}"' for w in foreign)
    verb = "is" if len(foreign) == 1 else "are"
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
