"""The garbage collector in a long-running gateway process.

Reference counting frees almost everything a request allocates (rows, objects, dictionaries)
the moment it is done with. Python's cyclic collector runs on top of that every few hundred
net allocations, and a dashboard page allocates tens of thousands of objects that are alive
until the page is written: the collector walked the same live objects again and again, a
quarter of the page's CPU even with its young generation raised to 10,000. Here automatic
collection is off once the gateway has started, and the gateway collects on a clock instead:
the work then follows the size of what is alive, not the rate of allocation. Everything alive
at startup (modules, the schema) lives as long as the process and is frozen out of every
collection.

Every tick is a full collection, so cyclic garbage waits at most one interval, however long
it was alive before. (Ticks of the young and middle generations only, with a full one every
30th, let an object alive at any tick reach the oldest generation: dropped afterwards, it
waited for the 30th tick, 30 s at the default interval.) What a full collection walks is what
is alive and not frozen, which the gateway's bounded caches keep small: measured after 150
dashboard pages over 20,000 demo records, about 12,000 objects and 2-15 ms per collection on
a shared 2-core machine (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import gc

ticks = 0  # collections made by the clock so far (tests count them)


def settle() -> None:
    """Freeze what startup left alive and turn automatic collection off."""
    gc.collect()
    gc.freeze()
    gc.disable()


def release() -> None:
    """Automatic collection back on (the process goes on without the gateway)."""
    gc.enable()


def tick() -> None:
    """One collection of every generation: all cyclic garbage made so far is freed."""
    global ticks
    gc.collect()
    ticks += 1


async def collect_every(interval_s: float) -> None:
    """Collect every `interval_s` seconds, until cancelled."""
    while True:
        await asyncio.sleep(interval_s)
        tick()
