"""The gateway's garbage collection (gateway/heap.py), and requests leaving nothing behind for
the cyclic collector (RequestContext.release)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from engine.domain.models import StoredSubject
from gateway import heap
from tests.gateway_fixture import Gateway
from tests.helpers import rel, subject
from tests.test_reads import THREE_LEVELS, _org


@pytest.fixture
def collector() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.enable()


def test_startup_leftovers_are_frozen_and_automatic_collection_off(collector: None) -> None:
    gc.unfreeze()
    heap.settle()
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 1000  # modules, classes, the schema: all of them
    heap.release()
    assert gc.isenabled()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


async def test_the_clock_collects_cycles(collector: None) -> None:
    heap.settle()
    freed = asyncio.Event()
    garbage = _Cycle()
    weakref.finalize(garbage, freed.set)
    del garbage  # unreachable, but only a collection can free it
    task = asyncio.create_task(heap.collect_every(0.05))
    try:
        await asyncio.wait_for(freed.wait(), timeout=5)
    finally:
        task.cancel()


def test_garbage_that_was_alive_at_many_ticks_is_freed_by_the_next(collector: None) -> None:
    """The bound of docs/reliability.md: one interval, whatever the garbage's age. (With only
    the young and middle generations collected at most ticks, an object alive at one tick
    reached the oldest generation and waited for the next full collection instead.)"""
    heap.settle()
    freed: list[bool] = []
    kept = _Cycle()
    weakref.finalize(kept, freed.append, True)
    for _ in range(3):
        heap.tick()  # alive at each: it ages into the oldest generation
    assert not freed  # still referenced, by us
    del kept
    assert not freed  # a cycle: reference counting alone cannot free it
    heap.tick()
    assert freed == [True]


async def test_the_clock_frees_old_garbage_within_one_tick(collector: None) -> None:
    heap.settle()
    freed = asyncio.Event()
    kept = _Cycle()
    weakref.finalize(kept, freed.set)
    task = asyncio.create_task(heap.collect_every(0.02))
    try:
        start = heap.ticks
        while heap.ticks < start + 3:  # noqa: ASYNC110 - alive across three of its ticks
            await asyncio.sleep(0.01)
        dropped_at = heap.ticks
        del kept
        await asyncio.wait_for(freed.wait(), timeout=30)
        # Freed by the first collection that began after the drop (one may have been under
        # way while we dropped it, so at most two ticks on).
        assert heap.ticks - dropped_at <= 2
    finally:
        task.cancel()


def _alive(prefix: str) -> int:
    return sum(1 for o in gc.get_objects() if type(o) is StoredSubject and o.key.startswith(prefix))


async def test_a_request_leaves_what_it_read_to_reference_counting(
    gateway: Gateway, collector: None
) -> None:
    records: list[dict[str, Any]] = [subject(f"team:heap-t{i}") for i in range(3)]
    for i in range(30):
        records.append(subject(f"repository:heap-r{i:02d}"))
        records.append(rel("OWNS", f"team:heap-t{i % 3}", f"repository:heap-r{i:02d}"))
        if i:
            records.append(
                rel("DEPENDS_ON", f"repository:heap-r{i:02d}", f"repository:heap-r{i - 1:02d}")
            )
    _, token = await _org(gateway, records)
    gc.disable()
    response = await gateway.query(token, THREE_LEVELS, {"n": 30})
    assert len(response.json()["data"]["subjects"]["edges"]) == 30
    await asyncio.sleep(0.2)  # the server's side of the request winds down after the reply
    # About 60 subjects were read. graphql-core's executor holds the request's context in
    # reference cycles (and the connection its last request's state): without the release,
    # all of them would stay until a collection or the next request.
    assert _alive("repository:heap-") + _alive("team:heap-") == 0
