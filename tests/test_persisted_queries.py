"""Automatic persisted queries (Apollo's protocol) and trusted documents, against the live
gateway with Apollo Client's persisted-queries link in Node."""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from graphql import parse

from engine.memory.changes import MemoryDocuments
from graph.embedded import EmbeddedServer
from graph.falkor import FalkorStore
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve
from tests.helpers import load, subject
from tests.js_tools import run_json_async

QUERY = "query Repos { subjects(filter: {kind: REPOSITORY}) { totalCount } }"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def _org(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), [subject("repository:alpha")])
    return org, await gateway.token(org)


async def _apollo(gateway: Gateway, token: str, query: str, *mode: str) -> dict[str, Any]:
    env = {"FABRIC_TOKEN": token, "FABRIC_QUERY": query}
    return await run_json_async("apollo-apq.mjs", gateway.url, *mode, env=env)


@pytest.mark.parametrize("mode", [(), ("get",)])
async def test_apollo_client_registers_once_and_a_second_client_sends_only_the_hash(
    gateway: Gateway, mode: tuple[str, ...]
) -> None:
    _, token = await _org(gateway)
    report = await _apollo(gateway, token, QUERY, *mode)
    first, second = report["first"], report["second"]
    assert first["data"] == second["data"] == {"subjects": {"totalCount": 1}}
    # First: the hash alone is unknown, then hash and text together register it.
    sent = first["exchanges"][1]["sentQuery"]
    digest = _sha(sent)
    assert parse(sent).to_dict() == parse(QUERY).to_dict()
    assert [(bool(e["sentQuery"]), e["hash"], e["codes"]) for e in first["exchanges"]] == [
        (False, digest, ["PERSISTED_QUERY_NOT_FOUND"]),
        (True, digest, []),
    ]
    # Second client, nothing cached on its side: the hash alone is enough now.
    assert [(e["sentQuery"], e["hash"], e["status"]) for e in second["exchanges"]] == [
        (None, digest, 200)
    ]
    if mode:
        assert second["exchanges"][0]["method"] == "GET"


async def test_persisted_queries_are_per_organisation(gateway: Gateway) -> None:
    _, token_a = await _org(gateway)
    _, token_b = await _org(gateway)
    text = "query Mine { subjects { totalCount } }"
    ext = {"persistedQuery": {"version": 1, "sha256Hash": _sha(text)}}
    registered = await gateway.client.post(
        gateway.url, json={"query": text, "extensions": ext},
        headers={"Authorization": f"Bearer {token_a}"},
    )
    assert registered.json() == {"data": {"subjects": {"totalCount": 1}}}
    for token, code in ((token_a, None), (token_b, "PERSISTED_QUERY_NOT_FOUND")):
        hashed = await gateway.client.post(
            gateway.url, json={"extensions": ext}, headers={"Authorization": f"Bearer {token}"}
        )
        errors = hashed.json().get("errors") or [{}]
        assert errors[0].get("extensions", {}).get("code") == code


async def test_refusals(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    auth = {"Authorization": f"Bearer {token}"}
    wrong = {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}}
    mismatch = await gateway.client.post(
        gateway.url, json={"query": QUERY, "extensions": wrong}, headers=auth
    )
    assert mismatch.status_code == 400
    assert mismatch.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    for bad in ({"version": 2, "sha256Hash": "0" * 64}, {"version": 1, "sha256Hash": "xyz"}, 7):
        refused = await gateway.client.post(
            gateway.url, json={"extensions": {"persistedQuery": bad}}, headers=auth
        )
        assert refused.status_code == 400, bad


async def _register(gateway: Gateway, token: str, text: str) -> dict[str, Any]:
    ext = {"persistedQuery": {"version": 1, "sha256Hash": _sha(text)}}
    response = await gateway.client.post(
        gateway.url, json={"query": text, "extensions": ext},
        headers={"Authorization": f"Bearer {token}"},
    )
    body: dict[str, Any] = response.json()
    return body


async def _by_hash(gateway: Gateway, token: str, text: str) -> dict[str, Any]:
    ext = {"persistedQuery": {"version": 1, "sha256Hash": _sha(text)}}
    response = await gateway.client.post(
        gateway.url, json={"extensions": ext}, headers={"Authorization": f"Bearer {token}"}
    )
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize(("text", "code"), [
    ("{ nosuchfield }", "GRAPHQL_VALIDATION_FAILED"),
    ("{ __typename " * 2, "GRAPHQL_PARSE_FAILED"),
    ("{ " + "__typename @include(if: true) " * 60 + "}", "QUERY_TOO_COMPLEX"),
    ("subscription { recordsIngested { __typename } }", "BAD_REQUEST"),
], ids=["unknown-field", "syntax-error", "directive-flood", "subscription-over-http"])  # fmt: skip
async def test_a_refused_document_is_not_persisted(gateway: Gateway, text: str, code: str) -> None:
    """Stored only once it parsed, validated and passed every limit: asked by its hash
    afterwards, it is unknown (it was stored before parsing, and answered its error)."""
    _, token = await _org(gateway)
    refused = await _register(gateway, token, text)
    assert refused["errors"][0]["extensions"]["code"] == code, refused
    again = await _by_hash(gateway, token, text)
    assert [e["extensions"]["code"] for e in again["errors"]] == ["PERSISTED_QUERY_NOT_FOUND"]


async def test_a_persisted_query_is_stored_minified(gateway: Gateway) -> None:
    """900 KB of spaces around `{ __typename }` are not kept: the printed form is."""
    org, token = await _org(gateway)
    text = "query Padded {" + " " * 900_000 + "__typename # a comment\n}"
    assert await _register(gateway, token, text) == {"data": {"__typename": "Query"}}
    assert await gateway.store.documents.get(org, _sha(text)) == "query Padded{__typename}"
    assert await _by_hash(gateway, token, text) == {"data": {"__typename": "Query"}}


@pytest.mark.parametrize("kind", ["falkordb", "memory"])
async def test_the_store_is_bounded_in_bytes_least_recently_used_first(
    falkor: FalkorStore, kind: str
) -> None:
    org = new_org()
    documents: Any = falkor.documents if kind == "falkordb" else MemoryDocuments()
    # 300 bytes each, 624 counted (with the entry): three fit in what is left of 2,400 once
    # the organisation's keys are counted (202 bytes for a 14-character id).
    budget, documents.budget = documents.budget, 2_400
    texts = {n: str(n) * 300 for n in range(1, 6)}
    try:
        for n in (1, 2, 3):
            await documents.put(org, _sha(texts[n]), texts[n])
        assert await documents.get(org, _sha(texts[1])) == texts[1]  # 1 is used: 2 goes next
        await documents.put(org, _sha(texts[4]), texts[4])
        kept = [n for n in texts if await documents.get(org, _sha(texts[n])) is not None]
        assert kept == [1, 3, 4]
        huge = "x" * 2_401  # more than the whole budget: never kept, and it takes the rest
        await documents.put(org, _sha(huge), huge)
        assert [n for n in texts if await documents.get(org, _sha(texts[n]))] == []
        assert await documents.get(org, _sha(huge)) is None
        # Replacing a document counts its new size only.
        for _ in range(5):
            await documents.put(org, _sha(texts[5]), texts[5])
        await documents.put(org, _sha(texts[1]), texts[1])
        assert await documents.get(org, _sha(texts[5])) == texts[5]
    finally:
        documents.budget = budget


async def test_the_store_is_bounded(falkor: FalkorStore) -> None:
    org = new_org()
    documents = falkor.documents
    limit, documents.limit = documents.limit, 3
    try:
        for n in range(5):
            await documents.put(org, _sha(str(n)), str(n))
        kept = [n for n in range(5) if await documents.get(org, _sha(str(n))) is not None]
        assert kept == [2, 3, 4]
    finally:
        documents.limit = limit


@pytest.fixture(scope="module")
async def trusted(falkor: FalkorStore) -> AsyncIterator[Gateway]:
    async for running in serve(falkor, trusted_documents=True):
        yield running


async def test_trusted_documents_run_only_what_was_registered(
    trusted: Gateway, falkor_server: EmbeddedServer, tmp_path: Path
) -> None:
    _, token = await _org(trusted)
    manifest = await run_json_async("apollo-apq.mjs", "manifest", env={"FABRIC_QUERY": QUERY})
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "other.graphql").write_text("query Listed {\n  subjects { totalCount }\n}\n")
    registered = subprocess.run(  # noqa: ASYNC221 - the CLI, as an operator runs it
        [sys.executable, "-m", "gateway.cli", "documents", "register",
         str(tmp_path / "manifest.json"), str(tmp_path / "other.graphql"),
         "--graph-uri", falkor_server.url],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert registered.returncode == 0, registered.stderr
    report = await _apollo(trusted, token, QUERY)
    assert report["first"]["data"] == {"subjects": {"totalCount": 1}}
    assert [e["sentQuery"] for e in report["first"]["exchanges"]] == [None]
    other = await _apollo(trusted, token, "query Other { subjects { totalCount } }")
    codes = [e["codes"] for e in other["first"]["exchanges"]]
    assert codes == [["PERSISTED_QUERY_NOT_FOUND"], ["DOCUMENT_NOT_TRUSTED"]]
    assert "data" not in other["first"]
    plain = await trusted.query(token, "{ subjects { totalCount } }")
    assert plain.status_code == 400
    assert plain.json()["errors"][0]["extensions"]["code"] == "DOCUMENT_NOT_TRUSTED"
    # A registered .graphql document runs as text too, however it is spaced.
    for text in ("query Listed {\n  subjects { totalCount }\n}\n", "query Listed{subjects{totalCount}}"):
        listed = await trusted.query(token, text)
        assert listed.json() == {"data": {"subjects": {"totalCount": 1}}}


async def test_trusted_documents_bind_subscriptions_too(
    trusted: Gateway, falkor_server: EmbeddedServer, tmp_path: Path
) -> None:
    from tests.test_subscriptions import _until_active

    org, token = await _org(trusted)
    live = "subscription Live { recordsIngested { __typename } }"
    (tmp_path / "live.graphql").write_text(live + "\n")
    registered = subprocess.run(  # noqa: ASYNC221 - the CLI, as an operator runs it
        [sys.executable, "-m", "gateway.cli", "documents", "register",
         str(tmp_path / "live.graphql"), "--graph-uri", falkor_server.url],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert registered.returncode == 0, registered.stderr
    plan = {"timeoutMs": 120_000, "clients": [{
        "url": trusted.url.replace("http://", "ws://"), "token": "$TOKEN", "subscriptions": [
            {"query": live, "take": 1},
            {"query": "subscription Other { subjectChanged { __typename } }"},
        ]}]}  # fmt: skip
    running = asyncio.create_task(
        run_json_async("subscribe.mjs", env={"TOKEN": token}, stdin=json.dumps(plan))
    )
    await _until_active({trusted.url: 1})
    await load(trusted.store.org(org), [subject("repository:beta")])
    report = await running
    registered_sub, other = report["clients"][0]["subscriptions"]
    assert [e["data"] for e in registered_sub["events"]] == [
        {"recordsIngested": {"__typename": "RecordsIngested"}}
    ]
    assert other["errors"] == ["Only registered documents run here."]


async def test_what_the_server_holds_for_the_documents_stays_within_the_budget(
    falkor: FalkorStore,
) -> None:
    """Documents of 100,032 bytes under a 1,000,000-byte budget: counted by their length, nine
    were kept and the server held 1.03 MB for them (each in a 114,688-byte allocation); counted
    as held, eight are, and MEMORY USAGE of the organisation's documents is within the budget."""
    org = new_org()
    documents = falkor.documents
    budget, documents.budget = documents.budget, 1_000_000
    texts = [f"query Q{n:03d}{{" + "x" * 100_022 + "}" for n in range(20)]
    try:
        for text in texts:
            await documents.put(org, _sha(text), text)
        kept = [t for t in texts if await documents.get(org, _sha(t)) is not None]
        assert kept == texts[-8:]
        assert await _held(documents, org) <= 1_000_000
    finally:
        documents.budget = budget


async def _held(documents: Any, org: str) -> int:
    """MEMORY USAGE (every element) of the organisation's document keys, its counters too."""
    client = documents._client
    names = [name async for name in client.scan_iter(match=f"fabric:apq*:{org}")]
    return sum([await client.memory_usage(name, samples=0) for name in names])


@pytest.mark.parametrize(("length", "budget"), [(20, 50_000), (300, 100_000), (2_000, 400_000)])
async def test_what_the_server_holds_for_many_small_documents_stays_within_the_budget(
    falkor: FalkorStore, length: int, budget: int
) -> None:
    """Each document costs the server more than its text: its hash as the hash's field and
    the sorted set's member, their entries, the skiplist node (about 300 bytes). Counted as
    the texts alone, 312 documents of 300 bytes were kept under 100,000 bytes and the server
    held 185,736 for them (455,264 for 20-byte ones under 50,000); counted with it, what it
    holds stays within the budget."""
    org = new_org()
    documents = falkor.documents
    saved, documents.budget = documents.budget, budget
    texts = [f"{{a{n}" + "x" * (length - 3 - len(str(n))) + "}" for n in range(budget // length + 16)]
    try:
        for text in texts:
            await documents.put(org, _sha(text), text)
        kept = [t for t in texts if await documents.get(org, _sha(t)) is not None]
        assert kept and kept == texts[-len(kept):]  # the least recently used went
        assert await _held(documents, org) <= budget
    finally:
        documents.budget = saved
