"""A name read as who acted (engine.reading.acting: "how many commits did dependabot make",
"dependabot's prs", "what did dependabot update") that names a person and subjects of other
kinds is the person: "dependabot" is dependabot[bot] and .github/dependabot.yml, and a file
makes no commits. It asked which of the two (checks c33, z33). Said in a limitation; several
people of the name still ask, offering the people only.

A person is "of that name" only when the name is one of their handles or each of its words is
a word of one (`Candidate.exact`, `every_token`): a person found by a near spelling is none.
werkzeug and requests "json commits in 2025" answered "0 commit(s) by Jason", the file
devcontainer.json passed over as making no commits: an ordinary or technical word taken for a
person by a slip. It is asked, as any tie is."""

from __future__ import annotations

from dataclasses import replace

from engine.domain.models import StoredSubject, SubjectKind
from engine.reading.interpretation import Interpretation
from engine.resolving.resolution import Ambiguous


def acted(
    reference: str, outcome: Ambiguous, understood: Interpretation
) -> Ambiguous | tuple[StoredSubject, str]:
    """The one person `reference` names as who acted, with the note saying so; else the
    clarification narrowed to the people among its candidates; else `outcome` unchanged."""
    if reference not in understood.acting:
        return outcome
    people = [c for c in outcome.candidates if c.subject.kind is SubjectKind.PERSON]
    others = [c.subject for c in outcome.candidates if c.subject.kind is not SubjectKind.PERSON]
    if not people or not others or not all(c.exact or c.every_token for c in people):
        return outcome
    whole = outcome.total is None or outcome.total <= len(outcome.candidates)
    if len(people) > 1 or not whole:  # which person is still asked
        return replace(outcome, candidates=people, total=len(people) if whole else None)
    person = people[0].subject
    named = ", ".join(f"{s.name} ({s.kind.value})" for s in others)
    return person, (
        f'"{reference}" was taken to mean {person.name} ({person.key}), the one person of '
        f'that name: the question asks what "{reference}" did, and {named} of that name '
        "makes no commits."
    )


def compared(
    reference: str, outcome: Ambiguous, understood: Interpretation, people_beside: bool
) -> Ambiguous | tuple[StoredSubject, str]:
    """In a question comparing what it names ("dependabot vs pre-commit-ci 2024"), a name of
    people and of subjects of other kinds, compared with a person (`people_beside`), is its
    people: a person is compared with a person, and a file makes no commits. It asked which
    of pre-commit-ci[bot] and .github/workflows/pre-commit.yaml, dependabot's side unsaid
    (z39b w9). The one person, with the note saying so; else the tie narrowed to its people;
    else `outcome` unchanged."""
    if not understood.compares or not people_beside:
        return outcome
    people = [c for c in outcome.candidates if c.subject.kind is SubjectKind.PERSON]
    others = [c.subject for c in outcome.candidates if c.subject.kind is not SubjectKind.PERSON]
    whole = outcome.total is None or outcome.total <= len(outcome.candidates)
    if not people or not others or not whole:
        return outcome
    if len(people) > 1:
        return replace(outcome, candidates=people, total=len(people))
    person = people[0].subject
    named = ", ".join(f"{s.name} ({s.kind.value})" for s in others)
    return person, (
        f'"{reference}" was taken to mean {person.name} ({person.key}), the one person of '
        f"that name: the question compares it with a person, and {named} of that name "
        "makes no commits."
    )
