"""Database faults under a running gateway: kill -9 of the graph server while requests run.

The gateway here is the real app under uvicorn on a loopback port, with the server it started
itself (embedded) or one it was pointed at (external). No database is mocked.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette

from engine.domain.contract import FailureStage
from gateway.app import Runtime, create_app
from gateway.auth import create_key
from gateway.settings import Settings
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from tests.gateway_fixture import _free_port
from tests.helpers import load, subject

ORG = "faults"
SUBJECTS = "{ subjects(first: 3) { totalCount edges { node { key } } } }"
# Where a request can be when the graph goes: before it ran (the key lookup), in a query, or in
# one of an investigation's own stages.
STAGES = {"authenticate", "read", *(stage.value for stage in FailureStage)}
INVESTIGATE = """mutation { investigate(input: {question: "who owns team:t3?"}) {
  result { id outcome } } }"""


@dataclass
class Running:
    base: str
    app: Starlette
    client: httpx.AsyncClient
    token: str = ""
    seen: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    retry_after: list[str | None] = field(default_factory=list)  # each 503's Retry-After

    @property
    def runtime(self) -> Runtime:
        runtime: Runtime = self.app.state.runtime
        return runtime

    async def post(self, query: str) -> httpx.Response:
        return await self.client.post(
            self.base + "/graphql",
            json={"query": query},
            headers={"Authorization": f"Bearer {self.token}"},
        )

    async def ready(self) -> int:
        return (await self.client.get(self.base + "/readyz")).status_code


@pytest.fixture
async def running(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Running]:
    settings: dict[str, Any] = request.param(tmp_path)
    port = _free_port()
    app = create_app(Settings(port=port, **settings))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    await _eventually(lambda: server.started or task.done())
    if task.done():
        task.result()
    async with httpx.AsyncClient(timeout=30) as client:
        gw = Running(f"http://127.0.0.1:{port}", app, client)
        store = gw.runtime.store
        await store.bootstrap(ORG)
        await load(store.org(ORG), [subject(f"team:t{i}") for i in range(20)])
        gw.token, _ = await create_key(store.keys, ORG, "tester", frozenset({"read", "write"}))
        yield gw
    server.should_exit = True
    await task


async def _hammer(gw: Running, stop: asyncio.Event, query: str = SUBJECTS) -> None:
    """One client sending requests back to back until told to stop."""
    while not stop.is_set():
        response = await gw.post(query)
        gw.seen.append((response.status_code, response.json()))
        if response.status_code == 503:
            gw.retry_after.append(response.headers.get("retry-after"))
        await asyncio.sleep(0.01)


async def _eventually(check: Callable[[], bool | Awaitable[bool]], tries: int = 600) -> None:
    """Poll `check` (bounded in tries, not timed) until it holds."""
    for _ in range(tries):
        outcome = check()
        if await outcome if inspect.isawaitable(outcome) else outcome:
            return
        await asyncio.sleep(0.05)
    pytest.fail("the condition never held")


async def _ready_is(gw: Running, status: int) -> None:
    async def check() -> bool:
        return await gw.ready() == status

    await _eventually(check)


def _failures(gw: Running) -> int:
    return sum(status != 200 for status, _ in gw.seen)


def _check_answers(seen: list[tuple[int, dict[str, Any]]]) -> None:
    failures = [body for status, body in seen if status != 200]
    assert {status for status, _ in seen} <= {200, 503}, "only answers or 503, never a 500"
    assert failures, "requests running during the outage must fail, not hang"
    for body in failures:
        (error,) = body["errors"]
        assert error["extensions"]["code"] == "GRAPH_UNAVAILABLE"
        assert error["extensions"]["failureStage"] in STAGES
        assert "Traceback" not in error["message"] and "redis" not in error["message"].lower()


async def _serves_again(gw: Running) -> None:
    response = await gw.post(SUBJECTS)
    assert response.status_code == 200
    # Every subject acknowledged before the kill is still there.
    assert response.json()["data"]["subjects"]["totalCount"] == 20
    response = await gw.post(INVESTIGATE)
    assert response.status_code == 200 and "errors" not in response.json()


def _embedded(tmp_path: Path) -> dict[str, Any]:
    # A restart delay long enough that the outage is observable by a polling client.
    return {"data_dir": tmp_path / "data", "embedded_restart_delay_s": 1.5}


@pytest.mark.parametrize("running", [_embedded], indirect=True)
async def test_gateway_restarts_its_embedded_server_after_kill_9(running: Running) -> None:
    gw = running
    opened = gw.runtime.opened
    assert opened is not None and opened.server is not None
    server = opened.server
    first_pid = server.pid
    assert first_pid is not None and await gw.ready() == 200
    stop = asyncio.Event()
    queries = [SUBJECTS, SUBJECTS, SUBJECTS, INVESTIGATE]
    clients = [asyncio.create_task(_hammer(gw, stop, q)) for q in queries]
    await _eventually(lambda: len(gw.seen) >= 8)
    os.kill(first_pid, signal.SIGKILL)
    await _ready_is(gw, 503)  # red while the server is down
    await _eventually(lambda: _failures(gw) >= 4)
    await _eventually(lambda: server.restarts == 1)  # by the gateway, which kept running
    await _ready_is(gw, 200)
    stop.set()
    await asyncio.gather(*clients)
    _check_answers(gw.seen)
    assert gw.retry_after and all(r == "1" for r in gw.retry_after)  # try again shortly
    assert server.restarts == 1 and server.pid != first_pid
    await _serves_again(gw)


@pytest.fixture
def external(tmp_path: Path) -> Iterator[EmbeddedServer]:
    with EmbeddedServer(tmp_path / "external") as server:
        yield server


async def test_gateway_reconnects_to_an_external_server_that_came_back(
    tmp_path: Path, external: EmbeddedServer
) -> None:
    """A server the gateway does not own: it reports the outage and reconnects by itself."""
    port = _free_port()
    app = create_app(Settings(port=port, graph_uri=external.url, data_dir=tmp_path / "unused"))
    uv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    )
    task = asyncio.create_task(uv.serve())
    await _eventually(lambda: uv.started)
    async with httpx.AsyncClient(timeout=30) as client:
        gw = Running(f"http://127.0.0.1:{port}", app, client)
        store = gw.runtime.store
        assert isinstance(store, FalkorStore)
        await store.bootstrap(ORG)
        await load(store.org(ORG), [subject(f"team:t{i}") for i in range(20)])
        gw.token, _ = await create_key(store.keys, ORG, "tester", frozenset({"read", "write"}))
        stop = asyncio.Event()
        queries = [SUBJECTS, SUBJECTS, SUBJECTS, INVESTIGATE]
        clients = [asyncio.create_task(_hammer(gw, stop, q)) for q in queries]
        await _eventually(lambda: len(gw.seen) >= 8)
        assert external.pid is not None
        os.kill(external.pid, signal.SIGKILL)
        await _ready_is(gw, 503)
        await _eventually(lambda: _failures(gw) >= 4 and not external.alive())
        external.restart()  # the operator (or an orchestrator) brings it back
        await _ready_is(gw, 200)
        stop.set()
        await asyncio.gather(*clients)
        _check_answers(gw.seen)
        assert gw.retry_after and all(r == "1" for r in gw.retry_after)  # try again shortly
        await _serves_again(gw)
    uv.should_exit = True
    await task


async def test_a_server_that_stops_answering_turns_ready_red_and_times_requests_out(
    tmp_path: Path, external: EmbeddedServer
) -> None:
    """SIGSTOP: the server keeps its connections open but answers nothing. The probe and the
    requests are bounded by the gateway's own limits, not by the driver's reply timeout."""
    port = _free_port()
    settings = Settings(port=port, graph_uri=external.url, request_timeout_s=1.0)
    app = create_app(settings)
    uv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    )
    task = asyncio.create_task(uv.serve())
    await _eventually(lambda: uv.started)
    assert external.pid is not None
    async with httpx.AsyncClient(timeout=30) as client:
        gw = Running(f"http://127.0.0.1:{port}", app, client)
        store = gw.runtime.store
        await store.bootstrap(ORG)
        await load(store.org(ORG), [subject(f"team:t{i}") for i in range(20)])
        gw.token, _ = await create_key(store.keys, ORG, "tester", frozenset({"read", "write"}))
        assert (await gw.post(SUBJECTS)).status_code == 200
        os.kill(external.pid, signal.SIGSTOP)
        try:
            assert await gw.ready() == 503
            stalled = await gw.post(SUBJECTS)
            assert stalled.status_code == 504
            assert stalled.json()["errors"][0]["extensions"]["code"] == "TIMEOUT"
        finally:
            os.kill(external.pid, signal.SIGCONT)
        await _ready_is(gw, 200)
        await _serves_again(gw)
    uv.should_exit = True
    await task
