"""`fabric epochs list|flip|rollback|discard|retire --org ORG`: an organisation's projection
epochs (build one with `fabric ingest FILE --new-epoch`). The same port as the admin GraphQL
mutations; every transition is a compare-and-swap, so two operators cannot both win."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import Any

from gateway.cli.common import add_graph_options, fail, settings_from, with_store

COUNTED = ("Subject", "Episode", "SourceRecord")


def add_parser(sub: Any) -> None:
    epochs = sub.add_parser("epochs", help="list, flip, roll back or retire projection epochs")
    epochs_sub = epochs.add_subparsers(dest="epochs_command", required=True)
    helps = {
        "list": "one JSON object per epoch: id, state, created, counts",
        "flip": "serve the open build (its load must have finished)",
        "rollback": "within the grace period: serve the previous epoch again",
        "discard": "discard the open build; the serving epoch is untouched",
        "retire": "end the grace period now, then delete retired epochs past their drain",
    }
    for name, text in helps.items():
        command = epochs_sub.add_parser(name, help=text)
        command.add_argument("--org", required=True)
        if name == "flip":
            command.add_argument("--epoch", type=int, required=True)
        add_graph_options(command)
    epochs.set_defaults(func=run)


def _instant(ns: int | None) -> str | None:
    return None if ns is None else datetime.fromtimestamp(ns / 1e9, UTC).isoformat()


def describe(epoch: Any, counts: dict[str, int] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": epoch.id,
        "state": epoch.state.value,
        "created": _instant(epoch.created_ns),
    }
    if epoch.reason is not None:
        body["reason"] = epoch.reason.value
        body["deleted"] = epoch.deleted_ns is not None
    if counts is not None:
        body["counts"] = counts
    return body


async def _list(store: Any, args: argparse.Namespace) -> int:
    for epoch in await store.epochs(args.org).all():
        counts = None
        if epoch.deleted_ns is None:
            found = await store.org(args.org, epoch.id).counts()
            counts = {label: int(found.get(label, 0)) for label in COUNTED}
        print(json.dumps(describe(epoch, counts)))
    return 0


async def _transition(store: Any, args: argparse.Namespace) -> int:
    control = store.epochs(args.org)
    command = args.epochs_command
    if command == "flip":
        print(json.dumps(describe(await control.flip(args.epoch))))
    elif command == "rollback":
        print(json.dumps(describe(await control.rollback())))
    elif command == "discard":
        print(json.dumps(describe(await control.abort_build())))
    else:
        retired = await control.end_grace()
        deleted = await control.sweep()
        body = {"retired": describe(retired) if retired else None, "deleted": deleted}
        print(json.dumps(body))
    return 0


def run(args: argparse.Namespace) -> int:
    from engine.ports import EpochConflict, check_org

    try:
        check_org(args.org)
    except ValueError as exc:
        return fail(str(exc))

    async def work(store: Any) -> int:
        try:
            if args.epochs_command == "list":
                return await _list(store, args)
            return await _transition(store, args)
        except EpochConflict as exc:
            return fail(str(exc))

    return with_store(settings_from(args), work)
