"""Apollo Federation v2: the gateway as a subgraph. Composition with a second subgraph written
in Node (@apollo/subgraph) by @theguild/federation-composition runs here, so a schema change
that breaks composition fails the build; and a query crossing both subgraphs runs through
@graphql-hive/gateway against the live gateway, with the bearer token forwarded."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from resolvers.relay import to_global_id
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject
from tests.js_tools import JS_DIR, require_node, run_json, run_json_async
from tests.test_cli import free_port

ROOT = Path(__file__).resolve().parent.parent


def _compose(sdl: str) -> dict[str, Any]:
    return run_json("federation.mjs", "compose", stdin=sdl)


def test_the_checked_in_subgraph_composes_with_a_node_subgraph() -> None:
    composed = _compose((ROOT / "schema.federated.graphql").read_text())
    assert composed["errors"] == []
    supergraph = composed["supergraph"]
    assert 'join__graph(name: "fabric"' in supergraph
    assert '@join__type(graph: FABRIC, key: "key")' in supergraph
    assert '@join__type(graph: ONCALL, key: "key")' in supergraph


def test_composition_fails_on_a_change_that_breaks_the_supergraph() -> None:
    """The check can fail: `Subject.key` as an Int conflicts with the other subgraph."""
    sdl = (ROOT / "schema.federated.graphql").read_text()
    broken = sdl.replace('Stable key, e.g. `repository:payments-api`."""\n  key: String!',
                         'Stable key, e.g. `repository:payments-api`."""\n  key: Int!')
    assert broken != sdl
    assert _compose(broken)["errors"]


async def _org(gateway: Gateway) -> tuple[str, str]:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), [subject("repository:alpha"), subject("team:core")])
    return org, await gateway.token(org)


async def test_a_query_crossing_both_subgraphs_through_hive_gateway(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    queries = [
        {"query": '{ subject(key: "repository:alpha") { name kind oncall { handle escalation } } }'},
        {"query": "{ rotation { key name kind oncall { handle } } }"},
        {"query": '{ subject(key: "repository:alpha") { name } }', "anonymous": True},
    ]
    report = await run_json_async(
        "federation.mjs", "serve",
        env={"FABRIC_URL": gateway.url, "FABRIC_TOKEN": token, "FABRIC_QUERIES": json.dumps(queries)},
    )  # fmt: skip
    assert report["errors"] == []
    ours_then_theirs, theirs_then_ours, anonymous = report["results"]
    assert ours_then_theirs["body"] == {"data": {"subject": {
        "name": "alpha", "kind": "REPOSITORY",
        "oncall": {"handle": "@alpha-oncall", "escalation": ["primary", "secondary"]}}}}  # fmt: skip
    assert theirs_then_ours["body"] == {"data": {"rotation": [
        {"key": "repository:alpha", "name": "alpha", "kind": "REPOSITORY",
         "oncall": {"handle": "@alpha-oncall"}},
        {"key": "team:core", "name": "core", "kind": "TEAM", "oncall": None},
    ]}}  # fmt: skip
    # Without the client's token our subgraph answers nothing (401 to the router).
    assert anonymous["body"].get("data") in (None, {"subject": None})
    assert anonymous["body"]["errors"]
    assert set(report["seenByNodeSubgraph"]) == {f"Bearer {token}"}


async def test_entities_resolve_in_the_callers_organisation_only(gateway: Gateway) -> None:
    _, token = await _org(gateway)
    other = new_org()
    await gateway.store.bootstrap(other)
    await load(gateway.store.org(other), [subject("repository:secret")])
    query = """query($r: [_Any!]!) { _entities(representations: $r) {
      ... on Subject { key name } } }"""
    reps = [
        {"__typename": "Subject", "key": "repository:alpha"},
        {"__typename": "Subject", "id": to_global_id("Subject", "team:core")},
        {"__typename": "Subject", "key": "repository:secret"},
        {"__typename": "Subject", "id": "not-an-id"},
    ]
    answer = (await gateway.query(token, query, {"r": reps})).json()
    assert answer == {"data": {"_entities": [
        {"key": "repository:alpha", "name": "alpha"}, {"key": "team:core", "name": "core"},
        None, None]}}  # fmt: skip
    for bad in ([{"key": "repository:alpha"}], [{"__typename": "Episode", "key": "x"}], ["x"]):
        refused = (await gateway.query(token, query, {"r": bad})).json()
        assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", refused
    sdl = (await gateway.query(token, "{ _service { sdl } }")).json()["data"]["_service"]["sdl"]
    assert sdl + "\n" == (ROOT / "schema.federated.graphql").read_text()


def _documented_config() -> str:
    """The `gateway.config.mjs` docs/operations.md shows, as written there."""
    text = (ROOT / "docs" / "operations.md").read_text()
    start = text.index("```js\n// gateway.config.mjs\n") + len("```js\n")
    return text[start : text.index("```", start)]


def _cli_directory(path: Path, config: str, supergraph: str) -> Path:
    """A directory as a CLI user has it: the supergraph and gateway.config.mjs (Node finds
    the packages through node_modules)."""
    path.mkdir()
    (path / "gateway.config.mjs").write_text(config)
    (path / "supergraph.graphql").write_text(supergraph)
    (path / "node_modules").symlink_to(JS_DIR / "node_modules")
    return path


async def _hive_cli(directory: Path) -> tuple[Any, str]:
    """`hive-gateway supergraph` started in `directory` (its config file found there)."""
    require_node()
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        str(JS_DIR / "node_modules" / ".bin" / "hive-gateway"), "supergraph",
        "supergraph.graphql", "--port", str(port), "--host", "127.0.0.1", cwd=directory,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/graphql"
    async with httpx.AsyncClient() as client:
        for _ in range(1200):
            assert process.returncode is None, "hive-gateway exited"
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"http://127.0.0.1:{port}/healthcheck")).status_code == 200:
                    return process, url
            await asyncio.sleep(0.1)
    process.kill()
    pytest.fail("hive-gateway never answered its health check")


async def _first_event(url: str, token: str, write: Any) -> dict[str, Any]:
    """A subscription through Hive over SSE (its own client protocol); `write` is called
    until the first event arrives (the upstream WebSocket opens in its own time)."""
    query = '{"query": "subscription { subjectChanged { ... on SubjectChanged { key } } }"}'
    headers = {"authorization": f"Bearer {token}", "accept": "text/event-stream",
               "content-type": "application/json"}  # fmt: skip
    async with (
        httpx.AsyncClient(timeout=120) as client,
        client.stream("POST", url, content=query, headers=headers) as answer,
    ):
        writer = asyncio.create_task(write())
        try:
            async for line in answer.aiter_lines():
                if line.startswith("data:"):
                    event: dict[str, Any] = json.loads(line.removeprefix("data:"))
                    return event
        finally:
            writer.cancel()
    pytest.fail("the subscription ended without an event")


async def test_the_documented_hive_gateway_cli_config_forwards_the_bearer_and_subscribes(
    gateway: Gateway, tmp_path: Path
) -> None:
    """docs/operations.md's gateway.config.mjs, as written, under the real `hive-gateway`
    CLI: a query with the client's bearer, and a subscription, which without the WebSocket
    transport entry the gateway refuses (Hive asks for SSE: 406 NOT_ACCEPTABLE)."""
    org, token = await _org(gateway)
    sdl = (await gateway.query(token, "{ _service { sdl } }")).json()["data"]["_service"]["sdl"]
    composed = _compose(sdl)
    assert composed["errors"] == []
    supergraph = composed["supergraph"].replace("http://fabric.invalid/graphql", gateway.url)

    async def write() -> None:
        for n in range(600):
            await load(gateway.store.org(org), [subject(f"team:live-{n}")])
            await asyncio.sleep(0.1)

    for name, config in (("documented", _documented_config()),
                         ("without the transport entry", _without_transport_entry())):  # fmt: skip
        process, url = await _hive_cli(_cli_directory(tmp_path / name, config, supergraph))
        try:
            async with httpx.AsyncClient(timeout=60) as client:
                answer = await client.post(
                    url, json={"query": '{ subject(key: "repository:alpha") { name } }'},
                    headers={"authorization": f"Bearer {token}"},
                )  # fmt: skip
            assert answer.json() == {"data": {"subject": {"name": "alpha"}}}, answer.text
            event = await _first_event(url, token, write)
            if name == "documented":
                assert "errors" not in event, event
                assert event["data"]["subjectChanged"]["key"].startswith("team:live-"), event
            else:
                assert event["errors"][0]["extensions"]["code"] == "NOT_ACCEPTABLE", event
        finally:
            process.kill()
            await process.wait()


def _without_transport_entry() -> str:
    config = _documented_config()
    start = config.index("  transportEntries: {")
    return config[:start] + "});\n"
