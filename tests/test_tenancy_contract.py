"""Contract cases that only show on a shared production store, run on every backend: two
organisations of very different sizes searched side by side, writes far longer than the
read time limit, and two gateways bootstrapping and writing one organisation at once.

They run on the Cypher stores (`cypher_store`), with the local embedder. On FalkorDB each
organisation is a graph of its own and they pass by construction; on Neo4j
(FABRIC_TEST_NEO4J_URI) one database, one full-text and one vector index serve everyone, so
they check the per-organisation search, the write path without a statement limit, and the
uniqueness constraints (docs/operations.md, "Neo4j").
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.domain.embedding import HashingEmbedder
from engine.domain.models import SourceRecord, SourceRecordKind, Subject
from engine.domain.text import search_text
from engine.ports import GraphStore, SubjectQuery, WriteBatch
from tests.conftest import CONTRACT_EXACT_LIMIT, new_org, open_backend
from tests.helpers import load, rel, subject

LARGE = 1_200  # beyond CONTRACT_EXACT_LIMIT: Neo4j searches it through its vector index
SMALL = 12
TEXT = "payments ledger"


def _param(request: pytest.FixtureRequest) -> str:
    backend: str = request.node.callspec.params["cypher_store"]
    return backend


def open_like(request: pytest.FixtureRequest, **options: Any) -> Any:
    """Another store on the backend under test (another gateway process, say)."""
    return open_backend(_param(request), request, HashingEmbedder(128), **options)


@pytest.fixture
async def embedded(
    cypher_store: GraphStore, request: pytest.FixtureRequest
) -> AsyncIterator[GraphStore]:
    """The backend under test with the local embedder, as `fabric serve` runs it."""
    opened = open_like(request)
    yield opened
    await opened.close()


@pytest.fixture
async def two_orgs(embedded: GraphStore) -> AsyncIterator[tuple[str, str]]:
    """A large and a small organisation whose subjects have the same names."""
    store = embedded
    large, small = new_org(), new_org()
    for org_id, count, tag in ((large, LARGE, "big"), (small, SMALL, "small")):
        await store.bootstrap(org_id)
        records = [subject(f"service:{tag}-{i}", f"{TEXT} {i}") for i in range(count)]
        report = await load(store.org(org_id), records, batch_size=LARGE)
        assert report.ok and report.accepted == count
    assert LARGE > CONTRACT_EXACT_LIMIT >= SMALL
    yield large, small
    for org_id in (large, small):
        await store.drop_org(org_id)


async def test_each_organisation_searches_its_own_subjects_beside_a_larger_one(
    embedded: GraphStore, two_orgs: tuple[str, str]
) -> None:
    store = embedded
    large, small = two_orgs
    for org_id, tag, size in ((small, "small", SMALL), (large, "big", LARGE)):
        graph = store.org(org_id)
        own = f"service:{tag}-"
        # Lexical: the organisation's best matches, never another's, as many as asked for.
        hits = await graph.search_lexical(TEXT, [], 10)
        assert len(hits) == 10 and all(s.key.startswith(own) for s, _ in hits)
        every, complete = await graph.search_all_tokens(TEXT, [], SMALL + 5)
        assert all(s.key.startswith(own) for s, _ in every)
        assert (len(every), complete) == ((SMALL, True) if size == SMALL else (SMALL + 5, False))
        # Vector: as many as asked for above a low floor (an index shared by everyone, asked
        # for a fixed k and filtered afterwards, returned the other organisation's).
        similar = await graph.search_similar(TEXT, [], 10, 0.0)
        assert similar is not None
        assert len(similar) == 10 and all(s.key.startswith(own) for s, _ in similar)
        # An identical text is found first, with the similarity of identical vectors (no
        # quantisation between the vector and the floor).
        exact = await graph.search_similar(search_text("service", f"{TEXT} 7", [], []), [], 3, 0.5)
        assert exact is not None and exact[0][0].key == f"{own}7"
        assert exact[0][1] == pytest.approx(1.0, abs=1e-3)


async def test_writes_are_not_held_to_the_read_time_limit(
    cypher_store: GraphStore, request: pytest.FixtureRequest
) -> None:
    """A millisecond read limit: a 5,000-subject batch and the cleanup of all of it still run
    to the end (they are never cut off half applied)."""
    store, org = cypher_store, new_org()
    tight = open_backend(_param(request), request, timeout_s=0.001)
    try:
        await tight.bootstrap(org)
        subjects = [
            Subject(key=f"service:s{i}", kind="service", name=f"service number {i}")
            for i in range(5_000)
        ]
        batch = WriteBatch(source="bulk", run_id="run-1", elements=list(subjects))
        await tight.org(org).write(batch)
        assert await store.org(org).count_subjects(SubjectQuery()) == 5_000
        # The next complete run saw none of them: all are deleted, in batches.
        assert await tight.org(org).delete_unseen("bulk", "run-2") == 5_000
        assert await store.org(org).count_subjects(SubjectQuery(include_stubs=True)) == 0
    finally:
        await store.drop_org(org)
        await tight.close()


async def test_the_cleanup_of_source_records_is_not_held_to_the_read_time_limit(
    cypher_store: GraphStore, request: pytest.FixtureRequest
) -> None:
    """The cleanup finds the unseen records by a read; under a millisecond limit that read
    of 20,000 records was cut off ('Query timed out') and the cleanup failed half done."""
    store, org = cypher_store, new_org()
    tight = open_backend(_param(request), request, timeout_s=0.001)
    try:
        await tight.bootstrap(org)
        start = datetime(2026, 1, 1, tzinfo=UTC)
        records = [
            SourceRecord(key=f"deploy:d{i}", record_kind=SourceRecordKind.DEPLOY,
                         subject=f"service:s{i % 50}", start=start + timedelta(minutes=i))
            for i in range(20_000)
        ]  # fmt: skip
        await tight.org(org).write(WriteBatch(source="bulk", run_id="run-1", elements=records))
        assert await tight.org(org).delete_unseen("bulk", "run-2") == 20_000
        assert await store.org(org).source_records_by_keys(["deploy:d0", "deploy:d19999"]) == {}
    finally:
        await store.drop_org(org)
        await tight.close()


async def test_two_gateways_bootstrapping_and_writing_one_organisation_agree(
    cypher_store: GraphStore, request: pytest.FixtureRequest
) -> None:
    """Two processes' stores on a fresh organisation at once: every merged node exists once
    (subjects, relationships' stubs, the embedding stamp, the projection epoch) and both read
    the same shared secret.

    Neo4j only: FalkorDB matches a MERGE's pattern before it takes the graph's write lock, so
    two connections merging the same relationships or singleton at once can each create it
    (seen here: a batch of 50 relationships, or a second embedding stamp, about one run in
    six). Reported on issue 19; FalkorDB's behaviour is left as it is."""
    store = cypher_store
    if _param(request) == "falkordb":
        pytest.skip("FalkorDB's MERGE is not atomic across connections (see the docstring)")
    org_id = new_org()
    first, second = open_like(request), open_like(request)
    records: list[dict[str, Any]] = [subject(f"service:c{i}", f"shared {i}") for i in range(200)]
    records += [rel("DEPENDS_ON", f"service:c{i}", f"team:t{i % 7}") for i in range(200)]
    try:
        await asyncio.gather(first.bootstrap(org_id), second.bootstrap(org_id))
        name = f"contract-{uuid.uuid4().hex}"
        secrets = await asyncio.gather(first.keys.secret(name), second.keys.secret(name))
        assert secrets[0] == secrets[1]
        reports = await asyncio.gather(
            load(first.org(org_id), records, batch_size=50),
            load(second.org(org_id), records, batch_size=50),
        )
        assert all(r.ok for r in reports)
        await asyncio.gather(
            first.org(org_id).results.touch_projection_epoch(1),
            second.org(org_id).results.touch_projection_epoch(2),
        )
        fingerprint = await store.org(org_id).fingerprint()
        assert fingerprint.duplicates == 0
        assert fingerprint.nodes["Subject"] == 207  # 200 services and 7 team stubs
        assert fingerprint.relationships == {"DEPENDS_ON": 200}
        counts = await store.org(org_id).counts()
        assert counts["EmbeddingMeta"] == 1 and counts["ProjectionEpoch"] == 1
    finally:
        await store.drop_org(org_id)
        await asyncio.gather(first.close(), second.close())
