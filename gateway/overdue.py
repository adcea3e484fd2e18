"""Lifecycle telemetry beside the sweep: open builds and grace periods older than their bound.

A build left open (a load that died, an operator who never flipped) keeps a whole second copy
of an organisation's data; a grace period past its end means nobody retired the old epoch (no
sweeping instance visits the organisation, or its sweep keeps failing). Neither stops serving,
so both would go unseen: `fabric serve` looks at every organisation it sweeps (API-key holders
and those it served) every `epoch_watch_interval_s` and reports, per organisation and state,
how far past its bound the oldest such epoch is (gateway.metrics, `fabric_epoch_over_bound_*`),
and the transitions its lifecycle records, whoever made them (`fabric_epoch_recorded_transitions`:
the `fabric epochs` command line is another process, whose own counters nobody scrapes).

The bounds: a build `epoch_build_bound_s` after it began; a grace `epoch_grace_s` after the
flip that started it (this instance's setting, the one its own flips give the record). The
look runs whether or not this instance sweeps, so an operator who retires by hand
(`fabric epochs retire`) still sees what waits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.ports import Epoch, EpochState, GraphError, GraphStore, RetireReason
from gateway.sweeper import every, organisations

log = logging.getLogger("fabric.sweeper")



@dataclass(frozen=True)
class Look:
    """One organisation's lifecycle as a look saw it.

    past: seconds past its bound, by state (building, grace), only where past.
    recorded: the transitions its epochs record, by kind, whoever made them (this instance,
        another, `fabric epochs` on the command line): each begun epoch was a `begin`; each
        that served after one a `flip`; each retired epoch's reason names the transition
        that retired it (`rollback`, `discard`, `retire` by hand, `expire` by a sweep)."""

    past: dict[str, float]
    recorded: dict[str, int]


Report = Callable[[str, Look], None]
# The transition each retirement reason records (engine.ports.RetireReason).
_RETIRED_BY = {
    RetireReason.ROLLBACK_ABANDONED: "rollback",
    RetireReason.BUILD_ABORTED: "discard",
    RetireReason.GRACE_ENDED: "retire",
    RetireReason.GRACE_EXPIRED: "expire",
}
KINDS = ("begin", "flip", "rollback", "discard", "retire", "expire")


def recorded(epochs: Sequence[Epoch]) -> dict[str, int]:
    """The transitions an organisation's epochs record, by kind (every kind, 0 included)."""
    counts = dict.fromkeys(KINDS, 0)
    for epoch in epochs:
        if epoch.id > 0:
            counts["begin"] += 1
            aborted = epoch.reason is RetireReason.BUILD_ABORTED
            counts["flip"] += epoch.state is not EpochState.BUILDING and not aborted
        if epoch.reason is not None:
            counts[_RETIRED_BY[epoch.reason]] += 1
    return counts


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
        now = time.time_ns() if now_ns is None else now_ns
        report(org, Look(over_bound(epochs, now, bounds), recorded(epochs)))


async def look_every(
    interval_s: float, store: Callable[[], GraphStore], seen: set[str], bounds: Bounds,
    report: Report,
) -> None:
    """Look every `interval_s` seconds, until cancelled."""
    await every(
        interval_s, lambda: look_once(store(), tuple(seen), bounds, report), "epoch look"
    )
