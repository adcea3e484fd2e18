"""Purging a retired epoch's scope removes everything its projection wrote, the activity
structures with the records (graph.epochs.purge_scope)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from graph.cypher.epochs import PURGE
from graph.cypher.organisations import ORG_LABELS
from graph.epochs import Renew, purge_scope
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.helpers import load
from tests.test_epochs import built, control, names, seconds

# Written by the results and the lifecycle, not by a projection: an epoch's purge keeps them.
_NOT_PROJECTED = {"Investigation", "ProjectionEpoch", "Lifecycle", "Epoch"}


async def test_a_purged_scope_keeps_no_node_its_projection_wrote(falkor: FalkorStore) -> None:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    try:
        report = await load(graph, [
            {"type": "subject", "key": "service:a", "kind": "service", "name": "a"},
            {"type": "source_record", "key": "incident:1", "record_kind": "incident",
             "subject": "service:a", "start": "2026-01-01T10:00:00Z",
             "end": "2026-01-03T10:00:00Z"},
        ])  # fmt: skip
        assert report.ok
        projected = [label for label in ORG_LABELS if label not in _NOT_PROJECTED]
        assert set(PURGE) == set(projected)  # a new label is purged, or said not projected
        before = await _counts(graph, projected)
        assert all(before[label] > 0 for label in ("Activity", "RecordDay", "TimeSlot"))
        await purge_scope(graph)
        assert await _counts(graph, projected) == dict.fromkeys(projected, 0)
    finally:
        await falkor.drop_org(org)


async def _counts(graph: object, labels: list[str]) -> dict[str, int]:
    read = graph._read  # type: ignore[attr-defined]
    return {
        label: int((await read(f"MATCH (n:{label} {{org_id: $org}}) RETURN count(n)"))[0][0])
        for label in labels
    }


@pytest.fixture
async def drained(cypher_store: Any) -> AsyncIterator[tuple[Any, str, Any, list[int]]]:
    """An organisation whose epoch 0 retired and drained: (store, org, its lifecycle with a
    clock the test moves, that clock's reading in nanoseconds)."""
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        target = await built(cypher_store, org)
        first = control(cypher_store, org)
        await first.flip(target)
        retired = await first.end_grace()
        assert retired is not None and retired.retired_ns is not None
        now = [retired.retired_ns + seconds(cypher_store, "drain_s")]
        first.clock = lambda: now[0]
        yield cypher_store, org, first, now
    finally:
        await cypher_store.drop_org(org)


async def test_a_purge_longer_than_the_lease_keeps_its_claim(
    drained: tuple[Any, str, Any, list[int]],
) -> None:
    """The deleter renews its claim after each batch: a second gateway sweeping once the
    first lease would have run out finds the epoch taken."""
    store, org, first, now = drained
    lease = seconds(store, "lease_s")
    second = control(store, org)
    purge = first._purge
    others: list[list[int]] = []

    async def long_purge(epoch: int, renew: Renew) -> None:
        for _ in range(3):  # batches, each taking most of a lease
            now[0] += lease * 3 // 4
            await renew()
            others.append(await second.sweep(now[0]))
        await purge(epoch, renew)

    first._purge = long_purge
    assert await first.sweep(now[0]) == [0]
    assert others == [[], [], []]  # the first purge held its claim throughout
    assert await names(store.org(org, 0)) == {}


async def test_a_deleter_whose_claim_ran_out_stops(
    drained: tuple[Any, str, Any, list[int]],
) -> None:
    """A deleter whose claim ran out before it could renew stops instead of purging beside
    the one that took over."""
    store, org, first, now = drained
    second = control(store, org)
    taken: list[list[int]] = []

    async def stalled_purge(epoch: int, renew: Renew) -> None:
        now[0] += 2 * seconds(store, "lease_s")  # stalled past its lease...
        taken.append(await second.sweep(now[0]))  # ...and another deleter took over
        await renew()
        raise AssertionError("purged on after its claim was lost")

    first._purge = stalled_purge
    assert await first.sweep(now[0]) == []
    assert taken == [[0]]
