"""bench/dashboard.py --workload organisation: a page load sends the dashboard's organisation
documents as the page does, and its two cases meet their expected outcomes (a cold load
answers as the first did; a revalidated one is 304 for every request)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx

from bench.organisation_page import PageLoad
from gateway.dashboard import ORGANISATION_PAGE
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway


async def test_a_page_load_is_the_pages_documents_cold_and_revalidated(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(3000, seed=11))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    token = await gateway.token(org)
    today = datetime.now(UTC)
    async with httpx.AsyncClient(timeout=60) as client:
        page = PageLoad(client, gateway.url, token)
        first = await page.load(today)
        assert list(first) == list(ORGANISATION_PAGE) and page.statuses == [200] * 4
        assert all("errors" not in answer for answer in first.values()), first
        assert first["OrgRepositories"]["data"]["subjects"]["totalCount"] > 0
        assert page.recent and first["OrgRecent"]["data"]["nodes"]
        # The demo's data ends on 14 November 2026: the page opens there, not today.
        assert page.day == datetime(2026, 11, 14, tzinfo=UTC)
        page.statuses.clear()
        assert await page.load(today) == first and page.statuses == [200] * 4
        page.statuses.clear()
        again = await page.load(today, revalidate=True)
        assert page.statuses == [304] * 4 and set(again.values()) == {None}
