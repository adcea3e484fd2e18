"""resolveReference and search over HTTP: the union, scores, the ring, tenancy."""

from __future__ import annotations

from typing import Any

from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject
from tests.test_reads import data

RECORDS = [
    subject("repository:payments-api", "payments-api", aliases=["payments", "pay-api"]),
    subject("repository:checkout-web", "checkout-web", previous_names=["shop-frontend"]),
    subject("person:alex-kim", "Alex Kim", aliases=["Alex"]),
    subject("person:alex-romero", "Alex Romero", aliases=["Alex"]),
]

RESOLVE = """query($ref: String!, $kinds: [SubjectKind!], $limit: Int, $useRecent: Boolean) {
  resolveReference(ref: $ref, kinds: $kinds, limit: $limit, useRecent: $useRecent) {
    __typename
    ... on Resolved { subject { key } confidence stage matchedName matchedBy
                      runnersUp { subject { key } score matchedBy } }
    ... on Ambiguous { stage total candidates { subject { key } score lexicalRank
                                                vectorSimilarity matchedHandle matchedBy } }
    ... on NotFound { stage notes suggestions { subject { key } score matchedHandle } }
  }
}"""


async def _token(gateway: Gateway, records: list[dict[str, Any]], actor: str = "me") -> str:
    org = new_org()
    await gateway.store.bootstrap(org)
    assert (await load(gateway.store.org(org), records)).ok
    return await gateway.token(org, actor)


async def test_resolved_ambiguous_and_not_found(gateway: Gateway) -> None:
    token = await _token(gateway, RECORDS)
    old_name = data(await gateway.query(token, RESOLVE, {"ref": "shop frontend"}))
    resolved = old_name["resolveReference"]
    assert resolved["__typename"] == "Resolved"
    assert resolved["subject"]["key"] == "repository:checkout-web"
    assert resolved["matchedName"] == "shop-frontend" and resolved["matchedBy"] == "FOLDED"
    assert resolved["stage"] == "EXACT_NAME" and resolved["confidence"] == 0.95
    alex = data(await gateway.query(token, RESOLVE, {"ref": "Alex", "kinds": ["PERSON"]}))
    resolution = alex["resolveReference"]
    assert resolution["__typename"] == "Ambiguous" and resolution["stage"] == "EXACT_NAME"
    keys = {c["subject"]["key"] for c in resolution["candidates"]}
    assert keys == {"person:alex-kim", "person:alex-romero"}
    assert all(c["matchedHandle"] == "Alex" for c in resolution["candidates"])
    assert {c["matchedBy"] for c in resolution["candidates"]} == {"EXACT"}
    limited = data(await gateway.query(token, RESOLVE, {"ref": "alex", "limit": 1}))
    assert len(limited["resolveReference"]["candidates"]) == 1
    assert limited["resolveReference"]["total"] == 2
    nothing = data(await gateway.query(token, RESOLVE, {"ref": "qqqq zzzz"}))
    assert nothing["resolveReference"]["__typename"] == "NotFound"
    typo = data(await gateway.query(token, RESOLVE, {"ref": "Alex Romreo"}))["resolveReference"]
    assert typo["__typename"] == "Resolved" and typo["matchedBy"] == "TYPO"
    assert typo["matchedName"] == "Alex Romero"
    runner_up = typo["runnersUp"][0]  # the other Alex, well behind
    assert runner_up["subject"]["key"] == "person:alex-kim"
    assert runner_up["score"] <= typo["confidence"] - 0.12
    near = data(await gateway.query(token, RESOLVE, {"ref": "Romxro"}))["resolveReference"]
    assert near["__typename"] == "NotFound"
    assert near["suggestions"][0]["subject"]["key"] == "person:alex-romero"


async def test_an_unusable_reference_is_not_found_at_input_not_an_error(gateway: Gateway) -> None:
    # Before: 201 characters were a BAD_USER_INPUT error while an empty ref was NotFound.
    token = await _token(gateway, RECORDS)
    for ref, note in (("", "empty"), ("x" * 201, "too_long"), ("\u0000", "unreadable")):
        outcome = data(await gateway.query(token, RESOLVE, {"ref": ref}))["resolveReference"]
        assert outcome == {"__typename": "NotFound", "stage": "INPUT", "notes": [note],
                           "suggestions": []}, ref


async def test_reading_a_subject_does_not_prime_the_ring(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), RECORDS)
    reader, other = await gateway.token(org, "reader"), await gateway.token(org, "other")
    await gateway.query(reader, '{ subject(key: "person:alex-romero") { key } }')
    read = data(await gateway.query(reader, RESOLVE, {"ref": "alex"}))["resolveReference"]
    assert read["__typename"] == "Ambiguous"  # before: reading primed the ring
    # Resolving it does; for this caller only, and not when asked to leave it out.
    quiet = {"ref": "alex romero", "useRecent": False}
    assert data(await gateway.query(reader, RESOLVE, quiet))["resolveReference"]["stage"] == (
        "EXACT_NAME")
    assert data(await gateway.query(reader, RESOLVE, {"ref": "alex"}))["resolveReference"][
        "__typename"] == "Ambiguous"
    await gateway.query(reader, RESOLVE, {"ref": "alex romero"})
    mine = data(await gateway.query(reader, RESOLVE, {"ref": "alex"}))["resolveReference"]
    assert mine["stage"] == "RING" and mine["matchedBy"] == "RECENT"
    assert mine["subject"]["key"] == "person:alex-romero"
    off = data(await gateway.query(reader, RESOLVE, {"ref": "alex", "useRecent": False}))
    assert off["resolveReference"]["__typename"] == "Ambiguous"
    theirs = data(await gateway.query(other, RESOLVE, {"ref": "alex"}))["resolveReference"]
    assert theirs["__typename"] == "Ambiguous"


async def test_a_global_id_resolves_by_id(gateway: Gateway) -> None:
    token = await _token(gateway, RECORDS)
    read = data(await gateway.query(token, '{ subject(key: "person:alex-kim") { id } }'))
    outcome = data(await gateway.query(token, RESOLVE, {"ref": read["subject"]["id"]}))
    assert outcome["resolveReference"]["stage"] == "ID"
    assert outcome["resolveReference"]["subject"]["key"] == "person:alex-kim"


async def test_search_ranks_with_per_arm_scores(gateway: Gateway) -> None:
    token = await _token(gateway, RECORDS)
    hits = data(await gateway.query(
        token, '{ search(query: "payments", first: 3) { subject { key } score lexicalRank '
               "lexicalScore vectorSimilarity matchedHandle } }"))["search"]
    assert hits[0]["subject"]["key"] == "repository:payments-api"
    assert hits[0]["lexicalRank"] == 1 and hits[0]["matchedHandle"] == "payments"
    assert len(hits) <= 3
    people = data(await gateway.query(
        token, '{ search(query: "alex", kinds: [PERSON]) { subject { key kind } } }'))["search"]
    assert {h["subject"]["kind"] for h in people} == {"PERSON"}


async def test_another_organisation_resolves_nothing_of_ours(gateway: Gateway) -> None:
    await _token(gateway, RECORDS)
    stranger = await _token(gateway, [subject("team:theirs", "theirs")])
    for ref in ("payments-api", "repository:payments-api", "shop-frontend", "Alex"):
        outcome = data(await gateway.query(stranger, RESOLVE, {"ref": ref}))
        assert outcome["resolveReference"]["__typename"] == "NotFound", ref
    found = data(await gateway.query(stranger, '{ search(query: "payments") { subject { key } } }'))
    assert found["search"] == []
