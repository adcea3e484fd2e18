"""bench/dashboard.py's hand-written endpoint answers the dashboard page as the gateway does
(the benchmark compares their speed, so it must compare the same answer and the same work):
it ranks through the structures the gateway reads (day counts, windows, tie nodes), and a
page on which the two differ is counted wrong, which fails the run."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import AsyncIterator
from contextvars import ContextVar
from datetime import datetime
from typing import Any

import pytest
import uvicorn

from bench import cpu, dashboard
from engine.domain.models import to_ns
from gateway import logs
from graph.embedded import EmbeddedServer
from graph.projection import Projector
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, running

EARLY = "2025-10-20T00:00:00Z"  # early in the demo's data: fewer repositories than a page


async def _demo_org(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in generate(8000, seed=11))
    assert (await Projector(gateway.store.org(org), source="demo").run(lines)).ok
    return org, await gateway.token(org)


# Set in the test's own task (and so in what it starts): the baseline's reads.
_OWN: ContextVar[bool] = ContextVar("the test's own statements", default=False)


def _record(gateway: Gateway, org: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements sent for `org` from now on by a request to the gateway or by the test
    itself (the executor, shared by every organisation, still runs each). Not what runs
    beside them: the session gateway's epoch sweep reads every keyed organisation's serving
    epoch through this same executor, and would be counted to whichever side it fell in."""
    executor = gateway.store.org(org)._x
    sent: list[str] = []
    run = executor.run
    _OWN.set(True)

    async def recorded(statement: str, params: dict[str, Any], **kw: Any) -> Any:
        if params.get("org") == org and (_OWN.get() or logs.request_id.get() is not None):
            sent.append(statement)
        return await run(statement, params, **kw)

    monkeypatch.setattr(executor, "run", recorded)
    return sent


async def test_the_baseline_reads_the_gateways_page_through_the_same_structures(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch
) -> None:
    org, token = await _demo_org(gateway)
    raw = dashboard.Raw(gateway.store.org(org))
    activity = gateway.store.org(org).activity
    sent = _record(gateway, org, monkeypatch)
    ranked_all = []
    for as_of in (*dashboard.PAGES, "2026-05-01T00:00:00Z", EARLY):
        sent.clear()
        response = (await gateway.query(token, dashboard.QUERY, {"asOf": as_of})).json()
        by_gateway = set(sent)
        sent.clear()
        before = activity.ranked_all
        t = to_ns(datetime.fromisoformat(as_of))
        assert t is not None
        page = await raw.page(t)
        ranked_all.append(activity.ranked_all > before)
        edges = page["data"]["subjects"]["edges"]
        assert edges and page == response, as_of
        assert any(e["node"]["owner"] for e in edges)
        assert any(d["owner"] for e in edges for d in e["node"]["dependencies"])
        # Every statement but its one lookup of the neighbours is one the gateway sent for
        # the same page: the ranking is the same work, not a reading of its own.
        assert dashboard.LOOKUPS in sent, as_of
        assert set(sent) - {dashboard.LOOKUPS} <= by_gateway, as_of
        assert set(sent) - {dashboard.LOOKUPS}, as_of  # it did rank (nothing cached whole)
        if as_of in dashboard.PAGES:
            assert len(edges) == 100, as_of
    # Early in the data the windows hold too few repositories: every one was ranked, late
    # the windows held the page.
    assert ranked_all[-1] and not ranked_all[0]


@pytest.fixture
async def bench_server(falkor_server: EmbeddedServer) -> AsyncIterator[str]:
    """bench/dashboard.py's server (the gateway and /raw) on a loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    app = dashboard.bench_app(falkor_server.url, port)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=5)  # fmt: skip
    async with running(config):
        yield f"http://127.0.0.1:{port}"


async def test_a_page_on_which_the_two_differ_is_counted_wrong(
    gateway: Gateway, bench_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, token = await _demo_org(gateway)
    agreed = await dashboard.measure(bench_server, token, 1.0, 1)
    assert agreed["wrong_answers"] == 0 and agreed["repositories"] == 100
    assert agreed["pages_compared"] == len(dashboard.PAGES) + 2
    # Each side's database time per page, from the database's own replies.
    assert agreed["gateway_db_p50_ms"] > 0 and agreed["raw_db_p50_ms"] > 0
    # The baseline drops a repository on one page only, and not the measured one.
    differs = to_ns(datetime.fromisoformat(dashboard.PAGES[2]))
    page = dashboard.Raw.page

    async def one_short(self: dashboard.Raw, t: int) -> dict[str, Any]:
        found = await page(self, t)
        if t == differs:
            found["data"]["subjects"]["edges"].pop()
        return found

    monkeypatch.setattr(dashboard.Raw, "page", one_short)
    disagreed = await dashboard.measure(bench_server, token, 1.0, 1)
    assert disagreed["wrong_answers"] == 1


async def test_each_side_reports_the_cpu_each_process_spent_per_page(
    gateway: Gateway, bench_server: str, falkor_server: EmbeddedServer
) -> None:
    """A page rate alone does not say what the pages waited for: each side reports the CPU
    milliseconds per page of the server (here this process, which serves in the test), the
    database, and what the rest of the machine took meanwhile."""
    _, token = await _demo_org(gateway)
    assert falkor_server.pid is not None
    meter = cpu.Meter({
        "server": cpu.Process(os.getpid()),
        "database": cpu.Process(falkor_server.pid),
    })  # fmt: skip
    run = await dashboard.measure(bench_server, token, 1.0, 1, meter=meter)
    assert run["wrong_answers"] == 0
    for side in ("gateway", "raw"):
        cost = run["cpu_ms_per_page"][side]
        assert set(cost) == {"server", "database", "others"}, side
        # Every page is answered by this process from what the database returned.
        assert cost["server"] > 0 and cost["database"] > 0, (side, cost)
        assert cost["others"] >= 0, (side, cost)
    # The pages' rates as the cores alone would set them: the baseline's serving CPU over
    # the gateway's.
    serving = [sum(run["cpu_ms_per_page"][side][p] for p in ("server", "database"))
               for side in ("raw", "gateway")]  # fmt: skip
    assert run["cpu_ratio"] == round(serving[0] / serving[1], 3)


def test_the_scaling_bound_is_what_the_cores_allow_n_workers_over_one() -> None:
    # The database's part larger than the gateway's, on 2 cores: one worker already gets
    # what the cores allow, so a second cannot add anything (bench/dashboard.py at 100k).
    measured = {"server": 2.78, "database": 4.25, "driver": 0.89, "others": 12.53}
    assert cpu.scaling_bound(measured, 2, 2) == 1.0
    # The rest of the machine's work is not the pages' cost: it does not move the bound.
    assert cpu.scaling_bound({**measured, "others": 0.0}, 2, 2) == 1.0
    # The gateway's Python most of a page: one worker is held to its one core, two to the
    # cores: 2 / 12 ms against 1 / 10 ms.
    gateway_bound = {"server": 10.0, "database": 1.0, "driver": 1.0}
    assert cpu.scaling_bound(gateway_bound, 2, 2) == 1.67
    assert cpu.scaling_bound(gateway_bound, 2, 8) == 2.0
    assert cpu.scaling_bound({"database": 1.0}, 2, 2) is None


def test_the_cpu_ratio_counts_what_serving_a_page_takes() -> None:
    gateway = {"server": 2.78, "database": 4.25, "driver": 0.89, "others": 12.53}
    raw = {"server": 2.04, "database": 3.48, "driver": 0.91, "others": 14.43}
    assert cpu.ratio(gateway, raw) == 0.785  # 5.52 / 7.03: the driver and others left out
    assert cpu.ratio(gateway, {**raw, "others": 0.0}) == 0.785
    assert cpu.ratio({}, raw) is None
