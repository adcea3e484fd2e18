"""Reporting dataloader batch sizes to an observer, without touching the loaders themselves.

A batch's size is the number of keys one graph round trip answers: the figure that shows
whether batching works (many keys per trip) or a resolver has started to load one by one.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from aiodataloader import DataLoader

from engine.investigation.observer import InvestigationObserver
from resolvers.completion import PlanObserver
from resolvers.loaders import Loaders


class BatchObserver(Protocol):
    def batch(self, loader: str, size: int) -> None:
        """One dataloader batch of `size` keys was sent to the graph."""


class EpochObserver(Protocol):
    def epoch_transition(self, kind: str, outcome: str) -> None:
        """A lifecycle transition (`begin`, `flip`, `rollback`, `discard`, `retire`) ended
        `ok`, in `conflict` (refused: another transition first, nothing in grace...) or `error`."""

    def serving_epoch(self, org_id: str, epoch: int) -> None:
        """The organisation serves `epoch` (after a transition)."""


class ServiceObserver(InvestigationObserver, BatchObserver, PlanObserver, EpochObserver, Protocol):
    """Everything the resolver layer reports: investigations, dataloader batches,
    completion plans given up and projection epoch transitions."""


BatchFn = Callable[[list[Any]], Coroutine[Any, Any, list[Any]]]


def _counted(name: str, load: BatchFn, observer: BatchObserver) -> BatchFn:
    async def batch_load(keys: list[Any]) -> list[Any]:
        observer.batch(name, len(keys))
        return await load(keys)

    return batch_load


def observe_batches(loaders: Loaders, observer: BatchObserver) -> None:
    """Wrap every loader of one request so each batch reports its size under its name."""
    for name, loader in vars(loaders).items():
        if isinstance(loader, DataLoader):
            loader.batch_load_fn = _counted(name, loader.batch_load_fn, observer)
