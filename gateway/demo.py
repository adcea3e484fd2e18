"""The demo organisation: loaded once into the graph, with a bearer token to try it."""

from __future__ import annotations

import json
import logging

from engine.ports import GraphStore
from gateway.auth import create_key
from gateway.settings import Settings
from graph.projection import IngestReport, Projector
from sources.demo import generate

log = logging.getLogger("fabric.demo")

DEMO_SOURCE = "demo"
DEMO_SEED = 7


async def ensure_demo_data(store: GraphStore, settings: Settings) -> IngestReport | None:
    """Load the demo organisation unless an earlier start already loaded it completely."""
    org = settings.demo_org
    await store.bootstrap(org)
    graph = await store.serving(org)
    previous = await graph.checkpoint(DEMO_SOURCE)
    if previous is not None and previous.finished:
        return None
    lines = (
        json.dumps(record, separators=(",", ":"))
        for record in generate(settings.demo_records, seed=DEMO_SEED)
    )
    report = await Projector(graph, source=DEMO_SOURCE).run(lines)
    log.info("loaded %d demo records into %s", report.accepted, org)
    return report


async def demo_token(store: GraphStore, settings: Settings) -> str:
    """The token to print: FABRIC_DEMO_TOKEN when set, otherwise a freshly minted key."""
    given = settings.demo_token.get_secret_value() if settings.demo_token else None
    token, _ = await create_key(
        store.keys,
        settings.demo_org,
        actor="demo",
        scopes=frozenset({"read", "write"}),
        token=given,
    )
    return token
