"""Writes that clear properties (a null deletes one), on each Cypher backend.

FalkorDB (graph module 4.16.3) corrupts an element when one update clause deletes two or
more of its properties: it keeps one it was told to delete and loses one it was not.
graph.cypher._fragments.assign deletes one property per clause. The probe below measures
that shape and the single clause on random elements (docs/operations.md quotes it); the
re-ingest test checks what the writers store when a load clears several fields at once,
through the port and raw, and what time windows make of it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.domain.models import SourceRecordKind, SubjectKind
from engine.ports import GraphStore, SubjectOrder, SubjectQuery, TimeSpan
from graph.cypher._fragments import assign
from graph.falkor import FalkorStore
from graph.scoped import ScopedGraph
from tests.conftest import new_org
from tests.helpers import load, rel, subject
from tests.test_activity import ns

NAMES = tuple(f"p{i}" for i in range(8))
TRIALS = 300


def _cases(seed: int) -> list[tuple[dict[str, int], list[int | None], dict[str, int], int]]:
    """Random elements and updates: (properties before, the update row's values for NAMES,
    the properties expected after, how many present properties the update deletes)."""
    rnd = random.Random(seed)
    out = []
    for t in range(TRIALS):
        # In a random order: where each property sits decides what FalkorDB gets wrong.
        present = [n for n in NAMES if rnd.random() < 0.6] + ["k", "extra"]
        rnd.shuffle(present)
        before = {n: rnd.randint(1, 99) for n in present}
        before |= {"k": t, "extra": -t}  # outside the columns: never touched
        values = [None if rnd.random() < 0.5 else rnd.randint(100, 199) for _ in NAMES]
        after = {k: v for k, v in before.items() if k not in NAMES}
        after |= {n: v for n, v in zip(NAMES, values, strict=True) if v is not None}
        deleted = sum(1 for n, v in zip(NAMES, values, strict=True) if v is None and n in before)
        out.append((before, values, after, deleted))
    return out


async def _apply(graph: ScopedGraph, label: str, setting: str, cases: list[Any]) -> list[Any]:
    """Each case's node and relationship made, updated in one statement by `setting` (clauses
    over `n` and `row`), and read back: [node properties, edge properties]. Both are found
    through a node that is never updated (the update may lose any property of theirs)."""
    made = [before for before, _, _, _ in cases]
    # `label` is one of this module's constants, never input.
    await graph._write(
        f"UNWIND $made AS m CREATE (a:{label} {{org_id: $org}}) SET a += m "
        f"CREATE (a)-[e:{label}_R {{org_id: $org}}]->(:{label}_B {{org_id: $org, k: m.k}}) "
        "SET e += m",
        made=made,
    )
    rows = [[before["k"], *values] for before, values, _, _ in cases]
    end = f"(:{label}_B {{org_id: $org, k: row[0]}})"
    for pattern in (f"(n)-[:{label}_R]->{end}", f"()-[n:{label}_R]->{end}"):
        await graph._write(f"UNWIND $rows AS row MATCH {pattern} {setting}", rows=rows)
    found = await graph._read(
        f"MATCH (a)-[e:{label}_R]->(b:{label}_B {{org_id: $org}}) "
        "RETURN b.k, properties(a), properties(e)"
    )
    by_k = {int(k): (dict(a), dict(e)) for k, a, e in found}
    return [by_k[before["k"]] for before, _, _, _ in cases]


def _exact(props: dict[str, Any], after: dict[str, int]) -> bool:
    """The properties are those expected, and the organisation's (written first) is kept."""
    rest = dict(props)
    return rest.pop("org_id", None) is not None and rest == after


async def test_an_update_clause_deleting_two_properties_is_wrong_on_falkordb_and_assign_is_exact(
    cypher_store: GraphStore,
) -> None:
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        cases = _cases(seed=22)
        one_clause = "SET " + ", ".join(f"n.{c} = row[{i}]" for i, c in enumerate(NAMES, 1))
        wrong: Counter[int] = Counter()
        for (before, _, after, deleted), got in zip(
            cases, await _apply(graph, "NullProbeOne", one_clause, cases), strict=True
        ):
            for props in got:
                if not _exact(props, after):
                    assert deleted >= 2, (before, after, props)  # one deletion: always right
                    wrong[deleted] += 1
        if isinstance(cypher_store, FalkorStore):
            # The bug this module guards against. When this fails FalkorDB has fixed it, and
            # assign may write its columns in one clause again (docs/operations.md).
            assert sum(wrong.values()) > 0
        else:
            assert not wrong
        for (_, _, after, _), got in zip(
            cases, await _apply(graph, "NullProbeEach", assign("n", NAMES, 1), cases), strict=True
        ):
            for props in got:
                assert _exact(props, after), (after, props)
    finally:
        await cypher_store.drop_org(org)


def record(key: str, subj: str, start: str, **extra: Any) -> dict[str, Any]:
    return {"type": "source_record", "key": key, "record_kind": "incident", "subject": subj,
            "start": start, **extra}  # fmt: skip


FULL_RECORD = {
    "end": "2026-01-03T00:00:00Z", "due": "2026-01-04T00:00:00Z", "actor": "person:ann",
    "status": "open", "severity": "sev1", "environment": "prod", "metric": "latency",
    "value": 2.5, "title": "slow",
}  # fmt: skip
FULL_SUBJECT = {
    "valid_from": "2025-01-01T00:00:00Z", "valid_to": "2027-01-01T00:00:00Z",
    "description": "payments", "aliases": ["pay"], "attributes": {"tier": 1},
}  # fmt: skip
FULL_EDGE = {
    "id": "e1", "valid_from": "2025-01-01T00:00:00Z", "valid_to": "2027-01-01T00:00:00Z",
    "evidence": "CODEOWNERS",
}  # fmt: skip


async def _raw(graph: ScopedGraph, match: str, key: str) -> dict[str, Any]:
    # `match` is one of this module's fixed patterns.
    found = await graph._read(f"MATCH {match} RETURN properties(x)", key=key)
    assert len(found) == 1
    return dict(found[0][0])


async def test_a_reingest_clearing_several_fields_stores_exactly_the_new_element(
    cypher_store: GraphStore,
) -> None:
    org = new_org()
    await cypher_store.bootstrap(org)
    try:
        graph = cypher_store.org(org)
        assert isinstance(graph, ScopedGraph)
        await _reingest(graph)
    finally:
        await cypher_store.drop_org(org)


async def _reingest(graph: ScopedGraph) -> None:
    start = "2025-12-01T00:00:00Z"
    # Loaded in this order, the subject's validity end and the edge's are their last
    # properties, and FalkorDB's deletions by position went wrong exactly there.
    await load(graph, [
        subject("service:a", valid_from=FULL_SUBJECT["valid_from"]), subject("team:t"),
        rel("OWNS", "team:t", "service:a", id="e1", evidence="git blame"),
    ])  # fmt: skip
    await load(graph, [
        subject("service:a", **FULL_SUBJECT), subject("service:b"), subject("team:t"),
        record("incident:1", "service:a", "2026-01-01T10:00:00Z", **FULL_RECORD),
        record("incident:2", "service:b", "2025-12-15T00:00:00Z"),
        rel("OWNS", "team:t", "service:a", **FULL_EDGE),
    ])  # fmt: skip
    await load(graph, [
        subject("service:a"), record("incident:1", "service:a", start),
        rel("OWNS", "team:t", "service:a", id="e1"),
    ])  # fmt: skip
    kept = {"org_id", "source", "run_id", "digest"}  # the writer's own, checked present below

    # The record: exactly its new columns (start, and the day and microseconds of it).
    raw = await _raw(graph, "(x:SourceRecord {org_id: $org, key: $key})", "incident:1")
    assert kept <= set(raw)
    assert {k: v for k, v in raw.items() if k not in kept} == {
        "key": "incident:1", "record_kind": "incident", "subject_key": "service:a",
        "start_ns": ns(start), "start_us": ns(start) // 1_000, "day": ns(start) // 86_400 // 10**9,
        "title": "",
    }  # fmt: skip
    got = (await graph.source_records_by_keys(["incident:1"]))["incident:1"]
    assert ns(got.start.isoformat()) == ns(start)
    assert (got.end, got.due, got.actor) == (None, None, None)
    assert (got.status, got.severity, got.environment, got.metric, got.value, got.title) == (
        None, None, None, None, None, "",
    )  # fmt: skip

    # The subject: no validity window left, and the columns as the last load said.
    raw = await _raw(graph, "(x:Subject {org_id: $org, key: $key})", "service:a")
    assert kept <= set(raw)
    # No validity window left (org_term: Neo4j's full-text filter term).
    assert set(raw) - kept - {"org_term"} == {
        "key", "id", "kind", "name", "aliases", "previous_names", "description", "attributes",
        "attr_pairs", "search_text", "stub",
    }  # fmt: skip
    assert (raw["name"], raw["description"], raw["aliases"], raw["attributes"]) == (
        "a", "", [], "{}",
    )  # fmt: skip
    assert raw["stub"] is False and raw["kind"] == "service" and raw["key"] == "service:a"
    s = (await graph.subjects_by_keys(["service:a"]))["service:a"]
    assert (s.valid_from, s.valid_to, s.description, s.aliases, s.attributes) == (
        None, None, "", [], {},
    )  # fmt: skip
    later = TimeSpan.point(ns("2028-01-01T00:00:00Z"))  # after the window it no longer has
    assert list(await graph.subjects_by_keys(["service:a"], at=later)) == ["service:a"]

    # The relationship: no window and no evidence left.
    raw = await _raw(graph, "()-[x:OWNS {org_id: $org, id: $key}]->()", "e1")
    assert kept <= set(raw)
    assert {k: v for k, v in raw.items() if k not in kept} == {"id": "e1"}
    edges = (await graph.relationships_of(["team:t"]))["team:t"]
    assert [(e.relationship.rel_id, e.relationship.valid_from, e.relationship.valid_to,
             e.relationship.evidence) for e in edges] == [("e1", None, None, None)]  # fmt: skip

    # Time windows see the record's new time: as of 2025-12-20, service:b (12-15) is the
    # most recently active and service:a (12-01) next; it ended at no time.
    query = SubjectQuery(
        kinds=(SubjectKind.SERVICE,), at=TimeSpan.point(ns("2025-12-20T00:00:00Z")),
        order=SubjectOrder.RECENT, brief=True,
    )  # fmt: skip
    page = await graph.find_subjects(query, 10)
    assert [x.key for x in page.items] == ["service:b", "service:a"]
    span = TimeSpan(ns("2025-11-30T00:00:00Z"), ns("2025-12-02T00:00:00Z"))
    assert await graph.active_subjects([SourceRecordKind.INCIDENT], span, 10) == [
        ("service:a", 1)
    ]
