"""Questions a newcomer asked of `fabric serve --demo` that got confident wrong answers, on
the demo organisation as the gateway loads it (gateway/demo.py: its size and seed), asked
on the day they were asked. In memory (engine.memory), which tests/test_graph_contract.py
holds to the same port as FalkorDB."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.domain.embedding import HashingEmbedder
from engine.domain.facts import FactKind
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from gateway.demo import DEMO_SEED
from gateway.settings import Settings
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.test_investigate import answer

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


ask = partial(answer, now=ASKED)


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
        # Commits asked for too: they were read twice, said and claimed twice.
        "did anyone commit to payments-api this year?",
        "who made the most commits to payments-api this year?",
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
    statements = [d.statement for d in result.drivers]
    assert len(statements) == len(set(statements)), statements


@pytest.mark.parametrize(
    "question",
    ["who changed anything this year?", "who were the most active contributors this year?"],
)
async def test_who_over_the_organisation_without_contributor_records_is_never_no_one(
    demo: OrgGraph, question: str
) -> None:
    """The demo's repositories have commits and merged pull requests this year but no
    contributor records: it answered "No one changed the whole organisation". The people are
    said unknown and the activity is said in all, each repository's figures claimed."""
    result = await ask(demo, question)
    text = result.direct_judgment or ""
    assert result.outcome is Outcome.ANSWERED and "No one changed" not in text
    assert "is not known here: no contributor records" in text, text
    commits = sum(int(c.value["commits"]) for c in result.claimed_facts
                  if c.kind == "commit_activity")
    merged = sum(int(c.value["merged"]) for c in result.claimed_facts if c.kind == "throughput")
    held = {c.subject_key for c in result.claimed_facts if c.kind == "commit_activity"}
    assert commits and merged and len(held) > 1
    assert f"{merged} merged pull request(s) and {commits} commit(s)" in text, text
    assert len(text) < 600  # in all, never one clause per repository


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


@pytest.mark.parametrize(
    "question", ["who owned checkout-web in February 2026?", "who owned checkout-web in 2026?"]
)
async def test_an_owner_since_a_day_within_the_window_is_said_since_then(
    demo: OrgGraph, question: str
) -> None:
    """checkout-web moved to Checkout Squad on 2026-02-15: "who owned checkout-web in
    February 2026?" said "checkout-web was owned by Checkout Squad", the whole month, where
    another team owned it until the 15th. The owner is said from the day its ownership began,
    which the claimed fact holds."""
    result = await ask(demo, question)
    (owned,) = [c for c in result.claimed_facts if c.kind == "ownership"]
    since = datetime.fromisoformat(owned.value["since"])
    assert owned.window_start < since < owned.window_end
    text = result.direct_judgment or ""
    assert text.startswith(f"checkout-web was owned by Checkout Squad from {since:%Y-%m-%d}"), text
    before = since - timedelta(days=1)
    assert "before that, within the window, Checkout Squad did not own it" in text, text
    assert f'"who owned checkout-web as of {before:%Y-%m-%d}?"' in text, text


async def test_a_missing_value_is_said_in_words(demo: OrgGraph) -> None:
    """A fact value nothing measured (no pull request merged: no median cycle time) reads
    "not known" in the current state; it read "median_hours=None"."""
    result = await ask(demo, "how is payments-api doing?")
    cycle = [f for f in result.claimed_facts if f.kind == "cycle_time"]
    state = result.current_state or ""
    assert "None" not in state
    assert "median_hours=not known" in state
    assert cycle == [] or cycle[0].value["median_hours"] is None


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("what does analytics-gateway depend on?", "depend on"),
        ("what depends on order-worker?", "depends on"),
        ("what are the dependencies of order-worker?", "dependencies"),
    ],
)
async def test_dependencies_are_named_not_answered_with_health(
    demo: OrgGraph, question: str, phrase: str
) -> None:
    """Dependencies are not computed by an investigation: the question ends naming the
    phrase; it answered analytics-gateway's health with "depend" dropped."""
    result = await ask(demo, question)
    assert result.outcome is Outcome.NO_MATCH and result.direct_judgment is None
    assert any(n.startswith(f'"{phrase}": what a subject depends on') for n in result.limitations)


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("who should I ask about the analytics-api?", "should I ask"),
        ("who knows about checkout-web?", "knows"),
        ("who can help with payments-api?", "can help"),
    ],
)
async def test_whom_to_ask_is_read_as_who_changed_it(
    demo: OrgGraph, question: str, phrase: str
) -> None:
    """"Who should I ask about X?" asks for the people who know X, not for the asker's own
    data: answered as who changed X, saying so; it ended on "I"."""
    result = await ask(demo, question)
    assert result.outcome is Outcome.ANSWERED and len(result.subject_keys) == 1
    assert any(n.startswith(f'"{phrase}": read as the people who changed it') for n in
               result.limitations)
    assert not any("not tied to the person asking" in n for n in result.limitations)
    # Its words are read: it also said 'Not understood, so not used: "ask"'.
    assert not any(n.startswith("Not understood") for n in result.limitations), result.limitations
    name = result.subject_keys[0].split(":", 1)[1]
    assert f"Who changed {name} " in (result.direct_judgment or "")


async def test_a_question_about_me_still_ends(demo: OrgGraph) -> None:
    result = await ask(demo, "what did I change last week?")
    assert result.outcome is Outcome.NO_MATCH
    assert any("not tied to the person asking" in n for n in result.limitations)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("which incidents hit Aisha Nguyen this year?", "persons"),
        ("which incidents hit analytics-api/api this year?", "modules"),
    ],
)
async def test_incidents_of_a_subject_that_keeps_none_are_said_once(
    demo: OrgGraph, question: str, kind: str
) -> None:
    """"Incidents" asks for three facts (started, open, time to resolve): the limitation
    that a person's or a module's incidents are not kept was said three times over."""
    result = await ask(demo, question)
    said = [n for n in result.limitations if f"not for {kind}" in n]
    assert len(said) == 1, result.limitations
    assert len(result.limitations) == len(set(result.limitations)), result.limitations


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("which incidents hit checkout-web last month?", "repository:checkout-web"),
        ("which incidents hit the checkout service this year?", "service:checkout"),
        ("what incidents affected the checkout service last month?", "service:checkout"),
    ],
)
async def test_incidents_that_hit_a_subject_are_counted(
    demo: OrgGraph, question: str, subject: str
) -> None:
    """"hit X" is about X: the incidents are counted from the claimed incident facts (each
    incident in their evidence), or said to be none; it answered with a health summary and
    said "hit checkout-web" names no subject."""
    result = await ask(demo, question)
    text = result.direct_judgment or ""
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == (subject,)
    assert "health" not in text and not any("names no subject" in n for n in result.limitations)
    counted = [c for c in result.claimed_facts if c.kind == "incident_count"]
    if counted:
        started = counted[0].value["started"]
        assert counted[0].evidence_total == started or started == 0
        assert text.startswith(f"{started} incident(s) started on ")
    else:
        assert text.startswith("No incident of ")


async def test_a_count_of_people_without_contributor_records_says_what_is_known(
    demo: OrgGraph,
) -> None:
    """payments-api has no contributor records over the last 90 days, but pull requests and
    commits: the count of people is said unknown (the window stated, the activity claimed),
    as the who answer says; it said "No count was available"."""
    result = await ask(demo, "how many people changed payments-api lately")
    text = result.direct_judgment or ""
    assert result.outcome is Outcome.ANSWERED and "No count" not in text
    assert text.startswith("How many people changed payments-api from ")
    assert "is not known here" in text and "so no one is counted" in text
    assert f"{figure(result, FactKind.COMMIT_ACTIVITY, 'commits')} commit(s)" in text
    assert not any("names a person" in n for n in result.limitations), result.limitations
