"""Planning decisions in coverage, and pruning proven rather than assumed.

The proof: for every subject set tried, reading facts with the planned (pruned, narrowed)
reads gives exactly the facts that reading every provider for every subject gives; what
differs is coverage, and exactly so: each pruned provider's `pruned` observation stands where
the unpruned run had a read that found nothing, and each narrowing adds one observation.
Run on the demo organisation and on a real git repository imported through the git source.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.answering.framing import coverage_of, window_of
from engine.answering.planning import Decision, Plan, PlannedRead, plan, read_facts
from engine.domain.contract import CoverageObservation, CoverageReason, CoverageState
from engine.domain.embedding import HashingEmbedder
from engine.domain.facts import FactKind, ProviderState
from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.timecontext import resolve_time
from engine.memory import MemoryStore
from engine.ports import OrgGraph, SubjectQuery
from engine.providers import Window, default_providers
from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from sources.demo import generate
from tests import gitrepo
from tests.conftest import new_org

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
PROVIDERS = default_providers()
# Every kind asked by name: the changes too, which a question naming none does not read.
EVERY_KIND = sorted({k for p in PROVIDERS for k in p.kinds})


def subject(key: str, kind: SubjectKind) -> StoredSubject:
    return StoredSubject(key=key, id=key, kind=kind, name=key)


def observed(coverage: Sequence[CoverageObservation]) -> Counter[tuple[str, str, str, int | None]]:
    return Counter((o.source, o.state.value, o.reason.value, o.count) for o in coverage)


# --- coverage records every planning decision -----------------------------------------------


def test_every_planning_decision_is_a_coverage_observation() -> None:
    repo = subject("repository:api", SubjectKind.REPOSITORY)
    team = subject("team:core", SubjectKind.TEAM)
    asked = plan(PROVIDERS, [repo, team], [FactKind.INCIDENT_COUNT])
    decisions = {e.provider: e.decision for e in asked.entries}
    assert decisions["incidents"] is Decision.NARROWED  # teams have no incidents here
    assert all(d is Decision.NOT_ASKED for p, d in decisions.items() if p != "incidents")
    names = {p.name for p in PROVIDERS}
    coverage = {o.source: o for o in coverage_of(asked.entries, [], [repo, team])}
    coverage = {k: v for k, v in coverage.items() if k in names}  # not the window count
    assert coverage["incidents"].reason is CoverageReason.NARROWED_SUBJECT_KINDS
    assert coverage["incidents"].count == 1  # the team
    assert coverage["delivery"].reason is CoverageReason.FACT_KIND_NOT_ASKED
    assert coverage["delivery"].count == 2
    assert {o.state for o in coverage.values()} == {CoverageState.PRUNED}  # no degradation

    only_team = plan(PROVIDERS, [team], [])
    pruned = {o.source: o for o in coverage_of(only_team.entries, [], [team]) if o.source in names}
    assert pruned["deploys"].reason is CoverageReason.UNSUPPORTED_SUBJECT_KINDS
    assert "schedule" not in pruned  # selected: recorded by its read, not as a decision
    assert len(pruned) == sum(1 for p in PROVIDERS if SubjectKind.TEAM not in p.subject_kinds)


def test_the_changes_are_read_only_when_asked_for() -> None:
    """A question naming no fact kind (status) reads every provider but the changes; a what
    changed question (interpretation asks for CHANGES and CHURN) reads them."""
    repo = subject("repository:api", SubjectKind.REPOSITORY)
    status = {e.provider: e.decision for e in plan(PROVIDERS, [repo], []).entries}
    assert status["changes"] is Decision.NOT_ASKED
    assert status["churn"] is status["activity"] is Decision.SELECTED
    changed = plan(PROVIDERS, [repo], [FactKind.CHANGES, FactKind.CHURN])
    assert [r.provider.name for r in changed.reads] == ["churn", "changes"]


class BrokenSource:
    """A fact source every read of which raises: a provider bug, which read_facts turns into
    that provider's failed result (engine.answering.planning.read_facts)."""

    def __getattr__(self, name: str) -> object:
        async def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError(f"{name} broke")

        return broken


async def test_a_narrowed_provider_that_fails_names_only_the_subjects_it_was_asked_for(
) -> None:
    """The incidents provider narrowed to the repository (teams have no incidents) fails: its
    failed result names the repository, the subject it was asked for, not the team planning
    narrowed away. (Provider.read also drops kinds it does not declare, so on success the
    narrowing shows only in what each provider is asked; a failure is where it is read back.)"""
    repo = subject("repository:api", SubjectKind.REPOSITORY)
    team = subject("team:core", SubjectKind.TEAM)
    asked = plan(PROVIDERS, [repo, team], [FactKind.INCIDENT_COUNT])
    window = window_of(resolve_time(None, None, None, NOW))
    results = await read_facts(asked, BrokenSource(), window)  # type: ignore[arg-type]
    assert [(r.provider, r.state, r.reason, r.subject_keys) for r in results] == [
        ("incidents", ProviderState.FAILED, "provider_error", ("repository:api",))
    ]


# --- pruning proven -----------------------------------------------------------------------


def unpruned(subjects: Sequence[StoredSubject]) -> Plan:
    """Every provider reads every subject: what planning is checked against."""
    return Plan(tuple(PlannedRead(p, tuple(subjects)) for p in PROVIDERS), ())


async def prove(graph: OrgGraph, subjects: Sequence[StoredSubject], window: Window) -> int:
    """Asserts equal facts and the exact coverage difference; returns the facts compared."""
    planned = plan(PROVIDERS, subjects, EVERY_KIND)
    with_pruning = await read_facts(planned, graph, window)
    without = await read_facts(unpruned(subjects), graph, window)

    def facts(results: Sequence[object]) -> list[str]:
        found = [f for r in results for f in r.facts]  # type: ignore[attr-defined]
        return sorted(json.dumps(f.model_dump(mode="json"), sort_keys=True) for f in found)

    assert facts(with_pruning) == facts(without), [s.key for s in subjects]
    pruned_coverage = observed(coverage_of(planned.entries, with_pruning, subjects))
    unpruned_coverage = observed(coverage_of((), without, subjects))
    expected_extra: Counter[tuple[str, str, str, int | None]] = Counter()
    expected_missing: Counter[tuple[str, str, str, int | None]] = Counter()
    for entry in planned.entries:
        decision = (entry.provider, "pruned", entry.decision.value, len(entry.dropped))
        if entry.decision is Decision.PRUNED:
            expected_extra[decision] += 1
            # Where the unpruned run read and, necessarily, found nothing.
            expected_missing[(entry.provider, "no_data", "no_rows_in_window", 0)] += 1
        elif entry.decision is Decision.NARROWED:
            expected_extra[decision] += 1
    assert pruned_coverage - unpruned_coverage == expected_extra
    assert unpruned_coverage - pruned_coverage == expected_missing
    return len(facts(without))


async def subject_sets(graph: OrgGraph) -> list[list[StoredSubject]]:
    """Each subject alone, every subject of each kind together, and all of them at once."""
    everyone = (await graph.find_subjects(SubjectQuery(), first=10_000)).items
    by_kind: dict[SubjectKind, list[StoredSubject]] = {}
    for s in everyone:
        by_kind.setdefault(s.kind, []).append(s)
    return [[s] for s in everyone] + list(by_kind.values()) + [list(everyone)]


@pytest.fixture(scope="module")
def memory() -> MemoryStore:
    return MemoryStore(embedder=HashingEmbedder(64))


async def test_pruning_changes_no_fact_on_the_demo_organisation(memory: MemoryStore) -> None:
    graph = memory.org(new_org())
    lines = (json.dumps(r) for r in generate(600))
    assert (await Projector(graph, source="demo").run(lines)).ok
    window = window_of(resolve_time(None, None, None, NOW))
    sets = await subject_sets(graph)
    compared = [await prove(graph, subjects, window) for subjects in sets]
    assert len(sets) > 50 and sum(compared) > 0  # real facts were compared, not empty sets
    kinds = {s.kind for subjects in sets for s in subjects}
    assert len(kinds) >= 5  # pruning had something to prune


async def test_pruning_changes_no_fact_on_an_imported_repository(
    memory: MemoryStore, tmp_path: Path
) -> None:
    repo = gitrepo.build(tmp_path / "repo")
    graph = memory.org(new_org())
    report = await import_git(graph, GitImport(repo.path))
    assert report.commits > 0
    window = window_of(resolve_time(None, None, None, repo.now))
    sets = await subject_sets(graph)
    compared = [await prove(graph, subjects, window) for subjects in sets]
    assert sum(compared) > 0
    assert {s.kind for subjects in sets for s in subjects} >= {
        SubjectKind.REPOSITORY,
        SubjectKind.PERSON,
        SubjectKind.MODULE,
    }
