"""`fabric schema`: print the GraphQL schema (SDL) the code serves (schema.graphql is a copy)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    schema = sub.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from resolvers.schema import sdl

    sys.stdout.write(sdl())
    return 0
