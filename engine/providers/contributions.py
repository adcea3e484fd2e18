"""Providers over per-person daily commit rollups: churn, active contributors, bus factor.

They read `metric_rollup` records whose `actor` is the person who made the change (the git
import writes them per module and person, and per repository and person, for every day with
commits; see docs/git-import.md). Rollups without an actor carry no attribution and are
ignored here; the activity provider counts them. A day the window cuts (an `asOf` at 12:00)
is read from its commit records inside the window, when the day's records account for
every commit its rollups count and each carries its lines (the git import writes both):
those facts are then exact to the instant (grain instant). Churn states lines added and
removed apart, so it reads a cut day so only when each record also says how many of its
lines were added (the git import writes that too, since `module_layout` 6); else it leaves
the cut day out, said.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import ClassVar

from engine.domain.bots import is_bot
from engine.domain.commits import commit_of
from engine.domain.evidence import EvidenceRule, cut_commit, cut_days, unread_days, whole_days
from engine.domain.facts import Fact, FactKind, Grain, HistoryTier
from engine.domain.models import (
    Direction,
    RelationshipType,
    SourceRecord,
    SourceRecordKind,
    StoredSubject,
    SubjectKind,
)
from engine.domain.windows import whole_in
from engine.ports import FactSource
from engine.providers import holding
from engine.providers.base import Provider, Window, prior, whole_day

_ADDED, _REMOVED, _COMMITS = "lines_added", "lines_removed", "commits"
ATTRIBUTED = EvidenceRule.ATTRIBUTED_ROLLUPS
EXACT = EvidenceRule.EXACT_ATTRIBUTED
COMMIT_LINES = "lines_changed"  # a commit record's lines (graph/git/records.py)
TOP = 5
SHARED = 20  # people of an intersection a fact lists
# The bus factor is the fewest people who made at least this share of the changed lines.
BUS_SHARE = 0.5


@dataclass
class Tally:
    """Per-person sums of one subject's attributed rollups within a window."""

    commits: dict[str, int] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    added: int = 0
    removed: int = 0
    evidence: list[str] = field(default_factory=list)
    # Read to the instant: the days the window cuts counted from their commit records,
    # whose lines (added and removed together) are `cut_lines`.
    exact: bool = False
    cut_lines: int = 0

    @property
    def total_commits(self) -> int:
        return sum(self.commits.values())

    @property
    def total_lines(self) -> int:
        return self.added + self.removed + self.cut_lines

    def rule(self, window: Window) -> EvidenceRule:
        return EXACT if self.exact and cut_days(window.start, window.end) else ATTRIBUTED

    def grain(self, window: Window) -> Grain:
        return Grain.INSTANT if self.rule(window) is EXACT else Grain.DAY

    def ranked(self, by: str = "commits") -> list[str]:
        """People by commits, then changed lines, then key (deterministic): the ranking
        `git shortlog -sn` gives, and the one a "who" headline states; by="lines": by
        changed lines, then commits, then key."""
        people = set(self.commits) | set(self.lines)

        def order(p: str) -> tuple[int, int, str]:
            c, n = self.commits.get(p, 0), self.lines.get(p, 0)
            return (-n, -c, p) if by == "lines" else (-c, -n, p)

        return sorted(people, key=order)


def tally(records: Sequence[SourceRecord], window: Window, exact: bool = False) -> Tally:
    """Per person: whole days from their rollups, and with `exact` (`exactly`) the days the
    window cuts from the commit records inside it."""
    out = Tally(exact=exact)
    for record in records:
        if exact and record.actor is not None and cut_commit(record, window.start, window.end):
            lines = int(record.value or 0)
            out.commits[record.actor] = out.commits.get(record.actor, 0) + 1
            out.lines[record.actor] = out.lines.get(record.actor, 0) + lines
            if record.added is None:
                out.cut_lines += lines
            else:  # added and removed apart (churn)
                out.added += int(record.added)
                out.removed += lines - int(record.added)
            out.evidence.append(record.key)
            continue
        if record.actor is None or not whole_day(record, window):
            continue
        value = int(record.value or 0)
        if record.metric == _COMMITS:
            out.commits[record.actor] = out.commits.get(record.actor, 0) + value
        elif record.metric in (_ADDED, _REMOVED):
            out.lines[record.actor] = out.lines.get(record.actor, 0) + value
            if record.metric == _ADDED:
                out.added += value
            else:
                out.removed += value
        else:
            continue
        if value:
            out.evidence.append(record.key)
    return out


def exactly(records: Sequence[SourceRecord], window: Window, split: bool = False) -> bool:
    """The days the window cuts can be read from their commit records: those account for
    every commit the days' rollups count, and each carries its lines (with `split`, how many
    of them were added too: churn states them apart)."""
    cut = [r for r in records if cut_commit(r, window.start, window.end)]
    if any(r.metric != COMMIT_LINES or (split and r.added is None) for r in cut):
        return False
    return not unread_days(records, window.start, window.end)


class _Attributed(Provider):
    grain = Grain.DAY
    tier = HistoryTier.ROLLUP
    record_kinds: ClassVar[tuple[SourceRecordKind, ...]] = (SourceRecordKind.METRIC_ROLLUP,)
    subject_kinds = frozenset({SubjectKind.REPOSITORY, SubjectKind.MODULE})


class _Exact(_Attributed):
    """Reads the days the window cuts whole, with their commit records (`tally`'s exact)."""

    record_kinds: ClassVar[tuple[SourceRecordKind, ...]] = (
        SourceRecordKind.METRIC_ROLLUP,
        SourceRecordKind.COMMIT,
    )

    async def tallies(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> dict[str, Tally]:
        found = await source.source_records_of(
            [s.key for s in subjects],
            kinds=self.record_kinds,
            span=whole_days(window.start, window.end),
        )
        return {key: tally(rs, window, exactly(rs, window)) for key, rs in found.items()}


class ChurnProvider(_Exact):
    """Lines added and removed in the window, against the window before; the days either
    window cuts read from their commit records when those say what was added (`exactly`)."""

    name = "churn"
    kinds = frozenset({FactKind.CHURN})
    subject_kinds = frozenset({SubjectKind.REPOSITORY, SubjectKind.MODULE, SubjectKind.PERSON})

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        before = window.before or prior(window)
        found = await source.source_records_of(
            [s.key for s in subjects],
            kinds=self.record_kinds,
            span=whole_days(min(before.start, window.start), max(before.end, window.end)),
        )
        facts: list[Fact] = []
        for key, records in found.items():
            now = tally(records, window, exactly(records, window, split=True))
            then = tally(records, before, exactly(records, before, split=True))
            named = window.before is not None and then.total_commits > 0
            if not now.total_lines and not now.total_commits and not named:
                continue  # a period named to compare with keeps its figures beside none
            value = {
                "lines_added": now.added,
                "lines_removed": now.removed,
                "lines_changed": now.total_lines,
                "commits": now.total_commits,
                "prior_lines_changed": then.total_lines,
            }
            # a period the question named (engine/questions/compared.py)
            if window.before is not None:
                value["prior_commits"] = then.total_commits
            rule, grain = now.rule(window), now.grain(window)
            facts.append(self.fact(FactKind.CHURN, key, value, window, now.evidence, rule, grain))
        return facts


class ContributorsProvider(_Exact):
    """Who changed a repository or module in the window, most commits first."""

    name = "contributors"
    kinds = frozenset({FactKind.ACTIVE_CONTRIBUTORS})

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        names = await _names(source, subjects)
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
        periods = await _both_periods(self, source, subjects, window, apart, names)
        for key, found in tallies.items():
            people = found.ranked()
            if not people:
                continue
            # Its own top five by commits and by lines, and the people leading across all the
            # subjects asked about (an organisation's repositories), by either, wherever they
            # changed this one: their totals then add up exactly over the facts, whichever
            # basis engine/questions/who.py ranks by.
            chosen = leaders | set(people[:TOP]) | set(found.ranked("lines")[:TOP])
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
            } | _bots(found, people, names) | periods
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


async def _both_periods(
    provider: _Exact,
    source: FactSource,
    subjects: Sequence[StoredSubject],
    window: Window,
    apart: Sequence[Tally],
    names: dict[str, str],
) -> dict[str, object]:
    """The people who changed the subjects both in the window and in the period it is
    compared with ("who contributed in both 2024 and 2025?", engine/questions/both.py), most
    commits in the window first, with their commits in each (over the subjects no other one
    holds); {} when no period is compared with."""
    if window.before is None:
        return {}
    then = [t for t in (await provider.tallies(source, subjects, window.before)).values()]
    now = {p: sum(t.commits.get(p, 0) for t in apart) for t in apart for p in t.ranked()}
    before = {p: sum(t.commits.get(p, 0) for t in then) for t in then for p in t.ranked()}
    both = sorted(set(now) & set(before), key=lambda p: (-now[p], -before[p], p))
    return {
        "both_periods": both[:SHARED],
        "both_periods_names": [names.get(p, p) for p in both[:SHARED]],
        "both_periods_commits": [now[p] for p in both[:SHARED]],
        "both_periods_commits_before": [before[p] for p in both[:SHARED]],
        "both_periods_total": len(both),
    }


def _bots(found: Tally, people: Sequence[str], names: dict[str, str]) -> dict[str, int]:
    """How many of the people are bots (engine.domain.bots) and their commits: a count with
    bots left out ("how many commits this year excluding bots", engine/questions/count.py)
    is the fact's own count less theirs, never a guess from the top people listed."""
    bots = [p for p in people if is_bot(names.get(p, p))]
    return {"bots": len(bots), "bot_commits": sum(found.commits.get(p, 0) for p in bots)}


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
    """The TOP people across several subjects' tallies by commits and the TOP by lines, by
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
    leaders = by_commits[:TOP] + by_lines[:TOP]
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


async def _names(source: FactSource, subjects: Sequence[StoredSubject]) -> dict[str, str]:
    """Display names of the people who contributed (their CONTRIBUTES_TO edges' ends)."""
    found = await source.relationships_of(
        [s.key for s in subjects],
        types=[RelationshipType.CONTRIBUTES_TO],
        direction=Direction.INCOMING,
        limit_per_subject=1_000,
    )
    return {e.other.key: e.other.name for edges in found.values() for e in edges}


class BusFactorProvider(_Exact):
    """The fewest people who made at least half of the window's changed lines (commits when
    no line changed, e.g. binary files only)."""

    name = "bus_factor"
    kinds = frozenset({FactKind.BUS_FACTOR})

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        names = await _names(source, subjects)
        for key, found in (await self.tallies(source, subjects, window)).items():
            basis, shares = (
                ("lines", found.lines) if found.total_lines else ("commits", found.commits)
            )
            total = sum(shares.values())
            if not total:
                continue
            factor, covered = 0, 0
            for amount in sorted(shares.values(), reverse=True):
                factor, covered = factor + 1, covered + amount
                if covered >= BUS_SHARE * total:
                    break
            leader = max(shares, key=lambda p: (shares[p], p))
            value = {
                "bus_factor": factor,
                "top": leader,
                "top_name": names.get(leader, leader),
                "contributors": len(found.ranked()),
                "basis": basis,
                "top_share": round(max(shares.values()) / total, 3),
                "commits": found.total_commits,
            }
            rule, grain = found.rule(window), found.grain(window)
            facts.append(
                self.fact(FactKind.BUS_FACTOR, key, value, window, found.evidence, rule, grain)
            )
        return facts
