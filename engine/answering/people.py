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
from datetime import datetime

from engine.domain import identities
from engine.domain.facts import Fact, FactKind
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import iso
from engine.ports import SubjectDirectory
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent

GROUPED = (
    "People are counted as the git import groups commit authors: after the .mailmap, one "
    "person per e-mail address, and identities with the same full name (case, accents, "
    "punctuation and a part in parentheses aside) joined; git shortlog -s groups by name "
    "alone, so it counts someone who committed under two names from one address twice."
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


def joined_notes(subjects: Sequence[StoredSubject], facts: Sequence[Fact]) -> tuple[str, ...]:
    """For each person counted who joins several identities with commits in the answer's
    window, which ones and each one's commits there: what `git shortlog -s -e` counts apart
    (engine/domain/identities.py). "86 commit(s) by Kevin Deldycke" said nothing of the
    second address whose one commit made 85 (git's) 86 (z36a C1)."""
    notes = []
    for person in subjects:
        if person.kind is not SubjectKind.PERSON:
            continue
        found = identities.decode(person.attributes.get(identities.ATTRIBUTE))
        own = [f for f in facts if f.subject_key == person.key or f.actor_key == person.key]
        window = (own or list(facts))[:1]
        if len(found) < 2 or not window:
            continue
        start, end = window[0].window_start, window[0].window_end
        counted = [(i.written, i.within(start, end)) for i in found]
        active = [(w, n) for w, n in counted if n is None or n > 0]
        if len(active) == 1 and _spelt(active[0][0]) != person.name:
            notes.append(_shown_for(person.name, active[0], start, end))
            continue
        if len(active) < 2:
            continue  # one identity in the window, spelt as shown: nothing joined
        if any(n is None for _, n in active):
            each = ", ".join(f"{i.written} ({i.total} in all)" for i in found)
            span = "(their commits in the window are counted together)"
        else:
            each = ", ".join(f"{w} {n} commit(s)" for w, n in active)
            span = f"from {iso(start)} to {iso(end)}"
        notes.append(
            f"{person.name} is one person here, joining identities git shortlog -s -e counts "
            f"apart (one address, or one full name): {each} {span}."
        )
    return tuple(notes)


def _spelt(written: str) -> str:
    """The name of an identity "Name <address>"."""
    return written.rpartition(" <")[0] or written


def _shown_for(
    name: str, identity: tuple[str, int | None], start: datetime, end: datetime
) -> str:
    """A person shown by a spelling that none of the window's commits is authored as: the
    one identity there, said. "1 commit by Ian Cordasco" named no commit's author where
    git log names "Ian Stapleton Cordasco" (z38b r12; click's Rowlando13 for the commits of
    Eddie Girling, c3)."""
    written, n = identity
    counted = f"{n} commit(s) from {iso(start)} to {iso(end)}" if n is not None else "commits"
    return (
        f"{name} is one person here with {written}: its {counted} are counted as {name}'s "
        "(git shortlog -s -e counts the identities apart; the import joins one address, or "
        "one full name)."
    )


async def ranked_people(
    graph: SubjectDirectory, understood: Interpretation, facts: Sequence[Fact]
) -> list[StoredSubject]:
    """The people a "who" answer lists (by commits over the contributor facts, as
    engine/questions/who.py ranks and lists them: the first PEOPLE_SHOWN when the question
    asks who led or ranks by lines, else up to PEOPLE_LISTED), read for the identities each
    joins."""
    if understood.intent != Intent.WHO:
        return []
    listed = understood.people_listed()
    commits: dict[str, int] = {}
    for fact in facts:
        if fact.kind is FactKind.ACTIVE_CONTRIBUTORS:
            top, counts = fact.value.get("top", []), fact.value.get("top_commits", [])
            for key, n in zip(top, counts, strict=False):
                commits[key] = commits.get(key, 0) + (n if isinstance(n, int) else 0)
    shown = sorted(commits, key=lambda k: (-commits[k], k))[:listed]
    found = await graph.subjects_by_keys(shown) if shown else {}
    return [found[k] for k in shown if k in found]
