"""Apollo Federation v2: the gateway as a subgraph. Composition with a second subgraph written
in Node (@apollo/subgraph) by @theguild/federation-composition runs here, so a schema change
that breaks composition fails the build; and a query crossing both subgraphs runs through
@graphql-hive/gateway against the live gateway, with the bearer token forwarded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from resolvers.relay import to_global_id
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject
from tests.js_tools import run_json, run_json_async

ROOT = Path(__file__).resolve().parent.parent


def _compose(sdl: str) -> dict[str, Any]:
    return run_json("federation.mjs", "compose", stdin=sdl)


def test_the_checked_in_subgraph_composes_with_a_node_subgraph() -> None:
    composed = _compose((ROOT / "schema.federated.graphql").read_text())
    assert composed["errors"] == []
    supergraph = composed["supergraph"]
    assert 'join__graph(name: "fabric"' in supergraph
    assert '@join__type(graph: FABRIC, key: "key")' in supergraph
    assert '@join__type(graph: ONCALL, key: "key")' in supergraph


def test_composition_fails_on_a_change_that_breaks_the_supergraph() -> None:
    """The check can fail: `Subject.key` as an Int conflicts with the other subgraph."""
    sdl = (ROOT / "schema.federated.graphql").read_text()
    broken = sdl.replace('Stable key, e.g. `repository:payments-api`."""\n  key: String!',
                         'Stable key, e.g. `repository:payments-api`."""\n  key: Int!')
    assert broken != sdl
    assert _compose(broken)["errors"]


async def _org(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), [subject("repository:alpha"), subject("team:core")])
    return org, await gateway.token(org)


async def test_a_query_crossing_both_subgraphs_through_hive_gateway(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    queries = [
        {"query": '{ subject(key: "repository:alpha") { name kind oncall { handle escalation } } }'},
        {"query": "{ rotation { key name kind oncall { handle } } }"},
        {"query": '{ subject(key: "repository:alpha") { name } }', "anonymous": True},
    ]
    report = await run_json_async(
        "federation.mjs", "serve",
        env={"FABRIC_URL": gateway.url, "FABRIC_TOKEN": token, "FABRIC_QUERIES": json.dumps(queries)},
    )  # fmt: skip
    assert report["errors"] == []
    ours_then_theirs, theirs_then_ours, anonymous = report["results"]
    assert ours_then_theirs["body"] == {"data": {"subject": {
        "name": "alpha", "kind": "REPOSITORY",
        "oncall": {"handle": "@alpha-oncall", "escalation": ["primary", "secondary"]}}}}  # fmt: skip
    assert theirs_then_ours["body"] == {"data": {"rotation": [
        {"key": "repository:alpha", "name": "alpha", "kind": "REPOSITORY",
         "oncall": {"handle": "@alpha-oncall"}},
        {"key": "team:core", "name": "core", "kind": "TEAM", "oncall": None},
    ]}}  # fmt: skip
    # Without the client's token our subgraph answers nothing (401 to the router).
    assert anonymous["body"].get("data") in (None, {"subject": None})
    assert anonymous["body"]["errors"]
    assert set(report["seenByNodeSubgraph"]) == {f"Bearer {token}"}


async def test_entities_resolve_in_the_callers_organisation_only(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    other = new_org()
    await gateway.store.bootstrap(other)
    await load(gateway.store.org(other), [subject("repository:secret")])
    query = """query($r: [_Any!]!) { _entities(representations: $r) {
      ... on Subject { key name } } }"""
    reps = [
        {"__typename": "Subject", "key": "repository:alpha"},
        {"__typename": "Subject", "id": to_global_id("Subject", "team:core")},
        {"__typename": "Subject", "key": "repository:secret"},
        {"__typename": "Subject", "id": "not-an-id"},
    ]
    answer = (await gateway.query(token, query, {"r": reps})).json()
    assert answer == {"data": {"_entities": [
        {"key": "repository:alpha", "name": "alpha"}, {"key": "team:core", "name": "core"},
        None, None]}}  # fmt: skip
    for bad in ([{"key": "repository:alpha"}], [{"__typename": "Episode", "key": "x"}], ["x"]):
        refused = (await gateway.query(token, query, {"r": bad})).json()
        assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", refused
    sdl = (await gateway.query(token, "{ _service { sdl } }")).json()["data"]["_service"]["sdl"]
    assert sdl + "\n" == (ROOT / "schema.federated.graphql").read_text()
