"""When something first changed, however long ago: "when was _make.py first changed?", "who
first committed to serving.py?", "the first commit to the routing package", "when was
_types.py added?" (Interpretation.asks_first). An independent check (c32a H) had these
refused ("the earliest change ... is not computed") while the last change was found past the
window (engine/questions/lastchange.py); this is the same look-back, the other way.

The earliest change of the subjects is found in the store without reading their records: their
changes counted per year from 1970 (from the start of the time the question named, when it
named one) up to the window's end (commits at their time, pull requests when merged:
OrgGraph.series adds them up in the store), then per day in the oldest year holding one, then
per second in that day. The answer then reads the changes of that second alone: the first
change is listed, with its author and evidence, and the judgment states its instant.

The history here is what was imported: a git import made with --since, or from a shallow
clone, starts later than the repository, and the earliest change recorded is then not the
first one made. The answer says "recorded here" and, when the repository records where its
import began (graph/git: `history_since`, `shallow`), says that an earlier change is unknown.
One person's part of a module or repository (engine/resolving/together.py: "when did David
Lord first change core.py?") is searched among the subject's records whose author is that
person, counted per year, day, hour, minute and second (lastchange.changed_buckets with the
actor: a count per day of the subject is every author's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.domain.commits import commit_in_key
from engine.domain.contract import ClaimedFact
from engine.domain.facts import FactKind
from engine.domain.models import StoredSubject, SubjectKind, from_ns, to_ns
from engine.domain.timecontext import iso
from engine.ports import OrgGraph, TimeSpan
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also
from engine.questions.changes import listed
from engine.questions.lastchange import DAY_NS, YEAR_NS, Actor, changed_buckets
from engine.questions.lifesteps import found_life

SECOND_NS = 10**9
SECOND = timedelta(seconds=1)
PART = (
    "Asked for the first change: one person's part of a subject is not searched for its "
    "first change (the counts per day are every author's); the answer covers the window "
    "asked only."
)
# A part is counted one request per bucket: a day is narrowed by hours and minutes to its
# second (86,400 buckets a round otherwise).
PART_WIDTHS = (YEAR_NS, DAY_NS, 3_600 * SECOND_NS, 60 * SECOND_NS, SECOND_NS)


@dataclass(frozen=True)
class First:
    """The second the first change was made in."""

    at: datetime


class FirstChange(Question):
    """ "When did X first change?": the answer reads the second of the earliest change
    recorded, lists it, and states it with its author."""

    name = "first change"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if not asked.understood.asks_first or asked.understood.asks_last:
            return None  # "the first and last change": engine/questions/firstlast.py
        life, refs = asked.understood.life, asked.understood.references
        if life and await found_life(reader.graph, life, refs, asked.subjects):
            return None  # "when was X created?": the commit adding its path (lives.py)
        by = Actor(asked.actor, asked.others, asked.also) if asked.actor else None
        if asked.part and by is None:
            return Found(notes=(PART,))
        window = asked.window
        low = to_ns(window.start) if asked.ranged else 0
        keys = [s.key for s in asked.subjects]
        at = await first_change(reader.graph, keys, TimeSpan(low or 0, window.end_ns - 1), by)
        used = f"{iso(window.start) if asked.ranged else 'the first record'} to {iso(window.end)}"
        if at is None:
            return Found(notes=(f"Asked for the first change: none is recorded from {used}.",))
        since = await _imported_since(reader.graph, asked.subjects)  # it may be earlier
        units = "year, day, hour, minute" if by else "year, day"
        note = (
            f"Asked for the first change: the earliest one recorded from {used} is at "
            f"{iso(at)}, found by counting the changes per {units} and second; the answer "
            f"covers {iso(at)} to {iso(at + SECOND)}, that second."
        )
        return Found(start=at, end=at + SECOND, notes=(note, *since), kept=First(at))

    def judgment(self, case: Case) -> str | None:
        first = case.inputs.kept.get(self.name)
        if not isinstance(first, First):
            return None
        return one_change(case, "first")

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if not isinstance(case.inputs.kept.get(self.name), First):
            return []
        return claim_also([f for f in case.facts if f.kind is FactKind.CHANGES], claimed)


def one_change(case: Case, which: str) -> str | None:
    """The judgment of a first or last question ("first" or "last"): the one change it asks
    for among those listed, the oldest or the newest (equal instants by key), with its
    short hash and, unless people alone were asked, its author; None when none is listed."""
    shown, _ = listed(case.facts)
    if not shown:
        return None
    order = sorted(shown, key=lambda c: (c.at, c.ref))
    change = order[0] if which == "first" else order[-1]
    by = f" by {change.by_name}" if change.by_name and not case.people_only else ""
    of = "by" if case.people_only else "to"
    return (
        f"The {which} change {of} {case.scope} recorded here was made at {iso(change.at)}: "
        f'"{change.title}" ({short(change.ref, change.subject_key)}){by}.'
    )


def short(ref: str, subject: str) -> str:
    """A commit record's short hash, read from its key by engine/domain/commits.py (which
    also reads keys shortened for a long repository or subject), else the record's key."""
    sha = commit_in_key(ref, subject).sha
    return sha[:7] if sha else ref


async def first_change(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, by: Actor | None = None
) -> datetime | None:
    """The start of the second in `span` holding the earliest change of any of `keys` (`by`:
    of that person's part of them); None when none of them changed in it."""
    low, high = span.start_ns, span.end_ns
    for width in PART_WIDTHS if by else (YEAR_NS, DAY_NS, SECOND_NS):
        found = await _oldest(graph, keys, TimeSpan(low, high), width, by)
        if found is None:
            return None
        low, high = max(found, low), min(found + width - 1, high)
    return from_ns(low)


async def _oldest(
    graph: OrgGraph, keys: Sequence[str], span: TimeSpan, width: int, by: Actor | None
) -> int | None:
    """The start of the oldest bucket of `width` in `span` holding a change of any of
    `keys`."""
    starts = [s for found in await changed_buckets(graph, keys, span, width, by) for s in found]
    return min(starts) if starts else None


async def _imported_since(graph: OrgGraph, subjects: Sequence[StoredSubject]) -> tuple[str, ...]:
    """What the answer says when the history imported starts later than the repository's
    (graph/git/importer.py records it on the repository); a person's repositories are not
    looked up (a person is no one repository's)."""
    keys = {
        s.key if s.kind is SubjectKind.REPOSITORY else f"repository:{s.attributes['repository']}"
        for s in subjects
        if s.kind is SubjectKind.REPOSITORY
        or (s.kind is SubjectKind.MODULE and isinstance(s.attributes.get("repository"), str))
    }
    found = await graph.subjects_by_keys(sorted(keys)) if keys else {}
    notes = []
    for repo in found.values():
        since, shallow = repo.attributes.get("history_since"), repo.attributes.get("shallow")
        if since:
            notes.append(
                f"{repo.name}'s history was imported from {since} on (fabric import git "
                "--since): a change before that is not recorded here, so the first change "
                "made may be earlier than the one answered."
            )
        elif shallow is True:
            notes.append(
                f"{repo.name}'s history was imported from a shallow clone (cut off at a "
                "depth): a change before its oldest commit is not recorded here, so the first "
                "change made may be earlier than the one answered."
            )
    return tuple(notes)
