"""Hostile requests against the live gateway: each is refused before execution with a stable
`extensions.code` (the graphql-cop checks and the OWASP GraphQL cheat sheet's list), and a
slow query hitting the request's time limit leaves no work running in the graph server.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest

from gateway.http import GRAPHQL_RESPONSE
from graph.falkor import GRAPH_PREFIX, FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve

TOO_COMPLEX = "QUERY_TOO_COMPLEX"


def _nested(levels: int) -> str:
    return '{ subject(key: "service:x") { ' + "neighbors(first: 1) { " * levels + "key" + " }" * (
        levels + 1
    ) + " }"


HOSTILE_DOCUMENTS = {
    "deep-nesting": (_nested(14), TOO_COMPLEX),
    "alias-flood-101": ("{ " + " ".join(f"a{i}: __typename" for i in range(101)) + " }",
                        TOO_COMPLEX),
    "directive-flood": ("{ " + "__typename @include(if: true) " * 60 + "}", TOO_COMPLEX),
    "huge-document": ("{ " + "__typename " * 6_000 + "}", TOO_COMPLEX),
    # Past 100 errors graphql-core stops validating: the count must not wait for the end.
    "unknown-directive-flood": ("{ " + "__typename @nosuch " * 1_000 + "}", TOO_COMPLEX),
    "cost-over-budget": ("""{ subjects(first: 500) { edges { node {
        relationships(first: 500) { edges { node { to { neighbors(first: 100) { key } } } } }
        } } } }""", TOO_COMPLEX),
    "circular-fragments": ("""{ subjects { ...A } }
        fragment A on SubjectConnection { edges { node { key } } ...B }
        fragment B on SubjectConnection { totalCount ...A }""", "GRAPHQL_VALIDATION_FAILED"),
    "deep-of-type": ('{ __type(name: "Subject") { ' + "ofType { " * 30 + "name" + " }" * 32,
                     TOO_COMPLEX),
    "introspection-type-cycle": ("{ __schema { types { " + "fields { type { " * 4 + "name"
                                 + " } }" * 4 + " } } }", TOO_COMPLEX),
}


@pytest.fixture(scope="module")
async def token(gateway: Gateway) -> str:
    org = new_org()
    await gateway.store.bootstrap(org)
    return await gateway.token(org)


def _codes(response: httpx.Response) -> set[str]:
    return {str((e.get("extensions") or {}).get("code")) for e in response.json()["errors"]}


def assert_refused(response: httpx.Response, status: int | set[int], code: str | set[str]) -> None:
    statuses = {status} if isinstance(status, int) else status
    assert response.status_code in statuses, response.text[:500]
    body = response.json()
    assert "data" not in body, "a request refused before execution has no data entry"
    assert all("path" not in e for e in body["errors"]), "nothing was executed"
    codes = {code} if isinstance(code, str) else code
    assert _codes(response) & codes, response.text[:500]


@pytest.mark.parametrize("case", sorted(HOSTILE_DOCUMENTS))
async def test_hostile_documents_are_refused_before_execution(
    gateway: Gateway, token: str, case: str
) -> None:
    query, code = HOSTILE_DOCUMENTS[case]
    response = await gateway.query(token, query, Accept=GRAPHQL_RESPONSE)
    assert_refused(response, 400, code)


async def test_array_batching_is_refused_when_disabled(gateway: Gateway, token: str) -> None:
    batch = [{"query": "{ __typename }"}] * 50
    response = await gateway.client.post(gateway.url, json=batch,
                                         headers={"Authorization": f"Bearer {token}"})
    assert_refused(response, 400, "BAD_REQUEST")


async def test_array_batching_when_allowed_is_bounded(falkor: FalkorStore) -> None:
    org = new_org()
    await falkor.bootstrap(org)
    async for batching in serve(falkor, allow_batching=True, max_batch=3):
        headers = {"Authorization": f"Bearer {await batching.token(org)}"}
        two = await batching.client.post(batching.url, json=[{"query": "{ __typename }"}] * 2,
                                         headers=headers)
        assert two.status_code == 200 and two.json() == [{"data": {"__typename": "Query"}}] * 2
        four = await batching.client.post(batching.url, json=[{"query": "{ __typename }"}] * 4,
                                          headers=headers)
        assert_refused(four, 400, "BAD_REQUEST")
        costly = HOSTILE_DOCUMENTS["cost-over-budget"][0]
        mixed = await batching.client.post(
            batching.url, json=[{"query": "{ __typename }"}, {"query": costly}], headers=headers
        )
        first, second = mixed.json()
        assert first == {"data": {"__typename": "Query"}}
        assert second["errors"][0]["extensions"]["code"] == TOO_COMPLEX


async def test_mutations_over_get_are_refused(gateway: Gateway, token: str) -> None:
    for query in ("mutation { project(records: []) { __typename } }",
                  'mutation { investigate(input: {question: "why?"}) { __typename } }'):
        response = await gateway.client.get(gateway.url, params={"query": query},
                                            headers={"Authorization": f"Bearer {token}"})
        assert_refused(response, 405, "METHOD_NOT_ALLOWED")
        assert response.headers["allow"] == "POST"


FORM_BODIES: dict[str, dict[str, Any]] = {
    "url-encoded": {"data": {"query": "mutation { project(records: []) { __typename } }"}},
    "multipart": {"files": {
        "operations": (None, json.dumps({"query": "{ __typename }", "variables": {"f": None}})),
        "map": (None, '{"0": ["variables.f"]}'),
        "0": ("a.txt", b"hello", "text/plain"),
    }},
    "text-plain": {"content": b'{"query": "{ __typename }"}',
                   "headers": {"content-type": "text/plain"}},
    "no-content-type": {"content": b'{"query": "{ __typename }"}'},
}


@pytest.mark.parametrize("case", sorted(FORM_BODIES))
async def test_csrf_prone_posts_are_refused(gateway: Gateway, token: str, case: str) -> None:
    """Browsers send these cross-origin without a preflight: they must never execute."""
    options = dict(FORM_BODIES[case])
    headers = {"Authorization": f"Bearer {token}", **options.pop("headers", {})}
    response = await gateway.client.post(gateway.url, headers=headers, **options)
    assert_refused(response, {400, 415}, {"BAD_REQUEST", "UNSUPPORTED_MEDIA_TYPE"})


async def test_oversized_body_is_refused_even_without_a_content_length(
    gateway: Gateway, token: str
) -> None:
    async def chunks() -> Any:
        for _ in range(40):
            yield b" " * 50_000

    response = await gateway.client.post(
        gateway.url, content=chunks(),
        headers={"Authorization": f"Bearer {token}", "content-type": "application/json"},
    )
    assert_refused(response, 413, "PAYLOAD_TOO_LARGE")


async def test_a_lying_content_length_is_refused(gateway: Gateway, token: str) -> None:
    host, port = gateway.url.split("//")[1].split("/")[0].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Authorization: Bearer {token}\r\n".encode()
        + b"Content-Length: 99999999999\r\n\r\n{}"
    )
    await writer.drain()
    status_line = await reader.readline()
    writer.close()
    assert status_line.split()[1] == b"413"


async def _raw_get(gateway: Gateway, target: bytes, token: str) -> tuple[bytes, dict[bytes, bytes], bytes]:
    """A GET written on the socket (httpx refuses a query string over 64 KiB): the status
    line, the headers and the body."""
    host, port = gateway.url.split("//")[1].split("/")[0].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                 + f"Authorization: Bearer {token}\r\n\r\n".encode())
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=60)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.split(b"\r\n")
    headers = dict(line.lower().split(b": ", 1) for line in lines)
    return status, headers, body


@pytest.mark.parametrize("size", [40_000, 70_000, 1_100_000])
async def test_an_oversized_get_url_gets_a_json_error(gateway: Gateway, token: str, size: int) -> None:
    """Under 64 KiB the gateway reads the query (and its token limit refuses it); from 64 KiB
    on, uvicorn's URL parser refuses the request before the application sees it, and
    answered with a plain-text 400: now the same status with a JSON error body."""
    target = b"/graphql?query=%7B" + b"a%20" * (size // 4) + b"%7D"  # a token each
    status, headers, body = await _raw_get(gateway, target, token)
    assert headers[b"content-type"].startswith(b"application/json"), (status, body[:200])
    code = json.loads(body)["errors"][0]["extensions"]["code"]
    assert (status.split()[1], code) == ((b"200", TOO_COMPLEX) if size < 65_536
                                         else (b"400", "BAD_REQUEST"))


# -- the event loop stays free while a hostile document is refused ---------------------------

# 25,000 selections with a selection each (100,000 tokens): parsed and printed without a
# token limit, they held the loop for seconds.
MANY_SELECTIONS = "{ " + "a { b } " * 25_000 + "}"


async def _healthz_worst_during(
    gateway: Gateway, token: str, body: dict[str, Any], status: int = 400
) -> tuple[set[str], float]:
    """The codes of three answers to `body` (each with `status`), and the slowest /healthz
    answer while they were made: the gateway runs on this test's event loop, so a request
    that holds the loop holds the probe."""
    healthz = gateway.url.replace("/graphql", "/healthz")
    worst = 0.0
    done = asyncio.Event()

    async def probe() -> None:
        nonlocal worst
        while not done.is_set():
            started = time.perf_counter()
            assert (await gateway.client.get(healthz)).status_code == 200
            worst = max(worst, time.perf_counter() - started)
            await asyncio.sleep(0.002)

    prober = asyncio.create_task(probe())
    codes: set[str] = set()
    headers = {"Authorization": f"Bearer {token}", "Accept": GRAPHQL_RESPONSE}
    try:
        for _ in range(3):
            response = await gateway.client.post(gateway.url, json=body, headers=headers)
            assert response.status_code == status, response.text[:300]
            codes |= _codes(response) if "errors" in response.json() else set()
    finally:
        done.set()
        await prober
    return codes, worst


async def test_trusted_mode_refuses_a_hostile_document_without_holding_the_loop(
    gateway: Gateway, token: str, falkor: FalkorStore
) -> None:
    """An unregistered document is refused by size and token count before any parse: the
    event loop answers /healthz during the refusal about as it does while the normal path
    refuses the same body at its token limit (the parse that came first took 8.5-11 s, and
    a concurrent /healthz 7 s)."""
    hostile = {"query": MANY_SELECTIONS}
    normal_codes, normal = await _healthz_worst_during(gateway, token, hostile)
    assert normal_codes == {TOO_COMPLEX}
    async for trusted in serve(falkor, trusted_documents=True):
        org = new_org()
        await falkor.bootstrap(org)
        codes, worst = await _healthz_worst_during(trusted, await trusted.token(org), hostile)
    assert codes == {"DOCUMENT_NOT_TRUSTED"}
    # Relative to the normal path, with room for scheduling on a shared machine.
    assert worst < 4 * normal + 0.1, (worst, normal)


# -- a slow query and the per-request time limit ----------------------------------------------

SLOW_SUBJECTS = 150_000
# Every subject looks up its latest source record: seconds of server work on this many.
SLOW_QUERY = "{ subjects(orderBy: RECENTLY_ACTIVE, first: 1) { edges { cursor } } }"


async def _running_on(store: FalkorStore, graph: str) -> list[Any]:
    info = await store.client.connection.execute_command("GRAPH.INFO", "RunningQueries")
    running = info[info.index("# Running queries") + 1]
    return [q for q in running if graph in q]


async def _stopped_on(store: FalkorStore, graph: str, polls: int = 40) -> bool:
    """True once no statement runs on `graph`, polled every 25 ms (about a second at most)."""
    for _ in range(polls):
        if not await _running_on(store, graph):
            return True
        await asyncio.sleep(0.025)
    return False


async def test_a_slow_query_is_cancelled_inside_the_graph_server(falkor: FalkorStore) -> None:
    org = new_org()
    await falkor.bootstrap(org)
    graph = GRAPH_PREFIX + org
    # Test data written straight into the organisation's graph: far quicker than ingest.
    await falkor.client.select_graph(graph).query(
        "UNWIND range(1, $n) AS i CREATE (:Subject {org_id: $org, key: 'service:s' + "
        "toString(i), kind: 'service', name: 's' + toString(i), stub: false})",
        {"n": SLOW_SUBJECTS, "org": org},
    )
    try:
        async for slow in serve(falkor, request_timeout_s=0.1):
            token = await slow.token(org)
            response = await slow.query(token, SLOW_QUERY, Accept=GRAPHQL_RESPONSE)
            assert response.status_code == 504, response.text
            assert _codes(response) == {"TIMEOUT"}
            # The statement carried the request's deadline: the server aborted it itself,
            # instead of working on for seconds after the client stopped waiting. The server's
            # timer and the gateway's fire at the same deadline, so the 504 can arrive a moment
            # before the abort: wait for it a bounded while, far less than the seconds the
            # statement would run for unaborted.
            assert await _stopped_on(falkor, graph)
            # And the server is free again (no 0.1 s request limit on this direct read).
            assert await falkor.org(org).subjects_by_keys(["service:s1"])
    finally:
        await falkor.drop_org(org)
