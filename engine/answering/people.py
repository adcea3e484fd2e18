"""How commit authors are counted as people, said beside an answer that gives a count of them.

The git import joins identities (docs/git-import.md, "Identities"): after the repository's
.mailmap, one person per e-mail address (case aside), and identities whose full names are
the same once case, accents and punctuation are folded. `git shortlog -s` groups by name
alone, so the two counts differ where someone committed under two names from one address:
requests' 2019 has 39 people here and 40 by `git shortlog -s` (Alessio Izzo and Kenneth
Reitz each wrote their name two ways from one address). A count of people said without how
they were grouped read as a wrong one, so the answer says it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.domain.facts import Fact, FactKind
from engine.reading.vocabulary import Intent

GROUPED = (
    "People are counted as the git import groups commit authors: after the .mailmap, one "
    "person per e-mail address, and identities with the same full name (case, accents and "
    "punctuation aside) joined; git shortlog -s groups by name alone, so it counts someone "
    "who committed under two names from one address twice."
)
_GIT = ("metric_rollup:git:", "commit:git:")


def grouping_notes(
    intent: Intent, asked: Sequence[FactKind], facts: Sequence[Fact]
) -> tuple[str, ...]:
    """The note, when the answer gives a count of people from a git import: a "who" answer
    ("(39 people in all)") or a count of people ("how many people committed?") over
    repositories or modules (a person's own commits count no one)."""
    counting = intent == Intent.WHO or (
        intent == Intent.COUNT and FactKind.ACTIVE_CONTRIBUTORS in asked
    )
    people = [
        f
        for f in facts
        if f.kind is FactKind.ACTIVE_CONTRIBUTORS
        and not f.subject_key.startswith("person:")
        and any(e.startswith(_GIT) for e in f.evidence)
    ]
    return (GROUPED,) if counting and people else ()
