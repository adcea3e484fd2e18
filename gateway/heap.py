"""The garbage collector's settings for a long-running gateway process.

Everything alive once the gateway has started (modules, the schema, the demo data's
leftovers) lives as long as the process: `gc.freeze` takes it out of every later collection,
which otherwise walks it again each time the oldest generation is collected. Requests then
allocate many short-lived objects (the rows, objects and dictionaries of a page) that plain
reference counting frees; collecting the young generation every 700 allocations, Python's
default, spends CPU on objects that die anyway.
"""

from __future__ import annotations

import gc


def settle(young_threshold: int) -> None:
    """Freeze what startup left alive and collect the young generation every
    `young_threshold` allocations (0: leave the collector as it is)."""
    if young_threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)
