"""Every list field reads what the cost limiter charges it: on real FalkorDB (with the local
embedder, as `fabric serve` runs), each field is asked at its worst case (more data than the
page, every search arm full) and the rows the store returned are counted (tests/reads.py)
and compared with the charge the limiter computed for that very query. Smaller cases read
less than the charge, never more."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import graphql
import pytest

from engine.domain import contract
from engine.domain.evidence import EvidenceRule, EvidenceSelector
from engine.domain.facts import FactKind
from engine.domain.models import MAX_LIST, SourceRecordKind
from engine.ports import GraphStore
from resolvers.costs import BY_DATA, CHARGES, DEFAULT_BOUND
from tests.conftest import new_org
from tests.helpers import load, rel, subject
from tests.reads import SCHEMA, Counted, charge, cost, run
from tests.test_graph_contract_details import episode, record

HUB = "service:hub"
SPOKES = [f"service:d{i:02d}" for i in range(MAX_LIST)]
WINDOW = 'window: {from: "2025-12-01T00:00:00Z", to: "2026-02-01T00:00:00Z"}'


def _story() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [subject(HUB, "hub")]
    # Named alike, so a search for "deadbeef" fills both arms, and no handle is "deadbeef".
    rows += [subject(k, f"deadbeef {k[-2:]}") for k in SPOKES]
    rows += [rel("DEPENDS_ON", HUB, k) for k in SPOKES[:12]]
    # Relationships from three subjects to one: each names a subject of its own.
    rows += [rel("DEPENDS_ON", k, SPOKES[30]) for k in SPOKES[20:23]]
    rows += [episode(f"episode:{i:02d}", f"2026-01-{1 + i:02d}", HUB) for i in range(12)]
    # The newest episode names as many subjects as an episode may.
    rows.append(episode("episode:zz", "2026-01-30", HUB, *SPOKES[1:]))
    rows += [record(f"r:{i:02d}", HUB, f"2026-01-{1 + i:02d}") for i in range(12)]
    return rows


@pytest.fixture(scope="module")
async def org(falkor: GraphStore) -> str:
    org_id = new_org()
    await falkor.bootstrap(org_id)
    assert (await load(falkor.org(org_id), _story())).ok
    return org_id


def _on_hub(selection: str) -> str:
    return f'{{ subject(key: "{HUB}") {{ {selection} }} }}'


# (the field, a query asking it at its worst, the fields whose charges add up to what the
# query reads: the field and the parents it is reached through, each returning one object)
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    (
        "Subject.relationships",
        _on_hub("relationships(first: 5) { edges { node { type } } }"),
        ("Query.subject",),
    ),
    (
        "RelationshipConnection.totalCount",
        _on_hub("relationships(first: 0) { totalCount }"),
        ("Query.subject", "Subject.relationships"),
    ),
    ("Subject.neighbors", _on_hub("neighbors(first: 5) { key }"), ("Query.subject",)),
    (
        "Subject.episodes",
        _on_hub("episodes(first: 5) { edges { node { key } } }"),
        ("Query.subject",),
    ),
    (
        "EpisodeConnection.totalCount",
        _on_hub("episodes(first: 0) { totalCount }"),
        ("Query.subject", "Subject.episodes"),
    ),
    (
        "Subject.sourceRecords",
        _on_hub(f"sourceRecords({WINDOW}, first: 5) {{ key }}"),
        ("Query.subject",),
    ),
    ("Query.subjects", "{ subjects(first: 5) { edges { node { key } } } }", ()),
    ("SubjectConnection.totalCount", "{ subjects(first: 0) { totalCount } }", ("Query.subjects",)),
    (
        # At a time of its own, so no subject is one the request read already.
        "Episode.mentions",
        _on_hub(
            "episodes(first: 1) { edges { node { "
            'mentions(asOf: "2026-01-30T12:00:00Z") { key } } } }'
        ),
        ("Query.subject", "Subject.episodes"),
    ),
    (
        # Twelve days, each with one of the hub's incidents: every bucket is a row.
        "Subject.activity",
        _on_hub(
            "activity(metric: INCIDENTS_STARTED, "
            'window: {from: "2026-01-01T00:00:00Z", to: "2026-01-12T00:00:00Z"}) '
            "{ total points { start count } }"
        ),
        ("Query.subject",),
    ),
    ("Query.search", '{ search(query: "deadbeef", first: 5) { subject { key } } }', ()),
    (
        "Query.resolveReference",
        '{ resolveReference(ref: "deadbeef", limit: 5) { __typename } }',
        (),
    ),
    (
        "Query._entities",
        '{ _entities(representations: [{__typename: "Subject", key: "service:d00"}, '
        '{__typename: "Subject", key: "service:d01"}]) { ... on Subject { key } } }',
        (),
    ),
]


@pytest.mark.parametrize(("coordinate", "query", "parents"), CASES, ids=[c[0] for c in CASES])
async def test_a_field_at_its_worst_reads_exactly_its_charge(
    falkor: GraphStore, org: str, coordinate: str, query: str, parents: tuple[str, ...]
) -> None:
    graph = Counted(falkor.org(org))
    await run(graph, org, query)
    charged = sum(charge(query, c).reads for c in (*parents, coordinate))
    assert graph.total == charged, graph.rows
    assert cost(query) >= graph.total


async def test_resolving_reads_its_worst_case_at_every_limit(falkor: GraphStore, org: str) -> None:
    for limit in (1, 20, 30, 50):
        graph = Counted(falkor.org(org))
        query = f'{{ resolveReference(ref: "deadbeef", limit: {limit}) {{ __typename }} }}'
        await run(graph, org, query)
        # The arms read max(limit, 20) each: at 30 and 50 the data runs out first (64 alike).
        assert graph.rows["search_all_tokens"] == 51 and "subjects_by_id_prefix" not in graph.rows
        assert graph.total <= charge(query, "Query.resolveReference").reads
        if limit <= 20:
            assert graph.total == charge(query, "Query.resolveReference").reads


async def test_nodes_read_two_rows_per_relationship_id(falkor: GraphStore, org: str) -> None:
    graph = Counted(falkor.org(org))
    query = f'{{ subject(key: "{SPOKES[30]}") {{ relationships(first: 3) {{ edges {{ node {{ id }} }} }} }} }}'
    listed = await run(graph, org, query)
    ids = [e["node"]["id"] for e in listed["subject"]["relationships"]["edges"]]
    graph = Counted(falkor.org(org))
    query = "query($ids: [ID!]!) { nodes(ids: $ids) { id } }"
    found = await run(graph, org, query, {"ids": ids})
    assert [n["id"] for n in found["nodes"]] == ids
    assert graph.total == charge(query, "Query.nodes", {"ids": ids}).reads == 2 * len(ids)


async def test_investigations_read_one_more_than_the_page(falkor: GraphStore, org: str) -> None:
    results = falkor.org(org).results
    for i in range(4):
        result = contract.InvestigationResult(
            id=f"res-{i}", org_id=org, actor="reader", question=f"q{i}",
            created_at=datetime(2026, 1, 1 + i, tzinfo=UTC), time_context=contract.TimeContext(),
            outcome=contract.Outcome.NO_MATCH,
            versions=contract.Versions(projection="p", embedder="e"),
        )  # fmt: skip
        await results.save(result.id, result.model_dump_json(), created_ns=i + 1,
                           subject_keys=[], reuse_key=None, outcome="no_match")  # fmt: skip
    for first in (None, 2, 4):
        graph = Counted(falkor.org(org))
        size = "" if first is None else f"(first: {first})"
        query = f"{{ investigations{size} {{ hasNextPage edges {{ cursor }} }} }}"
        found = await run(graph, org, query)
        assert found["investigations"]["hasNextPage"] is (first == 2)
        charged = charge(query, "Query.investigations")
        assert charged.page == (20 if first is None else first)  # the resolver's default
        assert graph.total == min(charged.reads, 4)


@pytest.mark.parametrize("first", [0, 1, 11, 12, 13, 50])
async def test_connections_and_lists_read_their_page_and_no_more(
    falkor: GraphStore, org: str, first: int
) -> None:
    """12 of each on the hub: a connection reads first + 1 (the row telling hasNextPage), a
    list its page; never past what there is."""
    for selection, method, extra in [
        (f"relationships(first: {first}) {{ pageInfo {{ hasNextPage }} }}", "edges", 1),
        (f"episodes(first: {first}) {{ pageInfo {{ hasNextPage }} }}", "episodes", 1),
        (f"neighbors(first: {first}) {{ key }}", "neighbors", 0),
        (f"sourceRecords({WINDOW}, first: {first}) {{ key }}", "source_record_pages", 0),
    ]:
        graph = Counted(falkor.org(org))
        await run(graph, org, _on_hub(selection))
        held = 13 if method == "episodes" else 12
        assert graph.rows[method] == min(first + extra, held), (selection, graph.rows)


async def _claim(falkor: GraphStore, org: str, result_id: str) -> None:
    """A saved result claiming a fact that rests on the hub's 12 records of January."""
    start, end = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)
    selector = EvidenceSelector(subject_key=HUB, record_kinds=(SourceRecordKind.INCIDENT,),
                                start=start, end=end, rule=EvidenceRule.STARTED)  # fmt: skip
    claim = contract.ClaimedFact(
        id="claim-1", fact_id="fact-1", kind=FactKind.INCIDENT_COUNT, subject_key=HUB,
        value={"count": 12}, window_start=start, window_end=end, evidence_total=12,
        evidence_selector=selector,
    )  # fmt: skip
    result = contract.InvestigationResult(
        id=result_id, org_id=org, actor="reader", question="incidents?",
        created_at=datetime(2026, 2, 1, tzinfo=UTC), time_context=contract.TimeContext(),
        outcome=contract.Outcome.NO_MATCH, claimed_facts=(claim,),
        versions=contract.Versions(projection="p", embedder="e"),
    )  # fmt: skip
    await falkor.org(org).results.save(result_id, result.model_dump_json(), created_ns=1,
                                       subject_keys=[HUB], reuse_key=None, outcome="no_match")  # fmt: skip


@pytest.mark.parametrize("first", [0, 5, 11, 12, None])
async def test_a_facts_evidence_reads_its_page_in_the_store(
    falkor: GraphStore, org: str, first: int | None
) -> None:
    await _claim(falkor, org, f"evidence-{first}")
    size = "" if first is None else f"first: {first}"
    page = f"evidence{'(' + size + ')' if size else ''} {{ edges {{ node {{ key }} }} }}"
    query = f'{{ investigation(id: "evidence-{first}") {{ claimedFacts {{ {page} }} }} }}'
    graph = Counted(falkor.org(org))
    found = await run(graph, org, query)
    (claim,) = found["investigation"]["claimedFacts"]
    charged = charge(query, "ClaimedFact.evidence")
    assert len(claim["evidence"]["edges"]) == min(charged.page or 0, 12)
    assert graph.rows["source_records_of"] == 0  # never the whole window
    assert graph.rows["evidence_pages"] == min(charged.reads, 12)  # first + 1, as charged
    # totalCount: one count row, charged once per connection; the pages add up to it.
    graph = Counted(falkor.org(org))
    query = f'{{ investigation(id: "evidence-{first}") {{ claimedFacts {{ evidence {{ totalCount }} }} }} }}'
    found = await run(graph, org, query)
    assert found["investigation"]["claimedFacts"][0]["evidence"]["totalCount"] == 12
    assert graph.rows["evidence_counts"] == charge(query, "EvidenceConnection.totalCount").reads


@pytest.mark.parametrize(
    ("bucket", "window", "points"),
    [
        ("DAY", None, 31),
        ("WEEK", None, 6),
        ("DAY", ("2025-12-01T00:00:00Z", "2026-02-01T00:00:00Z"), 63),
        ("WEEK", ("2025-12-01T00:00:00Z", "2026-02-01T00:00:00Z"), 9),
    ],
)
async def test_a_series_reads_a_row_per_bucket_and_returns_what_is_charged(
    falkor: GraphStore, org: str, bucket: str, window: tuple[str, str] | None, points: int
) -> None:
    """The hub's 12 incidents of January: never a row per record, and `points` is the count
    the limiter charged (the default window's worst case: 31 days, 6 weeks)."""
    span = f', window: {{from: "{window[0]}", to: "{window[1]}"}}' if window else ""
    query = _on_hub(
        f"activity(metric: INCIDENTS_STARTED, bucket: {bucket}{span}) {{ points {{ count }} }}"
    )
    graph = Counted(falkor.org(org))
    found = await run(graph, org, query)
    shown = found["subject"]["activity"]["points"]
    charged = charge(query, "Subject.activity")
    assert graph.rows["series"] <= charged.reads and graph.rows["source_records_of"] == 0
    if window:
        assert len(shown) == charged.page == points
        assert sum(p["count"] for p in shown) == 12
        assert graph.rows["series"] == (12 if bucket == "DAY" else 3)  # weeks of Dec 29 to Jan 12
    else:
        assert len(shown) <= charged.page == points


def test_every_list_field_of_the_schema_is_charged_by_a_stated_rule() -> None:
    """A list of objects or a connection added later must say what it reads: a rule of its own
    (CHARGES), the page rule (`first`, or its connection's or series' page), or why the
    default bounds it (DEFAULT_BOUND) or cannot (BY_DATA, documented)."""
    schema = SCHEMA._schema
    lists: set[str] = set()
    paged: set[str] = set()
    for name, type_ in schema.type_map.items():
        if name.startswith("__") or not isinstance(type_, graphql.GraphQLObjectType):
            continue
        for field_name, field in type_.fields.items():
            named = graphql.get_named_type(field.type)
            connection = isinstance(named, graphql.GraphQLObjectType) and "edges" in named.fields
            nullable = graphql.get_nullable_type(field.type)
            listed = graphql.is_list_type(nullable) and graphql.is_composite_type(named)
            if connection or listed:
                lists.add(f"{name}.{field_name}")
                if "first" in field.args or name.endswith("Connection") or name == "TimeSeries":
                    paged.add(f"{name}.{field_name}")
    stated = set(CHARGES) | set(DEFAULT_BOUND) | set(BY_DATA)
    assert lists - paged - stated == set()
    assert not set(DEFAULT_BOUND) & set(CHARGES) and not set(BY_DATA) & set(CHARGES)
    assert (set(DEFAULT_BOUND) | set(BY_DATA)) <= lists  # no stale entries
