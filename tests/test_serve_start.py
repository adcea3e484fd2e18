"""`fabric serve --workers 2` starts its first worker while the embedded graph server loads:
a worker imports the whole gateway (seconds under load), which a restart used to wait for
only after the load. The others start once the first serves (gateway/workers.py: N imports
side by side beside the load made the first serve later). The graph server is held (SIGSTOP)
as soon as it is spawned, so it can neither finish loading nor answer: the first worker must
exist all the same, and both serve once it is let go."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from graph.embedded.directory import STATE_FILE
from tests.helpers import interrupt
from tests.test_workers import _free_port, workers_of

LIMIT_S = 180.0  # how long a step may take on a loaded machine before the test gives up


def _until(check: object, what: str) -> object:
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        found = check()  # type: ignore[operator]
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(what)


def _server_pid(data_dir: Path) -> int | None:
    try:
        return int(json.loads((data_dir / STATE_FILE).read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return None


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def test_the_workers_start_while_the_graph_server_loads(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = _free_port()
    env = {**os.environ, "FABRIC_GRAPHIQL": "false", "FABRIC_LOG_LEVEL": "warning"}
    env.pop("FABRIC_WORKERS", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.cli", "serve", "--workers", "2", "--port", str(port),
         "--data-dir", str(data_dir)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        server = _until(lambda: _server_pid(data_dir), "the graph server was never spawned")
        assert isinstance(server, int)
        os.kill(server, signal.SIGSTOP)
        try:
            # Held, it has not loaded; the first worker is there meanwhile, waiting for it.
            _until(lambda: len(workers_of(proc.pid)) >= 1, "no worker while the server loads")
            assert not _ready(port)
        finally:
            with contextlib.suppress(ProcessLookupError):  # gone if `fabric serve` gave up
                os.kill(server, signal.SIGCONT)
        _until(lambda: _ready(port), "the workers never served once the server had loaded")
        _until(lambda: len(workers_of(proc.pid)) == 2, "the second worker never started")
    finally:
        interrupt(proc)  # type: ignore[arg-type]
    assert proc.returncode == 0
