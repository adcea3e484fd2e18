"""Reference resolution: the four stages and the confidence gates.

On the in-memory graph (engine.memory), so no database runs: resolution is engine logic, and
the search arms it reads are held to one contract on every backend
(tests/test_graph_contract.py); tests/test_resolution_api.py resolves over FalkorDB and HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import gates
from engine.embedding import HashingEmbedder
from engine.memory import MemoryStore
from engine.models import StoredSubject, SubjectKind
from engine.resolution import (
    Ambiguous,
    Candidate,
    NotFound,
    Resolved,
    Resolver,
    Stage,
    decide,
)
from engine.ring import ReferenceRing, RingEntry
from tests.conftest import new_org
from tests.helpers import load, subject


@pytest.fixture(scope="session")
async def search_store() -> AsyncIterator[MemoryStore]:
    store = MemoryStore(embedder=HashingEmbedder(128))
    yield store
    await store.close()


async def _resolver(store: MemoryStore, records: list[dict[str, Any]]) -> Resolver:
    org = new_org()
    await store.bootstrap(org)
    report = await load(store.org(org), records)
    assert report.ok
    return Resolver(store.org(org), ReferenceRing(), org)


STORY = [
    subject("repository:payments-api", "payments-api", aliases=["payments", "pay-api"]),
    subject(
        "repository:checkout-web",
        "checkout-web",
        previous_names=["shop-frontend"],
        aliases=["checkout"],
    ),
    subject("repository:customer-identity-service", "customer-identity-service", aliases=["CIS"]),
    subject("repository:ledger-core", "ledger-core", previous_names=["ledger"]),
    subject("repository:inventory-sync", "inventory-sync"),
    subject("team:payments", "Payments", aliases=["Payments Team"]),
    subject("person:alex-kim", "Alex Kim", aliases=["Alex"]),
    subject("person:alex-romero", "Alex Romero", aliases=["Alex"]),
]


async def test_full_id_and_key_pass_through_and_a_miss_is_not_found(
    search_store: MemoryStore,
) -> None:
    resolver = await _resolver(search_store, STORY)
    api = (await resolver.directory.subjects_by_keys(["repository:payments-api"]))[
        "repository:payments-api"
    ]
    by_id = await resolver.resolve("me", api.id)
    assert isinstance(by_id, Resolved) and by_id.subject.key == api.key
    assert by_id.stage is Stage.ID and by_id.confidence == 1.0
    by_prefix = await resolver.resolve("me", api.id[:8])
    assert isinstance(by_prefix, Resolved) and by_prefix.subject.key == api.key
    by_key = await resolver.resolve("me", "repository:payments-api")
    assert isinstance(by_key, Resolved) and by_key.stage is Stage.ID
    for missing in ("00000000-0000-4000-8000-000000000000", "deadbeef", "repository:nope"):
        outcome = await resolver.resolve("me", missing)
        assert isinstance(outcome, NotFound) and outcome.stage is Stage.ID


async def test_ring_exact_match_ambiguity_and_actor_isolation(search_store: MemoryStore) -> None:
    resolver = await _resolver(search_store, STORY)
    ring, org = resolver.ring, resolver.org_id
    ring.admit(org, "alice", RingEntry("repository:inventory-sync", "inventory-sync", "repository"))
    outcome = await resolver.resolve("alice", "INVENTORY-SYNC")
    assert isinstance(outcome, Resolved) and outcome.stage is Stage.RING
    assert outcome.confidence == gates.RING_EXACT_CONFIDENCE
    ring.admit(org, "alice", RingEntry("person:alex-kim", "Alex Kim", "person"))
    ring.admit(org, "alice", RingEntry("person:alex-romero", "Alex Romero", "person"))
    two = await resolver.resolve("alice", "alex")
    assert isinstance(two, Ambiguous) and two.stage is Stage.RING
    assert {c.subject.key for c in two.candidates} == {"person:alex-kim", "person:alex-romero"}
    # Another actor never sees alice's ring: "inventory" is only a substring there.
    bob = await resolver.resolve("bob", "inventory")
    assert not (isinstance(bob, Resolved) and bob.stage is Stage.RING)


async def test_exact_name_survives_many_newer_case_variants(search_store: MemoryStore) -> None:
    decoys = [subject(f"repository:decoy-{i}", "ROLORA" if i % 2 else "rolora") for i in range(120)]
    resolver = await _resolver(search_store, [subject("repository:target", "RoLoRA"), *decoys])
    outcome = await resolver.resolve("me", "RoLoRA")
    assert isinstance(outcome, Resolved) and outcome.subject.key == "repository:target"
    assert outcome.stage is Stage.EXACT_NAME
    assert outcome.confidence == gates.EXACT_NAME_CONFIDENCE


async def test_identical_names_stay_ambiguous_from_the_storage_total(
    search_store: MemoryStore,
) -> None:
    resolver = await _resolver(search_store, [subject(f"service:s{i}", "Same") for i in range(11)])
    outcome = await resolver.resolve("me", "Same")
    assert isinstance(outcome, Ambiguous) and outcome.stage is Stage.EXACT_NAME
    assert outcome.total == 11 and len(outcome.candidates) == 10


async def test_exact_name_beats_strong_hybrid_competitors_at_limit_one(
    search_store: MemoryStore,
) -> None:
    competitors = [subject(f"project:adr-040-{i}", f"ADR-040 follow-up {i}") for i in range(12)]
    resolver = await _resolver(search_store, [subject("project:adr", "ADR-040"), *competitors])
    outcome = await resolver.resolve("me", "ADR-040", limit=1)
    assert isinstance(outcome, Resolved) and outcome.subject.key == "project:adr"
    assert outcome.stage is Stage.EXACT_NAME


async def test_non_exact_ambiguity_is_bounded_to_the_limit(search_store: MemoryStore) -> None:
    similar = [
        subject(f"service:billing-{n}", f"billing {n}")
        for n in (
            "alpha",
            "beta",
            "gamma",
            "delta",
            "epsilon",
            "zeta",
            "eta",
            "theta",
            "iota",
            "kappa",
            "lambda",
            "mu",
        )
    ]
    resolver = await _resolver(search_store, similar)
    outcome = await resolver.resolve("me", "billing", limit=3)
    assert isinstance(outcome, Ambiguous) and outcome.stage is Stage.HYBRID
    assert len(outcome.candidates) == 3 and (outcome.total or 0) >= 12


async def test_handles_typos_and_kinds(search_store: MemoryStore) -> None:
    resolver = await _resolver(search_store, STORY)
    cases: list[tuple[str, SubjectKind | None, str]] = [
        ("shop-frontend", None, "repository:checkout-web"),  # a previous name
        ("CIS", None, "repository:customer-identity-service"),  # an acronym alias
        ("pay-api", None, "repository:payments-api"),  # an alias
        ("ledger", SubjectKind.REPOSITORY, "repository:ledger-core"),
        ("paymnets-api", SubjectKind.REPOSITORY, "repository:payments-api"),  # a typo
        ("payments", SubjectKind.REPOSITORY, "repository:payments-api"),  # kind decides
        ("customer identity", SubjectKind.REPOSITORY, "repository:customer-identity-service"),
    ]
    for reference, kind, key in cases:
        outcome = await resolver.resolve("me", reference, kind)
        assert isinstance(outcome, Resolved), (reference, outcome)
        assert outcome.subject.key == key, reference


async def test_two_alexes_and_payments_without_kind_are_never_a_guess(
    search_store: MemoryStore,
) -> None:
    resolver = await _resolver(search_store, STORY)
    alex = await resolver.resolve("me", "Alex")
    assert isinstance(alex, Ambiguous)
    assert {c.subject.key for c in alex.candidates} >= {"person:alex-kim", "person:alex-romero"}
    payments = await resolver.resolve("me", "payments")
    assert isinstance(payments, Ambiguous)
    assert {c.subject.key for c in payments.candidates} >= {
        "repository:payments-api",
        "team:payments",
    }


async def test_garbage_is_not_found_and_other_organisations_are_invisible(
    search_store: MemoryStore,
) -> None:
    resolver = await _resolver(search_store, STORY)
    for garbage in ("zzqx vvkw", "!!!", "   ", "x" * 500):
        assert isinstance(await resolver.resolve("me", garbage), NotFound), garbage
    other = await _resolver(search_store, [subject("repository:other", "other")])
    for reference in ("payments-api", "repository:payments-api", "shop-frontend"):
        assert isinstance(await other.resolve("me", reference), NotFound), reference


def _subject(n: int) -> StoredSubject:
    return StoredSubject.model_construct(
        key=f"team:t{n}",
        name=f"t{n}",
        kind=SubjectKind.TEAM,
        id=str(n),
        aliases=[],
        previous_names=[],
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 1), st.booleans(), st.booleans(), st.floats(0, 1)),
        min_size=1,
        max_size=8,
    )
)
def test_a_vector_only_candidate_never_commits(arms: list[tuple[float, bool, bool, float]]) -> None:
    from engine.resolution import confidence

    candidates = []
    for n, (similarity, lexical, exact, handle_score) in enumerate(arms):
        score = confidence(
            lexical, similarity if not lexical or n % 2 else None, handle_score, exact and lexical
        )
        candidates.append(
            Candidate(
                _subject(n),
                score,
                lexical_rank=1 if lexical else None,
                vector_similarity=similarity,
                exact=exact and lexical,
            )
        )
    candidates.sort(key=lambda c: -c.score)
    outcome = decide(candidates, limit=5)
    if isinstance(outcome, Resolved):
        chosen = next(c for c in candidates if c.subject.key == outcome.subject.key)
        assert chosen.lexical_rank is not None, "a vector-only hit committed"
    assert gates.VECTOR_CEILING < gates.LONE_COMMIT <= gates.TOP_COMMIT
    assert gates.CORROBORATED_CEILING < gates.TOP_COMMIT


async def test_a_genuine_tie_and_an_identifying_attribute(search_store: MemoryStore) -> None:
    resolver = await _resolver(search_store, [
        subject("service:a", "Gateway"), subject("service:b", "Gateway"),
        subject("person:kim", "Kim Lee", attributes={"email": "kim.lee@example.com"}),
    ])
    tie = await resolver.resolve("me", "Gateway")
    assert isinstance(tie, Ambiguous) and {c.subject.key for c in tie.candidates} == {
        "service:a", "service:b"}
    by_email = await resolver.resolve("me", "kim.lee@example.com")
    assert isinstance(by_email, Resolved) and by_email.subject.key == "person:kim"
