"""`fabric keys create|revoke|list`: manage API keys (the store keeps only their hashes)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gateway.cli.common import add_graph_options, fail, settings_from, with_store


def add_parser(sub: Any) -> None:
    keys = sub.add_parser("keys", help="manage API keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    create = keys_sub.add_parser("create")
    create.add_argument("--org", required=True)
    create.add_argument("--actor", required=True)
    create.add_argument("--scope", action="append", choices=["read", "write", "admin"])
    revoke = keys_sub.add_parser("revoke")
    revoke.add_argument("key_id")
    listing = keys_sub.add_parser("list")
    listing.add_argument("--org")
    for p in (create, revoke, listing):
        add_graph_options(p)
    keys.set_defaults(func=run)


async def create(store: Any, args: argparse.Namespace) -> int:
    from gateway.auth import create_key

    scopes = frozenset(args.scope or ["read"])
    token, key_id = await create_key(store.keys, args.org, args.actor, scopes)
    body = {
        "key_id": key_id,
        "org": args.org,
        "actor": args.actor,
        "scopes": sorted(scopes),
        "token": token,
    }
    print(json.dumps(body))
    return 0


async def revoke(store: Any, args: argparse.Namespace) -> int:
    if not await store.keys.revoke_key(args.key_id):
        return fail(f"no key {args.key_id}")
    print(json.dumps({"key_id": args.key_id, "revoked": True}))
    return 0


async def list_keys(store: Any, args: argparse.Namespace) -> int:
    records = await store.keys.list_keys(args.org)
    if not records:  # said on stderr: stdout stays JSON lines, none here
        where = f" for organisation {args.org!r}" if args.org else ""
        print(f"fabric: no API keys{where}", file=sys.stderr)
    for record in records:
        body = {
            "key_id": record.key_id,
            "org": record.org_id,
            "actor": record.actor,
            "scopes": list(record.scopes),
            "revoked": record.revoked,
        }
        print(json.dumps(body))
    return 0


def run(args: argparse.Namespace) -> int:
    action = {"create": create, "revoke": revoke, "list": list_keys}[args.keys_command]

    async def work(store: Any) -> int:
        from gateway.stores import prepare

        await prepare(store)
        return await action(store, args)

    try:
        return with_store(settings_from(args), work)
    except ValueError as exc:
        return fail(str(exc))
