"""The Cypher adapters' vector arm across processes: vectors carry their embedder's identity,
and a store configured with another embedder turns the arm off (and says so) until reembed."""

from __future__ import annotations

from engine.domain.embedding import HashingEmbedder
from engine.resolving.resolution import NotFound, Resolver
from engine.resolving.ring import ReferenceRing
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.helpers import load, subject
from tests.test_resolution import STORY


async def test_another_embedder_turns_the_vector_arm_off_until_reembed(
    falkor_server: EmbeddedServer,
) -> None:
    search_store = FalkorStore(falkor_server.url, embedder=HashingEmbedder(128))
    org = new_org()
    await search_store.bootstrap(org)
    assert (await load(search_store.org(org), STORY)).ok
    assert (await search_store.org(org).search.vector_status()).enabled
    narrower = FalkorStore(falkor_server.url, embedder=HashingEmbedder(64))
    try:
        graph = narrower.org(org)
        status = await graph.search.vector_status()
        assert not status.enabled and status.reason == "identity_changed"
        assert await graph.search_similar("payments", [], 5, 0.0) is None
        # Lexical search still answers; nothing is mixed.
        outcome = await Resolver(graph, ReferenceRing(), org).resolve("me", "zzqx vvkw")
        assert isinstance(outcome, NotFound) and outcome.notes == ("vector_arm_disabled",)
        assert await graph.reembed() == len(STORY)
        assert (await graph.search.vector_status()).enabled
        hits = await graph.search_similar("payments api", [], 5, 0.3)
        assert hits and hits[0][0].key == "repository:payments-api"
        # The first store's process-local view learns of the change on its next status read.
        search_store.org(org).search._status = None
        assert (await search_store.org(org).search.vector_status()).reason == "identity_changed"
    finally:
        await narrower.close()
        await search_store.drop_org(org)
        await search_store.close()


async def test_a_subject_written_again_stores_the_vector_of_its_new_text(
    falkor_server: EmbeddedServer,
) -> None:
    # FalkorDB leaves a vector property as it was when SET gives it another vector: the
    # write removes it first (graph.cypher.search.merge_subject_vectors).
    embedder = HashingEmbedder(128)
    store = FalkorStore(falkor_server.url, embedder=embedder)
    org = new_org()
    await store.bootstrap(org)
    try:
        graph = store.org(org)
        await load(graph, [subject("repository:api", "api")])
        await load(graph, [subject("repository:api", "payments gateway")])
        found = await graph._read(
            "MATCH (s:Subject {org_id: $org, key: 'repository:api'}) "
            "RETURN s.search_text, properties(s)"
        )
        text, props = found[0]
        assert "payments gateway" in text
        wanted = (await embedder.embed([text]))[0]
        # As stored: rounded to the parameter's precision (graph.search.vector_rows).
        assert max(abs(a - float(b)) for a, b in zip(props["embedding"], wanted, strict=True)) < 1e-3
    finally:
        await store.drop_org(org)
        await store.close()
