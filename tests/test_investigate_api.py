"""The investigate mutation and result queries over HTTP, on the demo organisation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph.git.importer import GitImport, import_git
from graph.projection import Projector
from sources.demo import generate
from tests import gitrepo
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.test_reads import data

INVESTIGATE = """mutation($q: String!, $asOf: DateTime, $receipts: [String!]) {
  investigate(input: {question: $q, asOf: $asOf, allowClarification: true,
                      priorSubjectReceipts: $receipts}) {
    reused
    result { id outcome directJudgment currentState
      temporalLabel { axis effectiveFrom effectiveTo grain }
      drivers { standing category statement subjects { name } evidence { ref kind }
                claimedFacts { kind value } }
      coverage { source state reason } limitations
      candidates { subject { name key } name score receipt } clarificationPrompt
      trace { graphRoundTrips stages { name milliseconds } } }
  }
}"""


@pytest.fixture(scope="module")
async def demo_token(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(600))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    return org, await gateway.token(org)


async def _investigate(gateway: Gateway, token: str, **variables: Any) -> dict[str, Any]:
    result: dict[str, Any] = data(await gateway.query(token, INVESTIGATE, variables))
    return result["investigate"]


async def test_the_issues_example_question(gateway: Gateway, demo_token: tuple[str, str]) -> None:
    _, token = demo_token
    payload = await _investigate(gateway, token, q="why is payments-api behind?")
    result = payload["result"]
    assert result["outcome"] == "ANSWERED" and not payload["reused"]
    assert result["drivers"] and all(d["evidence"] for d in result["drivers"])
    assert all(d["claimedFacts"] for d in result["drivers"] if d["category"] != "CONTEXT")
    assert result["temporalLabel"]["axis"] == "CURRENT"
    shown = [d for d in result["drivers"] if d["standing"] != "WITHHELD"]
    assert {s["name"] for d in shown for s in d["subjects"]} == {"payments-api"}
    stored = data(await gateway.query(token, 'query($id: ID!) { investigation(id: $id) { id '
                                             "outcome directJudgment } }", {"id": result["id"]}))
    assert stored["investigation"]["directJudgment"] == result["directJudgment"]
    as_node = data(await gateway.query(token, 'query($id: ID!) { node(id: $id) { __typename id '
                                              "... on InvestigationResult { outcome } } }",
                                       {"id": result["id"]}))
    assert as_node["node"] == {"__typename": "InvestigationResult", "id": result["id"],
                               "outcome": "ANSWERED"}
    listed = data(await gateway.query(token, "{ investigations(first: 5) { edges { node { id } } } }"))
    assert result["id"] in {e["node"]["id"] for e in listed["investigations"]["edges"]}
    view = data(await gateway.query(
        token, 'query($id: ID!) { answerProjection(resultId: $id, budget: {maxDrivers: 1}) '
               "{ truncated drivers { statement } budget { driversOmitted } temporalLabel { axis } } }",
        {"id": result["id"]}))["answerProjection"]
    assert len(view["drivers"]) <= 1
    assert view["truncated"] == (view["budget"]["driversOmitted"] > 0)
    assert view["temporalLabel"]["axis"] == "CURRENT"


async def test_clarify_then_bind_with_a_receipt(gateway: Gateway, demo_token: tuple[str, str]) -> None:
    _, token = demo_token
    first = (await _investigate(gateway, token, q="why is Alex behind?"))["result"]
    assert first["outcome"] == "CLARIFICATION_REQUIRED" and first["clarificationPrompt"]
    receipt = first["candidates"][0]["receipt"]
    second = (await _investigate(gateway, token, q="why is Alex behind?", receipts=[receipt]))
    assert second["result"]["outcome"] == "ANSWERED"


async def test_historical_and_refused_times(gateway: Gateway, demo_token: tuple[str, str]) -> None:
    _, token = demo_token
    owned = (await _investigate(gateway, token, q="who owned checkout-web?",
                                asOf="2026-03-01T00:00:00Z"))["result"]
    assert owned["temporalLabel"]["axis"] == "AS_OF" and "team:checkout" in owned["directJudgment"]
    refused = await gateway.query(token, INVESTIGATE, {"q": "why is payments-api behind?",
                                                       "asOf": "2030-01-01T00:00:00Z"})
    assert refused.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"


async def test_results_of_another_organisation_look_unknown(
    gateway: Gateway, demo_token: tuple[str, str]
) -> None:
    _, token = demo_token
    result = (await _investigate(gateway, token, q="why is payments-api behind?"))["result"]
    stranger = await gateway.token(new_org())
    for query in ('query($id: ID!) { investigation(id: $id) { id } }',
                  'query($id: ID!) { answerProjection(resultId: $id) { resultId } }'):
        mine = data(await gateway.query(stranger, query, {"id": result["id"]}))
        unknown = data(await gateway.query(stranger, query, {"id": "SW52ZXN0aWdhdGlvblJlc3VsdDp4"}))
        malformed = data(await gateway.query(stranger, query, {"id": "!!"}))
        assert mine == unknown == malformed


async def test_project_mutation_loads_records_and_refuses_readers(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    writer = await gateway.token(org)
    mutation = 'mutation($r: [JSON!]!) { project(records: $r, source: "api") { accepted invalid invalidLines } }'
    records = [{"type": "subject", "key": "team:a", "kind": "team", "name": "A"}, {"type": "nope"}]
    report = data(await gateway.query(writer, mutation, {"r": records}))["project"]
    assert report["accepted"] == 1 and report["invalid"] == 1
    assert report["invalidLines"][0].startswith("2:")
    reader = await gateway.token(org, scopes=frozenset({"read"}))
    refused = await gateway.query(reader, mutation, {"r": records})
    assert refused.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"


EVIDENCE = """mutation($q: String!) {
  investigate(input: {question: $q}) {
    result { drivers { evidence { ref } claimedFacts { id kind evidenceTotal
      evidence(first: 7) { totalCount edges { cursor node { key } }
                           pageInfo { hasNextPage endCursor } } } } }
  }
}"""
MORE = """mutation($q: String!, $after: String) {
  investigate(input: {question: $q}) {
    result { drivers { claimedFacts { id
      evidence(first: 7, after: $after) { edges { node { key } }
                                          pageInfo { hasNextPage endCursor } } } } }
  }
}"""


PEOPLE = [("Ann Bo", "ann@x.example"), ("Cy Do", "cy@x.example"), ("Ed Fu", "ed@x.example")]


async def test_evidence_reads_back_every_record_a_fact_rests_on(
    gateway: Gateway, demo_token: tuple[str, str], tmp_path: Path
) -> None:
    org, token = demo_token
    repo = gitrepo.Repo(tmp_path / "busy")
    for day in range(1, 28):  # 27 days of changes by three people: 81 daily rollups
        repo.lines("core/engine.py", 3, f"d{day}")
        repo.commit(PEOPLE[day % 3], day, f"change {day}")
    await import_git(gateway.store.org(org), GitImport(repo.path))
    question = "who changed the core module?"
    result = (await _investigate_with(gateway, token, EVIDENCE, q=question))["result"]
    checked = 0
    for driver in result["drivers"]:
        listed = {e["ref"] for e in driver["evidence"]}
        for claim in driver["claimedFacts"]:
            page = claim["evidence"]
            keys = [e["node"]["key"] for e in page["edges"]]
            after = page["pageInfo"]["endCursor"] if page["pageInfo"]["hasNextPage"] else None
            while after is not None:  # page on with the cursor until the end
                more = await _investigate_with(gateway, token, MORE, q=question, after=after)
                (same,) = [
                    c["evidence"] for d in more["result"]["drivers"] for c in d["claimedFacts"]
                    if c["id"] == claim["id"]
                ]  # fmt: skip
                keys += [e["node"]["key"] for e in same["edges"]]
                after = same["pageInfo"]["endCursor"] if same["pageInfo"]["hasNextPage"] else None
            assert len(keys) == len(set(keys)) == page["totalCount"] == claim["evidenceTotal"]
            assert listed <= set(keys)
            checked += claim["evidenceTotal"] > len(listed)
    assert checked, "no fact rested on more records than it lists: the test proves nothing"


async def _investigate_with(
    gateway: Gateway, token: str, query: str, **variables: Any
) -> dict[str, Any]:
    result: dict[str, Any] = data(await gateway.query(token, query, variables))
    return result["investigate"]
