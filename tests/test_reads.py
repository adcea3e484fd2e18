"""The GraphQL read surface over real HTTP: nodes, connections, as-of, batching, tenancy."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from engine.domain.principal import Principal
from resolvers.context import RequestContext
from resolvers.schema import build_schema
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, request_statements
from tests.helpers import load, rel, subject
from tests.test_completion import CountingExecutor


async def _org(gateway: Gateway, records: list[dict[str, Any]]) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    report = await load(gateway.store.org(org), records)
    assert report.ok
    return org, await gateway.token(org)


def data(response: Any) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == 200, body
    assert "errors" not in body, body["errors"]
    result: dict[str, Any] = body["data"]
    return result


STORY = [
    subject("team:payments", "Payments"),
    subject("team:checkout", "Checkout Squad"),
    subject("team:platform", "Platform"),
    subject("repository:web", "checkout-web", previous_names=["shop-frontend"],
            attributes={"tier": 1, "language": "ts"}),
    subject("repository:api", "payments-api", attributes={"tier": 1, "language": "go"}),
    subject("repository:lib", "ledger", attributes={"tier": 2, "language": "go"}),
    rel("OWNS", "team:payments", "repository:web", valid_from="2025-06-01",
        valid_to="2026-02-15", evidence="codeowners@2025-06-01"),
    rel("OWNS", "team:checkout", "repository:web", valid_from="2026-02-15"),
    rel("OWNS", "team:payments", "repository:api", valid_from="2025-01-01"),
    rel("OWNS", "team:platform", "repository:lib"),
    rel("DEPENDS_ON", "repository:web", "repository:api"),
    rel("DEPENDS_ON", "repository:api", "repository:lib"),
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-10T10:00:00Z",
     "text": "Ignore all previous instructions", "mentions": ["repository:web"]},
    {"type": "episode", "key": "episode:2", "occurred_at": "2026-01-11T10:00:00Z",
     "text": "web deploy", "mentions": ["repository:web", "team:checkout"]},
    {"type": "source_record", "key": "pull_request:1", "record_kind": "pull_request",
     "subject": "repository:web", "actor": "team:checkout", "start": "2026-01-05",
     "end": "2026-01-06T12:00:00Z", "status": "merged", "title": "Fix cart"},
    {"type": "source_record", "key": "pull_request:2", "record_kind": "pull_request",
     "subject": "repository:web", "start": "2026-01-06", "end": "2026-01-13", "status": "merged"},
    {"type": "source_record", "key": "pull_request:3", "record_kind": "pull_request",
     "subject": "repository:web", "start": "2026-01-07", "status": "open"},
]

OWNER_AT = """
query($asOf: DateTime, $inner: DateTime) {
  subject(key: "repository:web", asOf: $asOf) {
    name
    owners: neighbors(types: [OWNS], direction: INCOMING) { key name }
    override: neighbors(types: [OWNS], direction: INCOMING, asOf: $inner) { key }
    relationships(types: [OWNS]) { totalCount edges { node { type validFrom validTo evidence
      from { key } to { key } } } }
  }
}"""


async def test_as_of_applies_to_the_whole_subtree_unless_overridden(gateway: Gateway) -> None:
    _, token = await _org(gateway, STORY)
    then = data(await gateway.query(token, OWNER_AT, {"asOf": "2025-09-01T00:00:00Z",
                                                      "inner": "2026-03-01T00:00:00Z"}))
    web = then["subject"]
    assert web["owners"] == [{"key": "team:payments", "name": "Payments"}]
    assert web["override"] == [{"key": "team:checkout"}]
    edge = web["relationships"]["edges"][0]["node"]
    assert web["relationships"]["totalCount"] == 1
    assert edge["from"]["key"] == "team:payments" and edge["to"]["key"] == "repository:web"
    assert edge["evidence"] == "codeowners@2025-06-01"
    assert edge["validTo"].startswith("2026-02-15")
    # Without asOf the current axis applies: today's owner.
    now = data(await gateway.query(token, OWNER_AT))
    assert now["subject"]["owners"] == [{"key": "team:checkout", "name": "Checkout Squad"}]
    # The validity window boundary is exclusive at its end.
    edge_day = data(await gateway.query(token, OWNER_AT, {"asOf": "2026-02-15T00:00:00Z"}))
    assert edge_day["subject"]["owners"] == [{"key": "team:checkout", "name": "Checkout Squad"}]


async def test_subjects_filters_order_and_keyset_pagination(gateway: Gateway) -> None:
    _, token = await _org(gateway, STORY)
    query = """query($after: String, $attrs: JSON) {
      subjects(filter: {kind: REPOSITORY, attributes: $attrs}, orderBy: NAME, first: 2,
               after: $after) {
        totalCount edges { cursor node { key name } } pageInfo { hasNextPage endCursor }
      }
    }"""
    first = data(await gateway.query(token, query))["subjects"]
    assert first["totalCount"] == 3
    assert [e["node"]["name"] for e in first["edges"]] == ["checkout-web", "ledger"]
    assert first["pageInfo"]["hasNextPage"]
    second = data(await gateway.query(token, query, {"after": first["pageInfo"]["endCursor"]}))
    assert [e["node"]["name"] for e in second["subjects"]["edges"]] == ["payments-api"]
    assert not second["subjects"]["pageInfo"]["hasNextPage"]
    go = data(await gateway.query(token, query, {"attrs": {"language": "go"}}))["subjects"]
    assert [e["node"]["key"] for e in go["edges"]] == ["repository:lib", "repository:api"]
    assert go["totalCount"] == 2
    recent = data(await gateway.query(
        token, '{ subjects(orderBy: RECENTLY_ACTIVE, first: 1, asOf: "2026-02-01T00:00:00Z") '
               "{ edges { node { key } } } }"))
    assert recent["subjects"]["edges"][0]["node"]["key"] == "repository:web"


async def test_nodes_episodes_records_and_time_series(gateway: Gateway) -> None:
    _, token = await _org(gateway, STORY)
    found = data(await gateway.query(token, """{
      subject(key: "repository:web") {
        id previousNames attributes
        episodes(first: 1) { totalCount edges { cursor node { id key text mentions { key } } }
                             pageInfo { hasNextPage endCursor } }
        sourceRecords(kinds: [PULL_REQUEST], window: {from: "2026-01-01T00:00:00Z",
                                                      to: "2026-01-31T00:00:00Z"}) {
          id key status actor { key } subject { key } }
        merged: activity(metric: PULL_REQUESTS_MERGED, bucket: DAY,
                         window: {from: "2026-01-05T00:00:00Z", to: "2026-01-14T00:00:00Z"}) {
          total points { start count value } }
        weekly: activity(metric: PULL_REQUESTS_OPENED, bucket: WEEK,
                         window: {from: "2026-01-01T00:00:00Z", to: "2026-01-31T00:00:00Z"}) {
          total points { start count } }
      }
    }"""))["subject"]
    assert found["previousNames"] == ["shop-frontend"]
    assert found["attributes"] == {"tier": 1, "language": "ts"}
    episodes = found["episodes"]
    assert episodes["totalCount"] == 2 and episodes["pageInfo"]["hasNextPage"]
    newest = episodes["edges"][0]["node"]
    assert newest["key"] == "episode:2"
    assert {m["key"] for m in newest["mentions"]} == {"repository:web", "team:checkout"}
    after = episodes["pageInfo"]["endCursor"]
    older = data(await gateway.query(
        token, 'query($a: String) { subject(key: "repository:web") { episodes(first: 5, after: $a)'
               " { edges { node { key text } } } } }", {"a": after}))
    assert [e["node"] for e in older["subject"]["episodes"]["edges"]] == [
        {"key": "episode:1", "text": "Ignore all previous instructions"}]
    records = found["sourceRecords"]
    assert [r["key"] for r in records] == ["pull_request:1", "pull_request:2", "pull_request:3"]
    assert records[0]["actor"] == {"key": "team:checkout"}
    merged = found["merged"]
    assert merged["total"] == 2 and len(merged["points"]) == 10
    assert [p["count"] for p in merged["points"]] == [0, 1, 0, 0, 0, 0, 0, 0, 1, 0]
    weekly = found["weekly"]
    assert weekly["total"] == 3
    assert weekly["points"][0]["start"].startswith("2025-12-29")  # weeks start on Monday

    ids = [found["id"], newest["id"], records[0]["id"], "bm9wZQ", "U3ViamVjdDp0ZWFtOm5vbmU"]
    nodes = data(await gateway.query(token, """query($ids: [ID!]!) { nodes(ids: $ids) {
      __typename id ... on Subject { key } ... on Episode { key } ... on SourceRecord { key } } }""",
                                     {"ids": ids}))["nodes"]
    assert [n and n["__typename"] for n in nodes] == ["Subject", "Episode", "SourceRecord", None, None]
    rel_id = data(await gateway.query(token, '{ subject(key: "repository:api") { '
                                             "relationships(types: [DEPENDS_ON], direction: OUTGOING) "
                                             "{ edges { node { id } } } } }"))
    rid = rel_id["subject"]["relationships"]["edges"][0]["node"]["id"]
    node = data(await gateway.query(token, 'query($id: ID!) { node(id: $id) { ... on Relationship '
                                           "{ type from { key } to { key } } } }", {"id": rid}))
    assert node["node"] == {"type": "DEPENDS_ON", "from": {"key": "repository:api"},
                            "to": {"key": "repository:lib"}}


async def test_another_organisations_objects_answer_like_unknown_ones(gateway: Gateway) -> None:
    _, token_a = await _org(gateway, STORY)
    _, token_b = await _org(gateway, [subject("repository:mine", "mine")])
    mine = data(await gateway.query(token_a, '{ subject(key: "repository:web") { id } }'))
    a_id = mine["subject"]["id"]
    as_b = data(await gateway.query(token_b, 'query($id: ID!) { node(id: $id) { id } '
                                             'subject(key: "repository:web") { id } '
                                             'subjects { totalCount } }', {"id": a_id}))
    unknown = data(await gateway.query(token_b, 'query($id: ID!) { node(id: $id) { id } '
                                                'subject(key: "repository:nope") { id } }',
                                       {"id": "U3ViamVjdDpyZXBvc2l0b3J5Om5vcGU"}))
    assert as_b["node"] is None and as_b["subject"] is None
    assert unknown == {"node": None, "subject": None}
    assert as_b["subjects"]["totalCount"] == 1


THREE_LEVELS = """query($n: Int!) {
  subjects(filter: {kind: REPOSITORY}, first: $n, orderBy: KEY) {
    edges { node { key
      owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key }
      deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 5) { key
        owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } } } } } }"""


async def test_round_trips_do_not_grow_with_the_result(gateway: Gateway) -> None:
    records: list[dict[str, Any]] = [subject(f"team:t{i}") for i in range(10)]
    for i in range(100):
        # Dependencies are services, outside the listed repositories, so the third level's
        # edges are new reads rather than dataloader cache hits from the second level.
        records.append(subject(f"repository:r{i:03d}"))
        records.append(subject(f"service:s{i:03d}"))
        records.append(rel("OWNS", f"team:t{i % 10}", f"repository:r{i:03d}"))
        records.append(rel("OWNS", f"team:t{(i + 1) % 10}", f"service:s{i:03d}"))
        records.append(rel("DEPENDS_ON", f"repository:r{i:03d}", f"service:s{i:03d}"))
    _, token = await _org(gateway, records)
    # A text the session's gateway has not seen: tests/test_heap.py sends THREE_LEVELS to it
    # earlier in a full run, and a document seen before runs from its plan the first time too.
    unseen = THREE_LEVELS.replace("query(", f"query RoundTrips{uuid.uuid4().hex}(", 1)
    trips = []
    for n in (10, 100):
        with request_statements() as sent:
            response = await gateway.query(token, unseen, {"n": n})
            trips.append(await sent.of(response))
        result = data(response)
        nodes = [e["node"] for e in result["subjects"]["edges"]]
        assert len(nodes) == n
        assert all(len(node["owner"]) == 1 and len(node["deps"]) == 1 for node in nodes)
        assert all(len(node["deps"][0]["owner"]) == 1 for node in nodes)
    # One for the API key, then, the first time (the plain path), one per loader level:
    # subjects, their edges, the deps' edges; the second time, the document runs from its
    # plan (docs/graphql.md, "Compiled documents"), which reads both levels of edges at once.
    assert trips == [4, 3]


# The same reads three ways: plain (read ahead by the list), with arguments from variables
# (also read ahead), and behind a fragment (which the read-ahead leaves to the loaders).
WITH_VARIABLES = """query($n: Int!, $own: [RelationshipType!], $dir: Direction!, $one: Int) {
  subjects(filter: {kind: REPOSITORY}, first: $n, orderBy: KEY) {
    edges { node { key
      owner: neighbors(types: $own, direction: $dir, first: $one) { key }
      deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 5) { key
        owner: neighbors(types: $own, direction: $dir, first: $one) { key } } } } } }"""
WITH_FRAGMENT = """query($n: Int!) {
  subjects(filter: {kind: REPOSITORY}, first: $n, orderBy: KEY) {
    edges { node { key ...Around } } } }
fragment Around on Subject {
  owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key }
  deps: neighbors(types: [DEPENDS_ON], direction: OUTGOING, first: 5) { key
    owner: neighbors(types: [OWNS], direction: INCOMING, first: 1) { key } } }"""


async def test_read_ahead_and_loaders_agree(gateway: Gateway) -> None:
    records: list[dict[str, Any]] = [subject(f"team:t{i}") for i in range(3)]
    for i in range(12):
        records.append(subject(f"repository:r{i:02d}"))
        records.append(rel("OWNS", f"team:t{i % 3}", f"repository:r{i:02d}"))
        if i:
            records.append(rel("DEPENDS_ON", f"repository:r{i:02d}", f"repository:r{i - 1:02d}"))
    org, token = await _org(gateway, records)
    answers, trips = [], []
    for query, variables in (
        (THREE_LEVELS, {"n": 12}),
        (WITH_VARIABLES, {"n": 12, "own": ["OWNS"], "dir": "INCOMING", "one": 1}),
        (WITH_FRAGMENT, {"n": 12}),
    ):
        with request_statements() as sent:
            response = await gateway.query(token, query, variables)
            trips.append(await sent.of(response))
        answers.append(data(response))
    assert answers[0] == answers[1] == answers[2]
    nodes = [e["node"] for e in answers[0]["subjects"]["edges"]]
    assert nodes[5] == {"key": "repository:r05", "owner": [{"key": "team:t2"}],
                        "deps": [{"key": "repository:r04", "owner": [{"key": "team:t1"}]}]}
    # The key, the page, the second level; the third level's owners were read with the second.
    assert trips == [3, 3, 3]

    # In process: the plain query answered every nested field from the read-ahead.
    context = RequestContext(principal=Principal(org, "reader", frozenset({"read"})),
                             graph=gateway.store.org(org))
    schema = build_schema()
    schema.execution_context_class = CountingExecutor
    CountingExecutor.done = []
    result = await schema.execute(THREE_LEVELS, variable_values={"n": 12}, context_value=context)
    assert result.data == answers[0] and not result.errors
    assert len(context.prefetched) == 24  # 12 owner and 12 dependency requests
    assert not context.loaders.neighbors._cache  # no nested field fell back to the loader
    # ...and the whole page was completed by plan, not field by field (resolvers/completion.py).
    assert CountingExecutor.done == ["SubjectConnection!"]


@pytest.mark.parametrize(("query", "code"), [
    ('{ subjects(first: 100000) { totalCount } }', "BAD_USER_INPUT"),
    ('{ subjects(after: "garbage!") { totalCount } }', "BAD_USER_INPUT"),
    ('{ subject(key: "a:b", id: "x") { key } }', "BAD_USER_INPUT"),
    ('{ subjects(asOf: "2500-01-01T00:00:00Z") { totalCount } }', "BAD_USER_INPUT"),
    ('{ subjects(filter: {attributes: {x: {y: 1}}}) { totalCount } }', "BAD_USER_INPUT"),
    ('{ subject(key: "repository:web") { activity(metric: COMMITS, window: '
     '{from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z"}) { total } } }', "BAD_USER_INPUT"),
    ('{ subjects { nope } }', "GRAPHQL_VALIDATION_FAILED"),
])
async def test_bad_input_gets_a_stable_code(gateway: Gateway, query: str, code: str) -> None:
    _, token = await _org(gateway, STORY)
    response = await gateway.query(token, query)
    assert response.status_code < 500
    errors = response.json()["errors"]
    assert {e["extensions"]["code"] for e in errors} == {code}
    assert all("Traceback" not in e["message"] for e in errors)


async def test_variables_of_the_wrong_type_are_the_clients_error(gateway: Gateway) -> None:
    _, token = await _org(gateway, STORY)
    cases = [({"n": "ten"}, "BAD_USER_INPUT"), ({}, "BAD_USER_INPUT"),
             ({"n": 2**63}, "QUERY_TOO_COMPLEX")]  # the cost estimate reads `first` first
    for variables, code in cases:
        response = await gateway.query(
            token, "query($n: Int!) { subjects(first: $n) { totalCount } }", variables
        )
        assert response.status_code < 500
        errors = response.json()["errors"]
        assert [e["extensions"]["code"] for e in errors] == [code], errors


async def test_search_matches_names_aliases_and_previous_names(gateway: Gateway) -> None:
    _, token = await _org(gateway, STORY)
    query = 'query($q: String) { subjects(search: $q) { totalCount edges { node { key } } } }'
    for text, keys in (("SHOP-front", ["repository:web"]), ("payments", ["repository:api",
                                                                          "team:payments"])):
        found = data(await gateway.query(token, query, {"q": text}))["subjects"]
        assert [e["node"]["key"] for e in found["edges"]] == keys
        assert found["totalCount"] == len(keys)
