"""Runs the Node tooling in tests/js (installed by `.ci/run` with `npm ci`) and reads its JSON.

Each script prints one JSON object as its last line. A missing `node` fails the test where
`.ci/deps` installs it and skips it elsewhere, saying how to enable it (tests/system_tools.py);
missing packages fail it (`.ci/deps` runs `npm ci` wherever Node is).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import system_tools

JS_DIR = Path(__file__).resolve().parent / "js"
INSTALL = "`.ci/deps` installs them (step: `npm ci --prefix tests/js`)"
TIMEOUT_S = 600  # the Cypher linter is slow on a loaded machine; a hang still ends


def require_node() -> str:
    """The `node` executable, with the packages of tests/js installed; else the test fails."""
    node = system_tools.node()
    package = json.loads((JS_DIR / "package.json").read_text())
    missing = [d for d in package["dependencies"] if not (JS_DIR / "node_modules" / d).is_dir()]
    if missing:
        pytest.fail(f"Node packages {missing} are missing from tests/js/node_modules: {INSTALL}")
    return node


def _command(script: str, *args: str) -> list[str]:
    return [require_node(), str(JS_DIR / script), *args]


def _parse(script: str, code: int | None, out: bytes, err: bytes) -> dict[str, Any]:
    lines = out.decode().strip().splitlines()
    if code != 0 or not lines:
        pytest.fail(f"{script} exited {code}:\n{err.decode()[-4000:]}\n{out.decode()[-4000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def run_json(script: str, *args: str, stdin: str | None = None) -> dict[str, Any]:
    """Run a script and return its JSON (blocking: not for tests that serve on this loop)."""
    done = subprocess.run(
        _command(script, *args),
        input=(stdin or "").encode(),
        capture_output=True,
        cwd=JS_DIR,
        timeout=TIMEOUT_S,
        check=False,
    )
    return _parse(script, done.returncode, done.stdout, done.stderr)


async def run_json_async(
    script: str, *args: str, env: dict[str, str], stdin: str | None = None
) -> dict[str, Any]:
    """Run a script without blocking the event loop (the gateway under test serves on it).
    `env` adds to the environment; secrets travel there, never as arguments."""
    proc = await asyncio.create_subprocess_exec(
        *_command(script, *args),
        cwd=JS_DIR,
        env={**os.environ, **env},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate((stdin or "").encode()), TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        pytest.fail(f"{script} did not finish in {TIMEOUT_S} s")
    return _parse(script, proc.returncode, out, err)
