"""`fabric serve` retires epochs by itself: grace expiry and deletion of drained epochs happen
at the sweeper's tick for every organisation with an API key or served by the process, on
every backend, and in a real gateway without an operator's `fabric epochs retire`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.ports import EpochState, EpochTimings, GraphStore, SubjectQuery
from gateway.auth import create_key
from gateway.sweeper import sweep_once
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import serve
from tests.helpers import load, subject

OLD = [subject("repository:api", "api")]
NEW = [subject("repository:api", "api v2")]


@contextmanager
def no_grace(store: Any) -> Iterator[None]:
    """Grace and drain of zero for the epochs flipped inside (the store is shared)."""
    kept = store.timings
    store.timings = EpochTimings(grace_s=0.0, drain_s=0.0, lease_s=kept.lease_s)
    try:
        yield
    finally:
        store.timings = kept


async def rebuilt(store: GraphStore) -> str:
    """A new organisation whose epoch 0 was replaced by epoch 1."""
    org = new_org()
    await store.bootstrap(org)
    assert (await load(store.org(org), OLD, source="s")).ok
    build = await store.epochs(org).begin_build()
    assert (await load(store.org(org, build.id), NEW, source="s")).ok
    await store.epochs(org).flip(build.id)
    return org


async def states(store: GraphStore, org: str) -> dict[int, tuple[EpochState, bool]]:
    return {e.id: (e.state, e.deleted_ns is not None) for e in await store.epochs(org).all()}


async def test_a_sweep_deletes_drained_epochs_of_keyed_and_served_organisations(
    store: GraphStore,
) -> None:
    with no_grace(store):
        keyed, served, unknown = [await rebuilt(store) for _ in range(3)]
        try:
            await create_key(store.keys, keyed, "ops", frozenset({"read"}))
            # One tick ends the grace periods and, with no drain, deletes the epochs.
            deleted = await sweep_once(store, [served])
            assert deleted == {keyed: [0], served: [0]}
            for org in (keyed, served):
                assert await states(store, org) == {
                    0: (EpochState.RETIRED, True),
                    1: (EpochState.SERVING, False),
                }
                page = await store.org(org, 0).find_subjects(SubjectQuery(), first=10)
                assert page.items == []  # epoch 0's data is gone
            # Never reached: still in grace with its data, until an operator retires it.
            assert (await states(store, unknown))[0] == (EpochState.GRACE, False)
            page = await store.org(unknown, 0).find_subjects(SubjectQuery(), first=10)
            assert [s.name for s in page.items] == ["api"]
            assert await sweep_once(store, [served]) == {}  # nothing left to do
        finally:
            for org in (keyed, served, unknown):
                await store.drop_org(org)


async def test_the_serving_gateway_sweeps_on_its_own(falkor: FalkorStore) -> None:
    with no_grace(falkor):
        org = await rebuilt(falkor)
        await create_key(falkor.keys, org, "ops", frozenset({"read"}))
        async for _gateway in serve(falkor, epoch_sweep_interval_s=0.05):
            for _ in range(400):  # polled, not timed: the tick comes within a few intervals
                if (await states(falkor, org))[0] == (EpochState.RETIRED, True):
                    break
                await asyncio.sleep(0.05)
            assert (await states(falkor, org))[0] == (EpochState.RETIRED, True)
            assert (await states(falkor, org))[1] == (EpochState.SERVING, False)
    await falkor.drop_org(org)

