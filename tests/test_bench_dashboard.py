"""bench/dashboard.py's hand-written endpoint answers the dashboard page as the gateway does
(the benchmark compares their speed, so it must compare the same answer), through its
windows and through its ranking of every repository."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bench import dashboard
from engine.domain.models import to_ns
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway


async def test_the_baseline_reads_the_gateways_page(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(8000, seed=11))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    token = await gateway.token(org)
    raw = dashboard.Raw(gateway.store.org(org)._read)
    rank: list[bool] = []  # each ranking statement: a window (True), or every repository
    paths: set[bool] = set()  # how each page was ranked in the end
    read = raw._read

    async def counted(statement: str, **params: Any) -> list[list[Any]]:
        if statement in (dashboard.RANK_WINDOW, dashboard.RANK_EVERY):
            rank.append(statement == dashboard.RANK_WINDOW)
        return await read(statement, **params)

    raw._read = counted
    for as_of in (dashboard.AS_OF, "2026-05-01T00:00:00Z", "2025-10-20T00:00:00Z"):
        body = {"query": dashboard.QUERY, "variables": {"asOf": as_of}}
        response = (await gateway.query(token, body["query"], body["variables"])).json()
        t = to_ns(datetime.fromisoformat(as_of))
        assert t is not None
        rank.clear()
        page = await raw.page(t)
        paths.add(rank[-1])
        edges = page["data"]["subjects"]["edges"]
        assert edges and page == response, as_of
        assert any(e["node"]["owner"] for e in edges)
        assert any(d["owner"] for e in edges for d in e["node"]["dependencies"])
        if as_of == dashboard.AS_OF:
            assert len(edges) == 100 and rank[-1]  # from a window
    # Early in the data the windows hold too few repositories: every one was ranked.
    assert paths == {True, False}
