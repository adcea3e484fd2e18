"""Ecosystem conformance over real HTTP: the GraphQL-over-HTTP audit of the npm package
`graphql-http`, and the tooling round trip through graphql-js (tests/js, installed by .ci/run).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from gateway.http import GRAPHQL_RESPONSE, JSON
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.js_tools import run_json_async

ROOT = Path(__file__).resolve().parents[1]
# graphql-http 1.23.1's server audit: how many checks each requirement level has.
AUDITS = {"MUST": 13, "SHOULD": 23}


async def _token(gateway: Gateway) -> str:
    org = new_org()
    await gateway.store.bootstrap(org)
    return await gateway.token(org)


async def test_graphql_over_http_audit_passes_every_must_and_should(gateway: Gateway) -> None:
    token = await _token(gateway)
    report = await run_json_async("audit-http.mjs", gateway.url, env={"FABRIC_AUDIT_TOKEN": token})
    counts = report["counts"]
    failed = [f for f in report["failures"] if f["name"].split(" ")[0] in AUDITS]
    assert not failed, "\n".join(
        f"{f['id']} {f['name']}: {f['reason']} (HTTP {f['httpStatus']} {f['contentType']}) "
        f"{(f['body'] or '')[:300]}"
        for f in failed
    )
    for level, total in AUDITS.items():
        assert counts[level] == {"ok": total, "total": total}, (level, counts)


async def test_the_audit_passes_without_weakening_security(gateway: Gateway) -> None:
    """What the audit cannot see: it always sends the token, and never a mutation over GET."""
    token = await _token(gateway)
    auth = {"Authorization": f"Bearer {token}"}
    for accept in (GRAPHQL_RESPONSE, JSON):
        anonymous = await gateway.client.post(
            gateway.url, json={"query": "{ __typename }"}, headers={"Accept": accept}
        )
        assert anonymous.status_code == 401
        assert anonymous.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
        mutation = await gateway.client.get(
            gateway.url,
            params={"query": "mutation { project(records: []) { accepted } }"},
            headers={**auth, "Accept": accept},
        )
        assert mutation.status_code == 405 and mutation.headers["allow"] == "POST"
        assert mutation.headers["content-type"].startswith(accept)
        assert mutation.json()["errors"][0]["extensions"]["code"] == "METHOD_NOT_ALLOWED"


async def test_introspection_round_trips_through_graphql_js(gateway: Gateway) -> None:
    token = await _token(gateway)
    result = await run_json_async(
        "schema-roundtrip.mjs",
        gateway.url,
        str(ROOT / "schema.graphql"),
        env={"FABRIC_AUDIT_TOKEN": token},
    )
    live, committed = result["live"], result["file"]
    assert "type Query {" in live and "type Mutation {" in live
    diff = "".join(
        difflib.unified_diff(
            committed.splitlines(True), live.splitlines(True), "schema.graphql", "introspection"
        )
    )
    assert live == committed, f"the live schema differs from schema.graphql:\n{diff[:6000]}"
