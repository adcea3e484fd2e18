"""The demo organisation: loaded once into the graph, with a bearer token to try it.

The demo key is minted once and kept in the data directory (`demo-token`, readable by its
owner only) so every start prints the same token: a README example, a GraphiQL tab or a
script written against one start still works after a restart, and keys do not pile up. Any
other demo key is revoked at start, so exactly one is ever valid (or FABRIC_DEMO_TOKEN,
when set, which is never written to disk).
"""

from __future__ import annotations

import hmac
import json
import logging
import os
from pathlib import Path

from engine.ports import GraphStore
from gateway.auth import create_key, digest, key_id_of
from gateway.settings import Settings
from graph.projection import IngestReport, Projector
from sources.demo import generate

log = logging.getLogger("fabric.demo")

DEMO_SOURCE = "demo"
DEMO_SEED = 7
DEMO_ACTOR = "demo"
TOKEN_FILE = "demo-token"  # noqa: S105 - a file name, not a secret


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


def token_file(settings: Settings) -> Path:
    return settings.data_dir / TOKEN_FILE


async def _still_valid(store: GraphStore, token: str) -> bool:
    record = await store.keys.get_key(key_id_of(token))
    return (
        record is not None
        and not record.revoked
        and hmac.compare_digest(record.secret_hash, digest(token))
    )


def _kept(settings: Settings) -> str | None:
    try:
        text = token_file(settings).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def _keep(settings: Settings, token: str) -> None:
    path = token_file(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(token + "\n")


async def demo_token(store: GraphStore, settings: Settings) -> str:
    """The one demo token: FABRIC_DEMO_TOKEN when set; else the kept one while the store
    still knows it; else a new key, kept for the next start. Other demo keys are revoked."""
    org = settings.demo_org
    given = settings.demo_token.get_secret_value() if settings.demo_token else None
    token = given
    if token is None:
        kept = _kept(settings)
        token = kept if kept is not None and await _still_valid(store, kept) else None
    if token is None or given is not None:
        token, _ = await create_key(
            store.keys, org, actor=DEMO_ACTOR, scopes=frozenset({"read", "write"}), token=token
        )
        if given is None:
            _keep(settings, token)
    current = key_id_of(token)
    for record in await store.keys.list_keys(org):
        if record.actor == DEMO_ACTOR and record.key_id != current and not record.revoked:
            await store.keys.revoke_key(record.key_id)
    return token
