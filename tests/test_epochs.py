"""Projection epochs, as a graph-port contract (every backend): build aside while the serving
epoch answers unchanged, compare-and-swap flip, rollback within grace, retirement after the
drain bound by one deleter, checkpoints per (organisation, epoch, source)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.ports import (
    Checkpoint,
    EpochConflict,
    EpochState,
    GraphStore,
    OrgGraph,
    RetireReason,
    SubjectQuery,
)
from tests.helpers import load, subject

OLD = [subject("repository:api", "api"), subject("team:core", "Core")]
NEW = [subject("repository:api", "api v2"), subject("service:billing", "Billing")]
HOUR_NS = 3_600 * 1_000_000_000


async def names(graph: OrgGraph) -> dict[str, str]:
    page = await graph.find_subjects(SubjectQuery(), first=100)
    return {s.key: s.name for s in page.items}


def control(store: GraphStore, org: str) -> Any:
    """The lifecycle, with its `clock` (every implementation has one) to move time."""
    epochs = store.epochs(org)
    assert callable(getattr(epochs, "clock", None))
    return epochs


def seconds(store: GraphStore, name: str) -> int:
    return int(getattr(store.timings, name) * 1e9)  # type: ignore[attr-defined]


async def built(store: GraphStore, org: str) -> int:
    """Epoch 0 holds OLD; a build of NEW is open. Returns the build's epoch id."""
    assert (await load(store.org(org), OLD, source="s")).ok
    epoch = await store.epochs(org).begin_build()
    assert epoch.state is EpochState.BUILDING and epoch.id == 1
    assert (await load(store.org(org, epoch.id), NEW, source="s")).ok
    return epoch.id


async def test_a_build_is_invisible_until_the_flip(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    serving = await store.serving(org)
    assert serving.epoch == 0
    assert await names(serving) == {"repository:api": "api", "team:core": "Core"}
    assert await names(store.org(org, target)) == {
        "repository:api": "api v2",
        "service:billing": "Billing",
    }
    # Subject ids belong to the organisation, not the epoch: a client's ids survive a flip.
    old = (await serving.subjects_by_keys(["repository:api"]))["repository:api"]
    new = (await store.org(org, target).subjects_by_keys(["repository:api"]))["repository:api"]
    assert old.id == new.id
    await store.epochs(org).flip(target)
    flipped = await store.serving(org)  # this process dropped its cached pointer
    assert flipped.epoch == target
    assert await names(flipped) == await names(store.org(org, target))
    states = {e.id: e.state for e in await store.epochs(org).all()}
    assert states == {0: EpochState.GRACE, 1: EpochState.SERVING}


async def test_of_two_concurrent_flips_exactly_one_wins(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    outcomes = await asyncio.gather(
        *(store.epochs(org).flip(target) for _ in range(4)), return_exceptions=True
    )
    wins = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(wins) == 1 and wins[0].state is EpochState.SERVING
    assert all(isinstance(o, EpochConflict) for o in outcomes if o not in wins)
    assert await store.epochs(org).serving() == target


async def test_rollback_serves_the_old_epoch_within_grace_only(
    store: GraphStore, org: str
) -> None:
    target = await built(store, org)
    epochs = store.epochs(org)
    await epochs.flip(target)
    restored = await epochs.rollback()
    assert restored.id == 0 and restored.state is EpochState.SERVING
    assert (await store.serving(org)).epoch == 0
    assert await names(await store.serving(org)) == {"repository:api": "api", "team:core": "Core"}
    abandoned = {e.id: e for e in await epochs.all()}[target]
    assert abandoned.state is EpochState.RETIRED
    assert abandoned.reason is RetireReason.ROLLBACK_ABANDONED
    with pytest.raises(EpochConflict):
        await epochs.rollback()  # nothing in grace any more
    # A new build never reuses an abandoned id.
    assert (await epochs.begin_build()).id == target + 1


async def test_no_rollback_once_grace_is_over(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    epochs = control(store, org)
    await epochs.flip(target)
    now = epochs.clock()
    epochs.clock = lambda: now + seconds(store, "grace_s") + 1
    with pytest.raises(EpochConflict):
        await epochs.rollback()
    assert await epochs.serving() == target
    await epochs.sweep()
    old = {e.id: e for e in await epochs.all()}[0]
    assert old.state is EpochState.RETIRED and old.reason is RetireReason.GRACE_EXPIRED


async def test_retirement_waits_for_the_drain_and_has_one_deleter(
    store: GraphStore, org: str
) -> None:
    target = await built(store, org)
    epochs = control(store, org)
    await epochs.flip(target)
    retired = await epochs.end_grace()
    assert retired is not None and retired.id == 0 and retired.reason is RetireReason.GRACE_ENDED
    assert retired.retired_ns is not None
    drained = retired.retired_ns + seconds(store, "drain_s")
    assert await epochs.sweep(drained - 1) == []  # still draining: readable
    assert await names(store.org(org, 0)) == {"repository:api": "api", "team:core": "Core"}
    sweeps = await asyncio.gather(*(control(store, org).sweep(drained) for _ in range(3)))
    assert sorted(sweeps) == [[], [], [0]]  # one deleter
    assert await names(store.org(org, 0)) == {}
    assert await store.org(org, 0).checkpoint("s") is None
    gone = {e.id: e for e in await epochs.all()}[0]
    assert gone.state is EpochState.RETIRED and gone.deleted_ns is not None
    # The serving epoch and the organisation's results are untouched.
    assert await names(await store.serving(org)) == await names(store.org(org, target))
    assert await epochs.sweep(drained + HOUR_NS) == []


async def test_the_serving_epoch_is_never_deleted(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    epochs = control(store, org)
    await epochs.flip(target)
    later = epochs.clock() + 1_000 * HOUR_NS
    assert await epochs.sweep(later) == []  # the grace period ends: epoch 0 starts draining
    assert await epochs.sweep(later + 1_000 * HOUR_NS) == [0]
    assert (await epochs.all())[1].state is EpochState.SERVING
    assert await names(store.org(org, target)) != {}
    with pytest.raises(EpochConflict):
        await epochs.rollback()


async def test_a_killed_build_is_resumable_or_discardable(store: GraphStore, org: str) -> None:
    assert (await load(store.org(org), OLD, source="s")).ok
    epochs = store.epochs(org)
    epoch = (await epochs.begin_build()).id
    building = store.org(org, epoch)
    # A load killed after its first batch: the checkpoint says unfinished.
    await load(building, NEW[:1], source="s")
    await building.save_checkpoint(Checkpoint("s", 1, "partial", "run", finished=False))
    with pytest.raises(EpochConflict):
        await epochs.flip(epoch)  # half a build is never served
    with pytest.raises(EpochConflict):
        await epochs.begin_build()  # one build at a time
    assert await names(await store.serving(org)) == {"repository:api": "api", "team:core": "Core"}
    discarded = await epochs.abort_build()
    assert discarded.id == epoch and discarded.reason is RetireReason.BUILD_ABORTED
    assert await epochs.serving() == 0
    again = await epochs.begin_build()
    assert again.id == epoch + 1
    assert (await load(store.org(org, again.id), NEW, source="s")).ok
    await epochs.flip(again.id)
    assert (await store.serving(org)).epoch == again.id


async def test_a_build_no_load_finished_into_is_never_served(store: GraphStore, org: str) -> None:
    """A load killed before its first batch (an incremental `--new-epoch` load, say) leaves
    an open build with no checkpoint at all: flipping it would serve an empty organisation."""
    assert (await load(store.org(org), OLD, source="s")).ok
    epochs = store.epochs(org)
    epoch = (await epochs.begin_build()).id
    with pytest.raises(EpochConflict, match="no load into epoch"):
        await epochs.flip(epoch)
    assert await names(await store.serving(org)) == {"repository:api": "api", "team:core": "Core"}
    assert (await epochs.building()) is not None  # still open: load it or discard it


async def test_a_build_of_an_empty_file_is_served_empty(store: GraphStore, org: str) -> None:
    """Emptying an organisation on purpose: an empty file's load finishes (cursor 0)."""
    assert (await load(store.org(org), OLD, source="s")).ok
    epochs = store.epochs(org)
    epoch = (await epochs.begin_build()).id
    report = await load(store.org(org, epoch), [], source="s")
    assert report.ok and report.lines == 0
    await epochs.flip(epoch)
    assert await names(await store.serving(org)) == {}


async def test_checkpoints_are_per_epoch(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    zero = await store.org(org).checkpoint("s")
    one = await store.org(org, target).checkpoint("s")
    assert zero is not None and one is not None and zero.digest != one.digest
    assert zero.finished and one.finished


async def test_results_outlive_epochs(store: GraphStore, org: str) -> None:
    target = await built(store, org)
    saved: dict[str, Any] = {"created_ns": 1, "subject_keys": [], "reuse_key": None}
    assert await store.org(org, target).results.save("r1", "{}", outcome="answered", **saved)
    assert await store.org(org).results.by_ids(["r1"]) == {"r1": "{}"}
