"""More of the graph port's contract, on every backend (the `store` fixture): the corners
where an in-memory graph and a database are most likely to disagree."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.domain.embedding import HashingEmbedder
from engine.domain.models import Direction, SourceRecordKind, SubjectKind
from engine.ports import (
    SYSTEM_SCOPE,
    ApiKeyRecord,
    EdgeRequest,
    EpisodeRequest,
    GraphStore,
    SubjectQuery,
    TimeSpan,
)
from tests.conftest import BACKENDS, new_org, open_backend
from tests.helpers import load, rel, subject
from tests.test_graph_contract import at


def episode(key: str, when: str, *mentions: str, text: str = "") -> dict[str, Any]:
    return {"type": "episode", "key": key, "occurred_at": when, "text": text or key,
            "mentions": list(mentions)}  # fmt: skip


def record(key: str, subject_key: str, start: str, end: str | None = None,
           kind: str = "incident") -> dict[str, Any]:  # fmt: skip
    return {"type": "source_record", "key": key, "record_kind": kind, "subject": subject_key,
            "start": start, **({"end": end} if end else {})}  # fmt: skip


def tombstone(target: str, key: str) -> dict[str, Any]:
    return {"type": "tombstone", "target": target, "key": key}


def span(start: str, end: str) -> TimeSpan:
    return TimeSpan(at(start).start_ns, at(end).end_ns)


async def test_an_episode_loaded_again_mentions_only_what_it_says_now(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, [subject("service:a"), subject("service:b"),
                       episode("episode:1", "2026-01-01", "service:a", "service:b")])
    await load(graph, [episode("episode:1", "2026-01-02", "service:b")])
    found = await graph.episodes_of(["service:a", "service:b"])
    assert found == {"service:a": [], "service:b": [found["service:b"][0]]}
    assert found["service:b"][0].mentions == ["service:b"]
    counts = await graph.episode_counts([EpisodeRequest("service:a"), EpisodeRequest("service:b")])
    assert counts == [0, 1]


async def test_a_retracted_subject_takes_its_edges_and_mentions_and_comes_back_bare(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, [subject("team:a"), subject("repository:x"),
                       rel("OWNS", "team:a", "repository:x"),
                       episode("episode:1", "2026-01-01", "repository:x")])
    await load(graph, [tombstone("subject", "repository:x")])
    assert await graph.subjects_by_keys(["repository:x"]) == {}
    assert (await graph.relationships_of(["team:a"]))["team:a"] == []
    await load(graph, [subject("repository:x", "x again")])
    assert (await graph.relationships_of(["repository:x"]))["repository:x"] == []
    assert (await graph.episodes_of(["repository:x"]))["repository:x"] == []
    # The episode itself is still there, and still says what it said.
    assert (await graph.episodes_by_keys(["episode:1"]))["episode:1"].mentions == ["repository:x"]


async def test_a_tombstoned_relationship_id_retracts_it_between_every_pair(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, [subject("team:a"), subject("team:b"), subject("repository:x"),
                       rel("OWNS", "team:a", "repository:x", id="own-1"),
                       rel("OWNS", "team:b", "repository:x", id="own-1"),
                       rel("OWNS", "team:b", "repository:x", id="own-2")])
    before = await graph.relationships_of(["repository:x"])
    assert sorted((e.other_key, e.relationship.rel_id) for e in before["repository:x"]) == [
        ("team:a", "own-1"), ("team:b", "own-1"), ("team:b", "own-2")]
    found = await graph.edges_by_id([("team:a", "own-1"), ("repository:x", "own-1")])
    assert list(found) == [("team:a", "own-1")]  # by its start only
    assert found[("team:a", "own-1")].other.key == "repository:x"
    await load(graph, [tombstone("relationship", "own-1")])
    after = await graph.relationships_of(["repository:x"])
    assert [e.relationship.rel_id for e in after["repository:x"]] == ["own-2"]


async def test_edge_counts_ignore_the_page_and_brief_ends_carry_identity_only(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, [subject("team:t", "T", aliases=["tee"], description="d")]
               + [subject(f"person:p{i}", f"P{i}", attributes={"n": i}) for i in range(4)]
               + [rel("MEMBER_OF", f"person:p{i}", "team:t") for i in range(4)])
    request = EdgeRequest("team:t", limit=2, after=("MEMBER_OF", "person:p0", "~"), brief=True)
    assert await graph.edge_counts([request]) == [4]
    (page,) = await graph.edges([request])
    assert [e.other.key for e in page] == ["person:p1", "person:p2"]
    assert all(not e.outgoing for e in page)
    other = page[0].other
    assert (other.key, other.name, other.kind) == ("person:p1", "P1", SubjectKind.PERSON)
    assert other.id and other.attributes == {} and other.aliases == []
    full = (await graph.edges([EdgeRequest("person:p1")]))[0][0].other
    assert full.description == "d" and full.aliases == ["tee"]
    listed = await graph.find_subjects(SubjectQuery(kinds=(SubjectKind.TEAM,), brief=True), 5)
    assert [(s.key, s.name, s.aliases) for s in listed.items] == [("team:t", "T", [])]


async def test_a_relationship_to_itself(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(graph, [subject("repository:x"), rel("DEPENDS_ON", "repository:x", "repository:x")])
    # Both outgoing and incoming, it is found once whichever way is asked, as outgoing.
    for direction in Direction:
        (page,) = await graph.edges([EdgeRequest("repository:x", direction=direction)])
        assert [(e.other.key, e.outgoing) for e in page] == [("repository:x", True)], direction
        assert await graph.edge_counts([EdgeRequest("repository:x", direction=direction)]) == [1]


async def test_search_filter_prefix_by_id_and_stubs(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(graph, [subject("repository:shop-frontend", "checkout-web",
                               previous_names=["shop_frontend"]),
                       subject("repository:other", "other"),
                       rel("DEPENDS_ON", "repository:other", "repository:ghost")])
    by_old_name = await graph.find_subjects(SubjectQuery(search="Shop-Frontend"), 10)
    assert [s.key for s in by_old_name.items] == ["repository:shop-frontend"]
    assert await graph.count_subjects(SubjectQuery(search="ghost")) == 0
    assert await graph.count_subjects(SubjectQuery(search="ghost", include_stubs=True)) == 1
    ghost = (await graph.subjects_by_keys(["repository:ghost"]))["repository:ghost"]
    sample, total = await graph.subjects_by_id_prefix(ghost.id[:8].upper())
    assert total >= 1 and ghost.key in {s.key for s in sample}
    # A stub is known by its key only: no handle of its own to be resolved by.
    assert await graph.subjects_by_handle("ghost") == ([], 0)


async def test_source_records_meet_a_closed_span_and_cohorts_count_starts(
    store: GraphStore, org: str
) -> None:
    graph = store.org(org)
    await load(graph, [subject("service:a"), subject("service:b"),
                       record("incident:1", "service:a", "2026-01-01", "2026-01-10"),
                       record("incident:2", "service:a", "2026-01-20"),
                       record("incident:3", "service:b", "2026-01-05", "2026-01-06"),
                       record("deploy:1", "service:b", "2026-01-07", kind="deploy"),
                       record("incident:4", "service:c", "2026-01-08")])
    found = await graph.source_records_of(["service:a", "service:b", "service:z"],
                                          span=span("2026-01-10", "2026-01-19"))
    # A record that ended on the span's first instant still meets it; one still open lasts.
    assert {k: [r.key for r in v] for k, v in found.items()} == {
        "service:a": ["incident:1"], "service:b": ["deploy:1"], "service:z": []}
    incidents = [SourceRecordKind.INCIDENT]
    assert await graph.active_subjects(incidents, span("2026-01-01", "2026-01-31"), 5) == [
        ("service:a", 2), ("service:b", 1), ("service:c", 1)]
    assert await graph.active_subjects(incidents, span("2026-01-02", "2026-01-19"), 1) == [
        ("service:b", 1)]
    assert await graph.active_subjects([], span("2026-01-01", "2026-01-31"), 5) == []
    by_key = await graph.source_records_by_keys(["incident:4", "nope"])
    assert list(by_key) == ["incident:4"] and by_key["incident:4"].subject == "service:c"
    # A record is not a reference: its subject is not made up as a stub.
    assert await graph.subjects_by_keys(["service:c"]) == {}


async def test_a_cohort_of_one_kind_is_chosen_before_the_limit(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    busy = [record(f"incident:{who}{i}", f"{who}:x", "2026-01-05")
            for who in ("repository", "person") for i in range(3)]  # fmt: skip
    await load(graph, [*busy, record("incident:s1", "service:a", "2026-01-05"),
                       record("incident:t1", "team:t", "2026-01-05"),
                       record("incident:s2", "service:b", "2026-01-06"),
                       record("incident:s3", "service:b", "2026-01-07")])  # fmt: skip
    incidents, window = [SourceRecordKind.INCIDENT], span("2026-01-01", "2026-01-31")
    # Busier subjects of other kinds fill an unfiltered page...
    assert [k for k, _ in await graph.active_subjects(incidents, window, 2)] == [
        "person:x", "repository:x"]
    # ...but not one asked for a kind: it is filtered before the limit.
    services = [SubjectKind.SERVICE]
    assert await graph.active_subjects(incidents, window, 2, subject_kinds=services) == [
        ("service:b", 2), ("service:a", 1)]
    both = [SubjectKind.SERVICE, SubjectKind.TEAM]
    assert await graph.active_subjects(incidents, window, 5, subject_kinds=both) == [
        ("service:b", 2), ("service:a", 1), ("team:t", 1)]
    assert await graph.active_subjects(
        incidents, window, 5, subject_kinds=[SubjectKind.PROJECT]) == []


async def test_commits_per_module_over_a_half_open_window(store: GraphStore, org: str) -> None:
    """What a ranking by change reads (engine.resolving.rankedsubjects): commit records per module, none of
    the daily rollups, over [start, end) given as the closed span [start, end - 1 ns]."""
    graph = store.org(org)
    end = at("2026-02-01").start_ns
    await load(graph, [record("commit:1:a", "module:r/a", "2026-01-05T10:00:00Z", kind="commit"),
                       record("commit:2:a", "module:r/a", "2026-01-06T10:00:00Z", kind="commit"),
                       record("commit:2:b", "module:r/b", "2026-01-06T10:00:00Z", kind="commit"),
                       record("commit:3:b", "module:r/b", "2026-02-01T00:00:00Z", kind="commit"),
                       record("commit:3:r", "repository:r", "2026-01-06T10:00:00Z",
                              kind="commit"),
                       {**record("metric_rollup:b", "module:r/b", "2026-01-06",
                                 "2026-01-07", kind="metric_rollup"),
                        "metric": "commits", "value": 9}])  # fmt: skip
    commits, modules = [SourceRecordKind.COMMIT], [SubjectKind.MODULE]
    window = TimeSpan(at("2026-01-01").start_ns, end - 1)
    assert await graph.active_subjects(commits, window, 10, subject_kinds=modules) == [
        ("module:r/a", 2), ("module:r/b", 1)]
    closed = TimeSpan(at("2026-01-01").start_ns, end)  # its last instant counts
    assert await graph.active_subjects(commits, closed, 10, subject_kinds=modules) == [
        ("module:r/a", 2), ("module:r/b", 2)]
async def test_the_record_kinds_held_are_those_of_any_record_left(
    store: GraphStore, org: str
) -> None:
    """What an organisation can be asked about at all ("how many releases?" where nothing
    records releases): the kinds of its records, whatever their time; a deleted record's
    kind goes with its last record."""
    graph = store.org(org)
    assert await graph.record_kinds() == frozenset()
    await load(graph, [record("incident:1", "service:a", "2016-01-05"),
                       record("deploy:1", "service:a", "2026-01-06", kind="deploy"),
                       record("deploy:2", "service:b", "2026-02-06", kind="deploy")])  # fmt: skip
    assert await graph.record_kinds() == {SourceRecordKind.INCIDENT, SourceRecordKind.DEPLOY}
    await load(graph, [tombstone("source_record", "incident:1"),
                       tombstone("source_record", "deploy:1")])  # fmt: skip
    assert await graph.record_kinds() == {SourceRecordKind.DEPLOY}
    assert await store.org(new_org()).record_kinds() == frozenset()


async def test_all_tokens_says_whether_it_has_them_all(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(graph, [subject(f"service:pay-{i}", f"pay gateway {i}") for i in range(4)]
               + [subject("service:payroll", "payroll gateway")])
    hits, complete = await graph.search_all_tokens("pay gateway", [], 10)
    assert sorted(s.key for s, _ in hits) == [f"service:pay-{i}" for i in range(4)] and complete
    hits, complete = await graph.search_all_tokens("pay gateway", [], 3)
    assert len(hits) == 3 and not complete
    # As written: no typo is forgiven here.
    assert await graph.search_all_tokens("pya gateway", [], 10) == ([], True)
    assert await graph.search_all_tokens("pay", [SubjectKind.TEAM], 10) == ([], True)


async def test_delete_unseen_spares_other_sources_and_stubs(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(graph, [subject("team:a"), rel("OWNS", "team:a", "repository:stub")],
               source="hr")
    await load(graph, [subject("team:b")], source="other")
    report = await load(graph, [subject("team:c")], source="hr", complete=True)
    assert report.deleted == 2  # team:a and its edge; the stub belongs to no load
    listed = await graph.find_subjects(SubjectQuery(include_stubs=True), 10)
    assert [s.key for s in listed.items] == ["repository:stub", "team:b", "team:c"]


async def test_fingerprints_are_equal_for_equal_content_anywhere(
    store: GraphStore, org: str
) -> None:
    records = [subject("team:a", attributes={"x": 1}), rel("OWNS", "team:a", "repository:s"),
               episode("episode:1", "2026-01-01", "team:a"),
               record("incident:1", "team:a", "2026-01-01")]
    other = new_org()
    await store.bootstrap(other)
    try:
        await load(store.org(org), records, source="one")
        await load(store.org(other), records, source="one")
        await load(store.org(other), records, source="one", resume=False)
        a, b = await store.org(org).fingerprint(), await store.org(other).fingerprint()
        assert a == b and a.duplicates == 0
        assert a.nodes == {"Episode": 1, "SourceRecord": 1, "Subject": 2}
        assert a.relationships == {"MENTIONS": 1, "OWNS": 1}
        await load(store.org(other), [subject("team:a", attributes={"x": 2})], source="one")
        assert (await store.org(other).fingerprint()).digest != a.digest
        counts = await store.org(org).counts()
        assert (counts["Subject"], counts["Episode"], counts["rel:OWNS"]) == (2, 1, 1)
    finally:
        await store.drop_org(other)


async def test_keys_list_by_organisation_and_secrets_are_shared(store: GraphStore) -> None:
    org_a, org_b = new_org(), new_org()
    for i, owner in enumerate((org_a, org_b, org_a)):
        await store.keys.put_key(ApiKeyRecord(f"{org_a}-k{i}", "h", owner, "ci", ("read",), False))
    assert [k.key_id for k in await store.keys.list_keys(org_a)] == [f"{org_a}-k0", f"{org_a}-k2"]
    listed = {k.key_id for k in await store.keys.list_keys()}
    assert {f"{org_a}-k0", f"{org_a}-k1", f"{org_a}-k2"} <= listed
    name = "s-" + org_a
    assert await store.keys.secret(name) == await store.keys.secret(name)
    assert await store.keys.secret(name) != await store.keys.secret(name + "x")


@pytest.fixture(scope="module", params=BACKENDS)
async def embedding_store(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    opened = open_backend(request.param, request, embedder=HashingEmbedder(64))
    await opened.bootstrap(SYSTEM_SCOPE)
    yield opened
    await opened.close()


async def test_the_vector_arm_answers_by_meaning_and_only_with_its_own_vectors(
    embedding_store: Any,
) -> None:
    store, org = embedding_store, new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    try:
        await load(graph, [subject("service:payments", "payments settlement"),
                           subject("team:payments", "payments people"),
                           subject("service:search", "search indexer"),
                           rel("DEPENDS_ON", "service:search", "service:stubbed")])
        hits = await graph.search_similar("payments settlement", [], 5, 0.3)
        assert hits is not None and hits[0][0].key == "service:payments"
        assert hits[0][1] > 0.8 and all(s.key != "service:stubbed" for s, _ in hits)
        only = await graph.search_similar("payments", [SubjectKind.TEAM], 5, 0.1)
        assert only is not None and [s.key for s, _ in only] == ["team:payments"]
        assert await graph.search_similar("!!!", [], 5, 0.1) == []
        assert await graph.search_similar("payments", [], 5, 1.01) == []
        assert await graph.reembed() == 4  # every subject, the stub too
        again = await graph.search_similar("payments settlement", [], 5, 0.3)
        assert again is not None and [s.key for s, _ in again] == [s.key for s, _ in hits]
    finally:
        await store.drop_org(org)


async def test_without_an_embedder_the_vector_arm_is_off(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    await load(graph, [subject("service:payments")])
    assert await graph.search_similar("payments", [], 5, 0.0) is None
    assert await graph.reembed() == 0


async def test_every_write_moves_the_revision_once_it_is_in(store: GraphStore, org: str) -> None:
    graph = store.org(org)
    before = await store.changes.revision(org)
    await load(graph, [subject("team:a")])
    after_load = await store.changes.revision(org)
    await graph.results.save("r1", "{}", created_ns=1, subject_keys=["team:a"], reuse_key=None,
                             outcome="answered")
    after_save = await store.changes.revision(org)
    if not store.changes.shared:
        assert before is after_load is after_save is None  # kept only where every writer is seen
        return
    assert before is not None and after_load is not None and after_save is not None
    assert before < after_load < after_save


async def test_source_record_pages_follow_the_full_read(store: GraphStore, org: str) -> None:
    from engine.ports import RecordPageRequest

    graph = store.org(org)
    rows: list[dict[str, Any]] = [subject("service:p"), subject("service:q")]
    for i in range(9):
        # Pairs share a start, so the page boundary falls inside ties on time.
        kind = "deploy" if i % 3 == 0 else "incident"
        end = "2026-01-20" if i == 0 else None  # an old record still open... until the 20th
        rows.append(record(f"r:{8 - i}", "service:p", f"2026-01-0{1 + i // 2}", end, kind))
    rows.append(record("r:other", "service:q", "2026-01-01"))
    assert (await load(graph, rows)).ok
    full = (await graph.source_records_of(["service:p"]))["service:p"]
    assert len(full) == 9
    for size in (1, 2, 4, 9, 10):
        pages: list[list[str]] = []
        after: tuple[int, str] | None = None
        while True:
            (page,) = await graph.source_record_pages(
                [RecordPageRequest("service:p", limit=size, after=after)]
            )
            if not page:
                break
            pages.append([r.key for r in page])
            assert len(page) <= size
            last = page[-1]
            after = (at(last.start.isoformat()).start_ns, last.key)
        assert [k for p in pages for k in p] == [r.key for r in full]
    # Ties on time go by key: r:8 and r:7 start together, so r:7 comes first.
    assert [r.key for r in full[:2]] == ["r:7", "r:8"]
    last = full[-1]
    after = (at(last.start.isoformat()).start_ns, last.key)
    assert await graph.source_record_pages([RecordPageRequest("service:p", after=after)]) == [[]]
    # Kinds and span filter as the full read does, and a batch answers each request in place.
    week = span("2026-01-04", "2026-01-10")
    deploys = (SourceRecordKind.DEPLOY,)
    asked = [
        RecordPageRequest("service:p", deploys, limit=10),
        RecordPageRequest("service:p", span=week, limit=2),
        RecordPageRequest("service:absent"),
        RecordPageRequest("service:q", (SourceRecordKind.DEPLOY,)),
        RecordPageRequest("service:q", limit=0),
    ]
    got = await graph.source_record_pages(asked)
    want_deploys = (await graph.source_records_of(["service:p"], kinds=deploys))["service:p"]
    want_week = (await graph.source_records_of(["service:p"], span=week))["service:p"]
    assert [r.key for r in got[0]] == [r.key for r in want_deploys] and len(got[0]) == 3
    assert [r.key for r in got[1]] == [r.key for r in want_week[:2]]
    assert "r:8" in [r.key for r in want_week]  # the open-until-the-20th record meets the week
    assert got[2:] == [[], [], []]
