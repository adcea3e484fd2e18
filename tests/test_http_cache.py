"""HTTP revalidation of GET queries against the live gateway: 304 until a write, 200 after it,
never shared across organisations or principals, never for an answer with errors."""

from __future__ import annotations

from typing import Any

from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, request_statements
from tests.helpers import load, subject

QUERY = "query Count($kind: SubjectKind) { subjects(filter: {kind: $kind}) { totalCount } }"


async def _org(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), [subject("repository:alpha")])
    return org, await gateway.token(org)


async def _get(gateway: Gateway, token: str, tag: str | None = None, **params: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    if tag is not None:
        headers["If-None-Match"] = tag
    query = {"query": QUERY, "variables": '{"kind": "REPOSITORY"}', **params}
    return await gateway.client.get(gateway.url, params=query, headers=headers)


async def test_304_until_an_ingest_then_200(gateway: Gateway) -> None:
    org, token = await _org(gateway)
    first = await _get(gateway, token)
    assert first.status_code == 200
    assert first.json() == {"data": {"subjects": {"totalCount": 1}}}
    tag = first.headers["etag"]
    assert first.headers["cache-control"] == "private, max-age=0, must-revalidate"
    assert first.headers["vary"] == "Authorization"
    # Revalidation does not execute: the only graph statement is the API-key lookup.
    with request_statements() as sent:
        again = await _get(gateway, token, tag)
        assert await sent.of(again) == 1
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == tag
    assert (await _get(gateway, token, f'W/{tag}, "other"')).status_code == 304
    # Other variables are another answer.
    other = await gateway.client.get(
        gateway.url,
        params={"query": QUERY, "variables": '{"kind": "TEAM"}'},
        headers={"Authorization": f"Bearer {token}", "If-None-Match": tag},
    )
    assert other.status_code == 200 and other.headers["etag"] != tag
    await load(gateway.store.org(org), [subject("repository:beta")], source="second")
    after = await _get(gateway, token, tag)
    assert after.status_code == 200
    assert after.json() == {"data": {"subjects": {"totalCount": 2}}}
    assert after.headers["etag"] != tag
    assert (await _get(gateway, token, after.headers["etag"])).status_code == 304


async def test_a_graphql_write_invalidates(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    tag = (await _get(gateway, token)).headers["etag"]
    mutation = """mutation($r: [JSON!]!) { project(records: $r, source: "api") { accepted } }"""
    done = await gateway.query(token, mutation, {"r": [subject("repository:gamma")]})
    assert "errors" not in done.json(), done.json()
    assert (await _get(gateway, token, tag)).status_code == 200


async def test_never_shared_across_organisations_or_principals(gateway: Gateway) -> None:
    _, token_a = await _org(gateway)
    org_b, token_b = await _org(gateway)  # same data, same query, same revision
    tag_a = (await _get(gateway, token_a)).headers["etag"]
    answer_b = await _get(gateway, token_b, tag_a)
    assert answer_b.status_code == 200 and answer_b.headers["etag"] != tag_a
    reader = await gateway.token(org_b, actor="reader", scopes=frozenset({"read"}))
    assert (await _get(gateway, reader, answer_b.headers["etag"])).status_code == 200


async def test_no_tag_on_errors_or_posts(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    failing = await gateway.client.get(
        gateway.url,
        params={"query": "{ subject(key: 1) { key } }"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert "errors" in failing.json() and "etag" not in failing.headers
    posted = await gateway.query(token, QUERY, {"kind": "REPOSITORY"})
    assert posted.status_code == 200 and "etag" not in posted.headers


async def test_a_cross_origin_dashboard_may_revalidate(falkor: FalkorStore) -> None:
    from tests.gateway_fixture import serve

    origin = "https://dash.example"
    async for gateway in serve(falkor, cors_origins=[origin]):
        _, token = await _org(gateway)
        preflight = await gateway.client.options(gateway.url, headers={
            "Origin": origin, "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, if-none-match"})  # fmt: skip
        assert preflight.status_code == 200
        allowed = preflight.headers["access-control-allow-headers"].lower()
        assert "if-none-match" in allowed and "authorization" in allowed
        answer = await gateway.client.get(
            gateway.url, params={"query": QUERY, "variables": '{"kind": "REPOSITORY"}'},
            headers={"Authorization": f"Bearer {token}", "Origin": origin},
        )  # fmt: skip
        assert answer.headers["access-control-allow-origin"] == origin
        assert "etag" in answer.headers["access-control-expose-headers"].lower()
