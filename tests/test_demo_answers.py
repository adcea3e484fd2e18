"""Questions a newcomer asked of `fabric serve --demo` that got confident wrong answers, on
the demo organisation as the gateway loads it (gateway/demo.py: its size and seed), asked
on the day they were asked. In memory (engine.memory), which tests/test_graph_contract.py
holds to the same port as FalkorDB."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from engine.contract import InvestigationResult, Outcome
from engine.embedding import HashingEmbedder
from engine.facts import FactKind
from engine.investigate import InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolution import Resolver
from engine.ring import ReferenceRing
from engine.synthesis import DeterministicSynthesizer
from gateway.demo import DEMO_SEED
from gateway.settings import Settings
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.test_investigate import SIGNER, VERSIONS

ASKED = datetime(2026, 12, 2, 8, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
async def demo() -> OrgGraph:
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    records = Settings.model_fields["demo_records"].default
    lines = (json.dumps(r) for r in generate(records, seed=DEMO_SEED))
    assert (await Projector(graph, source="demo").run(lines)).ok
    return graph


async def ask(graph: OrgGraph, question: str) -> InvestigationResult:
    engine = Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=lambda: ASKED,
    )  # fmt: skip
    result, _ = await engine.investigate("me", InvestigationRequest(question))
    return result


def figure(result: InvestigationResult, kind: FactKind, field: str) -> int:
    """A number the answer claims, from its claimed facts."""
    values = [c.value[field] for c in result.claimed_facts if c.kind == kind.value]
    assert len(values) == 1, (kind, result.claimed_facts)
    return int(values[0])


@pytest.mark.parametrize(
    "question",
    [
        "who has driven changes to payments-api lately?",
        "who are the top contributors to payments-api?",
        "who changed payments-api last month?",
    ],
)
async def test_who_without_contributor_records_is_never_no_one(
    demo: OrgGraph, question: str
) -> None:
    """payments-api has no contributor records in these windows but merged pull requests
    and commits: the answer says the people are not known and what activity there was, each
    figure claimed; it said "No one changed payments-api"."""
    result = await ask(demo, question)
    text = result.direct_judgment or ""
    assert result.outcome is Outcome.ANSWERED and "No one changed" not in text
    assert not [c for c in result.claimed_facts if c.kind == "active_contributors"]
    assert "is not known here: no contributor records of payments-api" in text
    merged = figure(result, FactKind.THROUGHPUT, "merged")
    commits = figure(result, FactKind.COMMIT_ACTIVITY, "commits")
    assert merged and commits
    assert f"{merged} merged pull request(s) and {commits} commit(s)" in text


@pytest.mark.parametrize(
    ("question", "verb"),
    [("who owns analytics-api?", "is"), ("who owned analytics-api in 2025?", "was")],
)
async def test_ownership_names_the_team_in_the_tense_asked(
    demo: OrgGraph, question: str, verb: str
) -> None:
    """The owner by its name (its key is in the relationship the fact cites), in the present
    tense for the present: it said "analytics-api was owned by team:cobalt-2"."""
    result = await ask(demo, question)
    owned = [c for c in result.claimed_facts if c.kind == "ownership"]
    assert result.outcome is Outcome.ANSWERED and len(owned) == 1
    keys = owned[0].value["owners"]
    team = (await demo.subjects_by_keys(keys))[keys[0]]
    assert team.name != team.key
    assert result.direct_judgment == f"analytics-api {verb} owned by {team.name}."


async def test_a_missing_value_is_said_in_words(demo: OrgGraph) -> None:
    """A fact value nothing measured (no pull request merged: no median cycle time) reads
    "not known" in the current state; it read "median_hours=None"."""
    result = await ask(demo, "how is payments-api doing?")
    cycle = [f for f in result.claimed_facts if f.kind == "cycle_time"]
    state = result.current_state or ""
    assert "None" not in state
    assert "median_hours=not known" in state
    assert cycle == [] or cycle[0].value["median_hours"] is None
