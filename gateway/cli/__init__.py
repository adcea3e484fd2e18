"""`fabric`: serve the gateway, ingest projection files, import git history, make demo data,
investigate, manage keys, print the schema and the configuration reference.

One module per command group, each with `add_parser(sub)` and `run(args)`; what they share
(exit codes, settings from the command line, opening the store, the progress bar) is in
gateway/cli/common.py. Heavy imports stay inside `run` so `fabric --help` starts fast.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

from gateway.cli import (
    config_reference,
    demo_data,
    documents,
    epochs,
    graph_server,
    graphiql_assets,
    import_git,
    ingest,
    investigate,
    keys,
    reembed,
    schema,
    serve,
)
from gateway.cli.common import EXIT_FAILURE, EXIT_INVALID_LINES, fail
from gateway.settings import SettingsError

__all__ = ["EXIT_FAILURE", "EXIT_INVALID_LINES", "build_parser", "main"]

DESCRIPTION = (
    "serve the gateway, run a data directory's graph server, ingest projection files, "
    "import git history, make demo data, "
    "investigate, manage keys, print the schema and the configuration reference"
)

COMMANDS = (
    serve,
    graph_server,
    ingest,
    demo_data,
    investigate,
    reembed,
    import_git,
    schema,
    graphiql_assets,
    config_reference,
    keys,
    documents,
    epochs,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fabric", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except SettingsError as exc:  # a FABRIC_* variable or a flag its setting refuses
        return fail(str(exc))
    except BrokenPipeError:
        # The reader went away ("fabric investigate ... | head"): what it wanted was written,
        # the command's own cleanup has run, and a traceback would only be noise. Python
        # flushes stdout again at exit, so it points at /dev/null first (Python's docs,
        # "Note on SIGPIPE"). The status is a shell's for a command a SIGPIPE ended.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    return code
