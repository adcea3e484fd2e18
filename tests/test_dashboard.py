"""The dashboard's files and documents as the gateway serves them (no browser: that is
tests/test_dashboard_browser.py)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from graphql import OperationDefinitionNode, parse

from gateway.dashboard import ORGANISATION_PAGE, documents
from gateway.documents import sha256_hex
from gateway.graphiql import subscription_files
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve


@pytest.fixture
async def gateway(falkor: FalkorStore, tmp_path: Path) -> AsyncIterator[Gateway]:
    assets = tmp_path / "assets"
    assets.mkdir()
    for name in subscription_files():
        (assets / name).write_text(f"/* {name} */")
    async for running in serve(falkor, graphiql_assets_dir=assets):
        yield running


def _embedded(page: str) -> dict[str, dict[str, str]]:
    found = re.search(r'<script id="fabric-documents" type="application/json">(.*?)</script>',
                      page, re.S)
    assert found is not None
    return dict(json.loads(found.group(1)))


async def test_dashboard_is_served_with_its_documents_and_graphql_ws(gateway: Gateway) -> None:
    base = gateway.url.removesuffix("/graphql")
    bare = await gateway.client.get(f"{base}/dashboard")
    assert bare.status_code == 308 and bare.headers["location"] == "dashboard/"
    page = await gateway.client.get(f"{base}/dashboard/")  # no token: the page is public
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="vendor/graphql-ws.min.js"></script>' in page.text
    assert "{{" not in page.text and "http" not in page.text.split("<body>")[1]
    embedded = _embedded(page.text)
    assert set(embedded) == set(documents()) >= set(ORGANISATION_PAGE)
    for name, doc in embedded.items():
        assert doc["sha256"] == sha256_hex(doc["query"])
        (operation,) = parse(doc["query"]).definitions[:1]
        assert isinstance(operation, OperationDefinitionNode) and operation.name is not None
        assert operation.name.value == name
    for path, kind in (("dashboard.js", "javascript"), ("dashboard.css", "text/css"),
                       ("vendor/graphql-ws.min.js", "javascript")):
        response = await gateway.client.get(f"{base}/dashboard/{path}")
        assert response.status_code == 200 and kind in response.headers["content-type"], path
    assert (await gateway.client.get(f"{base}/dashboard/../settings.py")).status_code == 404


async def test_every_document_runs_as_a_persisted_query(gateway: Gateway) -> None:
    """Each document validates against the schema and runs by hash once its text was sent,
    over GET for queries as the page sends them; the tag of the answer to the request that
    sent the text revalidates the same request by hash alone (304)."""
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    headers = {"Authorization": f"Bearer {token}"}
    window = {"from": "2026-08-17T00:00:00Z", "to": "2026-11-15T00:00:00Z"}
    variables = {
        "DashboardClock": {"window": window},
        "OrgRepositories": {"asOf": window["to"], "window": window, "bucket": "WEEK"},
        "OrgServices": {"asOf": window["to"], "window": window, "bucket": "WEEK"},
        "OrgRecent": {"ids": [], "window": window},
        "SubjectPage": {"key": "repository:x", "asOf": window["to"], "earlier": window["from"],
                        "window": window, "bucket": "WEEK"},
        "SubjectSearch": {"search": "pay"},
        "RecordDetail": {"id": "U291cmNlUmVjb3JkOnB1bGxfcmVxdWVzdDoxMA"},
        "LiveActive": {},
    }
    for name, values in variables.items():
        text = documents()[name]
        extensions = json.dumps({"persistedQuery": {"version": 1, "sha256Hash": sha256_hex(text)}})
        params = {"operationName": name, "variables": json.dumps(values), "extensions": extensions}
        first = await gateway.client.get(gateway.url, params={**params, "query": text},
                                         headers=headers)
        assert first.status_code == 200 and "errors" not in first.json(), (name, first.json())
        again = await gateway.client.get(gateway.url, params=params, headers=headers)
        assert again.json() == first.json() and again.headers["etag"] == first.headers["etag"]
        revalidated = await gateway.client.get(
            gateway.url, params=params, headers={**headers, "If-None-Match": first.headers["etag"]})
        assert revalidated.status_code == 304, name
