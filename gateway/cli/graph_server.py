"""`fabric graph-server`: run a data directory's embedded FalkorDB on its own, until stopped.

The embedded server otherwise lives as long as the command that started it, so restarting a
gateway (a deploy, a changed setting) reopens the directory, and a reopen rebuilds every
index before the server answers: seconds at 100k subjects, minutes at a million
(docs/operations.md). Run as a service of its own, the server stays up while gateways and
other `fabric` commands come and go: each joins it through the directory's state file
(graph.embedded.directory.find_running) in a moment, and none of them stops it.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from gateway.cli.common import fail, settings_from

_WATCH_S = 1.0  # how often a stopped server process is noticed (and restarted)


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "graph-server",
        help="run a data directory's embedded graph server on its own (gateways join it)",
    )
    parser.add_argument("--data-dir", type=Path, help="embedded server data directory")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from graph.embedded import DataDirInUse, EmbeddedError, EmbeddedServer

    settings = settings_from(args)
    server = EmbeddedServer(settings.data_dir, start_limit=settings.embedded_start_limit_s)
    try:
        # Ctrl-C while loading interrupts the start, which stops the server it spawned.
        server.start()
    except DataDirInUse:
        return fail(f"a graph server already runs on {server.data_dir}: gateways join that one")
    except EmbeddedError as exc:
        return fail(str(exc))
    # From here a signal asks the watch to stop, so the server is stopped with a snapshot;
    # before the line below, so that a signal sent on reading it is never the default's.
    stopping = threading.Event()
    _stop_on_signals(stopping)
    print(
        f"Graph server for {server.data_dir} ready ({server.url}).\n"
        f"  `fabric serve --data-dir {server.data_dir}` and every other command given this "
        "directory join it and leave it running.\n"
        "  Ctrl-C (or SIGTERM) stops it, writing a snapshot first.",
        flush=True,
    )
    try:
        return _watch(server, stopping)
    finally:
        server.stop()
        print(f"Graph server for {server.data_dir} stopped.", flush=True)


def _watch(server: Any, stopping: threading.Event) -> int:
    """Until asked to stop: a server process that ended is started again on the same files
    (as a gateway's supervisor does for the server it owns), since gateways joined to it
    cannot start it themselves while this command holds the directory."""
    from graph.embedded import EmbeddedError

    while not stopping.wait(_WATCH_S):
        if server.alive():
            continue
        print(
            "fabric: the graph server stopped unexpectedly (see falkordb.log); restarting it",
            flush=True,
        )
        try:
            server.restart()
        except EmbeddedError as exc:
            return fail(f"the graph server could not be restarted: {exc}")
    return 0


def _stop_on_signals(stopping: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
