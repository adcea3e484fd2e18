"""Providers over per-person daily commit rollups: churn and bus factor, and the tallies
they and the contributors provider (engine/providers/contributors.py) read.

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

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
from engine.ports import FactSource
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


class Exact(_Attributed):
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


class ChurnProvider(Exact):
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
                # each side too ("net lines in X jul vs aug": it gave the lines changed alone)
                value["prior_lines_added"], value["prior_lines_removed"] = then.added, then.removed
            rule, grain = now.rule(window), now.grain(window)
            facts.append(self.fact(FactKind.CHURN, key, value, window, now.evidence, rule, grain))
        return facts


async def names_of(source: FactSource, subjects: Sequence[StoredSubject]) -> dict[str, str]:
    """Display names of the people who contributed (their CONTRIBUTES_TO edges' ends)."""
    found = await source.relationships_of(
        [s.key for s in subjects],
        types=[RelationshipType.CONTRIBUTES_TO],
        direction=Direction.INCOMING,
        limit_per_subject=1_000,
    )
    return {e.other.key: e.other.name for edges in found.values() for e in edges}


class BusFactorProvider(Exact):
    """The fewest people who made at least half of the window's changed lines (commits when
    no line changed, e.g. binary files only)."""

    name = "bus_factor"
    kinds = frozenset({FactKind.BUS_FACTOR})

    async def compute(
        self, source: FactSource, subjects: Sequence[StoredSubject], window: Window
    ) -> list[Fact]:
        facts: list[Fact] = []
        names = await names_of(source, subjects)
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
