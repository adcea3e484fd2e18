"""The contributors provider: who changed a repository or module in the window, most commits
first, read from the per-person daily commit rollups (engine/providers/contributions.py
tallies them), with the people of several subjects together, of both of two periods and
of every one of several subjects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, time, timedelta

from engine.domain.bots import is_bot
from engine.domain.commits import commit_of
from engine.domain.contract import PEOPLE_LISTED
from engine.domain.evidence import cut_commit
from engine.domain.facts import Fact, FactKind
from engine.domain.models import SourceRecordKind, StoredSubject, SubjectKind
from engine.domain.windows import whole_in
from engine.ports import FactSource
from engine.providers import holding
from engine.providers.base import Window
from engine.providers.contributions import SHARED, TOP, Exact, Tally, names_of

BOTS_LISTED = 20  # bots named with their commits in one fact, most commits first


class ContributorsProvider(Exact):
    """Who changed a repository or module in the window, most commits first."""

    name = "contributors"
    kinds = frozenset({FactKind.ACTIVE_CONTRIBUTORS})

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        names = await names_of(source, subjects)
        tallies = await self.tallies(source, subjects, window)
        together = await _together(source, subjects, tallies, window)
        # Over several subjects, those another one holds count nothing more (holding.py).
        held = await holding.held(source, subjects) if len(tallies) > 1 else set()
        apart = [found for key, found in tallies.items() if key not in held]
        leaders = set(leading(apart, together, names))
        lines = {p: sum(t.lines.get(p, 0) for t in apart) for t in apart for p in t.lines}
        # Everyone who changed any of them, each once: a person who changed two modules is
        # one of the people who changed them (engine/questions/count.py), not one per module.
        everyone = {p for found in tallies.values() for p in found.ranked()}
        before = None if window.before is None else (
            await self.tallies(source, subjects, window.before)
        )
        periods = _both_periods(before, apart, names)
        for key in dict.fromkeys([*tallies, *(before or {})]):
            found = tallies.get(key) or Tally()
            people = found.ranked()
            then = _prior(before, key, len(tallies) > 1, names)
            if not people and not then.get("prior_contributors"):
                continue  # a period named to compare with keeps its people beside none
            # Its own first PEOPLE_LISTED by commits (a "who" answer lists everyone up to
            # them) and top five by lines, and the people leading across all the subjects
            # asked about (an organisation's repositories), by either, wherever they changed
            # this one: their totals then add up exactly over the facts, whichever basis
            # engine/questions/who.py ranks by.
            chosen = leaders | set(people[:PEOPLE_LISTED]) | set(found.ranked("lines")[:TOP])
            chosen |= set(humans(people, names)) | set(humans(found.ranked("lines"), names))
            top = [p for p in people if p in chosen]
            value = {
                "contributors": len(people),
                "commits": found.total_commits,
                "lines_changed": found.total_lines,
                "top": top,
                "top_names": [names.get(p, p) for p in top],
                "top_commits": [found.commits.get(p, 0) for p in top],
                "top_lines": [found.lines.get(p, 0) for p in top],
            } | _bots(found, people, names) | periods | then
            if together is not None:
                value["top_commits_together"] = [together.get(p, 0) for p in top]
            if len(tallies) > 1:
                value["contributors_together"] = len(everyone)
                value |= _shared(tallies, found, names)
            if held:
                value["top_lines_together"] = [lines.get(p, 0) for p in top]
            rule, grain = found.rule(window), found.grain(window)
            facts.append(
                self.fact(
                    FactKind.ACTIVE_CONTRIBUTORS, key, value, window, found.evidence, rule, grain
                )
            )
        return facts


def _prior(
    before: dict[str, Tally] | None, key: str, several: bool, names: dict[str, str]
) -> dict[str, object]:
    """How many people changed the subject in the period the window is compared with
    ("attrs contributors 2022 vs 2023", engine/questions/compared.py), and all the subjects
    together, each person once, when there are several; and who they were, with their
    commits ("... march vs may, how many commits and who": each period's people); {} when
    none is compared with."""
    if before is None:
        return {}
    found = before.get(key) or Tally()
    people = found.ranked()[:PEOPLE_LISTED]
    value: dict[str, object] = {
        "prior_contributors": len(found.ranked()),
        "prior_top_names": [names.get(p, p) for p in people],
        "prior_top_commits": [found.commits.get(p, 0) for p in people],
    }
    if several:
        value["prior_contributors_together"] = len(
            {p for then in before.values() for p in then.ranked()}
        )
    return value


def _both_periods(
    before: dict[str, Tally] | None, apart: Sequence[Tally], names: dict[str, str]
) -> dict[str, object]:
    """The people who changed the subjects both in the window and in the period it is
    compared with ("who contributed in both 2024 and 2025?", engine/questions/both.py), most
    commits in the window first, with their commits in each (over the subjects no other one
    holds); {} when no period is compared with."""
    if before is None:
        return {}
    then = list(before.values())
    now = {p: sum(t.commits.get(p, 0) for t in apart) for t in apart for p in t.ranked()}
    before_commits = {p: sum(t.commits.get(p, 0) for t in then) for t in then for p in t.ranked()}
    both = sorted(set(now) & set(before_commits), key=lambda p: (-now[p], -before_commits[p], p))
    return {
        "both_periods": both[:SHARED],
        "both_periods_names": [names.get(p, p) for p in both[:SHARED]],
        "both_periods_commits": [now[p] for p in both[:SHARED]],
        "both_periods_commits_before": [before_commits[p] for p in both[:SHARED]],
        "both_periods_total": len(both),
    }


def _bots(found: Tally, people: Sequence[str], names: dict[str, str]) -> dict[str, object]:
    """How many of the people are bots (engine.domain.bots) and their commits, in all and
    each (the first BOTS_LISTED, most commits first): a count with bots left out ("how many
    commits this year excluding bots", engine/questions/count.py) is the fact's own count
    less theirs, and the bots' own part ("how many bot commits", engine/questions/botsown.py)
    theirs alone, each named, never a guess from the top people listed."""
    bots = [p for p in people if is_bot(names.get(p, p))]
    bots.sort(key=lambda p: (-found.commits.get(p, 0), names.get(p, p)))
    return {
        "bots": len(bots),
        "bot_commits": sum(found.commits.get(p, 0) for p in bots),
        "bot_names": [names.get(p, p) for p in bots[:BOTS_LISTED]],
        "bot_commits_each": [found.commits.get(p, 0) for p in bots[:BOTS_LISTED]],
    }


def _shared(tallies: dict[str, Tally], found: Tally, names: dict[str, str]) -> dict[str, object]:
    """The people who changed every one of the subjects ("who changed both core.py and
    parser.py?"), most commits over them first, with their commits to this one: each
    subject's fact holds its side of the intersection (SHARED of them, and how many)."""
    sets = [set(t.ranked()) for t in tallies.values()]
    both = set.intersection(*sets) if sets else set()

    def order(p: str) -> tuple[int, str]:
        return -sum(t.commits.get(p, 0) for t in tallies.values()), p

    shared = sorted(both, key=order)[:SHARED]
    return {
        "shared": shared,
        "shared_names": [names.get(p, p) for p in shared],
        "shared_commits": [found.commits.get(p, 0) for p in shared],
        "shared_total": len(both),
    }


def leading(
    tallies: Iterable[Tally],
    together: dict[str, int] | None = None,
    names: dict[str, str] | None = None,
) -> list[str]:
    """The PEOPLE_LISTED people across several subjects' tallies by commits (everyone a "who"
    answer lists, engine/questions/who.py) and the TOP by lines, by
    the same rankings as one tally's, a person's numbers added up over the subjects (their
    commits, when `together` counts them, each counted once: see _together); with `names`,
    the TOP of each who are no bots too ("top contributors excluding bots")."""
    across = Tally()
    for found in tallies:
        for person, commits in found.commits.items():
            across.commits[person] = across.commits.get(person, 0) + commits
        for person, lines in found.lines.items():
            across.lines[person] = across.lines.get(person, 0) + lines
    if together is not None:
        across.commits = {p: together.get(p, 0) for p in across.commits}
    by_commits, by_lines = across.ranked(), across.ranked("lines")
    leaders = by_commits[:PEOPLE_LISTED] + by_lines[:TOP]
    if names is not None:
        leaders += humans(by_commits, names) + humans(by_lines, names)
    return list(dict.fromkeys(leaders))


def humans(ranked: Sequence[str], names: dict[str, str]) -> list[str]:
    """The first TOP of people ranked who are no bots (engine.domain.bots, by their names),
    so that a ranking leaving bots out is exact for its first TOP too."""
    return [p for p in ranked if not is_bot(names.get(p, p))][:TOP]


async def _together(
    source: FactSource,
    subjects: Sequence[StoredSubject],
    tallies: dict[str, Tally],
    window: Window,
) -> dict[str, int] | None:
    """Each person's commits over several subjects one of which is a module, each commit
    counted once: one commit touching core.py and parser.py is one commit by its author,
    not two (adding the modules' rollups up said David Lord 9 where git log says 5). Read
    from the commit records (the git import writes one per commit and subject, keyed
    `commit:git:REPO:SHA:SUBJECT`, read by engine/domain/commits.py), on the whole UTC days the
    rollups count. None when the subjects cannot overlap, or when the records do not account
    for every commit the rollups count (a source writing rollups only): the sum then
    stands."""
    if len(tallies) < 2 or not any(s.kind is SubjectKind.MODULE for s in subjects):
        return None
    found = await source.source_records_of(
        list(tallies), kinds=(SourceRecordKind.COMMIT,), span=window.span
    )
    seen: dict[str, set[str]] = {}
    for key, records in found.items():
        made: dict[str, int] = {}
        exact = tallies[key].exact
        for record in records:
            counted = _whole_day_of(record.start, window) or (
                exact and cut_commit(record, window.start, window.end)
            )
            if record.actor is None or not counted:
                continue
            made[record.actor] = made.get(record.actor, 0) + 1
            seen.setdefault(record.actor, set()).add(commit_of(record).commit)
        rolled = tallies[key].commits
        if {p: c for p, c in rolled.items() if c} != made:
            return None
    if any(tallies[k].commits for k in tallies if k not in found):
        return None
    return {person: len(commits) for person, commits in seen.items()}


def _whole_day_of(moment: datetime, window: Window) -> bool:
    """The UTC day holding `moment` lies wholly in the window (as a daily rollup counts)."""
    day = datetime.combine(moment.astimezone(UTC).date(), time(), tzinfo=UTC)
    return whole_in(window.start, window.end, day, day + timedelta(days=1))
