"""`fabric serve --workers 2`: two gateway processes on one port over one embedded FalkorDB
that the parent process alone starts. A subscriber on each worker hears a write made through
one of them; a document persisted and an ETag given by one worker serve on the other; the
workers are replaced (SIGHUP) and one is stopped on its own (SIGTERM) under a steady load
without a request failing.

Which worker holds a connection is read from the kernel (/proc: the server side of the
connection's socket, and which worker's descriptors hold it), never from the gateway:
a connection is opened until one lands on the worker wanted."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from gateway.auth import create_key
from graph.embedded import find_running
from graph.falkor import FalkorStore
from graph.keystore import SYSTEM_SCOPE
from tests.helpers import interrupt, load, subject

ORG = "workers"
INGESTED = "subscription { recordsIngested { __typename ... on RecordsIngested { count subjectKeys } } }"
PAGE = "query Page { subjects(first: 5) { edges { node { key } } } }"
PROJECT = 'mutation($r: [JSON!]!) { project(records: $r, source: "api") { accepted } }'


@dataclass
class Served:
    port: int
    parent: int
    token: str
    data_dir: Path
    lines: queue.Queue[str]

    def output(self) -> str:
        """What the server printed since the last call (for a failure's message)."""
        said = []
        with contextlib.suppress(queue.Empty):
            while True:
                said.append(self.lines.get_nowait())
        return "".join(said)

    def workers(self) -> list[int]:
        return workers_of(self.parent)


def workers_of(parent: int) -> list[int]:
    """The parent's worker processes (its spawned children; the graph server is not one)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{parent}/task").iterdir():
            found += [int(p) for p in (task / "children").read_text().split()]
    workers = []
    for pid in found:
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                workers.append(pid)
    return sorted(workers)


def holder(port: int, client_port: int, pids: list[int]) -> int | None:
    """The worker whose descriptors hold the server side of the connection from
    `client_port`, None while none has accepted it."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = fields[1], fields[2]
            if int(local.rsplit(":", 1)[1], 16) == port and int(remote.rsplit(":", 1)[1], 16) == client_port:
                inode = fields[9]
    if inode in (None, "0"):
        return None
    target = f"socket:[{inode}]"
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) == target:
                        return pid
    return None


def landed(port: int, client_port: int, pids: list[int]) -> int:
    for _ in range(500):
        found = holder(port, client_port, pids)
        if found is not None:
            return found
        time.sleep(0.01)
    raise AssertionError(f"no worker accepted the connection from port {client_port}")


def connection_to(served: Served, pid: int) -> http.client.HTTPConnection:
    """A kept-alive HTTP connection that the worker `pid` accepted."""
    pids = served.workers()
    for _ in range(300):
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
        conn.connect()
        assert conn.sock is not None
        if landed(served.port, conn.sock.getsockname()[1], pids) == pid:
            return conn
        conn.close()
    raise AssertionError(f"no connection landed on worker {pid}")


def ask(conn: http.client.HTTPConnection, method: str, token: str, body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    path = "/graphql" + ("?" + urlencode(params) if params else "")
    sent = {"Authorization": f"Bearer {token}", **(headers or {})}
    if body is not None:
        sent["Content-Type"] = "application/json"
    conn.request(method, path, json.dumps(body) if body is not None else None, sent)
    response = conn.getresponse()
    data = response.read()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(data) if data else None


def metric(conn: http.client.HTTPConnection, name: str) -> float:
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _drain(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line)
    lines.put("")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    data_dir = tmp_path_factory.mktemp("workers") / "data"
    port = _free_port()
    env = {**os.environ, "FABRIC_GRAPHIQL": "false", "FABRIC_LOG_LEVEL": "warning",
           "FABRIC_SUBSCRIPTION_RECHECK_S": "1"}  # fmt: skip
    env.pop("FABRIC_WORKERS", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.cli", "serve", "--workers", "2", "--port", str(port),
         "--data-dir", str(data_dir)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_drain, args=(proc, lines), daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            line = lines.get(timeout=1)
            seen.append(line)
            if not line or "gateway processes serve the port" in line:
                break
    if not seen or "gateway processes serve the port" not in seen[-1]:
        proc.kill()
        pytest.fail("`fabric serve --workers 2` never served:\n" + "".join(seen))
    try:
        running = find_running(data_dir)
        assert running is not None
        # Exactly one graph server, the parent's child; the workers only connect to it.
        servers = [p for p in workers_of_any(proc.pid) if p == running.pid]
        assert servers == [running.pid]
        token = asyncio.run(_org(running.url))
        yield Served(port, proc.pid, token, data_dir, lines)
    finally:
        interrupt(proc)
    assert proc.returncode == 0, "".join(seen)
    assert find_running(data_dir) is None  # the graph server stopped with the parent, last


def workers_of_any(parent: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{parent}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


async def _org(url: str) -> str:
    store = FalkorStore(url)
    try:
        await store.bootstrap(SYSTEM_SCOPE)
        await store.bootstrap(ORG)
        await load(store.org(ORG), [subject("repository:alpha")])
        token, _ = await create_key(store.keys, ORG, "tester", frozenset({"read", "write"}))
        return token
    finally:
        await store.close()


async def _subscriber(served: Served, pid: int) -> ClientConnection:
    """A graphql-transport-ws subscriber whose connection the worker `pid` accepted."""
    pids = served.workers()
    for _ in range(300):
        ws = await connect(f"ws://127.0.0.1:{served.port}/graphql",
                           subprotocols=["graphql-transport-ws"])  # type: ignore[list-item]  # fmt: skip
        client_port = ws.local_address[1]
        if await asyncio.to_thread(landed, served.port, client_port, pids) == pid:
            await ws.send(json.dumps({"type": "connection_init",
                                      "payload": {"Authorization": f"Bearer {served.token}"}}))  # fmt: skip
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": INGESTED}}))
            return ws
        await ws.close()
    raise AssertionError(f"no websocket landed on worker {pid}")


async def test_a_write_through_one_worker_reaches_subscribers_on_both(served: Served) -> None:
    a, b = served.workers()
    subscribers = [await _subscriber(served, a), await _subscriber(served, b)]
    on_a, on_b = connection_to(served, a), connection_to(served, b)
    try:
        # graphql-ws acknowledges no subscribe: the gauge, summed over the workers, says
        # both run (whichever worker answers the scrape).
        for conn in (on_a, on_b):
            for _ in range(1000):
                if metric(conn, "fabric_subscriptions_active") >= 2:
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError("the subscriptions never became active")
        records = [subject("repository:beta"), subject("team:core")]
        status, _, body = ask(on_b, "POST", served.token, {"query": PROJECT, "variables": {"r": records}})
        assert (status, body) == (200, {"data": {"project": {"accepted": 2}}})
        for ws in subscribers:
            async with asyncio.timeout(60):
                message = json.loads(await ws.recv())
            assert message["type"] == "next", message
            event = message["payload"]["data"]["recordsIngested"]
            assert event["count"] == 2
            assert sorted(event["subjectKeys"]) == ["repository:beta", "team:core"]
    finally:
        for ws in subscribers:
            await ws.close()
        on_a.close()
        on_b.close()


def test_a_document_and_an_etag_from_one_worker_serve_on_the_other(served: Served) -> None:
    a, b = served.workers()
    on_a, on_b = connection_to(served, a), connection_to(served, b)
    try:
        digest = hashlib.sha256(PAGE.encode()).hexdigest()
        hashed = {"operationName": "Page",
                  "extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": digest}})}  # fmt: skip
        status, headers, first = ask(on_a, "GET", served.token, params={**hashed, "query": PAGE})
        assert status == 200 and "errors" not in first, first
        # Worker B never saw the text: it finds the document worker A persisted.
        status, again_headers, again = ask(on_b, "GET", served.token, params=hashed)
        assert (status, again) == (200, first)
        assert again_headers["etag"] == headers["etag"]
        status, _, _ = ask(on_b, "GET", served.token, params=hashed,
                           headers={"If-None-Match": headers["etag"]})  # fmt: skip
        assert status == 304
        # A write through B changes the answer's revision on A too.
        status, _, _ = ask(on_b, "POST", served.token,
                           {"query": PROJECT, "variables": {"r": [subject("repository:gamma")]}})  # fmt: skip
        assert status == 200
        status, after_headers, _ = ask(on_a, "GET", served.token, params=hashed,
                                       headers={"If-None-Match": headers["etag"]})  # fmt: skip
        assert status == 200 and after_headers["etag"] != headers["etag"]
    finally:
        on_a.close()
        on_b.close()


def total(conn: http.client.HTTPConnection, name: str) -> float:
    """Every series of a metric summed, as one scrape through `conn` shows it."""
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith((name + "{", name + " ")))  # fmt: skip


def test_a_scrape_on_either_worker_shows_the_whole_server(served: Served) -> None:
    """Requests answered by each worker all count, in the scrape of either (gateway/scrape.py):
    a worker's own registry showed its own requests only."""
    a, b = served.workers()
    on_a, on_b = connection_to(served, a), connection_to(served, b)
    names = ("fabric_graphql_requests_total", "fabric_graphql_request_seconds_count",
             "fabric_graph_round_trips_count")  # fmt: skip
    try:
        before = {name: total(on_a, name) for name in names}
        assert before == {name: total(on_b, name) for name in names}
        for conn, n in ((on_a, 3), (on_b, 5)):
            for _ in range(n):
                status, _, body = ask(conn, "POST", served.token, {"query": PAGE})
                assert status == 200 and "errors" not in body, body
        # A request is counted as it ends, after its response is sent: a scrape on the other
        # worker may come first, so each scrape is tried until it counts all 8 (or 60 s).
        for conn in (on_a, on_b, on_a):
            deadline = time.monotonic() + 60
            while True:
                seen = {name: total(conn, name) - before[name] for name in names}
                if seen == dict.fromkeys(names, 8) or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert seen == dict.fromkeys(names, 8)
    finally:
        on_a.close()
        on_b.close()


def _until(served: Served, check: Any, what: str, limit: float = 180) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(what + ":\n" + served.output())


def test_workers_replaced_and_stopped_under_load_drop_no_request(served: Served) -> None:
    expected = None
    with httpx.Client(timeout=60) as client:
        expected = client.post(f"http://127.0.0.1:{served.port}/graphql", json={"query": PAGE},
                               headers={"Authorization": f"Bearer {served.token}"}).json()  # fmt: skip
    assert expected["data"]["subjects"]["edges"], expected
    stop = threading.Event()
    done: list[int] = []  # one entry per request answered as expected (its end, monotonic ns)
    failed: list[str] = []

    def steady() -> None:
        # A kept-alive client as a dashboard's is, bounded in count and time.
        with httpx.Client(timeout=60) as client:
            for _ in range(5000):
                if stop.is_set():
                    return
                try:
                    got = client.post(f"http://127.0.0.1:{served.port}/graphql",
                                      json={"query": PAGE},
                                      headers={"Authorization": f"Bearer {served.token}"})  # fmt: skip
                    ok = got.status_code == 200 and got.json() == expected
                except httpx.HTTPError as exc:
                    failed.append(repr(exc))
                    continue
                (done.append(time.monotonic_ns()) if ok else failed.append(got.text[:200]))

    clients = [threading.Thread(target=steady) for _ in range(4)]
    for thread in clients:
        thread.start()
    try:
        _until(served, lambda: len(done) >= 20, "no request was answered before the restart")
        first = served.workers()
        assert len(first) == 2
        os.kill(served.parent, signal.SIGHUP)  # replace every worker, one at a time
        _until(served, lambda: len(served.workers()) == 2 and not set(served.workers()) & set(first),
               "the workers were not all replaced")  # fmt: skip
        after_restart = len(done)
        _until(served, lambda: len(done) >= after_restart + 20, "nothing answered after the restart")
        victim = served.workers()[0]
        os.kill(victim, signal.SIGTERM)  # one worker stops on its own; the other serves on
        _until(served, lambda: victim not in served.workers() and len(served.workers()) == 2,
               "the stopped worker was not replaced")  # fmt: skip
        after_stop = len(done)
        _until(served, lambda: len(done) >= after_stop + 20, "nothing answered after the stop")
    finally:
        stop.set()
        for thread in clients:
            thread.join(timeout=120)
    assert failed == [], served.output()


def test_the_other_workers_start_once_the_first_serves(tmp_path: Path) -> None:
    """A start is what a user sees of a restart: with every worker importing the gateway side
    by side on a busy 2-core machine the first served (/readyz) at 15.8-16.4 s against
    8.9-9.5 s for one worker alone (100k subjects). The second worker is started only once
    the first serves: whenever two workers exist, /readyz answers (readiness never reverts,
    so reading it after seeing the second worker is no race)."""
    port = _free_port()
    env = {**os.environ, "FABRIC_GRAPHIQL": "false", "FABRIC_LOG_LEVEL": "warning"}
    env.pop("FABRIC_WORKERS", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.cli", "serve", "--workers", "2", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    seen_two = False
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not seen_two:
            if len(workers_of(proc.pid)) >= 2:
                seen_two = True
                try:
                    status = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=30).status_code
                except httpx.TransportError:
                    status = None  # nothing serves the port yet
                assert status == 200, "a second worker started before the first served"
            time.sleep(0.02)
        assert seen_two, "the second worker never started"
    finally:
        interrupt(proc)
