"""Reference resolution: the stages, the gates, recent references, and the hard references
people really type (case, accents, typos across spaces, numeric handles, shared first names).

Each test runs on the in-memory graph (engine.memory) and on FalkorDB: the rules are engine
logic, and what they read must behave the same on every backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.domain import gates
from engine.domain.embedding import HashingEmbedder
from engine.domain.models import StoredSubject, SubjectKind
from engine.memory import MemoryStore
from engine.ports import GraphStore
from engine.resolving.resolution import (
    Ambiguous,
    Match,
    NotFound,
    Resolved,
    Resolver,
    Stage,
    decide,
    rank,
)
from engine.resolving.ring import ReferenceRing, RingEntry
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.helpers import load, subject


@pytest.fixture(scope="session", params=["memory", "falkordb"])
async def search_store(
    request: pytest.FixtureRequest, falkor_server: EmbeddedServer
) -> AsyncIterator[GraphStore]:
    store: GraphStore
    if request.param == "memory":
        store = MemoryStore(embedder=HashingEmbedder(128))
    else:
        store = FalkorStore(falkor_server.url, embedder=HashingEmbedder(128))
    yield store
    await store.close()


async def _resolver(store: GraphStore, records: list[dict[str, Any]]) -> Resolver:
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


async def test_ids_keys_and_id_prefixes_pass_through_and_a_miss_is_not_found(
    search_store: GraphStore,
) -> None:
    resolver = await _resolver(search_store, STORY)
    api = (await resolver.directory.subjects_by_keys(["repository:payments-api"]))[
        "repository:payments-api"
    ]
    by_id = await resolver.resolve("me", api.id)
    assert isinstance(by_id, Resolved) and by_id.subject.key == api.key
    assert by_id.stage is Stage.ID and by_id.confidence == 1.0 and by_id.how is Match.ID
    by_prefix = await resolver.resolve("me", api.id[:9])  # written past its first hyphen
    assert isinstance(by_prefix, Resolved) and by_prefix.subject.key == api.key
    by_key = await resolver.resolve("me", "repository:payments-api")
    assert isinstance(by_key, Resolved) and by_key.stage is Stage.ID
    for missing in ("00000000-0000-4000-8000-000000000000", "repository:nope"):
        outcome = await resolver.resolve("me", missing)
        assert isinstance(outcome, NotFound) and outcome.stage is Stage.ID, missing
    wrong_kind = await resolver.resolve("me", "repository:payments-api", [SubjectKind.TEAM])
    assert isinstance(wrong_kind, NotFound) and wrong_kind.stage is Stage.ID


async def test_numeric_and_hex_handles_are_names_not_ids(search_store: GraphStore) -> None:
    # Before: an 8+ hex-character string was taken for an id prefix, NotFound at stage ID.
    resolver = await _resolver(search_store, [
        subject("person:ana", "Ana Lima", aliases=["2601677867"]),
        subject("person:bo", "Bo Ek", attributes={"login": "deadbeef42"}),
        subject("person:cy", "Cy Young"),
    ])
    for handle, key in (("2601677867", "person:ana"), ("deadbeef42", "person:bo")):
        outcome = await resolver.resolve("me", handle)
        assert isinstance(outcome, Resolved) and outcome.subject.key == key, outcome
        assert outcome.stage is Stage.EXACT_NAME and outcome.matched_name == handle
    absent = await resolver.resolve("me", "deadbeef")
    assert isinstance(absent, NotFound) and absent.stage is not Stage.ID


async def test_a_recent_reference_never_commits_by_substring(search_store: GraphStore) -> None:
    """One actor asking related references in sequence: before, the ring matched substrings
    either way at the commit bar, ahead of the exact stage, and answered the previous one."""
    resolver = await _resolver(search_store, [
        subject("repository:payments-api", "payments-api"),
        subject("repository:payments-api-v2", "payments-api-v2"),
        subject("repository:api-gateway", "api-gateway"),
        subject("repository:pay-portal", "pay-portal"),
        subject("person:erik", "Erik"),
        subject("person:erik-wrede", "Erik Wrede"),
        subject("module:cli", "cli"),
        subject("module:llm-client", "llm_client"),
        subject("module:http", "http"),
        subject("module:aiohttp", "aiohttp"),
    ])
    sequence = [
        ("payments-api", "repository:payments-api"),
        ("payments-api-v2", "repository:payments-api-v2"),
        ("Erik", "person:erik"),
        ("Erik Wrede", "person:erik-wrede"),
        ("cli", "module:cli"),
        ("llm_client", "module:llm-client"),
        ("http", "module:http"),
        ("aiohttp", "module:aiohttp"),
    ]
    for ref, key in sequence:
        outcome = await resolver.resolve("agent", ref)
        assert isinstance(outcome, Resolved) and outcome.subject.key == key, (ref, outcome)
        assert outcome.stage is Stage.EXACT_NAME
    await resolver.resolve("agent", "payments-api")
    for ref in ("api", "pay", "payments"):
        outcome = await resolver.resolve("agent", ref)
        assert not isinstance(outcome, Resolved), (ref, outcome)


async def test_a_recent_reference_breaks_only_a_genuine_tie(search_store: GraphStore) -> None:
    resolver = await _resolver(search_store, [
        *STORY, subject("person:sam-a", "Sam"), subject("person:sam-b", "Sam"),
    ])
    assert isinstance(await resolver.resolve("alice", "Alex"), Ambiguous)
    chosen = await resolver.resolve("alice", "Alex Romero")
    assert isinstance(chosen, Resolved) and chosen.subject.key == "person:alex-romero"
    again = await resolver.resolve("alice", "alex")
    assert isinstance(again, Resolved) and again.subject.key == "person:alex-romero"
    assert again.stage is Stage.RING and again.how is Match.RECENT
    assert [c.subject.key for c in again.runners_up] == ["person:alex-kim"]
    # Off for one call: the tie stands, and nothing is remembered.
    off = await resolver.resolve("alice", "Alex", use_recent=False)
    assert isinstance(off, Ambiguous)
    assert isinstance(await resolver.resolve("bob", "alex"), Ambiguous)  # another actor
    sam = await resolver.resolve("bob", "person:sam-b", use_recent=False)
    assert isinstance(sam, Resolved)
    assert isinstance(await resolver.resolve("bob", "Sam"), Ambiguous)
    await resolver.resolve("bob", "person:sam-b")
    picked = await resolver.resolve("bob", "SAM")
    assert isinstance(picked, Resolved) and picked.subject.key == "person:sam-b"
    assert picked.stage is Stage.RING
    # The ring's own entries are never matched by substring, whatever they hold.
    resolver.ring.admit(resolver.org_id, "carol", RingEntry("person:alex-kim", "Alex Kim", "person"))
    kim = await resolver.resolve("carol", "Kim Alex Kimberley")
    assert not isinstance(kim, Resolved)


async def test_case_and_accents_never_change_the_outcome(search_store: GraphStore) -> None:
    resolver = await _resolver(search_store, [
        subject("person:joe", "Joe"), subject("person:joe-freeman", "Joe Freeman"),
        subject("person:joe-brown", "Joe Brown"),
        subject("person:sebastian", "Sebastián Ramírez", attributes={"email": "s@fastapi.dev"}),
        subject("person:zoe", "Zoë Brandt", previous_names=["Zoë Müller"]),
    ])
    for ref in ("Joe", "joe", "JOE", " jOe "):
        outcome = await resolver.resolve("me", ref)
        assert isinstance(outcome, Resolved) and outcome.subject.key == "person:joe", ref
    for ref in ("Sebastián Ramírez", "sebastián ramírez", "sebastian ramirez", "SEBASTIAN-RAMIREZ",
                "s@fastapi.dev", "S@FastAPI.dev"):
        outcome = await resolver.resolve("me", ref)
        assert isinstance(outcome, Resolved) and outcome.subject.key == "person:sebastian", ref
        assert outcome.stage is Stage.EXACT_NAME
    exact = await resolver.resolve("me", "Sebastián Ramírez")
    assert isinstance(exact, Resolved) and exact.how is Match.EXACT
    assert exact.confidence == gates.EXACT_NAME_CONFIDENCE
    folded = await resolver.resolve("me", "sebastian ramirez")
    assert isinstance(folded, Resolved) and folded.how is Match.FOLDED
    assert folded.matched_name == "Sebastián Ramírez"
    old = await resolver.resolve("me", "zoe muller")
    assert isinstance(old, Resolved) and old.matched_name == "Zoë Müller"



async def test_names_in_other_letters_fold_to_ascii_never_vanish(search_store: GraphStore) -> None:
    # Before: a letter with no decomposition was dropped ("Łukasz" folded to "ukasz", "Øyvind"
    # to "yvind", "Straße" to "strae") and a Cyrillic name to nothing at all.
    resolver = await _resolver(search_store, [
        subject("person:lukasz", "Łukasz Langa"),
        subject("person:oyvind", "Øyvind Lie"),
        subject("person:jurgen", "Jürgen Straßburg"),
        subject("person:sergey", "Сергей Брин"),
        subject("person:lukas", "Lukas Lange"),
    ])
    exact = {  # the exact-name stage: written as the person writes it, or in ASCII
        "Łukasz Langa": "person:lukasz", "Lukasz Langa": "person:lukasz",
        "Øyvind Lie": "person:oyvind", "oyvind lie": "person:oyvind",
        "Jürgen Straßburg": "person:jurgen", "jurgen strassburg": "person:jurgen",
        "Сергей Брин": "person:sergey", "Sergey Brin": "person:sergey",
    }
    for ref, key in exact.items():
        outcome = await resolver.resolve("me", ref, use_recent=False)
        assert isinstance(outcome, Resolved) and outcome.subject.key == key, (ref, outcome)
        assert outcome.stage is Stage.EXACT_NAME, ref
    typo = await resolver.resolve("me", "Lukasz Lagna", use_recent=False)  # one edit
    assert isinstance(typo, Resolved) and typo.subject.key == "person:lukasz", typo
    assert typo.how is Match.TYPO and typo.matched_name == "Łukasz Langa"
    graph = resolver.directory
    for text, key in (("oyvind", "person:oyvind"), ("strassburg", "person:jurgen"),
                      ("sergey", "person:sergey"), ("Łukasz", "person:lukasz")):
        hits = await graph.search_lexical(text, [SubjectKind.PERSON], 5)
        assert hits and hits[0][0].key == key, (text, hits)

async def test_case_variants_are_one_name_decided_from_the_storage_total(
    search_store: GraphStore,
) -> None:
    decoys = [subject(f"repository:decoy-{i}", "ROLORA" if i % 2 else "rolora") for i in range(120)]
    lookalikes = [subject(f"repository:near-{i}", f"RoLoRA {i}") for i in range(120)]
    resolver = await _resolver(search_store, [subject("repository:target", "RoLoRA"), *decoys])
    tie = await resolver.resolve("me", "RoLoRA")
    assert isinstance(tie, Ambiguous) and tie.stage is Stage.EXACT_NAME and tie.total == 121
    # The one written exactly so comes first.
    assert tie.candidates[0].subject.key == "repository:target"
    resolver = await _resolver(search_store, [subject("repository:target", "RoLoRA"), *lookalikes])
    outcome = await resolver.resolve("me", "rolora")
    assert isinstance(outcome, Resolved) and outcome.subject.key == "repository:target"
    assert outcome.stage is Stage.EXACT_NAME and len(outcome.runners_up) == gates.RUNNERS_UP


async def test_identical_names_stay_ambiguous_and_respect_the_limit(
    search_store: GraphStore,
) -> None:
    resolver = await _resolver(search_store, [
        *[subject(f"service:s{i}", "Same") for i in range(11)],
        subject("module:utils-a", "utils"), subject("module:utils-b", "utils"),
    ])
    outcome = await resolver.resolve("me", "Same")
    assert isinstance(outcome, Ambiguous) and outcome.stage is Stage.EXACT_NAME
    assert outcome.total == 11 and len(outcome.candidates) == 5  # the default limit
    one = await resolver.resolve("me", "utils", limit=1)
    assert isinstance(one, Ambiguous) and one.total == 2 and len(one.candidates) == 1


async def test_exact_name_beats_strong_hybrid_competitors_at_limit_one(
    search_store: GraphStore,
) -> None:
    competitors = [subject(f"project:adr-040-{i}", f"ADR-040 follow-up {i}") for i in range(12)]
    resolver = await _resolver(search_store, [subject("project:adr", "ADR-040"), *competitors])
    outcome = await resolver.resolve("me", "ADR-040", limit=1)
    assert isinstance(outcome, Resolved) and outcome.subject.key == "project:adr"
    assert outcome.stage is Stage.EXACT_NAME


async def test_non_exact_ambiguity_is_bounded_to_the_limit(search_store: GraphStore) -> None:
    names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]
    resolver = await _resolver(search_store, [subject(f"service:b-{n}", f"billing {n}") for n in names])
    outcome = await resolver.resolve("me", "billing", limit=3)
    assert isinstance(outcome, Ambiguous) and outcome.stage is Stage.HYBRID
    assert len(outcome.candidates) == 3 and (outcome.total or 0) >= 12


PEOPLE = [
    subject("person:tom-christie", "Tom Christie"),
    subject("person:ed-singleton", "Ed Singleton"),
    subject("person:ben-beasley", "Ben Beasley"),
    subject("person:joe-freeman", "Joe Freeman"),
    subject("person:ben-bloggs", "Ben Bloggs"),
    subject("person:andrei", "Andrei Popescu", aliases=["Andrei"]),
    subject("person:andrey-a", "Andrey Kuznetsov"),
    subject("person:andrey-b", "Andrey Petrov"),
    subject("person:moritz-a", "Moritz Klein"),
    subject("person:moritz-b", "Moritz Maria Schmidt"),
    subject("person:william-a", "William Woodruff"),
    subject("person:william-b", "William Ernest Henley"),
]


async def test_one_edit_anywhere_is_a_typo(search_store: GraphStore) -> None:
    # Before: typos stopped at word boundaries and in words under four letters.
    resolver = await _resolver(search_store, PEOPLE)
    cases = {
        "TomC hristie": "person:tom-christie",  # a letter moved across the space
        "E dSingleton": "person:ed-singleton",
        "tomchristie": "person:tom-christie",  # the space missing
        "Bne Beasley": "person:ben-beasley",  # a three-letter word
        "Jeo Freeman": "person:joe-freeman",
        "Tom Chirstie": "person:tom-christie",
    }
    for ref, key in cases.items():
        outcome = await resolver.resolve("me", ref, use_recent=False)
        assert isinstance(outcome, Resolved) and outcome.subject.key == key, (ref, outcome)
        assert outcome.how is Match.TYPO and outcome.confidence == gates.TYPO, ref
        assert outcome.matched_name is not None


async def test_an_exact_token_outranks_a_typo_and_shared_first_names_stay_ambiguous(
    search_store: GraphStore,
) -> None:
    resolver = await _resolver(search_store, PEOPLE)
    andrey = await resolver.resolve("me", "Andrey")
    assert isinstance(andrey, Ambiguous), andrey
    assert {c.subject.key for c in andrey.candidates[:2]} == {"person:andrey-a", "person:andrey-b"}
    for name in ("Moritz", "William", "moritz", "Ben"):
        outcome = await resolver.resolve("me", name)
        assert isinstance(outcome, Ambiguous), (name, outcome)
        assert len({c.subject.key for c in outcome.candidates}) >= 2


async def test_the_vector_arm_never_lifts_a_lexical_tie(search_store: GraphStore) -> None:
    # Before: the corroboration bonus lifted one of two Moritzes (0.667 + 0.06) over 0.72.
    resolver = await _resolver(search_store, PEOPLE)
    graph = resolver.directory
    lexical = await graph.search_lexical("Moritz", [], 20)
    vector = await graph.search_similar("Moritz", [], 20, 0.0)
    assert vector, "the vector arm answers here"
    for arm in (vector, [(s, 1.0) for s, _ in lexical]):  # even a perfect agreement
        outcome = decide(rank("Moritz", lexical, arm), 5)
        assert isinstance(outcome, Ambiguous)


async def test_unusable_references_are_one_not_found(search_store: GraphStore) -> None:
    resolver = await _resolver(search_store, STORY)
    cases = {"": "empty", "   ": "empty", "x" * 201: "too_long", "pay\x00ments": "unreadable",
             "\ud800x": "unreadable", "!!!": "nothing_comparable"}
    for ref, note in cases.items():
        outcome = await resolver.resolve("me", ref)
        assert isinstance(outcome, NotFound) and outcome.stage is Stage.INPUT, ref
        assert outcome.notes == (note,)
    assert isinstance(await resolver.resolve("me", "x" * 200), NotFound)


async def test_a_near_miss_is_suggested(search_store: GraphStore) -> None:
    resolver = await _resolver(search_store, PEOPLE)
    outcome = await resolver.resolve("me", "Tom Chrxxtie")
    assert isinstance(outcome, NotFound)
    assert outcome.suggestions and outcome.suggestions[0].subject.key == "person:tom-christie"
    assert all(c.score < gates.LONE_COMMIT for c in outcome.suggestions)
    assert len(outcome.suggestions) <= gates.RUNNERS_UP


async def test_handles_typos_and_kinds(search_store: GraphStore) -> None:
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


async def test_a_kind_the_name_is_not_never_commits_another_kind(
    search_store: GraphStore,
) -> None:
    """As on the click history imported from a directory named clk: "click" names only a
    package (a module). Asked as a repository or a project, by `kinds` (resolveReference's
    argument) or by a kind word in the reference, it is never the package."""
    resolver = await _resolver(
        search_store,
        [
            subject("repository:clk", "clk"),
            subject("module:clk/src/click", "click", attributes={"repository": "clk"}),
        ],
    )
    for kind in (SubjectKind.REPOSITORY, SubjectKind.PROJECT):
        outcome = await resolver.resolve("me", "click", kind)
        assert isinstance(outcome, NotFound), (kind, outcome)
    for reference in ("click repository", "click repo", "click project", "repository click"):
        outcome = await resolver.resolve("me", reference)
        assert not isinstance(outcome, Resolved), (reference, outcome)
    module = await resolver.resolve("me", "click", SubjectKind.MODULE)
    assert isinstance(module, Resolved) and module.subject.key == "module:clk/src/click"


async def test_two_alexes_and_payments_without_kind_are_never_a_guess(
    search_store: GraphStore,
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
    search_store: GraphStore,
) -> None:
    resolver = await _resolver(search_store, STORY)
    for garbage in ("zzqx vvkw", "!!!", "   ", "x" * 500):
        assert isinstance(await resolver.resolve("me", garbage), NotFound), garbage
    other = await _resolver(search_store, [subject("repository:other", "other")])
    for reference in ("payments-api", "repository:payments-api", "shop-frontend"):
        assert isinstance(await other.resolve("me", reference), NotFound), reference


WORDS = ["ann", "anne", "ana", "lee", "leo", "kim", "kin", "sam", "pay", "api", "core"]


def _stored(n: int, name: str) -> StoredSubject:
    return StoredSubject.model_construct(
        key=f"person:p{n}", name=name, kind=SubjectKind.PERSON, id=str(n), aliases=[],
        previous_names=[], attributes={},
    )


names = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(names, st.booleans(), st.floats(0, 1)), min_size=1, max_size=8),
    names,
)
def test_the_vector_arm_only_ever_withholds_a_commit(
    pool: list[tuple[str, bool, float]], reference: str
) -> None:
    """Whatever the vector arm says, it never commits a subject the lexical arm alone would
    not commit: a vector-only hit never commits, and agreement adds nothing to a score."""
    subjects = [_stored(n, name) for n, (name, _, _) in enumerate(pool)]
    lexical = [(s, 1.0) for s, (_, lex, _) in zip(subjects, pool, strict=True) if lex]
    vector = [(s, sim) for s, (_, _, sim) in zip(subjects, pool, strict=True)]
    vector.sort(key=lambda hit: -hit[1])
    with_vectors = decide(rank(reference, lexical, vector), 5)
    alone = decide(rank(reference, lexical, None), 5)
    if isinstance(with_vectors, Resolved):
        assert any(s.key == with_vectors.subject.key for s, _ in lexical)
        assert isinstance(alone, Resolved) and alone.subject.key == with_vectors.subject.key
    assert gates.VECTOR_CEILING < gates.LONE_COMMIT <= gates.TOP_COMMIT
    assert gates.FUZZY_CEILING < gates.LONE_COMMIT


async def test_a_genuine_tie_and_an_identifying_attribute(search_store: GraphStore) -> None:
    resolver = await _resolver(search_store, [
        subject("service:a", "Gateway"), subject("service:b", "Gateway"),
        subject("person:kim", "Kim Lee", attributes={"email": "kim.lee@example.com"}),
    ])
    tie = await resolver.resolve("me", "Gateway")
    assert isinstance(tie, Ambiguous) and {c.subject.key for c in tie.candidates} == {
        "service:a", "service:b"}
    by_email = await resolver.resolve("me", "kim.lee@example.com")
    assert isinstance(by_email, Resolved) and by_email.subject.key == "person:kim"
