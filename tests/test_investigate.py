"""The investigation engine end to end on the demo organisation.

On the in-memory graph (engine.memory), so no database runs: the engine reads only the port,
which tests/test_graph_contract.py holds every backend to; tests/test_investigate_api.py runs
investigations over HTTP and FalkorDB."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import Axis, InvestigationResult, Outcome, Standing, Versions
from engine.domain.embedding import HashingEmbedder
from engine.domain.errors import BadUserInput
from engine.domain.validation import validate
from engine.investigation.investigate import InvestigationFailed, InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import GraphStore, OrgGraph
from engine.providers import default_providers
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SIGNER = ReceiptSigner(b"k" * 32)
VERSIONS = Versions(projection="v1", embedder="local/char-ngram-v1#128@t3:f200")


@pytest.fixture(scope="module")
def memory() -> MemoryStore:
    """The store every test here reads: in memory, with the local embedder."""
    return MemoryStore(embedder=HashingEmbedder(128))


async def load_demo(store: MemoryStore, records: int) -> OrgGraph:
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    report = await Projector(graph, source="demo").run(json.dumps(r) for r in generate(records))
    assert report.ok
    return graph


@pytest.fixture(scope="module")
async def demo(memory: MemoryStore) -> OrgGraph:
    return await load_demo(memory, 600)


def investigator(
    graph: OrgGraph,
    reuse: timedelta | None = None,
    *,
    now: datetime = NOW,
    ring: ReferenceRing | None = None,
) -> Investigator:
    """The engine as the tests ask it: every provider, the deterministic synthesizer, a fixed
    clock (`now`) and signer; `ring` carries a session's recent references between asks."""
    return Investigator(
        graph, Resolver(graph, ring or ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=lambda: now, reuse_max_age=reuse,
    )  # fmt: skip


async def answer(
    graph: OrgGraph,
    question: str,
    *,
    now: datetime = NOW,
    ring: ReferenceRing | None = None,
) -> InvestigationResult:
    """One question through `investigator(graph, now=now, ring=ring)`, its result alone (a
    module asking at its own instant binds `now` once: `ask = partial(answer, now=CLOCK)`)."""
    result, _ = await investigator(graph, now=now, ring=ring).investigate(
        "me", InvestigationRequest(question)
    )
    return result


async def test_why_is_payments_api_behind_closes_to_evidence(
    demo: OrgGraph, memory: MemoryStore
) -> None:
    engine = investigator(demo)
    engine.round_trips = lambda: memory.round_trips.total
    result, reused = await engine.investigate(
        "me", InvestigationRequest("why is payments-api behind?")
    )
    assert not reused and result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("repository:payments-api",)
    live = [d for d in result.drivers if d.standing is not Standing.WITHHELD]
    assert live and all(d.evidence for d in live)
    assert {d.category.value for d in live} >= {"delivery_slowdown"}
    assert result.direct_judgment and "payments-api" in result.direct_judgment
    assert result.temporal_label is not None and result.temporal_label.axis is Axis.CURRENT
    assert result.trace is not None and result.trace.graph_round_trips > 0
    # Elements with no validity window (payments-api's dependency edge) are counted.
    windowless = [o for o in result.coverage if o.reason.value == "elements_without_window"]
    assert windowless and windowless[0].count
    stored = await demo.results.by_ids([result.id])
    assert json.loads(stored[result.id])["id"] == result.id


async def test_historical_ownership_is_labelled(demo: OrgGraph) -> None:
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("who owned checkout-web as of 2026-03-01?")
    )
    assert result.outcome is Outcome.ANSWERED
    assert result.temporal_label is not None and result.temporal_label.axis is Axis.AS_OF
    assert result.temporal_label.effective_to == datetime(2026, 3, 1, tzinfo=UTC)
    # The owner by name, in the past tense; its key in the claimed ownership fact.
    assert result.direct_judgment == "checkout-web was owned by Checkout Squad."
    owned = [c for c in result.claimed_facts if c.kind == "ownership"]
    assert len(owned) == 1 and owned[0].value["owners"] == ["team:checkout"]


async def test_clarification_then_a_receipt_binds_the_answer(demo: OrgGraph) -> None:
    question = "why is Alex behind?"
    first, _ = await investigator(demo).investigate("me", InvestigationRequest(question))
    assert first.outcome is Outcome.CLARIFICATION_REQUIRED
    assert first.clarification_prompt and len(first.candidates) >= 2
    assert not first.drivers and not first.claimed_facts
    chosen = next(c for c in first.candidates if c.subject_key == "person:alex-kim")
    second, _ = await investigator(demo).investigate(
        "me", InvestigationRequest(question, prior_receipts=(chosen.receipt,))
    )
    assert second.outcome is Outcome.ANSWERED and second.subject_keys == ("person:alex-kim",)
    # A receipt is bound to its actor and question.
    other, _ = await investigator(demo).investigate(
        "someone-else", InvestigationRequest(question, prior_receipts=(chosen.receipt,))
    )
    assert other.outcome is Outcome.CLARIFICATION_REQUIRED
    no_clarifying, _ = await investigator(demo).investigate(
        "me", InvestigationRequest(question, allow_clarification=False)
    )
    assert no_clarifying.outcome is Outcome.NO_MATCH


async def test_unknown_subject_is_no_match_and_reads_no_facts(demo: OrgGraph) -> None:
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("why is zorblax-quantum-frobnicator behind?")
    )
    assert result.outcome is Outcome.NO_MATCH and not result.drivers
    assert not [o for o in result.coverage if o.source == "delivery"]


@pytest.mark.parametrize("request_", [
    InvestigationRequest("why is payments-api behind?", as_of=NOW + timedelta(days=2)),
    InvestigationRequest("why is payments-api behind?", start=NOW - timedelta(days=401), end=NOW),
    InvestigationRequest("why is payments-api behind?", start=NOW, end=NOW - timedelta(days=3)),
])
async def test_times_the_engine_will_not_read_are_refused(
    demo: OrgGraph, request_: InvestigationRequest
) -> None:
    with pytest.raises(BadUserInput):
        await investigator(demo).investigate("me", request_)


async def test_a_time_within_the_skew_is_clamped(demo: OrgGraph) -> None:
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("why is payments-api behind?",
                                   as_of=NOW + timedelta(minutes=2))
    )
    assert result.temporal_label is not None
    assert result.temporal_label.effective_to == NOW and result.temporal_label.note


async def test_a_pruned_provider_is_recorded_in_coverage(demo: OrgGraph) -> None:
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("how is payments-api doing?")
    )
    assert result.outcome is Outcome.ANSWERED
    pruned = {o.source: o for o in result.coverage if o.state.value == "pruned"}
    assert "deploys" in pruned  # deploys are about services, payments-api is a repository
    assert pruned["deploys"].reason.value == "unsupported_subject_kinds"
    assert result.trace is not None and "delivery" in result.trace.providers_chosen
    assert ("deploys", pruned["deploys"].reason) in result.trace.providers_pruned
    # Pruning is not a degradation: nothing about it in the limitations.
    assert not any("deploys" in text for text in result.limitations)
    # The saved result is the validated one; validating it again against no facts shows
    # what the validator guards: every claimed fact must match a canonical fact.
    if result.claimed_facts:
        assert validate(result, {})


async def test_answer_reuse_hits_and_misses_after_ingest(demo: OrgGraph, memory: MemoryStore) -> None:
    graph = await load_demo(memory, 300)
    engine = investigator(graph, reuse=timedelta(hours=1))
    request = InvestigationRequest("why is payments-api behind?")
    first, reused_first = await engine.investigate("me", request)
    again, reused_again = await engine.investigate("me", request)
    assert not reused_first and reused_again and again.id == first.id
    await Projector(graph, source="more").run(
        ['{"type":"subject","key":"team:new","kind":"team","name":"New"}'])
    after, reused_after = await engine.investigate("me", request)
    assert not reused_after and after.id != first.id
    # Another organisation never gets this one's answer (it may reuse its own).
    elsewhere = investigator(demo, reuse=timedelta(hours=1))
    other, _ = await elsewhere.investigate("me", request)
    assert other.org_id == demo.org_id != first.org_id
    assert other.id not in {first.id, after.id}


async def test_the_graph_going_down_fails_with_a_stage(demo: OrgGraph) -> None:
    class Broken:
        def __init__(self, graph: OrgGraph) -> None:
            self._graph = graph

        def __getattr__(self, name: str) -> object:
            return getattr(self._graph, name)

        async def source_records_of(self, *args: object, **kwargs: object) -> object:
            from engine.ports import GraphUnavailable

            raise GraphUnavailable("down")

    broken = Broken(demo)
    engine = Investigator(
        broken, Resolver(demo, ReferenceRing(), demo.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=lambda: NOW,
    )
    with pytest.raises(InvestigationFailed) as failed:
        await engine.investigate("me", InvestigationRequest("why is payments-api behind?"))
    assert failed.value.result.failure_stage is not None
    assert failed.value.result.failure_stage.value == "read_facts"
    assert failed.value.result.failure_classification is not None
    assert failed.value.result.failure_classification.value == "graph_unavailable"


async def test_a_cohort_question_finds_the_subjects_with_those_records(demo: OrgGraph) -> None:
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("which services had incidents last week?")
    )
    assert result.outcome is Outcome.ANSWERED
    assert "service:payments" in result.subject_keys
    assert all(key.startswith("service:") for key in result.subject_keys)
    assert result.temporal_label is not None and result.temporal_label.axis is Axis.RANGE


async def test_a_kind_word_narrows_the_reference(demo: OrgGraph) -> None:
    # "payments" alone is a team, a repository alias and a service alias.
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("how is the payments service doing?")
    )
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("service:payments",)


async def test_recent_ownership_change_closes_to_its_relationship(demo: OrgGraph) -> None:
    from engine.domain.contract import DriverCategory

    engine = investigator(demo, now=datetime(2026, 3, 1, tzinfo=UTC))
    result, _ = await engine.investigate("me", InvestigationRequest("how is checkout-web doing?"))
    changes = [d for d in result.drivers if d.category is DriverCategory.OWNERSHIP_CHANGE]
    assert len(changes) == 1 and "Checkout Squad" in changes[0].statement
    assert changes[0].relationship_path == (changes[0].evidence[0].ref,)
    assert changes[0].evidence[0].kind.value == "relationship"


async def test_episode_trouble_is_withheld_not_shown(demo: OrgGraph) -> None:
    from engine.domain.answer import project

    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("how is the payments service doing?")
    )
    withheld = [d for d in result.drivers if d.standing is Standing.WITHHELD]
    assert withheld, "the demo story has a rolled-back deploy episode in the window"
    view = project(result)
    assert all(d.standing is not Standing.WITHHELD for d in view.drivers)
    assert view.budget.withheld_omitted == len(withheld)


async def test_withheld_episode_trouble_is_never_the_judgment(memory: MemoryStore) -> None:
    """An episode's words ("outage") only withhold a driver: with no canonical fact signalling,
    the judgment says so rather than restating the untrusted episode as the main reason."""
    org = new_org()
    await memory.bootstrap(org)
    graph = memory.org(org)
    report = await Projector(graph, source="t").run(json.dumps(r) for r in [
        {"type": "subject", "key": "repository:ledger", "kind": "repository", "name": "ledger"},
        {"type": "episode", "key": "episode:1", "occurred_at": "2026-11-18T09:00:00Z",
         "text": "ledger outage, deploy rolled back", "mentions": ["repository:ledger"]},
    ])  # fmt: skip
    assert report.ok
    result, _ = await investigator(graph).investigate(
        "me", InvestigationRequest("why is ledger behind?")
    )
    assert [d.standing for d in result.drivers] == [Standing.WITHHELD]
    assert result.direct_judgment is not None
    assert "episode" not in result.direct_judgment
    # The organisation holds no record "behind" is read from: the judgment says that.
    assert result.direct_judgment.startswith('Nothing here records "behind": this organisation')
    assert result.direct_judgment.endswith(  # what it holds, said first (w35)
        'and "behind" would be counted from pull request or work item records, so this '
        "question cannot be answered from its data; no other count stands in."
    )


async def test_reuse_rechecks_evidence_still_exists(memory: MemoryStore) -> None:
    graph = await load_demo(memory, 300)
    engine = investigator(graph, reuse=timedelta(hours=1))
    request = InvestigationRequest("why is payments-api behind?")
    first, _ = await engine.investigate("me", request)
    cited = next(e.ref for d in first.drivers for e in d.evidence if e.kind.value == "source_record")
    # Retract the evidence without moving the projection epoch (as a concurrent writer might):
    # reuse must notice on its own.
    epoch = await graph.results.projection_epoch()
    await Projector(graph, source="fix").run(
        [json.dumps({"type": "tombstone", "target": "source_record", "key": cited})])
    assert epoch is not None
    await graph.results.touch_projection_epoch(epoch)
    again, reused = await engine.investigate("me", request)
    assert not reused and again.id != first.id


async def test_resolution_without_the_vector_arm_is_disclosed() -> None:
    from engine.domain.limitations import DEGRADED_RETRIEVAL

    graph = await load_demo(MemoryStore(), 600)  # no embedder: the vector arm is off
    engine = investigator(graph)
    result, _ = await engine.investigate(
        "me", InvestigationRequest("why is paymnets-api behind?")  # a typo: hybrid search
    )
    assert result.outcome is Outcome.ANSWERED
    assert any(o.reason.value == "vector_arm_disabled" for o in result.coverage)
    assert DEGRADED_RETRIEVAL in result.limitations


async def test_no_match_says_the_organisation_is_empty_only_when_it_holds_no_subject(
    store: GraphStore, org: str
) -> None:
    # On every store: the check reads the most recently active subject, and a subject never
    # active (no records at all here) still counts.
    graph = store.org(org)
    question = InvestigationRequest("why is zorblax-quantum-frobnicator behind?")
    empty, _ = await investigator(graph).investigate("me", question)
    assert empty.outcome is Outcome.NO_MATCH
    assert any("holds no data" in note for note in empty.limitations)
    quiet = {"type": "subject", "key": "service:quiet", "kind": "service", "name": "quiet"}
    await Projector(graph, source="t").run([json.dumps(quiet)])
    held, _ = await investigator(graph).investigate("me", question)
    assert held.outcome is Outcome.NO_MATCH
    assert not any("holds no data" in note for note in held.limitations)


async def test_what_changed_on_a_repository_lists_its_merged_pull_requests(
    demo: OrgGraph,
) -> None:
    """Pull requests are changes when merged: their titles, newest merge first, all counted."""
    result, _ = await investigator(demo).investigate(
        "me", InvestigationRequest("what changed in payments-api in the last 90 days?")
    )
    assert result.outcome is Outcome.ANSWERED
    found = await demo.source_records_of(["repository:payments-api"])
    merged = sorted(
        (r for r in found["repository:payments-api"]
         if r.status == "merged" and r.end is not None
         and NOW - timedelta(days=90) <= r.end < NOW),
        key=lambda r: (r.end, r.key), reverse=True,
    )  # fmt: skip
    assert merged and result.changes_total == len(merged)
    assert [c.title for c in result.changes] == [r.title for r in merged[:10]]
    assert (result.direct_judgment or "").startswith(f"{len(merged)} change(s) to payments-api")
