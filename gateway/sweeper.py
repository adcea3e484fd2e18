"""Epoch retirement inside `fabric serve`: grace periods end and drained epochs are deleted
without an operator running `fabric epochs retire`.

Which organisations: every organisation holding an API key, and every one this process has
served a request for (JWT principals have no key). An organisation that has neither is
swept by `fabric epochs retire --org ORG`, which does the same work. Several gateway
processes may sweep at once: every transition is a compare-and-swap and a deletion is claimed
by one deleter (graph.epochs), so a second sweeper finds nothing to do.

A sweep that fails (the graph server away, a transition lost to another process) is logged
and tried again at the next tick: retirement is housekeeping and must never stop serving.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from engine.ports import GraphError, GraphStore

log = logging.getLogger("fabric.sweeper")


async def organisations(store: GraphStore, seen: Iterable[str]) -> list[str]:
    """The organisations to sweep, sorted: API-key holders and those served."""
    keyed = {record.org_id for record in await store.keys.list_keys()}
    return sorted(keyed | set(seen))


async def sweep_once(store: GraphStore, seen: Iterable[str]) -> dict[str, list[int]]:
    """One pass: for each organisation, end an expired grace period and delete the retired
    epochs whose drain is over. Returns the deleted epoch ids by organisation (only those
    where something was deleted)."""
    deleted: dict[str, list[int]] = {}
    for org in await organisations(store, seen):
        try:
            gone = await store.epochs(org).sweep()
        except GraphError as exc:
            log.warning("epoch sweep of %s failed; retried at the next tick: %s", org, exc)
            continue
        if gone:
            log.info("retired epochs of %s deleted: %s", org, gone)
            deleted[org] = gone
    return deleted


async def sweep_every(
    interval_s: float, store: Callable[[], GraphStore], seen: set[str]
) -> None:
    """Sweep every `interval_s` seconds, until cancelled."""
    await every(interval_s, lambda: sweep_once(store(), tuple(seen)), "epoch sweep")


async def every(interval_s: float, once: Callable[[], Awaitable[object]], what: str) -> None:
    """Run `once` every `interval_s` seconds, until cancelled. Listing the organisations
    failed (the server is away): logged, and tried again at the next tick."""
    while True:
        await asyncio.sleep(interval_s)
        try:
            await once()
        except GraphError as exc:
            log.warning("%s skipped; retried at the next tick: %s", what, exc)
