"""`fabric documents register FILE...`: trust GraphQL documents, for FABRIC_TRUSTED_DOCUMENTS.

A FILE is an Apollo persisted query manifest (JSON, from `generate-persisted-query-manifest`:
its ids are the hashes Apollo Client sends) or a GraphQL document (registered as written and
as the gateway normalises it). Registration is shared by every gateway on the same server.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gateway.cli.common import add_graph_options, fail, settings_from, with_store


def add_parser(sub: Any) -> None:
    documents = sub.add_parser("documents", help="manage trusted GraphQL documents")
    documents_sub = documents.add_subparsers(dest="documents_command", required=True)
    register = documents_sub.add_parser("register", help="trust the documents in FILE...")
    register.add_argument("files", nargs="+", type=Path, metavar="FILE")
    add_graph_options(register)
    documents.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from graphql import GraphQLError

    from gateway.documents import documents_in

    pairs: list[tuple[str, str]] = []
    for path in args.files:
        try:
            found = documents_in(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            return fail(f"{path}: {exc}")
        except GraphQLError as exc:
            return fail(f"{path}: not a GraphQL document: {exc.message}")
        pairs += found
        print(json.dumps({"file": str(path), "sha256": [digest for digest, _ in found]}))

    async def work(store: Any) -> int:
        added = await store.documents.register(pairs)
        print(json.dumps({"registered": len(pairs), "new": added}))
        return 0

    try:
        return with_store(settings_from(args), work)
    except ValueError as exc:
        return fail(str(exc))
