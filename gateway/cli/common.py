"""What every `fabric` command shares: exit codes, settings from the command line, the graph
options, opening the configured store around a piece of work, and a progress bar."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import IO, Any

from gateway.settings import Settings, load_settings

EXIT_INVALID_LINES = 1
EXIT_FAILURE = 2


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings, with whatever the command line overrides (host, port, store)."""
    return load_settings(
        host=getattr(args, "host", None),
        port=getattr(args, "port", None),
        data_dir=getattr(args, "data_dir", None),
        graph_uri=getattr(args, "graph_uri", None),
    )


def add_graph_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that opens the graph store."""
    parser.add_argument("--data-dir", type=Path, help="embedded server data directory")
    parser.add_argument("--graph-uri", help="graph store URI (default: embedded)")


def fail(message: str) -> int:
    """Say what went wrong on stderr, as `fabric: ...`, and give the failure exit code."""
    print(f"fabric: {message}", file=sys.stderr)
    return EXIT_FAILURE


def with_store(settings: Settings, work: Callable[[Any], Awaitable[int]]) -> int:
    """Open the configured store (joining a running embedded server), run `work`, close."""
    from engine.ports import GraphError
    from gateway.stores import open_store
    from graph.embedded import EmbeddedError

    try:
        opened = open_store(settings)
    except (EmbeddedError, ValueError) as exc:
        return fail(str(exc))

    async def run() -> int:
        try:
            return await work(opened.store)
        finally:
            await opened.close()

    try:
        return asyncio.run(run())
    except GraphError as exc:
        return fail(
            f"graph store error ({exc.code}); nothing after the last acknowledged batch was written"
        )


class ProgressBar:
    """A one-line progress bar on a terminal; silent when stderr is not one."""

    def __init__(self, total: int | None, stream: IO[str] = sys.stderr) -> None:
        self.total = total
        self.stream = stream
        self.enabled = stream.isatty()

    def __call__(self, lines: int, accepted: int) -> None:
        if not self.enabled:
            return
        if self.total:
            share = min(lines / self.total, 1.0)
            bar = "#" * int(share * 30)
            self.stream.write(f"\r[{bar:<30}] {share:4.0%} {lines}/{self.total} lines")
        else:
            self.stream.write(f"\r{lines} lines, {accepted} records")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
