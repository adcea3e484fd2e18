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
    assert owned["temporalLabel"]["axis"] == "AS_OF"
    assert owned["directJudgment"] == "checkout-web was owned by Checkout Squad."
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


CHANGES = """mutation($q: String!) {
  investigate(input: {question: $q}) {
    result { id directJudgment changesTotal
      changes { ref title at subjectKey byKey byName claimedFactId } }
  }
}"""
CHANGES_PAGE = """query($id: ID!, $after: String) {
  investigation(id: $id) { claimedFacts { id kind evidenceTotal
    evidence(first: 10, after: $after) { totalCount edges { node { key title recordKind } }
                                         pageInfo { hasNextPage endCursor } } } }
}"""


async def test_what_changed_lists_the_changes_and_pages_through_all_of_them(
    gateway: Gateway, demo_token: tuple[str, str], tmp_path: Path
) -> None:
    """"What changed" answers with the commits themselves (newest first, at most 10, with
    the total), each closing to the claimed changes fact, whose evidence connection pages
    through every one of them, exactly as many as the total."""
    org, token = demo_token
    repo = gitrepo.Repo(tmp_path / "changes")
    for day in range(27, 0, -1):  # 27 commits, one a day, the newest "change 1"
        repo.lines("vault/book.py", 2, f"d{day}")
        repo.commit(PEOPLE[day % 3], day, f"change {day}")
    await import_git(gateway.store.org(org), GitImport(repo.path))
    answer = (await _investigate_with(gateway, token, CHANGES, q="what changed in the vault module?"))
    result = answer["result"]
    assert result["changesTotal"] == 27
    assert [c["title"] for c in result["changes"]] == [f"change {d}" for d in range(1, 11)]
    assert [c["byName"] for c in result["changes"][:3]] == [PEOPLE[d % 3][0] for d in (1, 2, 3)]
    assert result["directJudgment"].startswith("27 change(s) to vault ")
    assert '"change 1" by ' + PEOPLE[1][0] in result["directJudgment"]
    (claim_id,) = {c["claimedFactId"] for c in result["changes"]}
    keys: list[str] = []
    after = None
    while True:
        page = data(await gateway.query(token, CHANGES_PAGE, {"id": result["id"], "after": after}))
        (claim,) = [c for c in page["investigation"]["claimedFacts"] if c["id"] == claim_id]
        assert claim["kind"] == "CHANGES"
        evidence = claim["evidence"]
        keys += [e["node"]["key"] for e in evidence["edges"]]
        assert {e["node"]["recordKind"] for e in evidence["edges"]} == {"COMMIT"}
        if not evidence["pageInfo"]["hasNextPage"]:
            break
        after = evidence["pageInfo"]["endCursor"]
    assert len(keys) == len(set(keys)) == evidence["totalCount"] == claim["evidenceTotal"] == 27
    assert {c["ref"] for c in result["changes"]} <= set(keys)
