"""What fuzzing found, pinned: values the store would misread and inputs that once made a 500.

Each case came from tests/fuzz_long.py: a NUL or an unpaired surrogate in a string parameter,
an integer beyond 64 bits, a JSON body that is not UTF-8 or not an object, a receipt with
non-ASCII characters, a NUL in a result id.
"""

from __future__ import annotations

import base64
import enum
import json
from typing import Any

import numpy as np
import pytest

from engine.ports import SubjectQuery, UnrepresentableValue
from engine.resolving.receipts import ReceiptSigner
from graph import falkor_params
from graph.falkor import FalkorStore
from graph.falkor_params import header, literal
from resolvers.relay import encode_cursor
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject


@pytest.mark.parametrize("value", [
    "a\x00b", {"k": ["x", "\x00"]}, {"a\x00": 1}, "\ud800", 2**63, -(2**63) - 1,
    [1, {"deep": 10**30}],
], ids=["nul", "nested-nul", "nul-key", "surrogate", "2^63", "below-int64", "nested-huge"])
def test_values_the_store_would_misread_are_refused(value: Any) -> None:
    with pytest.raises(UnrepresentableValue):
        header({"v": value})


@pytest.mark.parametrize("value", [
    "plain", "a\\u0000 is text", "x\x01y", 2**63 - 1, -(2**63), "1234567890123456789012",
    {"n": 9_223_372_036_854_775_807}, 1.5e300,
], ids=["plain", "escaped-nul-text", "control", "int64-max", "int64-min", "digits-in-text",
        "nested-max", "float"])
def test_representable_values_pass(value: Any) -> None:
    assert literal(value)


@pytest.mark.parametrize("value", [[9 * 10**18 + 1], [-(2**63) + 1, 2**63 - 1], [1, 9 * 10**18, 2]])
def test_integers_of_19_digits_from_a_9_inside_int64_are_sent_without_walking_the_value(
    value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One row digest in 40 (graph.rows) is such an integer: encoding a batch walked every
    row of it for each, most of the batch's encoding time."""

    def walked(_: Any) -> bool:
        raise AssertionError("walked")

    monkeypatch.setattr(falkor_params, "_has_wide_int", walked)
    assert literal(value) == json.dumps(value, separators=(",", ":"))
    with pytest.raises(AssertionError, match="walked"):
        literal([*value, 2**63])  # one beyond the range is still checked by walking


@pytest.mark.parametrize("value", [
    float("nan"), float("inf"), [1, -float("inf")], {"k": [0.5, float("nan")]},
], ids=["nan", "inf", "nested-minus-inf", "nested-nan"])
def test_a_non_finite_float_is_refused_though_orjson_would_write_null(value: Any) -> None:
    with pytest.raises(ValueError):
        literal(value)


@pytest.mark.parametrize("value", [
    [np.float64(0.25), 1], {"k": np.float32(0.5).item()}, [enum.StrEnum("K", "a").a],
    [2**64 - 1], [-(2**63) - 1], {1: "int key"}, "null inside a string", [None, 1e-7],
], ids=["numpy-float", "float32-item", "str-enum", "2^64-1", "below-int64", "int-key",
        "null-text", "null"])
def test_what_orjson_refuses_or_may_hide_is_made_by_json_and_checked_as_before(
    value: Any,
) -> None:
    """graph.falkor_params takes orjson's text only where it is json's or reads the same."""
    try:
        made = literal(value)
    except UnrepresentableValue:
        assert value in ([2**64 - 1], [-(2**63) - 1])
        return
    assert made == falkor_params._QUOTED_KEY.sub(r"\1:", json.dumps(value, separators=(",", ":")))


def test_a_batch_without_a_null_is_encoded_by_orjson_not_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """json.dumps took 8 ms of a 14 ms record batch and 76 ms of a 3 MB vector batch's text;
    orjson a tenth. Floats read the same either way (tests/test_falkordb_behaviour)."""
    rows = [["key", 1_700_000_000_000_000_000, [0.1, -3.9e-06, 1e-7], {"n": 1}, True]] * 3

    def refused(*_: Any, **__: Any) -> str:
        raise AssertionError("json.dumps")

    monkeypatch.setattr(falkor_params.json, "dumps", refused)
    row = '["key",1700000000000000000,[0.1,-3.9e-6,1e-7],{n:1},true]'
    assert literal(rows) == f"[{row},{row},{row}]"


async def test_a_nul_reaching_the_store_is_refused_before_it_is_sent(
    falkor: FalkorStore,
) -> None:
    org = new_org()
    await falkor.bootstrap(org)
    graph = falkor.org(org)
    with pytest.raises(UnrepresentableValue):
        await graph.subjects_by_keys(["team:a\x00b"])
    assert await graph.count_subjects(SubjectQuery(include_stubs=True)) == 0


def test_a_receipt_with_non_ascii_characters_is_simply_invalid() -> None:
    signer = ReceiptSigner(b"k" * 32)
    good = signer.issue("acme", "alice", "why?", "team:a")
    assert signer.verify(good, "acme", "alice", "why?") == "team:a"
    for forged in ("é" + good[1:], good.split(".")[0] + ".w6k", "\ud800.AA"):
        assert signer.verify(forged, "acme", "alice", "why?") is None


@pytest.mark.parametrize("body", [
    b"0", b"[1, 2]", b'"query"', b"null", b"\x00\x00\x00{", b'{"query": "{ a }\xff"}',
    b"[" * 100_000 + b"]" * 100_000, b"\xef\xbb\xbf{}",
], ids=["number", "list-of-numbers", "string", "null", "utf-32-guess", "invalid-utf8",
        "deep-nesting", "bom"])
async def test_bodies_that_are_not_json_objects_get_400(gateway: Gateway, body: bytes) -> None:
    org = new_org()
    token = await gateway.token(org)
    response = await gateway.client.post(
        gateway.url, content=body,
        headers={"Authorization": f"Bearer {token}", "content-type": "application/json"},
    )
    assert response.status_code == 400, response.text[:300]
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"


async def test_a_result_id_with_a_nul_or_surrogate_reads_as_unknown(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    for query in ("query($v: ID!) { investigation(id: $v) { id } }",
                  "query($v: ID!) { answerProjection(resultId: $v) { truncated } }"):
        for value in ("\x00", "abc\x00def", "\ud800", "a\nb"):
            body = json.dumps({"query": query, "variables": {"v": value}})  # ASCII escapes
            response = await gateway.client.post(gateway.url, content=body.encode(), headers={
                "Authorization": f"Bearer {token}", "content-type": "application/json"})
            assert response.status_code == 200 and "errors" not in response.json()


async def test_a_cursor_whose_json_escapes_a_nul_or_surrogate_is_invalid(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    assert (await load(gateway.store.org(org), [subject("repository:x")])).ok
    token = await gateway.token(org)

    def cursor(text: bytes) -> str:  # the JSON holds the escape, not the character
        return base64.urlsafe_b64encode(text).decode().rstrip("=")

    for query, value in (
        ("query($v: String) { subjects(after: $v) { totalCount } }", b'["","\\u0000"]'),
        ("query($v: String) { subjects(after: $v, orderBy: RECENTLY_ACTIVE) { totalCount } }",
         b'["0","\\ud800"]'),
        ('query($v: String) { subject(key: "repository:x") { relationships(after: $v) '
         "{ totalCount } } }", b'["repository:","","\\u0000"]'),
    ):
        response = await gateway.query(token, query, {"v": cursor(value)})
        errors = response.json()["errors"]
        assert [(e["extensions"]["code"], e["message"]) for e in errors] == [
            ("BAD_USER_INPUT", "invalid cursor")
        ], errors


async def test_an_unpaired_surrogate_in_text_arguments_is_refused_by_name(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    for query in ("query($v: String) { subjects(search: $v) { totalCount } }",
                  'mutation($v: String!) { investigate(input: {question: $v}) { result { id } } }'):
        body = json.dumps({"query": query, "variables": {"v": "why \ud800?"}})  # ASCII escapes
        response = await gateway.client.post(gateway.url, content=body.encode(), headers={
            "Authorization": f"Bearer {token}", "content-type": "application/json"})
        errors = response.json()["errors"]
        assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT"
        assert "surrogate" in errors[0]["message"]


async def test_a_time_cursor_beyond_64_bits_is_invalid(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    assert (await load(gateway.store.org(org), [subject("repository:x")])).ok
    token = await gateway.token(org)
    for query in ('query($v: String) { subject(key: "repository:x") { episodes(after: $v) '
                  "{ totalCount } } }",
                  "query($v: String) { investigations(after: $v) { edges { cursor } } }"):
        for ns in (str(2**63), str(2**64), str(-(2**63) - 1)):
            response = await gateway.query(token, query, {"v": encode_cursor(ns, "x:1")})
            errors = response.json()["errors"]
            assert [(e["extensions"]["code"], e["message"]) for e in errors] == [
                ("BAD_USER_INPUT", "invalid cursor")
            ], errors


@pytest.mark.parametrize("name", [{"a": 1}, 5, ["A"], True])
async def test_an_operation_name_that_is_not_a_string_is_a_bad_request(
    gateway: Gateway, name: Any
) -> None:
    token = await gateway.token(new_org())
    response = await gateway.client.post(
        gateway.url, json={"query": "query A { __typename }", "operationName": name},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"


async def test_an_error_echoing_an_unpaired_surrogate_is_still_json(gateway: Gateway) -> None:
    token = await gateway.token(new_org())
    body = json.dumps({"query": "query A { __typename }", "operationName": "\ud800"})
    response = await gateway.client.post(gateway.url, content=body.encode(), headers={
        "Authorization": f"Bearer {token}", "content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"


async def test_an_episode_mentioning_an_unknown_kind_is_an_invalid_line(
    gateway: Gateway,
) -> None:
    """It would have become a stub whose kind no read can model: every listing of the
    organisation then failed."""
    org = new_org()
    await gateway.store.bootstrap(org)
    report = await load(gateway.store.org(org), [
        subject("service:a"),
        {"type": "episode", "key": "episode:1", "occurred_at": "2026-01-01T00:00:00Z",
         "text": "t", "mentions": ["service:a", "srrvice:a"]},
    ])
    assert report.accepted == 1 and report.invalid_count == 1
    token = await gateway.token(org)
    listed = await gateway.query(token, "{ subjects(filter: {includeStubs: true}) { edges { "
                                        "node { key kind } } } }")
    assert listed.json() == {"data": {"subjects": {"edges": [
        {"node": {"key": "service:a", "kind": "SERVICE"}}]}}}


async def test_a_subject_key_with_a_surrogate_reads_as_unknown(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    token = await gateway.token(org)
    body = json.dumps({"query": "query($v: String) { subject(key: $v) { key } }",
                       "variables": {"v": "service:\ud800"}})
    response = await gateway.client.post(gateway.url, content=body.encode(), headers={
        "Authorization": f"Bearer {token}", "content-type": "application/json"})
    assert response.json() == {"data": {"subject": None}}
