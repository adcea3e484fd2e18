"""When a FalkorDB graph may be read: a search once its index is populated, the rest at once.

FalkorDB keeps no index in its snapshot: it builds each again from the graph's nodes, label
after label, in the background after loading (the embedded server starts with DELAY_INDEXING,
graph.embedded, so that it answers as soon as the data is in) and after a CREATE INDEX on
existing nodes (a new index or field, on an older data directory). Until a label's index is
built, statements read without it, which is only slower (FalkorDB 4.16, tests/
test_index_build.py: a subject or record found by key while its index was under
construction); but the full-text and vector procedures answer with no rows at all (a
search finding 5 subjects found 0 while the Subject index was
`[Indexing] 969/100011: UNDER CONSTRUCTION`), which would be a wrong answer. So a search
waits for its own index (`IndexGate`); a graph's bootstrap waits for every index when its
store is told to (a loader, whose writes would scan without them), and `fabric serve`
answers pages meanwhile.

It also teaches the graph every property name a statement of ours writes (graph.falkor's
ATTRIBUTES) only when one is missing: that is a write, which the append-only file logs, and
a server stopped with anything logged rewrites its whole file (graph.embedded.appendonly).
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from graph.executor import Row

Read = Callable[[str], Awaitable[list[Row]]]
Write = Callable[[str, dict[str, Any]], Awaitable[list[Row]]]

INDEX_STATUS = "CALL db.indexes() YIELD label, status RETURN label, status"
LABELS = "CALL db.labels()"  # in the order they were made
PROPERTY_KEYS = "CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey"
# Created and deleted in one statement under a label the schema already has: only the names
# remain. Values are parameters like everywhere else.
LEARN_ATTRIBUTES = "CREATE (n:Checkpoint) SET n += $names DELETE n"
READY = "OPERATIONAL"
_POLL_S = 0.1
# How often a graph still building is asked again whether it is done (a request asks it
# first, graph.falkor.FalkorStore.indexes_building): one cheap statement a second at most.
_RECHECK_S = 1.0
_SHOW_EVERY_S = 2.0


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def learn_attributes(read: Read, write: Write, names: Iterable[str]) -> bool:
    """Make the graph know every name (True: it was missing some and learnt them)."""
    wanted = set(names)
    known = {str(row[0]) for row in await read(PROPERTY_KEYS)}
    if wanted <= known:
        return False
    await write(LEARN_ATTRIBUTES, {"names": dict.fromkeys(sorted(wanted), 0)})
    return True


def building(rows: Iterable[Row]) -> list[str]:
    """The indexes not yet usable, as `label: status` (empty: every one is)."""
    return [f"{label}: {status}" for label, status in rows if status != READY]


async def await_indexes(
    read: Read, graph: str, progress: Callable[[str], None] = _stderr
) -> float:
    """Wait until every index of `graph` is built; the seconds waited. A progress line
    (which index, how far) every few seconds of a long wait."""
    started = shown = time.monotonic()
    while pending := building(await read(INDEX_STATUS)):
        now = time.monotonic()
        if now - shown >= _SHOW_EVERY_S:
            progress(
                f"fabric: {graph}: waiting for its indexes ({'; '.join(pending)}; "
                f"{now - started:.0f} s so far)"
            )
            shown = now
        await asyncio.sleep(_POLL_S)
    waited = time.monotonic() - started
    if shown > started:
        progress(f"fabric: {graph}: indexes ready after {waited:.1f} s")
    return waited


class IndexGate:
    """Holds a search back until its label's index is built, on one graph (`read` sends a
    statement there). Once seen built, a label is not asked again until `reset` (the
    server restarted, and builds every index again)."""

    def __init__(self, read: Read) -> None:
        self._read = read
        self._built: set[str] = set()
        self._all_built = False
        self._building_seen = (False, float("-inf"))  # (still building, when asked)
        self._first: tuple[str, ...] | None = None  # what `first` waits for, once read

    async def building(self) -> bool:
        """Whether any index of the graph is still being built (its statements then read
        without it: correct, only slower). Asked at most once a second while it is; once
        every index is built, not again until `reset`."""
        if self._all_built:
            return False
        still, asked = self._building_seen
        now = time.monotonic()
        if now - asked < _RECHECK_S:
            return still
        rows = await self._read(INDEX_STATUS)
        self._built.update(str(label) for label, status in rows if status == READY)
        still = bool(building(rows))
        self._all_built = not still
        self._building_seen = (still, now)
        return still

    async def __call__(self, label: str) -> None:
        if label in self._built:
            return
        while True:
            rows = await self._read(INDEX_STATUS)
            if all(status == READY for found, status in rows if found == label):
                break  # built (or no such index: nothing to wait for)
            await asyncio.sleep(_POLL_S)
        self._built.add(label)

    async def first(self, labels: tuple[str, ...]) -> None:
        """Wait for the indexes of those of `labels` FalkorDB builds before any other label's
        (it builds them in the order the labels were made): a graph made before
        graph.indexes' order has its records' and episodes' labels right after the
        subjects', and a wait for its Activity index would wait for theirs too."""
        if self._first is None:
            indexed = {str(label) for label, _ in await self._read(INDEX_STATUS)}
            made = [str(row[0]) for row in await self._read(LABELS)]
            order = [label for label in made if label in indexed]
            ahead = next((at for at, label in enumerate(order) if label not in labels), None)
            self._first = tuple(order[:ahead])
        for label in self._first:
            await self(label)

    def reset(self) -> None:
        self._built.clear()
        self._all_built = False
        self._building_seen = (False, float("-inf"))
        self._first = None
