"""`fabric graph-server`: a data directory's embedded server outlives the gateways that join
it. Real processes, a real embedded FalkorDB, real HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from gateway.cli.common import EXIT_FAILURE
from graph.embedded import find_running
from tests.test_cli import FABRIC, ROOT, _read_until, _start_serve, _stop, fabric, free_port

QUERY = {"query": '{ one: subject(key: "repository:payments-api") { name } }'}


def _graph_server(data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*FABRIC, "graph-server", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
    )


def _ask(port: int, token: str) -> str:
    answer = httpx.post(f"http://127.0.0.1:{port}/graphql", json=QUERY,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["data"]["one"]["name"])


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_gateways_join_the_graph_server_and_leave_it_running(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    graph = _graph_server(data_dir)
    try:
        said = _read_until(graph, "Ctrl-C")
        assert f"Graph server for {data_dir} ready" in said
        server = find_running(data_dir)
        assert server is not None
        # A second one on the same directory refuses, naming why.
        second = fabric("graph-server", "--data-dir", str(data_dir))
        assert second.returncode == EXIT_FAILURE
        assert "a graph server already runs on" in second.stderr
        assert "Traceback" not in second.stderr

        token, port = "demo-" + os.urandom(8).hex(), free_port()
        gateway = _start_serve(data_dir, port, token)
        try:
            assert "Loaded 400 demo records" in _read_until(gateway, "Bearer token:")
            assert _ask(port, token) == "payments-api"
        finally:
            assert _stop(gateway) is not None
        assert gateway.returncode == 0
        # The gateway joined the graph server's process and did not stop it.
        still = find_running(data_dir)
        assert still is not None and still.pid == server.pid

        gateway = _start_serve(data_dir, port, token)
        try:
            said = _read_until(gateway, "Bearer token:")
            assert "The demo organisation 'demo' is loaded already." in said
            assert _ask(port, token) == "payments-api"
        finally:
            _stop(gateway)
    finally:
        graph.send_signal(signal.SIGTERM)
        out, _ = graph.communicate(timeout=120)
    assert graph.returncode == 0, out
    assert f"Graph server for {data_dir} stopped." in out
    assert find_running(data_dir) is None and _gone(server.pid)


def test_the_graph_server_restarts_a_server_process_that_died(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    graph = _graph_server(data_dir)
    try:
        _read_until(graph, "Ctrl-C")
        first = find_running(data_dir)
        assert first is not None
        os.kill(first.pid, signal.SIGKILL)
        said = _read_until(graph, "restarting it")
        assert "the embedded FalkorDB server exited" in said
        deadline = time.monotonic() + 120  # a bound for a hang, not a speed
        again = find_running(data_dir)
        while (again is None or again.pid == first.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
            again = find_running(data_dir)
        assert again is not None and again.pid != first.pid
    finally:
        graph.send_signal(signal.SIGINT)
        graph.communicate(timeout=120)
    assert graph.returncode == 0


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_graph_server_stops_cleanly_on_either_signal(
    tmp_path: Path, stop: signal.Signals
) -> None:
    data_dir = tmp_path / "data"
    graph = _graph_server(data_dir)
    _read_until(graph, "Ctrl-C")
    server = find_running(data_dir)
    assert server is not None
    graph.send_signal(stop)
    out, _ = graph.communicate(timeout=120)
    assert graph.returncode == 0, out
    assert "Traceback" not in out
    assert find_running(data_dir) is None and _gone(server.pid)
