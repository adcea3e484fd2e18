"""`fabric graphiql-assets`: fetch GraphiQL's pinned UMD assets so the page needs no CDN
(and graphql-ws's browser build, for the dashboard's live panels)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gateway.cli.common import EXIT_FAILURE
from gateway.settings import load_settings


def add_parser(sub: Any) -> None:
    assets = sub.add_parser(
        "graphiql-assets",
        help="fetch the pinned UMD assets of GraphiQL (and the dashboard's graphql-ws) from the "
        "npm registry",
    )
    assets.add_argument("--dir", type=Path, help="target (default: FABRIC_GRAPHIQL_ASSETS_DIR)")
    assets.add_argument("--registry", help="npm registry or mirror (FABRIC_GRAPHIQL_REGISTRY)")
    assets.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gateway.graphiql import DEFAULT_DIR, AssetError, fetch_assets

    settings = load_settings()
    dest = args.dir or settings.graphiql_assets_dir or DEFAULT_DIR
    try:
        written = fetch_assets(dest, args.registry or settings.graphiql_registry)
    except (AssetError, OSError) as exc:
        print(f"graphiql-assets: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    for path in written:
        print(path)
    return 0
