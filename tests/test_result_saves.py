"""Investigation results are never half-saved: a save is whole and readable, or absent."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from engine.ports import GraphQueryError, GraphStore, GraphUnavailable
from graph.embedded import EmbeddedServer
from graph.falkor import ATTRIBUTES, FalkorStore
from tests.conftest import new_org

GOOD: dict[str, Any] = {
    "created_ns": 1,
    "subject_keys": ["team:a"],
    "reuse_key": None,
    "outcome": "answered",
}


async def _investigation_nodes(store: Any, org: str) -> int:
    found = await store.org(org)._read("MATCH (r:Investigation {org_id: $org}) RETURN count(r)")
    return int(found[0][0])


async def test_a_save_whose_second_part_fails_leaves_nothing(cypher_store: GraphStore) -> None:
    """The statement fails after it created the node (the subjects list is not storable): the
    backend applies none of it, and a later save of the same id is stored and readable whole.
    On FalkorDB this is a fresh organisation on purpose: it exercises the cached-plan defect
    that bootstrap guards against (see graph.falkor.ATTRIBUTES)."""
    store = cypher_store
    org = new_org()
    archive = store.org(org).results
    with pytest.raises(GraphQueryError):
        await archive.save("r-1", "payload-1", **{**GOOD, "subject_keys": [{"a": 1}]})
    assert await archive.by_ids(["r-1"]) == {}
    assert await archive.page(10) == []
    assert await _investigation_nodes(store, org) == 0  # no node without its payload
    assert await archive.save("r-1", "payload-1", **GOOD)
    assert await archive.by_ids(["r-1"]) == {"r-1": "payload-1"}
    assert [r.id for r in await archive.page(10, subject_key="team:a")] == ["r-1"]
    # Immutable: the same id never takes another payload.
    assert not await archive.save("r-1", "payload-2", **GOOD)
    assert await archive.by_ids(["r-1"]) == {"r-1": "payload-1"}
    await store.drop_org(org)


async def test_every_written_property_name_is_known_at_bootstrap(falkor: FalkorStore) -> None:
    """The guard above only holds if no statement writes a property name the list lacks: load
    every kind of record, save a result, and compare with what the graph has learnt."""
    import json

    from graph.projection import Projector
    from sources.demo import generate

    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    await Projector(graph, source="demo").run(json.dumps(r) for r in generate(300))
    await graph.results.save("r", "p", **GOOD)
    await graph.results.touch_projection_epoch(1)
    names = {row[0] for row in await graph._read("CALL db.propertyKeys()")}
    system = {row[0] for row in await falkor.keys._x.run("CALL db.propertyKeys()", {})}
    assert names | system <= set(ATTRIBUTES)
    await falkor.drop_org(org)


async def test_kill_9_during_a_save_leaves_the_result_whole_or_absent(tmp_path: Path) -> None:
    server = EmbeddedServer(tmp_path)
    server.start()
    store = FalkorStore(server.url)
    try:
        org = new_org()
        await store.bootstrap(org)
        archive = store.org(org).results
        assert await archive.save("small", "acknowledged", **GOOD)
        payload = "x" * 4_000_000  # large enough that the kill lands while it is written
        save = asyncio.create_task(archive.save("big", payload, **GOOD))
        await asyncio.sleep(0.005)
        assert server.pid is not None
        os.kill(server.pid, signal.SIGKILL)
        acknowledged = False
        with contextlib.suppress(GraphUnavailable):
            acknowledged = await save
        for _ in range(200):  # SIGKILL is delivered asynchronously
            if not server.alive():
                break
            await asyncio.sleep(0.05)
        server.restart()
        assert await archive.by_ids(["small"]) == {"small": "acknowledged"}  # durable
        stored = await archive.by_ids(["big"])
        if acknowledged:
            assert stored == {"big": payload}
        assert stored in ({}, {"big": payload})  # never a part of it
        listed = {r.id: r.payload for r in await archive.page(10)}
        assert listed == {"small": "acknowledged", **stored}
        assert await _investigation_nodes(store, org) == len(listed)
    finally:
        await store.close()
        server.stop()
