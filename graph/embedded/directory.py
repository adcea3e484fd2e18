"""What a data directory holds about its server: the state file (pid, socket) that lets any
other `fabric` command find the running server, the lock its manager holds, the server's log,
and where its unix socket lives.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from graph.embedded.probe import answers

STATE_FILE = "falkordb.json"
LOCK_FILE = "falkordb.lock"
LOG_FILE = "falkordb.log"
_MAX_SOCKET_PATH = 100  # sun_path is 104-108 bytes depending on the platform


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    socket: str

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"


def socket_path(data_dir: Path) -> str:
    inside = str(data_dir / "falkordb.sock")
    if len(inside) <= _MAX_SOCKET_PATH:
        return inside
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return str(Path(tempfile.gettempdir()) / f"fabric-{digest}.sock")


def pid_alive(pid: int) -> bool:
    with contextlib.suppress(ChildProcessError):
        # Our own exited child is a zombie until reaped; it is not alive.
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def find_running(data_dir: Path) -> ServerInfo | None:
    """The server already serving `data_dir`, if one is up and answering."""
    try:
        state = json.loads((data_dir / STATE_FILE).read_text())
        info = ServerInfo(pid=int(state["pid"]), socket=str(state["socket"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid_alive(info.pid) and answers(info.socket):
        return info
    return None
