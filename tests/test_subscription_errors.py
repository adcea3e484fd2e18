"""What a subscription that cannot run gets over graphql-transport-ws, with the npm `graphql-ws`
client in Node against a live gateway: an `error` message for its id carrying the code HTTP
gives the same fault, while the connection's other subscriptions go on. Only a message the
protocol cannot read closes the socket (4400)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from graphql import parse
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from gateway.cost import estimate_cost
from graph.falkor import FalkorStore
from resolvers.schema import build_schema
from resolvers.subscriptions import MAX_FILTER
from tests.gateway_fixture import Gateway, serve
from tests.helpers import load, subject
from tests.js_tools import run_json_async
from tests.test_subscriptions import INGESTED, _org, _start, _until_active, _ws

MAX_COST, MAX_TOKENS = 5, 60
SIMPLE = "subscription { recordsIngested { __typename } }"
def _cost(query: str) -> int:
    cost = estimate_cost(build_schema()._schema, parse(query), None, None)
    assert cost > MAX_COST
    return cost


# Refused before anything runs, with the same message and code over HTTP (where any other
# subscription is refused as such: it streams over WebSocket only).
AS_OVER_HTTP: list[dict[str, Any]] = [
    {"query": "subscription { recordsIngested { __typename }"},
    {"query": SIMPLE, "operationName": "Missing"},
    {"query": "subscription { recordsIngested { " + "__typename " * MAX_TOKENS + "} }"},
    {"query": "fragment F on Subscription { recordsIngested { __typename } }"},
]
# Refused over WebSocket: HTTP gives these codes to the same faults in a query.
OVER_SOCKETS: list[tuple[dict[str, Any], str, str]] = [
    ({"query": "subscription { recordsIngested { nope } }"}, "GRAPHQL_VALIDATION_FAILED",
     "Cannot query field 'nope' on type 'RecordsIngestedEvent'."),
    ({"query": f"subscription A {SIMPLE[13:]} subscription B {SIMPLE[13:]}"},
     "GRAPHQL_VALIDATION_FAILED",
     "Must provide operation name if query contains multiple operations."),
    ({"query": INGESTED}, "QUERY_TOO_COMPLEX",
     f"query cost {_cost(INGESTED)} exceeds the limit of {MAX_COST}"),
    ({"query": "{ __typename }"}, "BAD_REQUEST",
     "Only subscriptions run over WebSocket; send queries over HTTP."),
    ({"query": "subscription($k: [SourceRecordKind!]) { recordsIngested(kinds: $k) "
               "{ __typename } }", "variables": {"k": ["NOPE"]}}, "BAD_USER_INPUT",
     "Variable '$k' has invalid value at [0]: Value 'NOPE' does not exist in "
     "'SourceRecordKind' enum."),
]  # fmt: skip


@pytest.fixture(scope="module")
async def strict(falkor: FalkorStore) -> AsyncIterator[Gateway]:
    async for running in serve(falkor, max_cost=MAX_COST, max_tokens=MAX_TOKENS):
        yield running


async def _over_http(gateway: Gateway, token: str, body: dict[str, Any]) -> tuple[str, list[Any]]:
    response = await gateway.client.post(
        gateway.url, json=body, headers={"Authorization": f"Bearer {token}"}
    )
    errors = response.json()["errors"]
    return "; ".join(e["message"] for e in errors), [e["extensions"]["code"] for e in errors]


async def test_a_subscription_that_cannot_run_gets_its_code_and_the_others_go_on(
    strict: Gateway,
) -> None:
    """A syntax error closed the whole connection (4400) and every other error came without
    `extensions.code`."""
    org, token = await _org(strict)
    good = [
        {"query": SIMPLE, "take": 1},
        {"query": f"query Q {{ __typename }} subscription S {SIMPLE[13:]}",
         "operationName": "S", "take": 1},
    ]  # fmt: skip
    refused = [*AS_OVER_HTTP, *(body for body, _, _ in OVER_SOCKETS)]
    running = _start({"timeoutMs": 120_000, "clients": [
        {"url": _ws(strict.url), "token": "$TOKEN", "subscriptions": [*good, *refused]}
    ]}, {"TOKEN": token})  # fmt: skip
    await _until_active({strict.url: 2})
    await load(strict.store.org(org), [subject("repository:one")])
    report = await running
    assert report["outcome"] == "done", report
    client = report["clients"][0]
    assert client["closed"] in (None, {"code": 1000, "reason": "Normal Closure"}), client
    subscriptions = client["subscriptions"]
    for got in subscriptions[:2]:
        assert (got["errors"], len(got["events"])) == ([], 1), got
    answers = [(got["errors"], got["codes"]) for got in subscriptions[2:]]
    expected = [await _over_http(strict, token, body) for body in AS_OVER_HTTP]
    expected += [(message, [code]) for _, code, message in OVER_SOCKETS]
    assert answers == [([message], codes) for message, codes in expected]
    codes = [code for _, (code,) in expected]
    assert codes[: len(AS_OVER_HTTP)] == [
        "GRAPHQL_PARSE_FAILED", "BAD_REQUEST", "QUERY_TOO_COMPLEX", "BAD_REQUEST"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"payload": {"query": SIMPLE, "operationName": 5}},
         "Invalid subscribe message: `operationName` must be a string or null"),
        ({"payload": {"query": SIMPLE, "variables": [1]}},
         "Invalid subscribe message: `variables` must be an object or null"),
        ({"payload": {"query": 5}}, "Invalid subscribe message: `query` must be a string or null"),
        ({"payload": {}}, "Invalid subscribe message: no query"),
        ({"id": 1, "payload": {"query": SIMPLE}}, "Invalid subscribe message"),
        ({"payload": "subscription"}, "Invalid subscribe message"),
    ],
)  # fmt: skip
async def test_a_message_the_protocol_cannot_read_closes_the_socket(
    strict: Gateway, message: dict[str, Any], reason: str
) -> None:
    """graphql-transport-ws: a message of a type or format it does not define closes the
    socket with 4400 (graphql-ws's own client never sends one, so a bare socket does)."""
    _, token = await _org(strict)
    init = {"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}
    protocol = [Subprotocol("graphql-transport-ws")]
    async with connect(_ws(strict.url), subprotocols=protocol) as socket:
        await socket.send(json.dumps(init))
        assert json.loads(await socket.recv()) == {"type": "connection_ack"}
        await socket.send(json.dumps({"id": "1", "type": "subscribe", **message}))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), timeout=60)  # a bound for a hang
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4400, reason)


async def test_an_error_as_a_subscription_runs_comes_coded_in_its_next_message(
    strict: Gateway,
) -> None:
    """Raised once the operation runs (its event stream refuses the filter), so past the
    checks before it: a `next` message with the error, coded as everywhere, then `complete`."""
    _, token = await _org(strict)
    keys = [f"repository:{n}" for n in range(MAX_FILTER + 1)]
    query = "subscription($k: [String!]) { recordsIngested(subjectKeys: $k) { __typename } }"
    report = await run_json_async("subscribe.mjs", env={"TOKEN": token}, stdin=json.dumps(
        {"timeoutMs": 60_000, "clients": [{"url": _ws(strict.url), "token": "$TOKEN",
         "subscriptions": [{"query": query, "variables": {"k": keys}, "take": 1}]}]}
    ))  # fmt: skip
    [got] = report["clients"][0]["subscriptions"]
    [event] = got["events"]
    assert (event["data"], got["completed"]) == (None, True), got
    assert [(e["message"], e["extensions"]) for e in event["errors"]] == [
        (f"at most {MAX_FILTER} subject keys", {"code": "BAD_USER_INPUT"})
    ]
