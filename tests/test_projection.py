"""Ingest semantics: idempotence, invalid lines, tombstones, complete snapshots, checkpoints."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ports import (
    Checkpoint,
    GraphStore,
    GraphUnavailable,
    OrgGraph,
    SubjectQuery,
    WriteBatch,
)
from graph.projection import Projector
from tests.helpers import content_hash, lines, load, rel, subject


def story() -> list[dict[str, Any]]:
    return [
        subject("team:payments", "Payments", aliases=["Payments Team"]),
        subject("repository:api", "api", valid_from="2025-01-01"),
        subject("repository:lib", "lib"),
        rel("OWNS", "team:payments", "repository:api", valid_from="2025-01-01"),
        rel("DEPENDS_ON", "repository:api", "repository:lib"),
        {
            "type": "episode",
            "key": "episode:1",
            "occurred_at": "2026-01-01T00:00:00Z",
            "text": "api deploy",
            "mentions": ["repository:api"],
        },
        {
            "type": "source_record",
            "key": "pull_request:1",
            "record_kind": "pull_request",
            "subject": "repository:api",
            "start": "2026-01-01",
            "end": "2026-01-03",
            "status": "merged",
        },
    ]


async def test_reingesting_the_same_file_changes_nothing(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    first = await load(graph, story(), source="s")
    assert first.accepted == 7 and first.ok
    counts, digest = dict(await graph.counts()), await content_hash(graph)
    again = await load(graph, story(), source="s")
    assert again.accepted == 7 and again.ok
    assert dict(await graph.counts()) == counts
    assert await content_hash(graph) == digest
    # Under another source name (no checkpoint shared): still no duplicates.
    await load(graph, story(), source="other")
    assert {k: v for k, v in (await graph.counts()).items() if k != "Checkpoint"} == {
        k: v for k, v in counts.items() if k != "Checkpoint"
    }


async def test_invalid_lines_are_reported_and_do_not_stop_valid_ones(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    raw = (
        lines(story()[:3])
        + [
            "not json",
            '{"type": "subject", "key": "team:x", "kind": "repository", "name": "x"}',
            '{"type": "subject", "key": "team:nul", "kind": "team", "name": "a\\u0000b"}',
            '{"type": "source_record", "key": "metric_rollup:1", "record_kind": "metric_rollup",'
            ' "subject": "repository:api", "start": "2026-01-01", "metric": "commits",'
            ' "value": 9223372036854775808}',
            '{"type": "wat"}',
            "",
            "[1, 2]",
        ]
        + lines(story()[3:])
    )
    report = await Projector(graph, source="s").run(raw)
    assert report.accepted == 7
    assert [bad.line for bad in report.invalid] == [4, 5, 6, 7, 8, 10]
    assert "JSON" in report.invalid[0].reason
    assert "team:" in report.invalid[1].reason or "key" in report.invalid[1].reason
    assert "NUL" in report.invalid[2].reason
    assert "64-bit" in report.invalid[3].reason
    assert not report.ok
    assert await graph.count_subjects(SubjectQuery()) == 3


async def test_tombstones_retract_and_incremental_loads_never_delete(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, story(), source="s")
    # An incremental page that omits most elements deletes nothing.
    await load(graph, [subject("repository:new")], source="s")
    assert await graph.count_subjects(SubjectQuery()) == 4
    owns_id = "OWNS|team:payments|repository:api|2025-01-01T00:00:00+00:00"
    await load(
        graph,
        [
            {"type": "tombstone", "target": "relationship", "key": owns_id},
            {"type": "tombstone", "target": "subject", "key": "repository:lib"},
            {"type": "tombstone", "target": "episode", "key": "episode:1"},
            {"type": "tombstone", "target": "source_record", "key": "pull_request:1"},
        ],
        source="s",
    )
    assert set(await graph.subjects_by_keys(["repository:lib", "repository:api"])) == {
        "repository:api"
    }
    rels = await graph.relationships_of(["repository:api"])
    assert rels["repository:api"] == []  # OWNS retracted, DEPENDS_ON gone with its subject
    assert (await graph.episodes_of(["repository:api"]))["repository:api"] == []
    assert (await graph.source_records_of(["repository:api"]))["repository:api"] == []


async def test_record_after_tombstone_in_one_file_restores_it(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(
        graph,
        [
            subject("team:a", "first"),
            {"type": "tombstone", "target": "subject", "key": "team:a"},
            subject("team:a", "again"),
        ],
    )
    assert (await graph.subjects_by_keys(["team:a"]))["team:a"].name == "again"


async def test_complete_snapshot_deletes_only_what_the_source_omits(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, story(), source="snap")
    await load(graph, [subject("team:elsewhere")], source="other")
    smaller = [
        r for r in story() if r.get("key") != "repository:lib" and r.get("relation") != "DEPENDS_ON"
    ]
    report = await load(graph, smaller, source="snap", complete=True)
    assert report.deleted == 2  # repository:lib and the DEPENDS_ON edge
    keys = set(await graph.subjects_by_keys(["repository:lib", "team:elsewhere", "repository:api"]))
    assert keys == {"team:elsewhere", "repository:api"}


async def test_complete_snapshot_with_invalid_lines_deletes_nothing(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, story(), source="snap")
    raw = lines([subject("team:payments", "Payments")]) + ["broken"]
    report = await Projector(graph, source="snap", complete=True).run(raw)
    assert report.complete_skipped and report.deleted == 0
    assert await graph.count_subjects(SubjectQuery()) == 3


class FailingGraph:
    """The real graph, except that the write after `fail_after` acknowledged ones fails."""

    def __init__(self, graph: OrgGraph, fail_after: int) -> None:
        self._graph = graph
        self.fail_after = fail_after
        self.saved: list[Checkpoint] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    async def write(self, batch: WriteBatch) -> None:
        if self.fail_after == 0:
            raise GraphUnavailable("connection lost")
        self.fail_after -= 1
        await self._graph.write(batch)

    async def save_checkpoint(self, checkpoint: Checkpoint) -> None:
        self.saved.append(checkpoint)
        await self._graph.save_checkpoint(checkpoint)


async def test_interrupted_load_resumes_after_the_last_acknowledged_batch(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    records = [subject(f"repository:r{i:03d}") for i in range(25)]
    failing = FailingGraph(graph, fail_after=2)
    with pytest.raises(GraphUnavailable):
        await Projector(failing, source="s", batch_size=10).run(lines(records))  # type: ignore[arg-type]
    # The checkpoint never moved past what was acknowledged.
    assert [c.cursor for c in failing.saved] == [10, 20]
    checkpoint = await graph.checkpoint("s")
    assert checkpoint is not None and checkpoint.cursor == 20 and not checkpoint.finished
    assert await graph.count_subjects(SubjectQuery()) == 20

    resumed = await Projector(graph, source="s", batch_size=10).run(lines(records))
    assert resumed.resumed_from == 20 and resumed.accepted == 5
    assert resumed.run_id == checkpoint.run_id
    assert await graph.count_subjects(SubjectQuery()) == 25
    done = await graph.checkpoint("s")
    assert done is not None and done.finished and done.cursor == 25


async def test_checkpoint_of_other_input_is_not_trusted(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    first = [subject(f"repository:a{i}") for i in range(15)]
    with pytest.raises(GraphUnavailable):
        await Projector(FailingGraph(graph, 1), source="s", batch_size=10).run(  # type: ignore[arg-type]
            lines(first)
        )
    other = [subject(f"repository:b{i}") for i in range(15)]
    report = await Projector(graph, source="s", batch_size=10).run(lines(other))
    assert report.resumed_from == 0 and report.accepted == 15
