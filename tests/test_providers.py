"""Fact providers and planning, on the demo organisation's story.

On the in-memory graph (engine.memory), so no database runs: providers read only the port's
FactSource role, which tests/test_graph_contract.py holds every backend to."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from engine.answering.planning import Decision, plan, read_facts
from engine.domain.facts import FactKind, Grain, ProviderState
from engine.domain.models import StoredSubject
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.providers import Window, default_providers
from graph.projection import Projector
from sources.demo import DEFAULT_ANCHOR, generate
from tests.conftest import new_org

ANCHOR = DEFAULT_ANCHOR


@pytest.fixture(scope="module")
async def demo() -> OrgGraph:
    store = MemoryStore()
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    lines = (json.dumps(r) for r in generate(600, seed=7))
    report = await Projector(graph, source="demo").run(lines)
    assert report.ok
    return graph


async def _subjects(graph: OrgGraph, *keys: str) -> list[StoredSubject]:
    found = await graph.subjects_by_keys(list(keys))
    return [found[k] for k in keys]


def _window(end: datetime, days: int = 30, historical: bool = False) -> Window:
    return Window(end - timedelta(days=days), end, historical)


async def test_payments_api_is_behind_with_evidence(demo: OrgGraph) -> None:
    subjects = await _subjects(
        demo, "repository:payments-api", "project:q4-reliability", "service:payments"
    )
    chosen = plan(default_providers(), subjects, [])
    results = {r.provider: r for r in await read_facts(chosen, demo, _window(ANCHOR))}
    facts = {(f.kind, f.subject_key): f for r in results.values() for f in r.facts}
    overdue = [f for (kind, _), f in facts.items() if kind is FactKind.WORK_ITEMS_OVERDUE]
    assert sum(f.value["overdue"] for f in overdue) >= 4
    assert all(f.evidence for f in overdue if f.value["overdue"])
    throughput = facts[(FactKind.THROUGHPUT, "repository:payments-api")]
    assert throughput.value["merged"] < throughput.value["prior_merged"]
    cycle = facts[(FactKind.CYCLE_TIME, "repository:payments-api")]
    assert cycle.value["median_hours"] > cycle.value["prior_median_hours"]
    incidents = facts[(FactKind.OPEN_INCIDENTS, "service:payments")]
    assert incidents.value["open"] >= 1 and incidents.evidence
    rollups = {"activity", "churn", "contributors", "bus_factor"}  # day-grain rollup readers
    assert all(r.grain is Grain.INSTANT for r in results.values() if r.provider not in rollups)


async def test_planning_prunes_and_narrows_by_subject_kind(demo: OrgGraph) -> None:
    subjects = await _subjects(demo, "person:alex-kim", "repository:payments-api")
    chosen = plan(default_providers(), subjects, [])
    decisions = {e.provider: e for e in chosen.entries}
    assert decisions["deploys"].decision is Decision.PRUNED  # services only
    assert decisions["delivery"].decision is Decision.NARROWED
    assert decisions["delivery"].kept == ("repository:payments-api",)
    assert decisions["delivery"].dropped == ("person:alex-kim",)
    assert "deploys" not in {r.provider.name for r in chosen.reads}
    asked = plan(default_providers(), subjects, [FactKind.OWNERSHIP])
    assert [r.provider.name for r in asked.reads] == ["ownership"]
    assert {e.decision for e in asked.entries if e.provider != "ownership"} == {Decision.NOT_ASKED}


async def test_ownership_follows_validity_windows(demo: OrgGraph) -> None:
    web = await _subjects(demo, "repository:checkout-web")
    provider = next(p for p in default_providers() if p.name == "ownership")
    march = await provider.read(
        demo, web, _window(datetime(2026, 3, 1, tzinfo=UTC), historical=True)
    )
    assert march.facts[0].value["owners"] == ["team:checkout"]
    autumn = await provider.read(
        demo, web, _window(datetime(2025, 9, 1, tzinfo=UTC), historical=True)
    )
    assert autumn.facts[0].value["owners"] == ["team:payments"]
    assert autumn.facts[0].evidence[0].startswith("OWNS|team:payments|repository:checkout-web")


async def test_past_without_history_and_before_all_data(demo: OrgGraph) -> None:
    service = await _subjects(demo, "service:payments")
    profile = next(p for p in default_providers() if p.name == "profile")
    now = await profile.read(demo, service, _window(ANCHOR))
    assert now.state is ProviderState.AVAILABLE and now.facts[0].value
    past = await profile.read(demo, service, _window(ANCHOR - timedelta(days=90), historical=True))
    assert past.state is ProviderState.NOT_APPLICABLE and past.reason == "no_history_for_time"
    incidents = next(p for p in default_providers() if p.name == "incidents")
    ancient = await incidents.read(
        demo, service, _window(datetime(2001, 1, 1, tzinfo=UTC), historical=True)
    )
    assert ancient.state is ProviderState.NO_DATA and ancient.reason == "no_rows_in_window"


async def test_historical_incident_counts_drop_severity(demo: OrgGraph) -> None:
    service = await _subjects(demo, "service:payments")
    incidents = next(p for p in default_providers() if p.name == "incidents")
    current = await incidents.read(demo, service, _window(ANCHOR))
    historical = await incidents.read(demo, service, _window(ANCHOR, historical=True))
    count_now = next(f for f in current.facts if f.kind is FactKind.INCIDENT_COUNT)
    count_then = next(f for f in historical.facts if f.kind is FactKind.INCIDENT_COUNT)
    assert "by_severity" in count_now.value and "by_severity" not in count_then.value
    assert count_now.value["started"] == count_then.value["started"]


async def test_every_fact_s_selector_reads_back_exactly_its_evidence(demo: OrgGraph) -> None:
    """For every record-backed fact of every provider, the selector finds evidence_total
    records, and the listed evidence is the first of them by key (for the changes fact, the
    newest of them by change time: the changes an answer lists)."""
    from engine.domain.evidence import change_time, select
    from engine.ports import SubjectQuery

    page = await demo.find_subjects(SubjectQuery(), 200)
    subjects = list(page.items)
    every = sorted({k for p in default_providers() for k in p.kinds})  # changes too: asked
    results = await read_facts(plan(default_providers(), subjects, every), demo, _window(ANCHOR))
    checked = changes = 0
    for fact in (f for r in results for f in r.facts):
        if fact.evidence_selector is None:
            continue
        selector = fact.evidence_selector
        found = await demo.source_records_of(
            [selector.subject_key], kinds=list(selector.record_kinds), span=selector.span()
        )
        chosen = select(selector, found.get(selector.subject_key, []))
        keys = [r.key for r in chosen]
        assert len(keys) == fact.evidence_total, fact.id
        if fact.kind is FactKind.CHANGES:
            newest = sorted(chosen, key=lambda r: (change_time(r), r.key), reverse=True)
            keys = [r.key for r in newest]
            changes += 1
        assert list(fact.evidence) == keys[: len(fact.evidence)], fact.id
        checked += 1
    assert checked >= 20 and changes >= 3
