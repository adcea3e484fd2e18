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
import asyncio
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway.cli.common import fail, settings_from

if TYPE_CHECKING:
    from graph.embedded import EmbeddedServer


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
    try:
        asyncio.run(_serve(server, settings.embedded_restart_delay_s))
    finally:
        server.stop()
        print(f"Graph server for {server.data_dir} stopped.", flush=True)
    return 0


async def _serve(server: EmbeddedServer, restart_delay_s: float) -> None:
    """Until Ctrl-C or SIGTERM, a server process that ended is started again on the same
    files by the supervisor a gateway runs for the server it owns (graph.supervisor), since
    gateways joined to this one cannot start it themselves while this command holds the
    directory."""
    from graph.supervisor import Supervisor

    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    # From here a signal asks for the stop, so the server is stopped with a snapshot; before
    # the line below, so that a signal sent on reading it is never the default's.
    for stop in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop, stopping.set)
    supervisor = Supervisor(server, first_delay=restart_delay_s)
    supervisor.start()
    print(
        f"Graph server for {server.data_dir} ready ({server.url}).\n"
        f"  `fabric serve --data-dir {server.data_dir}` and every other command given this "
        "directory join it and leave it running.\n"
        "  Ctrl-C (or SIGTERM) stops it, writing a snapshot first.",
        flush=True,
    )
    try:
        await stopping.wait()
    finally:
        await supervisor.stop()
