"""Cohort questions ("which services had incidents last week?") on the in-memory graph: the
asked kind's subjects are found however busy subjects of other kinds are, and a cohort cut
at its limit says so."""

from __future__ import annotations

from typing import Any

from engine.investigation.investigate import InvestigationRequest
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.resolving.subjectless import COHORT_LIMIT
from tests.conftest import new_org
from tests.helpers import load, subject
from tests.test_investigate import investigator

LAST_WEEK = "2026-11-11T10:00:00Z"  # within "last week" of tests.test_investigate.NOW
QUESTION = "which services had incidents last week?"


def incidents(subject_key: str, count: int) -> list[dict[str, Any]]:
    return [{"type": "source_record", "key": f"incident:{subject_key}:{i}",
             "record_kind": "incident", "subject": subject_key, "start": LAST_WEEK}
            for i in range(count)]  # fmt: skip


async def graph_of(*busy: tuple[str, int]) -> OrgGraph:
    store = MemoryStore()
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    lines = [subject(key) for key, _ in busy]
    lines += [r for key, count in busy for r in incidents(key, count)]
    report = await load(graph, lines)
    assert report.ok
    return graph


async def test_a_cohort_is_not_crowded_out_by_busier_subjects_of_other_kinds() -> None:
    # More repositories and people, each with more incidents, than a cohort reads at once.
    busy = [(f"{kind}:busy{i}", 3) for kind in ("repository", "person") for i in range(30)]
    graph = await graph_of(*busy, ("service:quiet", 1), ("service:calm", 2))
    result, _ = await investigator(graph).investigate("me", InvestigationRequest(QUESTION))
    assert result.subject_keys == ("service:calm", "service:quiet")
    assert not any("more qualified" in note for note in result.limitations)


async def test_a_cohort_cut_at_its_limit_says_so() -> None:
    services = [(f"service:s{i:02}", 1 + i % 3) for i in range(COHORT_LIMIT + 2)]
    graph = await graph_of(*services)
    result, _ = await investigator(graph).investigate("me", InvestigationRequest(QUESTION))
    assert len(result.subject_keys) == COHORT_LIMIT
    assert all(key.startswith("service:") for key in result.subject_keys)
    cut = [note for note in result.limitations if "more qualified" in note]
    assert cut and f"Only the {COHORT_LIMIT} service subjects" in cut[0]


async def test_a_cohort_without_facts_cut_at_its_limit_says_so() -> None:
    # No facts asked: the most recently active of the kind, and the cut is stated too.
    graph = await graph_of(*((f"service:s{i:02}", 0) for i in range(COHORT_LIMIT + 1)))
    ask = InvestigationRequest("how are the services doing?")
    result, _ = await investigator(graph).investigate("me", ask)
    assert len(result.subject_keys) == COHORT_LIMIT
    cut = [note for note in result.limitations if "more qualified" in note]
    assert cut and "most recently active" in cut[0]
