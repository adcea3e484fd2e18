"""Several gateway processes on one port: `fabric serve --workers N`.

uvicorn's own process supervisor (uvicorn.supervisors.Multiprocess) does the work: the
parent binds the port once and spawns N workers, each a whole gateway (its own event loop,
store connections, change-feed listener and caches) accepting from that one listening
socket, so the kernel hands each new connection to whichever worker accepts it first. One
socket, not one per worker (SO_REUSEPORT): a worker that stops leaves the connections
queued behind it to the others, where a socket of its own would drop them with it.

* SIGHUP replaces the workers one at a time, each new one serving before the old one is
  told to stop (uvicorn >= 0.55); a stopping worker finishes the requests it has. SIGTTIN
  adds a worker, SIGTTOU stops one; a worker that dies is replaced. SIGINT/SIGTERM stop all.
* What workers share lives in the graph server: the change feed (its publish/subscribe),
  revisions and ETags, persisted documents, keys. What is per process: caches that are only
  a cost when missed (the reference ring, the activity day counts), the limits on
  concurrent requests and subscription connections. /metrics shows the whole server
  whichever worker answers: every worker writes its metrics to a directory this parent makes
  (gateway/scrape.py, prometheus_client's multiprocess mode).
* The embedded graph server has one owner: this parent starts it (or joins one already
  running on the directory) before any worker exists, restarts it if it exits, and stops it
  last, after every worker has finished; the workers are told its socket, so none of them
  starts one (a worker's restart would otherwise take the database down with it).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import uvicorn
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from gateway.scrape import SharedMetrics
from gateway.settings import Settings
from graph.embedded import EmbeddedError, EmbeddedServer

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event as Gate

    from starlette.applications import Starlette

log = logging.getLogger("fabric.workers")
MAX_DEFAULT = 8
STARTUP_S = 300.0  # a worker's start may wait for the store's bootstrap (indexes at 1M)
# How long a replacement may take to serve, and a busy worker to answer the parent's health
# check, before it is given up on (uvicorn's default, 5 s, gave up on every SIGHUP
# replacement on a loaded 2-core machine, keeping the old worker).
HEALTHCHECK_S = 60
Ready = Callable[[list[int]], None]
_GATE_POLL_S = 0.5  # how often a waiting worker checks that its parent is still there
_RESTART_BACKOFF_S = (0.5, 30.0)  # the embedded server's first wait after a crash, the most


def default_workers() -> int:
    """The number of cores this process may use, at most MAX_DEFAULT."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_DEFAULT))


class Workers(Multiprocess):
    """uvicorn's supervisor, also keeping the embedded graph server it owns alive (from its
    own loop's thread: the server is told to exit when the thread that started it ends)."""

    def __init__(
        self,
        config: uvicorn.Config,
        server: EmbeddedServer | None,
        ready: Ready | None,
        metrics: SharedMetrics | None = None,
        before: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(config, sockets=[config.bind_socket()])
        self.graph_server = server
        self._ready = ready
        self._metrics = metrics
        self._known: set[int] = set()
        self._before = before
        self._delay = _RESTART_BACKOFF_S[0]
        self._next_try = 0.0

    def init_processes(self) -> None:
        """Start the first worker, run `before` meanwhile (the graph server's load, which the
        workers wait for), start the others once the first serves, then tell `ready` once
        each serves (or gave up starting).

        The others wait for the first because a start is what a user sees of a restart
        (`/readyz`, the first page): N workers importing the whole gateway side by side on
        a busy 2-core machine made the first one serve at 15.8-16.4 s against 8.9-9.5 s for
        one worker alone (100k subjects, load 10); the first serves every request until the
        others join it."""
        self._start_worker()
        if self._before is not None:
            try:
                self._before()
            except BaseException:
                for process in self.processes:
                    process.kill()
                for process in self.processes:
                    process.join()
                raise
        self.processes[0].wait_until_ready(STARTUP_S, self.should_exit)
        for _ in range(self.processes_num - 1):
            if not self.should_exit.is_set():
                self._start_worker()
        for process in self.processes[1:]:
            process.wait_until_ready(STARTUP_S, self.should_exit)
        if self._ready is not None and not self.should_exit.is_set():
            self._ready(self.pids())

    def _start_worker(self) -> None:
        process = Process(self.config, self.sockets)
        process.start()
        self.processes.append(process)

    def keep_subprocess_alive(self) -> None:
        self._keep_graph_server()
        super().keep_subprocess_alive()
        self._forget_gone()

    def _forget_gone(self) -> None:
        """A worker gone (died, replaced, stopped) no longer counts in live gauges; its
        counters stay in the sums."""
        now = set(self.pids())
        if self._metrics is not None:
            for pid in self._known - now:
                self._metrics.forget(pid)
        self._known = now

    def _keep_graph_server(self) -> None:
        server = self.graph_server
        now = time.monotonic()
        if server is None or server.alive() or self.should_exit.is_set() or now < self._next_try:
            return
        log.error("the embedded FalkorDB server exited; restarting it")
        try:
            server.restart()  # the workers' pools reconnect once it answers
        except EmbeddedError as exc:
            self._next_try = now + self._delay
            self._delay = min(self._delay * 2, _RESTART_BACKOFF_S[1])
            log.error("restarting the embedded FalkorDB server failed (%s)", exc)
            return
        self._delay = _RESTART_BACKOFF_S[0]
        log.warning("the embedded FalkorDB server is back (restart %d)", server.restarts)

    def pids(self) -> list[int]:
        return [p.pid for p in self.processes if p.pid is not None]


def serve(
    config: uvicorn.Config,
    server: EmbeddedServer | None = None,
    ready: Ready | None = None,
    before: Callable[[], None] | None = None,
) -> None:
    """Run `config.workers` workers of `config.app` (a picklable app factory, with
    factory=True: each worker builds its own app) until SIGINT or SIGTERM. server: the
    embedded graph server this process started, kept alive here; ready: told the workers'
    pids once every one serves; before: run once the workers are started (their gate is
    `before`'s to open, `worker_app`), its exception stops them and is raised."""
    if config.workers < 2:
        raise ValueError("serve() runs two or more workers; run uvicorn.Server for one")
    config.timeout_worker_healthcheck = max(config.timeout_worker_healthcheck, HEALTHCHECK_S)
    metrics = SharedMetrics()  # before any worker starts: each inherits where to write
    try:
        supervisor = Workers(config, server, ready, metrics, before)
        try:
            supervisor.run()
        finally:
            for sock in supervisor.sockets:
                sock.close()
    finally:
        metrics.close()


def spawn_gate() -> Gate:
    """What a worker waits on before it builds its app (`worker_app`), set by the parent."""
    return multiprocessing.get_context("spawn").Event()


def worker_app(settings: Settings, gate: Gate | None = None) -> Starlette:
    """One worker's gateway (the app factory `fabric serve --workers` hands uvicorn): its
    logging and tracing set up in its own process, then the app as a single process has it.
    gate: set by the parent once the graph server it started has loaded and is bootstrapped;
    the imports come first, while it loads."""
    from gateway import logs, tracing
    from gateway.app import create_app

    logs.configure(settings)
    tracing.configure_exporter(settings)
    if gate is not None:
        parent = os.getppid()
        while not gate.wait(_GATE_POLL_S):
            if os.getppid() != parent:
                raise SystemExit("the parent process ended before the graph store was ready")
    return create_app(settings)
