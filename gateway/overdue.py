"""Lifecycle telemetry beside the sweep: open builds and grace periods older than their bound.

A build left open (a load that died, an operator who never flipped) keeps a whole second copy
of an organisation's data; a grace period past its end means nobody retired the old epoch (no
sweeping instance visits the organisation, or its sweep keeps failing). Neither stops serving,
so both would go unseen: `fabric serve` looks at every organisation it sweeps (API-key holders
and those it served) every `epoch_watch_interval_s` and reports, per organisation and state,
how far past its bound the oldest such epoch is (gateway.metrics, `fabric_epoch_over_bound_*`).

The bounds: a build `epoch_build_bound_s` after it began; a grace `epoch_grace_s` after the
flip that started it (this instance's setting, the one its own flips give the record). The
look runs whether or not this instance sweeps, so an operator who retires by hand
(`fabric epochs retire`) still sees what waits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.ports import Epoch, EpochState, GraphError, GraphStore
from gateway.sweeper import organisations

log = logging.getLogger("fabric.sweeper")

# What a look reports: per organisation, seconds past its bound by state (building, grace).
Report = Callable[[str, dict[str, float]], None]


@dataclass(frozen=True)
class Bounds:
    build_s: float
    grace_s: float


def over_bound(epochs: Sequence[Epoch], now_ns: int, bounds: Bounds) -> dict[str, float]:
    """Seconds past its bound of the organisation's open build and of its epoch in grace,
    each only when it is past (an organisation has at most one of each)."""
    past: dict[str, float] = {}
    for epoch in epochs:
        if epoch.state is EpochState.BUILDING:
            since, bound = epoch.created_ns, bounds.build_s
        elif epoch.state is EpochState.GRACE:
            since, bound = epoch.changed_ns, bounds.grace_s
        else:
            continue
        if since is None:
            continue
        over = (now_ns - since) / 1e9 - bound
        if over > 0:
            past[epoch.state.value] = max(over, past.get(epoch.state.value, 0.0))
    return past


async def look_once(
    store: GraphStore, seen: Iterable[str], bounds: Bounds, report: Report,
    now_ns: int | None = None,
) -> None:
    """Report every organisation's builds and graces past their bound (an empty report for
    one with none, so a cleared one leaves the metrics)."""
    for org in await organisations(store, seen):
        try:
            epochs = await store.epochs(org).all()
        except GraphError as exc:
            log.warning("epoch look at %s failed; tried again at the next tick: %s", org, exc)
            continue
        report(org, over_bound(epochs, time.time_ns() if now_ns is None else now_ns, bounds))


async def look_every(
    interval_s: float, store: Callable[[], GraphStore], seen: set[str], bounds: Bounds,
    report: Report,
) -> None:
    """Look every `interval_s` seconds, until cancelled."""
    while True:
        await asyncio.sleep(interval_s)
        try:
            await look_once(store(), tuple(seen), bounds, report)
        except GraphError as exc:  # listing the keys failed: the server is away
            log.warning("epoch look skipped; tried again at the next tick: %s", exc)
