"""Purging a retired epoch's scope removes everything its projection wrote, the activity
structures with the records (graph.epochs.purge_scope)."""

from __future__ import annotations

from graph.cypher.epochs import PURGE
from graph.cypher.organisations import ORG_LABELS
from graph.epochs import purge_scope
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.helpers import load

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
