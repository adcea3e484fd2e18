"""`fabric reembed --org ORG`: rebuild an organisation's subject vectors with the configured
embedder (after changing the embedder, or to fill vectors written without one)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from gateway.cli.common import ProgressBar, add_graph_options, fail, settings_from, with_store


def add_parser(sub: Any) -> None:
    reembed = sub.add_parser("reembed", help="rebuild an organisation's subject vectors")
    reembed.add_argument("--org", required=True)
    add_graph_options(reembed)
    reembed.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.ports import SubjectQuery, check_org

    try:
        check_org(args.org)
    except ValueError as exc:
        return fail(str(exc))

    async def work(store: Any) -> int:
        if store.embedder is None:
            return fail("no embedder is configured (FABRIC_EMBEDDER=none)")
        await store.bootstrap(args.org)
        graph = await store.serving(args.org)
        bar = ProgressBar(await graph.count_subjects(SubjectQuery(include_stubs=True)))
        try:
            done = await graph.reembed(lambda n: bar(n, n))
        finally:
            bar.close()
        stamp = store.embedder.identity.stamp()
        print(json.dumps({"org": args.org, "subjects": done, "embedder": stamp}))
        return 0

    return with_store(settings_from(args), work)
