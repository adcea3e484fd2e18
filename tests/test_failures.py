"""Every failure is tagged: an unexpected exception in any stage of an investigation ends as a
saved failed result with that closed stage and the classification `internal` (never a bare
error, never the exception's text), and the GraphQL answer carries both."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import FailureClassification, FailureStage, InvestigationResult, Outcome
from engine.domain.embedding import HashingEmbedder
from engine.investigation import pipeline as engine_pipeline
from engine.investigation import reads as engine_reads
from engine.investigation import subruns as engine_subruns
from engine.investigation.investigate import InvestigationFailed, InvestigationRequest
from engine.memory import MemoryStore
from engine.memory.results import MemoryResults
from engine.ports import OrgGraph
from graph.projection import Projector
from graph.results import ResultArchive
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.test_investigate import investigator

QUESTION = InvestigationRequest("why is payments-api behind?")
SECRET = "secret detail of the failure"


def boom(*_: Any, **__: Any) -> Any:
    raise RuntimeError(SECRET)


async def aboom(*_: Any, **__: Any) -> Any:
    raise RuntimeError(SECRET)


@pytest.fixture(scope="module")
async def demo() -> OrgGraph:
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    graph = store.org(org)
    lines = (json.dumps(r) for r in generate(600))
    assert (await Projector(graph, source="demo").run(lines)).ok
    return graph


class Exploding(DeterministicSynthesizer):
    async def synthesize(self, *_: Any, **__: Any) -> Any:
        raise RuntimeError(SECRET)


# How to make each stage raise: (patch target, attribute, replacement) or a setup function.
INJECTIONS: dict[FailureStage, Callable[[pytest.MonkeyPatch, Any], None]] = {
    FailureStage.INTERPRET: lambda mp, e: mp.setattr(engine_subruns, "interpret", boom),
    FailureStage.RESOLVE: lambda mp, e: mp.setattr(e.resolver, "resolve", aboom),
    FailureStage.PLAN: lambda mp, e: mp.setattr(engine_reads, "plan", boom),
    FailureStage.READ_FACTS: lambda mp, e: mp.setattr(engine_reads, "read_facts", aboom),
    FailureStage.DISCOVER_CONTEXT: lambda mp, e: mp.setattr(e.graph, "episodes_of", aboom),
    FailureStage.SYNTHESIZE: lambda mp, e: setattr(e, "synthesizer", Exploding()),
    FailureStage.VALIDATE: lambda mp, e: mp.setattr(engine_pipeline, "require_valid", boom),
}


@pytest.mark.parametrize("stage", list(INJECTIONS), ids=lambda s: s.value)
async def test_a_runtime_error_in_each_stage_is_a_saved_tagged_failure(
    demo: OrgGraph, stage: FailureStage, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = investigator(demo)
    INJECTIONS[stage](monkeypatch, engine)
    result, reused = await engine.investigate("me", QUESTION)
    assert not reused and result.outcome is Outcome.FAILED
    assert result.failure_stage is stage
    assert result.failure_classification is FailureClassification.INTERNAL
    monkeypatch.undo()
    stored = (await demo.results.by_ids([result.id]))[result.id]
    assert InvestigationResult.model_validate_json(stored) == result
    assert SECRET not in stored


async def test_a_runtime_error_while_saving_is_tagged_persist(
    demo: OrgGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MemoryResults, "save", aboom)
    with pytest.raises(InvestigationFailed) as failed:
        await investigator(demo).investigate("me", QUESTION)
    assert failed.value.result.failure_stage is FailureStage.PERSIST
    assert failed.value.result.failure_classification is FailureClassification.INTERNAL
    assert SECRET not in failed.value.result.model_dump_json()


async def test_without_a_fault_the_same_question_answers(demo: OrgGraph) -> None:
    """The control: the injections above are what failed, not the question."""
    result, _ = await investigator(demo).investigate("me", QUESTION)
    assert result.outcome is Outcome.ANSWERED and result.failure_stage is None


ASK = """mutation { investigate(input: {question: "why is payments-api behind?"}) {
  result { id outcome failureStage failureClassification } } }"""


async def test_graphql_carries_the_stage_and_classification(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = new_org()
    token = await gateway.token(org)
    lines = (json.dumps(r) for r in generate(300))
    assert (await Projector(await gateway.store.serving(org), source="demo").run(lines)).ok
    monkeypatch.setattr(engine_reads, "plan", boom)
    body = (await gateway.query(token, ASK)).json()
    result = body["data"]["investigate"]["result"]
    assert result["outcome"] == "FAILED"
    assert (result["failureStage"], result["failureClassification"]) == ("PLAN", "INTERNAL")
    assert SECRET not in json.dumps(body)
    monkeypatch.setattr(ResultArchive, "save", aboom)  # nothing can be saved: an error
    body = (await gateway.query(token, ASK)).json()
    assert SECRET not in json.dumps(body)
    assert body["errors"][0]["extensions"] == {
        "code": "INTERNAL_SERVER_ERROR",
        "failureStage": "persist",
        "failureClassification": "internal",
    }
    monkeypatch.undo()
    await gateway.store.drop_org(org)
