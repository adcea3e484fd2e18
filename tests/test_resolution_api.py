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

RESOLVE = """query($ref: String!, $kind: SubjectKind, $limit: Int! = 5) {
  resolveReference(ref: $ref, kind: $kind, limit: $limit) {
    __typename
    ... on Resolved { subject { key } confidence stage }
    ... on Ambiguous { stage total candidates { subject { key } score lexicalRank
                                                vectorSimilarity matchedHandle } }
    ... on NotFound { stage notes }
  }
}"""


async def _token(gateway: Gateway, records: list[dict[str, Any]], actor: str = "me") -> str:
    org = new_org()
    await gateway.store.bootstrap(org)
    assert (await load(gateway.store.org(org), records)).ok
    return await gateway.token(org, actor)


async def test_resolved_ambiguous_and_not_found(gateway: Gateway) -> None:
    token = await _token(gateway, RECORDS)
    old_name = data(await gateway.query(token, RESOLVE, {"ref": "shop-frontend"}))
    assert old_name["resolveReference"]["__typename"] == "Resolved"
    assert old_name["resolveReference"]["subject"]["key"] == "repository:checkout-web"
    alex = data(await gateway.query(token, RESOLVE, {"ref": "Alex", "kind": "PERSON"}))
    resolution = alex["resolveReference"]
    assert resolution["__typename"] == "Ambiguous" and resolution["stage"] == "HYBRID"
    keys = {c["subject"]["key"] for c in resolution["candidates"]}
    assert keys == {"person:alex-kim", "person:alex-romero"}
    assert all(c["matchedHandle"] == "Alex" for c in resolution["candidates"])
    nothing = data(await gateway.query(token, RESOLVE, {"ref": "qqqq zzzz"}))
    assert nothing["resolveReference"]["__typename"] == "NotFound"


async def test_reading_a_subject_puts_it_in_the_readers_ring(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), RECORDS)
    reader, other = await gateway.token(org, "reader"), await gateway.token(org, "other")
    await gateway.query(reader, '{ subject(key: "person:alex-romero") { key } }')
    mine = data(await gateway.query(reader, RESOLVE, {"ref": "alex romero"}))
    assert mine["resolveReference"]["stage"] == "RING"
    theirs = data(await gateway.query(other, RESOLVE, {"ref": "alex romero"}))
    assert theirs["resolveReference"]["stage"] != "RING"


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
