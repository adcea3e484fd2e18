"""Rules an audit found unguarded (issue 35): a failure of the reuse lookup is a tagged failed
result; a rolling window is found again; a reuse miss names the dimension that missed; an id
prefix that starts no id is NotFound; the search depth and the similarity floor the resolver
asks for; the grain of a label comes only from providers whose facts were kept."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain import gates
from engine.domain.contract import (
    EvidenceKind,
    EvidenceRef,
    FailureClassification,
    FailureStage,
    InvestigationResult,
    Outcome,
    Versions,
)
from engine.domain.embedding import HashingEmbedder
from engine.domain.facts import Grain
from engine.domain.models import SubjectKind
from engine.domain.text import search_text
from engine.investigation.investigate import InvestigationFailed, InvestigationRequest, Investigator
from engine.investigation.reuse import DIMENSIONS, reuse_key
from engine.memory import MemoryStore
from engine.memory.results import MemoryResults
from engine.ports import GraphUnavailable, OrgGraph
from engine.providers import default_providers
from engine.resolving.matching import Match
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import NotFound, Resolved, Resolver, Stage
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.helpers import load, subject

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
SIGNER = ReceiptSigner(b"k" * 32)
VERSIONS = Versions(projection="v1", embedder="local/char-ngram-v1#128@t3:f200")


def story() -> list[dict[str, Any]]:
    """A repository with one merged pull request and no commit or rollup: its answer rests on
    instant facts alone."""
    return [
        subject("repository:api", "api"),
        {"type": "source_record", "key": "pull_request:1", "record_kind": "pull_request",
         "subject": "repository:api", "start": (NOW - 3 * DAY).isoformat(),
         "end": (NOW - 2 * DAY).isoformat(), "status": "merged"},
    ]  # fmt: skip


async def api_graph() -> OrgGraph:
    graph = MemoryStore(embedder=HashingEmbedder(128)).org(new_org())
    assert (await load(graph, story())).ok
    return graph


class Clock:
    """The request's instant, moved by the test (one second between two asks)."""

    def __init__(self) -> None:
        self.at = NOW

    def __call__(self) -> datetime:
        return self.at


def engine(graph: OrgGraph, clock: Clock | None = None, reuse: bool = True) -> Investigator:
    return Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=clock or (lambda: NOW),
        reuse_max_age=timedelta(hours=1) if reuse else None,
    )  # fmt: skip


async def unavailable(*_: Any, **__: Any) -> Any:
    raise GraphUnavailable("connection refused")


ASK = InvestigationRequest("why is api behind?")


# --- 1. a failure of the reuse lookup or its recheck ----------------------------------------


@pytest.mark.parametrize("where", ["lookup", "recheck"])
async def test_a_graph_failure_while_reusing_is_a_saved_failure_tagged_reuse(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = await api_graph()
    first, _ = await engine(graph).investigate("me", ASK)
    assert first.outcome is Outcome.ANSWERED
    if where == "lookup":
        monkeypatch.setattr(MemoryResults, "reusable", unavailable)
    else:
        monkeypatch.setattr(graph, "subjects_by_keys", unavailable)
    failed, reused = await engine(graph).investigate("me", ASK)
    assert not reused and failed.outcome is Outcome.FAILED
    assert failed.failure_stage is FailureStage.REUSE
    assert failed.failure_classification is FailureClassification.GRAPH_UNAVAILABLE
    monkeypatch.undo()
    stored = (await graph.results.by_ids([failed.id]))[failed.id]
    assert InvestigationResult.model_validate_json(stored) == failed


async def test_a_reuse_failure_that_cannot_be_saved_still_names_its_stage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graph = await api_graph()
    monkeypatch.setattr(MemoryResults, "reusable", unavailable)
    monkeypatch.setattr(MemoryResults, "save", unavailable)
    with pytest.raises(InvestigationFailed) as failed:
        await engine(graph).investigate("me", ASK)
    assert failed.value.result.failure_stage is FailureStage.REUSE
    assert failed.value.result.failure_classification is FailureClassification.GRAPH_UNAVAILABLE


# --- 2. a rolling window is reused; 7. a miss names its dimension ---------------------------


async def test_a_rolling_window_asked_again_a_second_later_is_reused() -> None:
    graph = await api_graph()
    clock = Clock()
    rolling = InvestigationRequest("what changed in api in the last 7 days?")
    first, _ = await engine(graph, clock).investigate("me", rolling)
    assert first.outcome is Outcome.ANSWERED
    clock.at = NOW + timedelta(seconds=1)
    again, reused = await engine(graph, clock).investigate("me", rolling)
    assert reused and again.id == first.id
    # The window it answered is stated, so a reader sees which seven days it covers.
    assert again.time_context == first.time_context
    # An explicit instant is another question: never the current axis's answer.
    past = InvestigationRequest(rolling.question, as_of=NOW - DAY)
    assert not (await engine(graph, clock).investigate("me", past))[1]


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_a_reuse_miss_names_the_dimension_that_missed(dimension: str) -> None:
    base = ("why is api behind?", "org-a", VERSIONS, "current")
    changed: dict[str, Any] = {
        "question": ("why is api slow?", "org-a", VERSIONS, "current"),
        "organisation": ("why is api behind?", "org-b", VERSIONS, "current"),
        "time_axis": ("why is api behind?", "org-a", VERSIONS, "as_of:2026-11-19T12:00:00Z"),
    }
    fields = {"contract": "v0", "projection": "v2", "embedder": "other#1", "model": "m",
              "epoch": 3, "retrieval_policy": "rp:x"}  # fmt: skip
    if dimension in fields:
        other = VERSIONS.model_copy(update={dimension: fields[dimension]})
        changed[dimension] = (base[0], base[1], other, base[3])
    one, two = reuse_key(*base), reuse_key(*changed[dimension])
    assert one.digest != two.digest
    assert one.differs(two) == (dimension,)
    assert one.differs(reuse_key(*base)) == ()


# --- 4. an id prefix that starts no id ------------------------------------------------------


async def test_an_id_prefix_that_starts_no_id_is_not_found_never_a_name() -> None:
    store = MemoryStore()
    org = new_org()
    assert (await load(store.org(org), [subject("service:db", "deadbeef-cafe")])).ok
    resolver = Resolver(store.org(org), ReferenceRing(), org)
    outcome = await resolver.resolve("me", "deadbeef-cafe")
    assert isinstance(outcome, NotFound) and outcome.stage is Stage.ID
    control = await resolver.resolve("me", "service:db")  # the subject itself is there
    assert isinstance(control, Resolved)


# --- 6. what the resolver asks the search for -----------------------------------------------


class Asked:
    """The real directory, with the depth and floor of each search it is asked for noted."""

    def __init__(self, graph: OrgGraph) -> None:
        self._graph = graph
        self.depths: list[int] = []
        self.floors: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def search_lexical(self, text: str, kinds: Any, limit: int) -> Any:
        self.depths.append(limit)
        return await self._graph.search_lexical(text, kinds, limit)

    async def search_similar(self, text: str, kinds: Any, limit: int, floor: float) -> Any:
        self.depths.append(limit)
        self.floors.append(floor)
        return await self._graph.search_similar(text, kinds, limit, floor)


async def test_the_resolver_searches_at_least_the_depth_floor_and_at_tau() -> None:
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    records = [subject("service:ledger", "ledger"), subject("team:core", "Core")]
    assert (await load(store.org(org), records)).ok
    asked = Asked(store.org(org))
    resolver = Resolver(asked, ReferenceRing(), org)  # type: ignore[arg-type]
    await resolver.resolve("me", "ledgr nightly", [SubjectKind.SERVICE], limit=1)
    assert asked.depths and min(asked.depths) == gates.MIN_SEARCH_DEPTH > 1
    assert asked.floors == [gates.SIMILARITY_FLOOR] and gates.SIMILARITY_FLOOR > 0


# --- 6. the label's grain: only providers whose facts were kept -----------------------------


async def test_the_grain_comes_only_from_providers_whose_facts_were_kept() -> None:
    graph = await api_graph()
    result, _ = await engine(graph, reuse=False).investigate(
        "me", InvestigationRequest("what changed in api in the last 7 days?")
    )
    assert result.outcome is Outcome.ANSWERED
    # Day-grained providers (activity, churn) ran over api and found nothing: the pull
    # request's instant facts alone set the grain.
    assert result.temporal_label is not None
    assert result.temporal_label.grain is Grain.INSTANT


# --- 3. driver evidence closes to a fact or to what was read --------------------------------


class Citing(DeterministicSynthesizer):
    """The deterministic synthesizer, but its first driver also cites `extra`."""

    def __init__(self, extra: EvidenceRef) -> None:
        self.extra = extra

    async def synthesize(self, *args: Any, **kwargs: Any) -> Any:
        out = await super().synthesize(*args, **kwargs)
        first = out.drivers[0]
        cited = first.model_copy(update={"evidence": (*first.evidence, self.extra)})
        return replace(out, drivers=(cited, *out.drivers[1:]))


@pytest.mark.parametrize(
    ("extra", "closes"),
    [
        (EvidenceRef(ref="pull_request:999", kind=EvidenceKind.SOURCE_RECORD), False),
        (EvidenceRef(ref="episode:invented", kind=EvidenceKind.EPISODE), False),
        (EvidenceRef(ref="pull_request:1", kind=EvidenceKind.SOURCE_RECORD), True),  # behind a fact
        (EvidenceRef(ref="repository:api", kind=EvidenceKind.SUBJECT), True),  # resolved, read
    ],
    ids=["record-behind-no-fact", "episode-never-read", "record-behind-a-fact", "subject-read"],
)
async def test_every_evidence_ref_closes_to_a_fact_or_to_what_was_read(
    extra: EvidenceRef, closes: bool
) -> None:
    graph = await api_graph()
    run = Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        Citing(extra), SIGNER, VERSIONS, now=lambda: NOW,
    )  # fmt: skip
    result, _ = await run.investigate("me", InvestigationRequest("what changed in api?"))
    if closes:
        assert result.outcome is Outcome.ANSWERED, result.failure_classification
    else:
        assert result.outcome is Outcome.FAILED
        assert result.failure_stage is FailureStage.VALIDATE
        assert result.failure_classification is FailureClassification.CONTRACT_VIOLATION


# --- survivors of bench/mutants.py, killed ---------------------------------------------------


def test_a_vector_only_hit_is_capped_whatever_its_similarity() -> None:
    from engine.domain.models import StoredSubject
    from engine.resolving.candidates import rank

    ledger = StoredSubject(key="service:ledger", id="l", kind=SubjectKind.SERVICE, name="ledger")
    (only,) = rank("money book nightly", [], [(ledger, 0.99)])
    assert only.lexical_rank is None and only.vector_similarity == 0.99
    assert only.score <= gates.VECTOR_CEILING < gates.LONE_COMMIT


def test_a_window_admits_its_start_and_never_its_stop() -> None:
    from engine.domain.windows import admits

    start, stop = NOW - DAY, NOW
    assert admits(start, stop, start) and admits(start, stop, stop - timedelta(microseconds=1))
    assert not admits(start, stop, stop) and not admits(start, stop, start - timedelta(seconds=1))


async def test_a_folded_exact_name_commits_at_095_as_the_rules_table_says() -> None:
    store = MemoryStore()
    org = new_org()
    assert (await load(store.org(org), [subject("service:pay", "Payments-API")])).ok
    outcome = await Resolver(store.org(org), ReferenceRing(), org).resolve("me", "payments api")
    assert isinstance(outcome, Resolved) and outcome.stage is Stage.EXACT_NAME
    assert outcome.confidence == gates.FOLDED_CONFIDENCE == 0.95  # below an exact name's 0.98


STALE_TEXT = "MATCH (s:Subject {org_id: $org, key: $key}) SET s.search_text = $text"


async def test_a_name_the_store_folds_otherwise_commits_as_folded_at_095(
    falkor: FalkorStore,
) -> None:
    """The store's exact-name read finds one subject by a search text folded otherwise than
    the resolver folds its handles now (written before names folded with anyascii, when
    "Łagoda" lost its "Ł": "agoda"). The resolver's own match is then no exact one: the
    resolution says FOLDED at the folded confidence, 0.95, as the rules table says."""
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        assert (await load(graph, [subject("service:lagoda", "Łagoda")])).ok
        old = search_text("service", "Łagoda", [], []).replace("lagoda", "agoda")
        await graph._write(STALE_TEXT, key="service:lagoda", text=old)
        outcome = await Resolver(graph, ReferenceRing(), org).resolve("me", "agoda")
        assert isinstance(outcome, Resolved) and outcome.stage is Stage.EXACT_NAME
        assert outcome.subject.key == "service:lagoda" and outcome.how is Match.FOLDED
        assert outcome.confidence == gates.FOLDED_CONFIDENCE
    finally:
        await falkor.drop_org(org)
