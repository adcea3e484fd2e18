"""`fabric schema [--federated]`: print the GraphQL schema (SDL) the code serves
(schema.graphql is a copy), or the subgraph SDL federation composes (schema.federated.graphql,
what `_service { sdl }` answers)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    schema = sub.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.add_argument(
        "--federated", action="store_true", help="the Apollo Federation v2 subgraph SDL"
    )
    schema.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from resolvers.schema import federated_sdl, sdl

    sys.stdout.write(federated_sdl() if args.federated else sdl())
    return 0
