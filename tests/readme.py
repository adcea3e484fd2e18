"""README's first-run commands, read from README.md itself, and a demo gateway started the
way its first command starts one: from an empty directory, with no GraphiQL assets yet."""

from __future__ import annotations

import os
import queue
import re
import shlex
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import interrupt

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DEFAULT_URL = "http://127.0.0.1:8000/graphql"


def sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def first_run_commands() -> list[str]:
    """The commands of README's first `sh` block, comments cut: venv, serve, test."""
    lines = sh_blocks()[0].strip().splitlines()
    return [line.split("  #", 1)[0].strip() for line in lines]


def curl_example() -> str:
    """README's block that queries the running demo (exporting TOKEN, then curl)."""
    return next(block for block in sh_blocks() if "curl" in block and "$TOKEN" in block)


def serve_command() -> list[str]:
    """README's command 1 after the install: `fabric serve --demo`, as this Python runs it."""
    serve = first_run_commands()[1].split("&&")[-1].strip()
    argv = shlex.split(serve)
    assert argv[0] == "fabric", serve
    return [sys.executable, "-m", "gateway.cli", *argv[1:]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Demo:
    url: str
    cwd: Path
    assets: Path
    output: str  # what the command printed up to its ready-to-paste token line
    token: str


def _accepts(port: int, deadline: float) -> bool:
    """True once 127.0.0.1:port takes a connection (before `deadline`, a monotonic time)."""
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def _drain(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line)
    lines.put("")


def start_demo(cwd: Path, records: int | None = None) -> Iterator[Demo]:
    """Run README's serve command in `cwd` (so `fabric-data/` lands there, as for a user)
    on a free port, with an empty GraphiQL assets directory; stop it with Ctrl-C after.
    records: the demo's size (default: what README's command loads)."""
    port = _free_port()
    assets = cwd / "graphiql-assets"
    env = {k: v for k, v in os.environ.items() if not k.startswith("FABRIC_")}
    if records is not None:
        env["FABRIC_DEMO_RECORDS"] = str(records)
    env.update({"FABRIC_GRAPHIQL_ASSETS_DIR": str(assets),
                "FABRIC_LOG_LEVEL": "warning",
                # This checkout's code, whatever the installed package points at.
                "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])})
    proc = subprocess.Popen([*serve_command(), "--port", str(port)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    # A reader thread keeps the pipe drained for as long as the server runs, and lets the
    # wait for the token line end on time even if the server prints nothing.
    threading.Thread(target=_drain, args=(proc, lines), daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + 180
    token = None
    while token is None and time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        if not line or "the embedded FalkorDB server exited" in line:
            break
        seen.append(line)
        if line.strip().startswith("export TOKEN="):
            token = line.strip().removeprefix("export TOKEN=")
    if token is None:
        proc.kill()
        pytest.fail("`fabric serve --demo` printed no `export TOKEN=` line:\n" + "".join(seen))
    # The banner is printed from the app's startup, just before uvicorn binds its socket: a
    # person pastes the line seconds later, a test must wait for the port to take connections.
    if not _accepts(port, deadline):
        proc.kill()
        pytest.fail("`fabric serve --demo` printed its token but never listened:\n" + "".join(seen))
    try:
        yield Demo(f"http://127.0.0.1:{port}/graphql", cwd, assets, "".join(seen), token)
    finally:
        interrupt(proc)
