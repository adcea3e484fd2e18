"""The GraphQL AnswerProjection carries what the engine's projection carries: the time context,
the candidates of a clarification, and the failure stage and classification."""

from __future__ import annotations

from typing import Any

import pytest

from engine.investigation import reads as engine_reads
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import subject

ASK = """mutation($q: String!, $at: DateTime) { investigate(input: {question: $q, asOf: $at}) {
  result { id outcome } } }"""
VIEW = """query($id: ID!) { answerProjection(resultId: $id) {
  outcome timeContext { axis asOf start end } candidates { name receipt subject { key } }
  clarificationPrompt failureStage failureClassification truncated } }"""
PROJECT = "mutation($r: [JSON!]!) { project(records: $r) { accepted } }"


async def view(gateway: Gateway, token: str, question: str, at: str | None = None) -> Any:
    asked = (await gateway.query(token, ASK, {"q": question, "at": at})).json()
    result_id = asked["data"]["investigate"]["result"]["id"]
    body = (await gateway.query(token, VIEW, {"id": result_id})).json()
    return body["data"]["answerProjection"]


async def test_the_projection_carries_time_candidates_and_failure(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = new_org()
    token = await gateway.token(org)
    records = [subject("service:a", "Gateway"), subject("service:b", "Gateway")]
    assert (await gateway.query(token, PROJECT, {"r": records})).json()["data"]
    ambiguous = await view(gateway, token, "how is Gateway doing?")
    assert ambiguous["outcome"] == "CLARIFICATION_REQUIRED"
    assert {c["subject"]["key"] for c in ambiguous["candidates"]} == {"service:a", "service:b"}
    assert all(c["receipt"] for c in ambiguous["candidates"])
    assert ambiguous["clarificationPrompt"] and ambiguous["failureStage"] is None
    assert ambiguous["timeContext"] == {"axis": "CURRENT", "asOf": None, "start": None,
                                        "end": None}  # fmt: skip
    past = await view(gateway, token, "how is service:a doing?", "2026-01-05T00:00:00Z")
    assert past["timeContext"]["axis"] == "AS_OF"
    assert past["timeContext"]["asOf"].startswith("2026-01-05T00:00:00")
    assert past["candidates"] == []

    def boom(*_: Any, **__: Any) -> Any:
        raise RuntimeError("injected")

    monkeypatch.setattr(engine_reads, "plan", boom)
    failed = await view(gateway, token, "how is service:a doing?")
    assert (failed["outcome"], failed["failureStage"], failed["failureClassification"]) == (
        "FAILED", "PLAN", "INTERNAL",
    )  # fmt: skip
    await gateway.store.drop_org(org)
