"""GraphQL over HTTP: negotiation, status codes, body limits, probes and metrics."""

from __future__ import annotations

import pytest

from gateway.http import GRAPHQL_RESPONSE, JSON, negotiate
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve


@pytest.mark.parametrize(("accept", "media"), [
    (None, JSON),
    ("", JSON),
    ("application/json", JSON),
    (GRAPHQL_RESPONSE, GRAPHQL_RESPONSE),
    (f"{GRAPHQL_RESPONSE}, application/json;q=0.9", GRAPHQL_RESPONSE),
    (f"{GRAPHQL_RESPONSE};q=0.5, application/json", JSON),
    ("*/*", JSON),
    ("text/html", None),
    ("application/xml, application/json;q=0", None),
])
def test_negotiation(accept: str | None, media: str | None) -> None:
    assert negotiate(accept) == media


async def _token(gateway: Gateway) -> str:
    org = new_org()
    await gateway.store.bootstrap(org)
    return await gateway.token(org)


async def test_request_errors_are_4xx_with_graphql_response_json(gateway: Gateway) -> None:
    token = await _token(gateway)
    auth = {"Authorization": f"Bearer {token}"}
    modern = {**auth, "Accept": GRAPHQL_RESPONSE}
    bad_document = await gateway.client.post(gateway.url, json={"query": "{ subjects { nope } }"},
                                             headers=modern)
    assert bad_document.status_code == 400
    assert bad_document.headers["content-type"].startswith(GRAPHQL_RESPONSE)
    body = bad_document.json()
    assert "data" not in body and body["errors"][0]["extensions"]["code"]
    unparsable = await gateway.client.post(gateway.url, content=b"{not json",
                                           headers={**modern, "content-type": "application/json"})
    assert unparsable.status_code == 400
    assert unparsable.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    syntax = await gateway.client.post(gateway.url, json={"query": "{"}, headers=modern)
    assert syntax.status_code == 400 and "data" not in syntax.json()
    legacy = await gateway.client.post(gateway.url, json={"query": "{ subjects { nope } }"},
                                       headers=auth)
    assert legacy.status_code == 200
    assert legacy.headers["content-type"].startswith(JSON)
    good = await gateway.client.post(gateway.url, json={"query": "{ subjects { totalCount } }"},
                                     headers=modern)
    assert good.status_code == 200 and good.json() == {"data": {"subjects": {"totalCount": 0}}}
    refused = await gateway.client.post(gateway.url, json={"query": "{ __typename }"},
                                        headers={**auth, "Accept": "text/csv"})
    assert refused.status_code == 406


async def test_a_syntax_error_is_told_apart_from_a_validation_error(gateway: Gateway) -> None:
    """As Apollo Server does: GRAPHQL_PARSE_FAILED for a document that does not parse,
    GRAPHQL_VALIDATION_FAILED for one that parses and is not valid; both 400, no `data`."""
    token = await _token(gateway)
    modern = {"Accept": GRAPHQL_RESPONSE}
    for query, code in [("{", "GRAPHQL_PARSE_FAILED"),
                        ('{ subjects(first: 1 { totalCount } }', "GRAPHQL_PARSE_FAILED"),
                        ("{ subjects { nope } }", "GRAPHQL_VALIDATION_FAILED")]:
        response = await gateway.query(token, query, **modern)
        assert response.status_code == 400, response.text
        body = response.json()
        assert "data" not in body
        assert [e["extensions"]["code"] for e in body["errors"]] == [code], body


async def test_several_operations_without_a_name_are_refused(gateway: Gateway) -> None:
    """A document of two operations and no operationName ran the first one and answered its
    data; GraphQL says the operation to run cannot be told (a request error: no `data`)."""
    token = await _token(gateway)
    modern = {"Accept": GRAPHQL_RESPONSE}
    two = "query A { subjects(first: 1) { totalCount } } query B { __typename }"
    response = await gateway.query(token, two, **modern)
    assert response.status_code == 400, response.text
    body = response.json()
    assert "data" not in body, body
    assert [e["extensions"]["code"] for e in body["errors"]] == ["GRAPHQL_VALIDATION_FAILED"]
    assert "operation name" in body["errors"][0]["message"]


async def test_the_operation_a_request_names_runs_even_the_first(falkor: FalkorStore) -> None:
    """The name a request gives is read as given (resolvers.schema.requested_operation_name;
    strawberry's `operation_name` falls back to the first operation's, so naming "A" and naming
    nothing looked alike): naming the first operation runs it, over POST, over GET and beside
    an unnamed document of several operations in a batch, which is still refused."""
    org = new_org()
    await falkor.bootstrap(org)
    two = "query A { a: __typename } query B { b: __typename }"
    async for batching in serve(falkor, allow_batching=True, max_batch=3):
        headers = {"Authorization": f"Bearer {await batching.token(org)}"}
        for name in ("A", "B"):
            body = {"query": two, "operationName": name}
            posted = await batching.client.post(batching.url, json=body, headers=headers)
            got = await batching.client.get(batching.url, params=body, headers=headers)
            assert posted.json() == got.json() == {"data": {name.lower(): "Query"}}
        batch = [{"query": two}, {"query": two, "operationName": "A"}, {"query": two}]
        answers = (await batching.client.post(batching.url, json=batch, headers=headers)).json()
        assert answers[1] == {"data": {"a": "Query"}}
        for refused in (answers[0], answers[2]):
            codes = [e["extensions"]["code"] for e in refused["errors"]]
            assert codes == ["GRAPHQL_VALIDATION_FAILED"], refused


DATETIME_VARIABLE = 'query($at: DateTime) { subject(key: "repository:x", asOf: $at) { key } }'
NOT_DATETIMES: list[tuple[str, dict[str, object] | None, str]] = [
    (DATETIME_VARIABLE, {"at": "yesterday"}, '"yesterday"'),
    (DATETIME_VARIABLE, {"at": "2026-13-01"}, '"2026-13-01"'),
    (DATETIME_VARIABLE, {"at": 5}, "5"),
    ('{ subject(key: "repository:x", asOf: "yesterday") { key } }', None, '"yesterday"'),
    ('{ subjects(asOf: "2026-02-30T00:00:00Z") { totalCount } }', None, "2026-02-30"),
    ('{ subjects(asOf: 1700000000) { totalCount } }', None, "1700000000"),
    ("mutation($i: InvestigateInput!) { investigate(input: $i) { __typename } }",
     {"i": {"question": "who changed it?", "asOf": "tomorrow"}}, '"tomorrow"'),
    ('mutation { investigate(input: {question: "who?", asOf: "soon"}) { __typename } }', None,
     '"soon"'),
]


@pytest.mark.parametrize(("query", "variables", "shown"), NOT_DATETIMES)
async def test_a_value_that_is_no_datetime_is_told_without_python_internals(
    gateway: Gateway, query: str, variables: dict[str, object] | None, shown: str
) -> None:
    """`asOf: "yesterday"` answered dateutil's `invalid literal for int() with base 10:
    b'yest'`. In a literal or a variable, the answer now says what a DateTime is."""
    token = await _token(gateway)
    response = await gateway.query(token, query, variables)
    assert response.status_code == 200
    body = response.json()
    assert "data" not in body or body["data"] is None
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    message = error["message"]
    assert "DateTime must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z" in message
    assert shown in message
    for internal in ("int()", "b'", "base 10", "month must be", "day is out of range",
                     "Expected a string"):
        assert internal not in message, message
    assert error.get("locations"), error  # where in the document the value stands


async def test_a_datetime_in_iso_8601_is_still_read(gateway: Gateway) -> None:
    token = await _token(gateway)
    for at in ("2026-11-01T00:00:00Z", "2026-11-01", "2026-11-01T09:30:00+02:00"):
        response = await gateway.query(token, DATETIME_VARIABLE, {"at": at})
        assert response.json() == {"data": {"subject": None}}, at


async def test_get_queries_and_graphiql(gateway: Gateway) -> None:
    token = await _token(gateway)
    got = await gateway.client.get(gateway.url, params={"query": "{ subjects { totalCount } }"},
                                   headers={"Authorization": f"Bearer {token}"})
    assert got.status_code == 200 and got.json()["data"]["subjects"]["totalCount"] == 0
    page = await gateway.client.get(gateway.url, headers={"Accept": "text/html"})
    assert page.status_code == 200 and "graphiql" in page.text.lower()
    anonymous = await gateway.client.get(gateway.url, params={"query": "{ __typename }"})
    assert anonymous.status_code == 401


async def test_unauthenticated_requests_get_401_and_no_data(gateway: Gateway) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = await gateway.client.post(gateway.url, json={"query": "{ __typename }"},
                                             headers=headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json() == {"errors": [{"message": response.json()["errors"][0]["message"],
                                               "extensions": {"code": "UNAUTHENTICATED"}}]}


async def test_oversized_bodies_are_refused_before_parsing(gateway: Gateway) -> None:
    token = await _token(gateway)
    huge = "{ subjects { totalCount } }" + " " * 1_100_000
    response = await gateway.client.post(gateway.url, json={"query": huge},
                                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"


async def test_probes_and_metrics(gateway: Gateway) -> None:
    base = gateway.url.rsplit("/", 1)[0]
    assert (await gateway.client.get(base + "/healthz")).text == "ok"
    assert (await gateway.client.get(base + "/readyz")).status_code == 200
    token = await _token(gateway)
    await gateway.query(token, "query DashboardList { subjects { totalCount } }")
    text = (await gateway.client.get(base + "/metrics")).text
    assert 'fabric_graphql_requests_total{operation="DashboardList",outcome="ok"}' in text
    assert "fabric_graphql_request_seconds_bucket" in text
    assert "fabric_graph_round_trips_count" in text


async def test_batched_operations_are_refused_by_default(gateway: Gateway) -> None:
    token = await _token(gateway)
    response = await gateway.client.post(
        gateway.url, json=[{"query": "{ __typename }"}, {"query": "{ __typename }"}],
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"


async def test_a_request_over_its_time_limit_gets_504(falkor: FalkorStore) -> None:
    from tests.gateway_fixture import serve

    async for slow in serve(falkor, request_timeout_s=0.000_1):
        org = new_org()
        await falkor.bootstrap(org)
        token = await slow.token(org)
        response = await slow.query(token, "{ subjects { totalCount edges { node { key } } } }")
        assert response.status_code == 504, response.text
        assert response.json()["errors"][0]["extensions"]["code"] == "TIMEOUT"
        # The gateway is still serving.
        assert (await slow.client.get(slow.url.rsplit("/", 1)[0] + "/healthz")).text == "ok"


async def test_a_subscription_over_http_is_a_bad_request(gateway: Gateway) -> None:
    """It ran once, and its event stream failed as an internal error ("Internal server
    error", logged as a bug): it is the client's mistake, told with where subscriptions go."""
    token = await _token(gateway)
    headers = {"Authorization": f"Bearer {token}"}
    query = "subscription { recordsIngested { __typename } }"
    posted = await gateway.client.post(gateway.url, json={"query": query}, headers=headers)
    got = await gateway.client.get(gateway.url, params={"query": query}, headers=headers)
    for response in (posted, got):
        assert response.status_code == 400, response.text
        assert response.json() == {"errors": [{
            "message": "Subscriptions run over WebSocket (graphql-transport-ws) on /graphql, "
                       "not over HTTP.", "extensions": {"code": "BAD_REQUEST"}}]}  # fmt: skip


async def test_head_answers_as_get_without_a_body(gateway: Gateway) -> None:
    """HEAD /graphql was 405 (strawberry's view knows GET and POST only)."""
    auth = {"Authorization": f"Bearer {await _token(gateway)}"}
    params = {"query": "{ __typename }"}
    got = await gateway.client.get(gateway.url, params=params, headers=auth)
    head = await gateway.client.head(gateway.url, params=params, headers=auth)
    assert (head.status_code, head.content) == (200, b"")
    for name in ("content-type", "content-length", "etag", "cache-control", "vary"):
        assert head.headers.get(name) == got.headers.get(name), name
    refused = await gateway.client.head(gateway.url, params=params)
    assert (refused.status_code, refused.content) == (401, b"")
    page = await gateway.client.head(gateway.url, headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
