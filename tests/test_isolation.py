"""Tenant isolation over HTTP: two organisations, every root field and nested connection.

Organisation A holds the demo data and has run investigations. Principal B (its own small
graph, which names some of A's keys) probes A's ids, keys, names, result ids, receipts and
cursors. For each probe, B's answer to A's real target must be byte-identical to its answer to
a made-up target of the same shape (after both are blanked): "not yours" and "does not exist"
are indistinguishable, and no answer B gets ever carries A's text. B's writes never reach A.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from engine.domain.errors import BadUserInput
from gateway.auth import key_id_of
from graph.projection import Projector
from resolvers.relay import decode_cursor, encode_cursor, from_global_id, to_global_id
from sources.demo import generate
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve
from tests.helpers import content_hash, load, rel, subject
from tests.test_auth import (  # noqa: F401 - fixtures
    AUDIENCE,
    ISSUER,
    SECRET,
    claims,
    handmade,
    hs256,
    public_pem,
    rs256,
    rsa_key,
)

DEMO = list(generate(600))
# A's own text: names that are not derived from a key, episode texts, record titles.
A_TEXT = sorted(
    {r["name"] for r in DEMO if r["type"] == "subject" and " " in r["name"]}
    | {r["text"] for r in DEMO if r["type"] == "episode"}
    | {r["title"] for r in DEMO if r.get("title")}
)
B_RECORDS = [
    subject("team:bees", "Bees"),
    subject("repository:hive", "hive"),
    rel("OWNS", "team:bees", "repository:hive"),
    # B names A's keys: in B's graph they are B's own stubs, nothing of A's.
    rel("DEPENDS_ON", "repository:hive", "repository:payments-api"),
    {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-10T10:00:00Z",
     "text": "bees deploy", "mentions": ["repository:payments-api"]},
]


@dataclass
class Tenants:
    gateway: Gateway
    org_a: str
    a: str
    b: str
    targets: dict[str, Any]


INVESTIGATE = """mutation($q: String!, $receipts: [String!]) {
  investigate(input: {question: $q, priorSubjectReceipts: $receipts}) {
    result { id outcome directJudgment clarificationPrompt limitations
             candidates { name receipt subject { key } } drivers { statement } } } }"""


def ok(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    result: dict[str, Any] = body["data"]
    return result


async def _a_targets(gateway: Gateway, token: str) -> dict[str, Any]:
    found = ok(await gateway.query(token, """{ subject(key: "repository:ledger-core") { id
        relationships(first: 1) { edges { cursor node { id } } }
        episodes(first: 1) { edges { cursor node { id } } } }
        records: subject(key: "repository:payments-api") { sourceRecords(first: 1) { id } }
        subjects(first: 1, after: null) { edges { cursor } } }"""))
    ledger = found["subject"]
    answered = ok(await gateway.query(token, INVESTIGATE, {"q": "why is payments-api behind?"}))
    clarify = ok(await gateway.query(token, INVESTIGATE, {"q": "why is Alex behind?"}))
    listed = ok(await gateway.query(token, "{ investigations(first: 1) { edges { cursor } } }"))
    candidates = clarify["investigate"]["result"]["candidates"]
    assert answered["investigate"]["result"]["outcome"] == "ANSWERED"
    assert candidates, "the demo's 'Alex' is ambiguous"
    return {
        "subject_id": ledger["id"],
        "relationship_id": ledger["relationships"]["edges"][0]["node"]["id"],
        "episode_id": ledger["episodes"]["edges"][0]["node"]["id"],
        "record_id": found["records"]["sourceRecords"][0]["id"],
        "result_id": answered["investigate"]["result"]["id"],
        "receipt": candidates[0]["receipt"],
        "investigations_cursor": listed["investigations"]["edges"][0]["cursor"],
    }


@pytest.fixture(scope="module")
async def tenants(gateway: Gateway) -> AsyncIterator[Tenants]:
    org_a, org_b = new_org(), new_org()
    for org in (org_a, org_b):
        await gateway.store.bootstrap(org)
    lines = (json.dumps(r) for r in DEMO)
    assert (await Projector(gateway.store.org(org_a), source="demo").run(lines)).ok
    assert (await load(gateway.store.org(org_b), B_RECORDS)).ok
    a, b = await gateway.token(org_a), await gateway.token(org_b)
    yield Tenants(gateway, org_a, a, b, await _a_targets(gateway, a))
    for org in (org_a, org_b):
        await gateway.store.drop_org(org)


def forge(value: str) -> str:
    """A value of the same shape and length naming nothing: the last letters of its local
    part changed (global ids are decoded and re-encoded; receipts get another signature)."""
    parsed = from_global_id(value)
    if parsed is not None:
        return to_global_id(parsed[0], _alter(parsed[1]))
    if name_is_cursor(value):
        ns, local = decode_cursor(value, 2)
        return encode_cursor(ns, _alter(local))
    if value.count(".") == 1:  # a receipt: signature.subject
        signature, rest = value.split(".")
        return _alter(signature) + "." + rest
    return _alter(value)


def name_is_cursor(value: str) -> bool:
    try:
        decode_cursor(value, 2)
    except BadUserInput:
        return False
    return True


def _alter(text: str) -> str:
    chars, changed = list(text), 0
    for i in range(len(chars) - 1, -1, -1):
        if chars[i].isalnum() and changed < 3:
            chars[i] = "q" if chars[i] != "q" else "x"
            changed += 1
    return "".join(chars)


def blanked(response: httpx.Response, *targets: str) -> str:
    text = f"{response.status_code} {response.text}"
    for target in targets:
        text = text.replace(json.dumps(target)[1:-1], "<TARGET>")
    return text


# (query, the target's name in Tenants.targets or a literal of A's)
PROBES: dict[str, tuple[str, str]] = {
    "node-subject": ("query($t: ID!) { node(id: $t) { __typename id } }", "subject_id"),
    "node-relationship": ("query($t: ID!) { node(id: $t) { __typename id } }", "relationship_id"),
    "node-episode": ("query($t: ID!) { node(id: $t) { __typename id } }", "episode_id"),
    "node-source-record": ("query($t: ID!) { node(id: $t) { __typename id } }", "record_id"),
    "node-result": ("query($t: ID!) { node(id: $t) { __typename id } }", "result_id"),
    "nodes": ("query($t: ID!) { nodes(ids: [$t, $t]) { __typename id } }", "subject_id"),
    "subject-by-id": ("query($t: ID!) { subject(id: $t) { id name } }", "subject_id"),
    "subject-by-key": ("query($t: String) { subject(key: $t) { id name } }",
                       "=repository:ledger-core"),
    "subjects-search": ("query($t: String) { subjects(search: $t) { totalCount "
                        "edges { node { key } } } }", "=ledger-core"),
    "subjects-prefix": ("query($t: String) { subjects(filter: {namePrefix: $t}) { totalCount "
                        "edges { node { key } } } }", "=ledger"),
    "search": ("query($t: String!) { search(query: $t) { score subject { key } } }",
               "=ledger-core"),
    "resolve-reference": ("query($t: String!) { resolveReference(ref: $t) { __typename } }",
                          "=ledger-core"),
    "investigation": ("query($t: ID!) { investigation(id: $t) { id outcome } }", "result_id"),
    "investigations-by-subject": ("query($t: String) { investigations(subjectKey: $t) { "
                                  "edges { node { id } } } }",
                                  "=repository:ledger-core"),
    "investigations-after": ("query($t: String) { investigations(after: $t) { "
                             "edges { node { id } } } }", "investigations_cursor"),
    "answer-projection": ("query($t: ID!) { answerProjection(resultId: $t) { resultId } }",
                          "result_id"),
    "facts": ("query($t: String!) { facts(subjectKey: $t) { kind value } }",
              "=repository:ledger-core"),
    "investigate-names-a-subject": (
        'mutation($t: String!) { investigate(input: {question: $t}) { result { outcome '
        "directJudgment limitations candidates { name } drivers { statement } } } }",
        "=what changed for ledger-core"),
    "investigate-with-a-receipt": (
        'mutation($t: String!) { investigate(input: {question: "why is Alex behind?", '
        "priorSubjectReceipts: [$t]}) { result { outcome directJudgment limitations "
        "candidates { name } drivers { statement } } } }", "receipt"),
}


def _target(tenants: Tenants, name: str) -> str:
    return name[1:] if name.startswith("=") else str(tenants.targets[name])


@pytest.mark.parametrize("probe", sorted(PROBES))
async def test_not_yours_answers_exactly_like_does_not_exist(
    tenants: Tenants, probe: str
) -> None:
    query, name = PROBES[probe]
    real = _target(tenants, name)
    fake = forge(real)
    assert fake != real and len(fake) == len(real)
    gateway = tenants.gateway
    theirs = await gateway.query(tenants.b, query, {"t": real})
    nothing = await gateway.query(tenants.b, query, {"t": fake})
    assert theirs.status_code < 500
    codes = {e["extensions"]["code"] for e in theirs.json().get("errors", ())}
    assert "GRAPHQL_VALIDATION_FAILED" not in codes, theirs.text  # the probe itself is valid
    # A no match quotes back the name the question asks about: the forged one, for the fake.
    echoed = [w for w in (fake.split()[-1:] if " " in fake else []) if w not in real]
    expected = blanked(theirs, real, fake)
    if echoed:
        expected = expected.replace(real.split()[-1], echoed[0])
    assert expected == blanked(nothing, real, fake)
    shown = blanked(theirs, real)
    assert not [t for t in A_TEXT if t in shown], shown
    # A itself does see its own target: the probe is aimed at something real.
    mine = ok(await gateway.query(tenants.a, query, {"t": real}))
    if probe.startswith(("node-", "subject-")) or probe in ("investigation", "answer-projection"):
        assert all(v for v in mine.values()), mine
    if probe.startswith("investigate-"):  # A's own question finds A's subject; B's finds none
        assert mine["investigate"]["result"]["outcome"] != "NO_MATCH", mine
        assert theirs.json()["data"]["investigate"]["result"]["outcome"] == "NO_MATCH"


async def test_b_sees_only_its_own_data_through_every_nested_connection(
    tenants: Tenants,
) -> None:
    query = """{ subjects(first: 50) { totalCount edges { node { ...everything } } }
      stub: subject(key: "repository:payments-api") { ...everything }
      investigations { edges { node { id } } } }
    fragment everything on Subject { key name description
        relationships { totalCount edges { node { type from { key name } to { key name } } } }
        neighbors { key name }
        episodes { edges { node { key text } } }
        sourceRecords { key title }
        activity(metric: PULL_REQUESTS_MERGED) { points { value } } }"""
    seen = ok(await tenants.gateway.query(tenants.b, query))
    keys = {e["node"]["key"] for e in seen["subjects"]["edges"]}
    assert keys == {"team:bees", "repository:hive"}
    # B's own investigations (the probes ran some), never A's.
    listed = {e["node"]["id"] for e in seen["investigations"]["edges"]}
    assert tenants.targets["result_id"] not in listed
    text = json.dumps(seen)
    assert not [t for t in A_TEXT if t in text]
    stub = seen["stub"]
    assert [e["node"]["text"] for e in stub["episodes"]["edges"]] == ["bees deploy"]
    assert stub["sourceRecords"] == [] and stub["relationships"]["totalCount"] == 1
    assert stub["neighbors"] == [{"key": "repository:hive", "name": "hive"}]


async def test_b_writes_never_reach_a(tenants: Tenants) -> None:
    gateway = tenants.gateway
    before = await content_hash(gateway.store.org(tenants.org_a))
    project = 'mutation($r: [JSON!]!) { project(records: $r) { accepted invalid } }'
    hijack = [
        subject("repository:ledger-core", "hijacked", description="B was here"),
        rel("OWNS", "team:bees", "repository:ledger-core"),
        {"type": "tombstone", "target": "subject", "key": "repository:payments-api"},
    ]
    forged = [
        subject("repository:ledger-cqqq", "hijacked", description="B was here"),
        rel("OWNS", "team:bees", "repository:ledger-cqqq"),
        {"type": "tombstone", "target": "subject", "key": "repository:payments-aqq"},
    ]
    report = await gateway.query(tenants.b, project, {"r": hijack})
    assert report.text == (await gateway.query(tenants.b, project, {"r": forged})).text
    assert ok(report)["project"] == {"accepted": 3, "invalid": 0}
    ok(await gateway.query(tenants.b, INVESTIGATE, {"q": "why is ledger-core behind?"}))
    assert await content_hash(gateway.store.org(tenants.org_a)) == before
    a_view = ok(await gateway.query(tenants.a, '{ subject(key: "repository:ledger-core") '
                                               "{ name description } }"))
    assert a_view["subject"]["name"] == "ledger-core"
    assert "B was here" not in json.dumps(a_view)


async def test_a_revoked_key_stops_working_at_once(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    assert (await gateway.query(token, "{ __typename }")).status_code == 200
    assert await gateway.store.keys.revoke_key(key_id_of(token))
    refused = await gateway.query(token, "{ __typename }")
    assert refused.status_code == 401
    assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


# -- JWTs over HTTP ---------------------------------------------------------------------------


def _jwt_cases(key: rsa.RSAPrivateKey, pem: str) -> dict[str, str]:
    now = int(time.time())
    return {
        "wrong-issuer": rs256(claims(iss="https://evil.example.test"), key),
        "wrong-audience": rs256(claims(aud="someone-else"), key),
        "expired": rs256(claims(iat=now - 3_600, exp=now - 600), key),
        "alg-none": handmade({"alg": "none", "typ": "JWT"}, claims(), None),
        "hs-rs-confusion": handmade({"alg": "HS256", "typ": "JWT"}, claims(), pem.encode()),
        "hs256-unconfigured": hs256(claims(), SECRET),
        "other-rsa-key": rs256(claims(), rsa.generate_private_key(65537, 2048)),
    }


async def test_bad_jwts_are_refused_over_http(
    gateway: Gateway, rsa_key: rsa.RSAPrivateKey, public_pem: str  # noqa: F811
) -> None:
    settings = {"jwt_public_key": public_pem, "jwt_issuer": ISSUER, "jwt_audience": AUDIENCE}
    async for jwt_gateway in serve(gateway.store, **settings):
        good = await jwt_gateway.query(rs256(claims(), rsa_key), "{ __typename }")
        assert good.status_code == 200, good.text
        for case, token in _jwt_cases(rsa_key, public_pem).items():
            refused = await jwt_gateway.query(token, "{ __typename }")
            assert refused.status_code == 401, case
            assert refused.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
