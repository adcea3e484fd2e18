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
"""

from __future__ import annotations

import asyncio
import gc

# Each tick collects the young and middle generations; every FULL_EVERY-th, all of them.
FULL_EVERY = 30


def settle() -> None:
    """Freeze what startup left alive and turn automatic collection off."""
    gc.collect()
    gc.freeze()
    gc.disable()


def release() -> None:
    """Automatic collection back on (the process goes on without the gateway)."""
    gc.enable()


async def collect_every(interval_s: float) -> None:
    """Collect every `interval_s` seconds, until cancelled."""
    tick = 0
    while True:
        await asyncio.sleep(interval_s)
        tick += 1
        gc.collect(2 if tick % FULL_EVERY == 0 else 1)
