"""The gateway settles the garbage collector once it has started (gateway/heap.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from gateway import heap


@pytest.fixture
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_startup_leftovers_are_frozen_and_young_collections_spaced(collector: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    heap.settle(12_345)
    assert gc.get_threshold() == (12_345, 10, 10)
    assert gc.get_freeze_count() > 1000  # modules, classes, the schema: all of them


def test_zero_leaves_the_collector_alone(collector: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    heap.settle(0)
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
